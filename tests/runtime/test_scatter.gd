extends "res://lib/case.gd"
## TerrainScatter: MultiMesh counts match the core placements, distance thinning, collision of
## static rocks, node-mode objects, remove_object, exclusions and following edits.

const RECIPE := '{"size": [128, 128], "resolution": [64, 64], "seed": 5, "chunk_cells": 16, "landforms": {"hills": {"base_height": 2, "height_variation": 6, "feature_size": 64, "octaves": 3}}, "default_landform": "hills", "palette": {"format_version": 3, "name": "Test", "placements": {"grass": {"model": "fixtures/scatter/grass.tres", "category": "grass", "density": 0.5, "collision": "none"}, "rock": {"prefab": "res://fixtures/scatter/rock.tscn", "category": "rock", "density": 0.01, "spacing": 8}, "beacon": {"prefab": "fixtures/scatter/beacon.tscn", "category": "prop", "density": 0.002, "spacing": 20, "collision": "none"}}}}'

const CENTRE := Vector3(64, 10, 64)


func _setup(settings: Dictionary = {}, radius := 1000.0) -> Array:
	var terrain := Terrain3D.new()
	terrain.name = "Field"
	terrain.recipe = RECIPE
	add_child(terrain)
	terrain.wait_for_generation()
	var scatter := TerrainScatter.new()
	scatter.build_radius = radius
	var all := {"beacon": {"mode": "node"}}
	all.merge(settings, true)
	scatter.rule_settings = all
	terrain.add_child(scatter)
	scatter.update_for_viewer(CENTRE, -1)
	return [terrain, scatter]


func _by_chunk(terrain: Terrain3D, scatter: TerrainScatter) -> Dictionary:
	var counts := {}
	for p in terrain.get_scatter_placements():
		var k := [scatter.get_chunk_of(p.position), p.rule]
		counts[k] = counts.get(k, 0) + 1
	return counts


func _first(terrain: Terrain3D, rule: String) -> Dictionary:
	for p in terrain.get_scatter_placements():
		if p.rule == rule:
			return p
	return {}


func test_scatter_multimesh_counts_match_core_placements() -> void:
	var s := _setup()
	var terrain: Terrain3D = s[0]
	var scatter: TerrainScatter = s[1]
	var counts := _by_chunk(terrain, scatter)
	var rules := {}
	for k in counts:
		rules[k[1]] = rules.get(k[1], 0) + counts[k]
		assert_eq(scatter.get_chunk_instance_count(k[0], k[1]), counts[k], "chunk %s rule %s" % k)
	assert_true(rules.get("grass", 0) > 2000, "grass placed: %s" % rules)
	assert_true(rules.get("rock", 0) > 20, "rocks placed: %s" % rules)
	assert_true(rules.get("beacon", 0) > 0, "beacons placed: %s" % rules)
	assert_eq(scatter.get_chunk_grid(), Vector2i(4, 4), "128 m in 32 m chunks")
	assert_eq(scatter.get_built_chunk_count(), 16, "every chunk within the radius is built")
	assert_eq(scatter.get_instance_counts().y, rules.grass + rules.rock + rules.beacon, "all placed")
	assert_eq(scatter.get_chunk_instance_count(Vector2i(9, 9), "grass"), -1, "outside the grid")


func test_scatter_build_radius_and_budget() -> void:
	var s := _setup({}, 20.0)
	var scatter: TerrainScatter = s[1]
	scatter.update_for_viewer(Vector3(5, 0, 5), 0)
	assert_eq(scatter.get_built_chunk_count(), 1, "one chunk within 20 m of a corner")
	scatter.build_radius = 40.0
	assert_eq(scatter.update_for_viewer(Vector3(5, 0, 5), 0), 1, "a zero budget builds one chunk a frame")
	assert_eq(scatter.get_built_chunk_count(), 2, "nearest first")
	scatter.update_for_viewer(Vector3(5, 0, 5), -1)
	assert_eq(scatter.get_built_chunk_count(), 4, "the rest of the radius")
	scatter.update_for_viewer(Vector3(123, 0, 123), -1)
	assert_eq(scatter.get_built_chunk_count(), 4, "chunks left behind are freed, the new corner's built")
	assert_eq(scatter.get_chunk_instance_count(Vector2i(0, 0), "grass"), -1, "the old corner is freed")


func test_scatter_thinning_lowers_visible_counts_with_distance() -> void:
	var s := _setup({"grass": {"full_density_distance": 10.0, "max_distance": 150.0, "density_floor": 0.2}})
	var scatter: TerrainScatter = s[1]
	scatter.update_for_viewer(Vector3(1, 3, 1), -1)
	var near := Vector2i(0, 0)
	var far := Vector2i(3, 3)
	var mid := Vector2i(2, 2)
	var n_near := scatter.get_chunk_instance_count(near, "grass")
	assert_eq(scatter.get_chunk_visible_count(near, "grass"), n_near, "full density in the viewer's chunk")
	var v_mid := scatter.get_chunk_visible_count(mid, "grass")
	var v_far := scatter.get_chunk_visible_count(far, "grass")
	assert_true(v_mid < scatter.get_chunk_instance_count(mid, "grass"), "thinned at mid distance: %d" % v_mid)
	assert_true(v_far < v_mid * scatter.get_chunk_instance_count(far, "grass") / float(scatter.get_chunk_instance_count(mid, "grass")), "thinner farther: %d vs %d" % [v_far, v_mid])
	assert_true(v_far > 0, "above the floor before max_distance")
	assert_eq(scatter.get_chunk_visible_count(far, "rock"), scatter.get_chunk_instance_count(far, "rock"), "rocks keep full density within 150 m by default")
	scatter.update_for_viewer(Vector3(-400, 3, -400), -1)
	assert_eq(scatter.get_chunk_visible_count(near, "grass"), 0, "nothing beyond max_distance")
	assert_eq(scatter.get_chunk_visible_count(near, "rock"), 0, "rocks too, beyond their 300 m default")


func _ray(terrain: Terrain3D, at: Vector3) -> Dictionary:
	var space := terrain.get_world_3d().direct_space_state
	var q := PhysicsRayQueryParameters3D.create(Vector3(at.x, 100, at.z), Vector3(at.x, -100, at.z))
	return space.intersect_ray(q)


func test_scatter_physics_ray_hits_a_static_rock() -> void:
	var s := _setup()
	var terrain: Terrain3D = s[0]
	var scatter: TerrainScatter = s[1]
	var rock := _first(terrain, "rock")
	assert_false(rock.is_empty(), "a rock is placed")
	await get_tree().physics_frame
	await get_tree().physics_frame
	var hit := _ray(terrain, rock.position)
	assert_eq(hit.get("collider"), scatter, "the rock's own sphere collides (collider is the scatter node)")
	assert_true(hit.get("position", Vector3.ZERO).y > rock.position.y + 0.3, "above the ground: %s vs %s" % [hit.get("position"), rock.position])
	assert_eq(scatter.get_collision_object_id(hit.get("rid", RID()), hit.get("shape", -1)), rock.key, "the hit names the placement")
	var grass := _first(terrain, "grass")
	var ground := _ray(terrain, grass.position + Vector3(0.01, 0, 0.01))
	assert_true(ground.get("collider") == terrain or ground.get("collider") == scatter, "grass has no collision: %s" % ground)
	assert_true(scatter.remove_object(rock.key), "removed")
	await get_tree().physics_frame
	await get_tree().physics_frame
	assert_eq(_ray(terrain, rock.position).get("collider"), terrain, "the removed rock no longer collides")


func test_scatter_remove_object_and_node_mode() -> void:
	var s := _setup()
	var terrain: Terrain3D = s[0]
	var scatter: TerrainScatter = s[1]
	var rock := _first(terrain, "rock")
	var chunk := scatter.get_chunk_of(rock.position)
	var before := scatter.get_chunk_instance_count(chunk, "rock")
	assert_true(scatter.remove_object(rock.key), "removed")
	assert_eq(scatter.get_chunk_instance_count(chunk, "rock"), before - 1, "one instance fewer")
	assert_false(scatter.remove_object(rock.key), "already removed")
	assert_false(scatter.remove_object("Field:Test:rock:99999:99999"), "an unknown key")
	var beacon := _first(terrain, "beacon")
	var node := scatter.get_object_node(beacon.key)
	assert_true(node != null, "node mode instantiates the scene")
	if node == null:
		return
	assert_eq(node.terrain_object_id, beacon.key, "terrain_object_id property")
	assert_eq(node.id_at_ready, beacon.key, "set before the object entered the tree")
	assert_eq(node.terrain_at_ready, terrain, "and the terrain")
	assert_eq(node.get_meta("terrain_object_id"), beacon.key, "and as meta")
	assert_true(node.owner == null, "unowned (never saved)")
	assert_true(node.global_position.distance_to(terrain.global_transform * beacon.position) < 0.001, "at its placement")
	assert_eq(scatter.get_object_node(rock.key), null, "MultiMesh rules have no node")
	assert_true(scatter.remove_object(beacon.key), "remove a node-mode object")
	assert_eq(scatter.get_object_node(beacon.key), null, "gone")
	assert_false(is_instance_valid(node), "freed")


func test_scatter_exclusions_hide_a_placement() -> void:
	var s := _setup()
	var terrain: Terrain3D = s[0]
	var scatter: TerrainScatter = s[1]
	var rock := _first(terrain, "rock")
	var chunk := scatter.get_chunk_of(rock.position)
	var before := scatter.get_chunk_instance_count(chunk, "rock")
	var rebuilt := scatter.get_build_counts().y
	terrain.scatter_exclusions = PackedStringArray([rock.key, rock.key])
	assert_eq(terrain.scatter_exclusions.size(), 1, "duplicates dropped")
	scatter.update_for_viewer(CENTRE, -1)
	assert_eq(scatter.get_chunk_instance_count(chunk, "rock"), before - 1, "the excluded rock is not drawn")
	assert_eq(scatter.get_build_counts().y - rebuilt, 1, "only its chunk was rebuilt")
	terrain.scatter_exclusions = PackedStringArray()
	scatter.update_for_viewer(CENTRE, -1)
	assert_eq(scatter.get_chunk_instance_count(chunk, "rock"), before, "back when the exclusion is cleared")


func test_scatter_follows_sculpting_in_touched_chunks_only() -> void:
	var s := _setup()
	var terrain: Terrain3D = s[0]
	var scatter: TerrainScatter = s[1]
	var rebuilt := scatter.get_build_counts().y
	var beacon := _first(terrain, "beacon")
	var node: Node3D = scatter.get_object_node(beacon.key)
	var at := Vector2(beacon.position.x, beacon.position.z)
	assert_true(terrain.apply_stroke({"type": "raise", "center": at, "radius": 6.0, "amount": 3.0, "falloff": 0.3}), "raise")
	scatter.update_for_viewer(CENTRE, -1)
	var changed := scatter.get_build_counts().y - rebuilt
	assert_true(changed >= 1 and changed <= 4, "only touched chunks rebuilt: %d" % changed)
	var moved := {}
	for p in terrain.get_scatter_placements():
		if p.key == beacon.key:
			moved = p
	if moved.is_empty():
		assert_eq(scatter.get_object_node(beacon.key), null, "refiltered away: no node")
	else:
		assert_true(moved.position.y > beacon.position.y + 1.0, "the placement snapped up: %s" % moved.position)
		assert_eq(scatter.get_object_node(beacon.key), node, "the same object, not re-created")
		assert_true(absf(node.global_position.y - (terrain.global_transform * moved.position).y) < 0.001, "moved to the new height")


func test_scatter_node_mode_objects_follow_the_moved_terrain() -> void:
	# The scatter node beside the terrain (not its child): moving the terrain must move the
	# node-mode objects with it, keeping each node and its script state.
	var terrain := Terrain3D.new()
	terrain.name = "Field"
	terrain.recipe = RECIPE
	add_child(terrain)
	terrain.wait_for_generation()
	var scatter := TerrainScatter.new()
	scatter.build_radius = 1000.0
	scatter.rule_settings = {"beacon": {"mode": "node"}}
	add_child(scatter)
	scatter.terrain_path = scatter.get_path_to(terrain)
	scatter.update_for_viewer(CENTRE, -1)
	var beacon := _first(terrain, "beacon")
	var node := scatter.get_object_node(beacon.key)
	assert_true(node != null, "node mode instantiates the scene")
	if node == null:
		return
	assert_true(node.global_position.distance_to(terrain.global_transform * beacon.position) < 0.001, "at its placement")
	node.set_meta("script_state", 7)
	terrain.global_transform = Transform3D(Basis(Vector3.UP, 0.5), Vector3(40, 3, -25))
	scatter.update_for_viewer(CENTRE, -1)
	assert_eq(scatter.get_object_node(beacon.key), node, "the same node")
	assert_eq(node.get_meta("script_state", 0), 7, "its state kept")
	var want: Vector3 = terrain.global_transform * beacon.position
	assert_true(node.global_position.distance_to(want) < 0.001, "moved with the terrain: %s, want %s" % [node.global_position, want])
	# Moving the scatter node itself does not move the objects off their placements.
	scatter.position = Vector3(5, 0, 5)
	scatter.update_for_viewer(CENTRE, -1)
	assert_true(node.global_position.distance_to(want) < 0.001, "still on the terrain: %s" % node.global_position)


func test_the_terrain_path_picker_offers_only_terrains() -> void:
	for p in ClassDB.class_get_property_list("TerrainScatter", true):
		if p["name"] == "terrain_path":
			assert_eq(p["hint"], PROPERTY_HINT_NODE_PATH_VALID_TYPES, "a node-path hint")
			assert_eq(p["hint_string"], "Terrain3D", "naming Terrain3D")
			return
	fail("no terrain_path property")

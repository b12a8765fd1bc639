extends "res://lib/case.gd"
## Hostile GDScript input: values that would make a naive converter recurse forever or overflow
## the stack are refused with `false` (and a located error), and the terrain keeps working.

const RECIPE := '{"size": [32, 32], "resolution": [16, 16], "seed": 3}'


func _terrain() -> Terrain3D:
	return recipe_terrain(RECIPE)


func _still_works(terrain: Terrain3D, what: String) -> void:
	var before := terrain.get_height(Vector3(10, 0, 10))
	assert_true(terrain.apply_stroke({"type": "raise", "center": [10, 10], "radius": 3.0, "amount": 1.0, "falloff": 1.0}), "a valid stroke still applies after %s" % what)
	assert_near(terrain.get_height(Vector3(10, 0, 10)), before + 1.0, 1e-4, "and changes the surface after %s" % what)


func test_a_self_containing_array_is_refused() -> void:
	var terrain := _terrain()
	var a := []
	a.append(a)
	assert_false(terrain.apply_stroke({"type": "raise", "points": a, "radius": 5.0}), "an Array that contains itself")
	assert_false(terrain.can_undo_stroke(), "nothing was recorded")
	a.clear()
	_still_works(terrain, "a self-containing Array")


func test_a_self_containing_dictionary_is_refused() -> void:
	var terrain := _terrain()
	var d := {"type": "raise", "center": [4, 4], "radius": 2.0}
	d["self"] = d
	assert_false(terrain.apply_stroke(d), "a Dictionary that contains itself")
	d.erase("self")
	_still_works(terrain, "a self-containing Dictionary")


func test_deeply_nested_arrays_are_refused() -> void:
	var terrain := _terrain()
	var deep := []
	for i in 15000:
		deep = [deep]
	assert_false(terrain.apply_stroke({"type": "raise", "points": deep, "radius": 5.0}), "15,000 nested Arrays")
	_still_works(terrain, "15,000 nested Arrays")


func test_shared_but_acyclic_values_are_accepted() -> void:
	var terrain := _terrain()
	var p := [12, 12]
	assert_true(terrain.apply_stroke({"type": "smooth", "points": [p, p, [14, 12]], "radius": 3.0}), "the same point Array used twice is not a cycle")


const NON_ASCII_SEED := '{"size": [32, 32], "resolution": [16, 16], "seed": "%s"}'


func _long_non_ascii() -> String:
	return "ä".repeat(200)


func test_a_recipe_that_makes_the_core_panic_is_refused() -> void:
	var asset := TerrainAsset.new()
	assert_true(asset.set_source_json(RECIPE), "a valid recipe first")
	var before := asset.get_source_json()
	assert_false(asset.set_source_json(NON_ASCII_SEED % _long_non_ascii()), "a long non-ASCII seed is refused, never accepted")
	assert_eq(asset.get_source_json(), before, "the previous document stays")


func test_a_generation_that_makes_the_core_panic_fails_and_keeps_the_surface() -> void:
	var terrain := _terrain()
	var before := terrain.get_height(Vector3(10, 0, 10))
	await get_tree().process_frame
	var finished: Array = []
	terrain.generation_finished.connect(func(ok: bool, msg: String) -> void: finished.append(ok))
	terrain.recipe = NON_ASCII_SEED % _long_non_ascii()
	assert_false(terrain.is_generating(), "nothing generates")
	assert_true(terrain.get_last_error() != "", "the failure is reported: %s" % terrain.get_last_error().left(120))
	await get_tree().process_frame
	assert_eq(finished, [false], "generation_finished reports the failure")
	assert_near(terrain.get_height(Vector3(10, 0, 10)), before, 0.0, "the previous surface stays")


func test_absurd_heights_give_unit_or_zero_normals() -> void:
	var terrain := _terrain()
	# Accepted or refused (stroke bounds), the terrain must answer every query sanely.
	terrain.apply_stroke({"type": "raise", "center": [10, 10], "radius": 4.0, "amount": 1e20, "falloff": 1.0})
	for i in 40:
		var p := Vector3(6.1 + i * 0.2, 0, 10.2)
		var n := terrain.get_normal(p)
		assert_true(n == Vector3.ZERO or absf(n.length() - 1.0) < 1e-4, "normal at %s is a unit vector or zero: %s" % [p, n])
		var hit := terrain.raycast(p + Vector3(0, 1e21, 0), Vector3.DOWN, 1e22)
		assert_true(hit.is_empty() or is_finite(hit.distance), "a ray answers a miss or a finite distance")


func test_ray_directions_of_any_magnitude_hit_alike() -> void:
	var terrain := _terrain()
	var from := Vector3(12, 80, 9)
	var unit_hit := terrain.raycast(from, Vector3.DOWN, 500.0)
	assert_false(unit_hit.is_empty(), "a unit direction hits")
	for d in [Vector3(0, -1e20, 0), Vector3(0, -1e-30, 0), Vector3(0, -3e38, 0)]:
		var hit := terrain.raycast(from, d, 500.0)
		assert_false(hit.is_empty(), "direction %s hits too" % d)
		if not hit.is_empty():
			assert_true(hit.position.is_equal_approx(unit_hit.position), "at the same point for %s" % d)


func test_a_terrain_scaled_to_zero_answers_failure_values() -> void:
	var terrain := _terrain()
	terrain.scale = Vector3(0, 1, 1)
	assert_true(is_nan(terrain.get_height(Vector3(0, 0, 10))), "no height through a zero scale")
	assert_eq(terrain.get_normal(Vector3(0, 0, 10)), Vector3.ZERO, "no normal")
	assert_true(terrain.raycast(Vector3(0, 50, 10), Vector3.DOWN, 100.0).is_empty(), "no hit")
	assert_true(TerrainWater.sample(Vector3(0, 0, 10)) == null, "no water")
	terrain.scale = Vector3.ONE
	assert_false(is_nan(terrain.get_height(Vector3(10, 0, 10))), "back to normal after the scale is restored")


## The inspector's Add Element (and `resize()`) puts null into typed object arrays: an empty
## slot is a value channel / a plain layer, never a conversion panic that loses the assignment.
func test_empty_slots_in_typed_resource_arrays_are_kept() -> void:
	var terrain := _terrain()
	var ids := TerrainUserChannel.new()
	ids.kind = TerrainUserChannel.KIND_ID
	var channels: Array[TerrainUserChannel] = [null, ids]
	terrain.user_channel_types = channels
	var read := terrain.user_channel_types
	assert_eq(read.size(), 2, "both slots kept")
	assert_true(read[0] == null and read[1] == ids, "the empty slot stays empty")
	assert_true(terrain.set_user_channel(1, Vector3(10, 0, 10), 4.0, 7.0), "channel 1 takes ids")
	assert_eq(terrain.get_user_channel(1, Vector3(10, 0, 10)), 7.0, "an id, not a 0–1 value")
	assert_true(terrain.set_user_channel(0, Vector3(10, 0, 10), 4.0, 0.5), "the empty slot is a value channel")
	assert_near(terrain.get_user_channel(0, Vector3(10, 0, 10)), 0.5, 0.01, "value written")
	channels.resize(4)
	terrain.user_channel_types = channels
	assert_eq(terrain.user_channel_types.size(), 4, "resize() nulls accepted")
	var set := TerrainMaterialSet.new()
	var layers: Array[TerrainTextureLayer] = [TerrainTextureLayer.new(), null]
	set.layers = layers
	set.ground = 1
	assert_eq(set.layers.size(), 2, "the set keeps its empty slot")
	terrain.material_set = set
	assert_true(terrain.material_set == set, "assigned")
	_still_works(terrain, "empty array slots")

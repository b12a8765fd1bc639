extends "res://lib/case.gd"
## Seed-004 foliage through TerrainScatter: MultiMesh counts per chunk equal the core's
## placement, set_foliage_density re-places only the touched chunks (and undo restores them),
## get_foliage_density, refused arguments that change nothing, channel_cutoff by user channel
## name, and protection blocking foliage.

const RECIPE := '{"size": [128, 128], "resolution": [64, 64], "seed": 5, "chunk_cells": 16, "landforms": {"hills": {"base_height": 2, "height_variation": 6, "feature_size": 64, "octaves": 3}}, "default_landform": "hills", "palette": {"format_version": 3, "name": "Test", "foliage": {"grass": {"model": "fixtures/scatter/grass.tres", "density": 1.5, "full_density_distance": 30, "max_distance": 400, "slope_max": 60}}}}'

const CENTRE := Vector3(64, 10, 64)

var _layers: Array[int] = []


func _setup() -> Array:
	var terrain := Terrain3D.new()
	terrain.name = "Meadow"
	terrain.recipe = RECIPE
	add_child(terrain)
	terrain.wait_for_generation()
	var scatter := TerrainScatter.new()
	scatter.build_radius = 1000.0
	terrain.add_child(scatter)
	scatter.update_for_viewer(CENTRE, -1)
	_layers = []
	terrain.terrain_changed.connect(func(l: int, _c: Rect2i, _k: Rect2i, _u: bool) -> void: _layers.append(l))
	return [terrain, scatter]


func _counts(scatter: TerrainScatter) -> Dictionary:
	var out := {}
	for z in 4:
		for x in 4:
			out[Vector2i(x, z)] = scatter.get_chunk_instance_count(Vector2i(x, z), "grass")
	return out


func test_foliage_multimesh_counts_per_chunk_equal_the_core() -> void:
	var s := _setup()
	var terrain: Terrain3D = s[0]
	var scatter: TerrainScatter = s[1]
	assert_eq(terrain.get_foliage_types(), PackedStringArray(["grass"]), "the palette's foliage types")
	var total := 0
	for z in 4:
		for x in 4:
			var core := terrain.get_foliage_instances("grass", Rect2(x * 32, z * 32, 32, 32)).size()
			total += core
			var drawn := scatter.get_chunk_instance_count(Vector2i(x, z), "grass")
			assert_eq(drawn, core if core > 0 else -1, "chunk %d,%d" % [x, z])
	# 1.5 per 1 m cell over 128 m × 128 m, less the steepest ground.
	assert_true(total > 20000 and total <= 24576 + 300, "grass placed: %d" % total)
	assert_eq(scatter.get_foliage_build_counts(), Vector3i(16, 16, 0), "every chunk built once")
	# Thinning draws fewer far away, the full count near.
	scatter.update_for_viewer(Vector3(1, 3, 1), -1)
	var near := scatter.get_chunk_instance_count(Vector2i(0, 0), "grass")
	assert_eq(scatter.get_chunk_visible_count(Vector2i(0, 0), "grass"), near, "full density near")
	assert_true(scatter.get_chunk_visible_count(Vector2i(3, 3), "grass") < scatter.get_chunk_instance_count(Vector2i(3, 3), "grass"), "thinned far away")
	# Instances stand on the ground.
	var first := terrain.get_foliage_instances("grass", Rect2(64, 64, 4, 4))
	assert_true(first.size() > 10, "a few instances in a 4 m square")
	for p in first:
		assert_near(p.y, terrain.get_height(terrain.to_global(p)) - 0.03, 0.01, "sunk 3 cm into the ground at %s" % p)


func test_set_foliage_density_lowers_counts_only_in_touched_chunks() -> void:
	var s := _setup()
	var terrain: Terrain3D = s[0]
	var scatter: TerrainScatter = s[1]
	var before := _counts(scatter)
	var at := terrain.to_global(Vector3(16, 0, 16))
	assert_eq(terrain.get_foliage_density("grass", at), 1.0, "unpainted: full density")
	assert_true(terrain.set_foliage_density("grass", at, 8.0, 0.0), "painted")
	assert_eq(_layers.size(), 1, "one terrain_changed")
	assert_true(_layers[0] & Terrain3D.LAYER_FOLIAGE != 0, "flagged as foliage: %d" % _layers[0])
	assert_eq(_layers[0] & Terrain3D.LAYER_HEIGHT, 0, "heights untouched")
	assert_eq(terrain.get_foliage_density("grass", at), 0.0, "cleared at the centre")
	assert_eq(terrain.get_foliage_density("grass", terrain.to_global(Vector3(100, 0, 100))), 1.0, "untouched elsewhere")
	scatter.update_for_viewer(CENTRE, -1)
	var after := _counts(scatter)
	assert_true(after[Vector2i(0, 0)] < before[Vector2i(0, 0)] - 100, "fewer in the painted chunk: %d → %d" % [before[Vector2i(0, 0)], after[Vector2i(0, 0)]])
	assert_eq(after[Vector2i(0, 0)], terrain.get_foliage_instances("grass", Rect2(0, 0, 32, 32)).size(), "still the core's count")
	for c in before:
		if c != Vector2i(0, 0):
			assert_eq(after[c], before[c], "chunk %s unchanged" % c)
	assert_eq(scatter.get_foliage_build_counts().z, 1, "only the touched chunk was placed again")
	# The brush is full strength over its inner half (4 m), soft outside; densities are read at
	# the 2 m samples nearest each cell.
	var ring := 0
	for p in terrain.get_foliage_instances("grass", Rect2(0, 0, 32, 32)):
		var d := Vector2(p.x, p.z).distance_to(Vector2(16, 16))
		assert_true(d > 2.5, "none left in the brush's core: %s" % p)
		if d < 8.0:
			ring += 1
	assert_true(ring < 0.75 * 1.5 * PI * (64 - 16), "thinned in the soft ring: %d" % ring)
	assert_eq(terrain.get_runtime_strokes().size(), 1, "saved as a runtime stroke")
	assert_eq(terrain.get_runtime_strokes()[0]["type"], "foliage_density", "a foliage_density stroke")
	assert_true(terrain.undo_stroke(), "undone")
	scatter.update_for_viewer(CENTRE, -1)
	assert_eq(_counts(scatter), before, "undo restores every chunk's count")
	assert_eq(terrain.get_foliage_density("grass", at), 1.0, "and the density")


func test_set_foliage_density_refuses_bad_arguments_and_changes_nothing() -> void:
	var s := _setup()
	var terrain: Terrain3D = s[0]
	var scatter: TerrainScatter = s[1]
	var before := _counts(scatter)
	var at := terrain.to_global(Vector3(16, 0, 16))
	assert_false(terrain.set_foliage_density("moss", at, 8.0, 0.0), "unknown type")
	assert_false(terrain.set_foliage_density("grass", at, 8.0, 1.5), "density above 1")
	assert_false(terrain.set_foliage_density("grass", at, 8.0, -0.1), "negative density")
	assert_false(terrain.set_foliage_density("grass", at, 8.0, NAN), "NaN density")
	assert_false(terrain.set_foliage_density("grass", at, -2.0, 0.0), "negative radius")
	assert_false(terrain.set_foliage_density("grass", at, INF, 0.0), "infinite radius")
	assert_false(terrain.set_foliage_density("grass", Vector3(NAN, 0, 0), 8.0, 0.0), "NaN centre")
	assert_eq(_layers.size(), 0, "no terrain_changed")
	assert_eq(terrain.get_runtime_strokes().size(), 0, "no stroke stored")
	assert_false(terrain.can_undo_stroke(), "nothing to undo")
	assert_true(is_nan(terrain.get_foliage_density("moss", at)), "unknown type reads NaN")
	scatter.update_for_viewer(CENTRE, -1)
	assert_eq(_counts(scatter), before, "counts unchanged")
	assert_eq(scatter.get_foliage_build_counts().z, 0, "nothing placed again")


## channel_cutoff through Terrain3D.user_channel_types: painting the named channel at or above
## the cutoff removes the grass under the brush only, in the core and in the drawn chunks.
func test_channel_cutoff_follows_the_named_user_channel() -> void:
	var terrain := Terrain3D.new()
	var cut := TerrainUserChannel.new()
	cut.channel_name = "cut"
	terrain.user_channel_types = [cut]
	terrain.recipe = RECIPE.replace('"slope_max": 60}', '"slope_max": 60, "channel_cutoff": {"channel": "cut", "value": 0.5}}')
	add_child(terrain)
	terrain.wait_for_generation()
	var scatter := TerrainScatter.new()
	scatter.build_radius = 1000.0
	terrain.add_child(scatter)
	scatter.update_for_viewer(CENTRE, -1)
	var square := Rect2(42, 42, 12, 12)
	var before := terrain.get_foliage_instances("grass", square).size()
	var far_before := terrain.get_foliage_instances("grass", Rect2(100, 100, 16, 16)).size()
	assert_true(before > 150, "grass before cutting: %d" % before)
	var drawn_before := scatter.get_chunk_instance_count(Vector2i(1, 1), "grass")
	# Below the cutoff: nothing changes.
	assert_true(terrain.set_user_channel(0, terrain.to_global(Vector3(48, 0, 48)), 10.0, 0.3), "painted 0.3")
	assert_eq(terrain.get_foliage_instances("grass", square).size(), before, "0.3 < 0.5 keeps the grass")
	# At the cutoff: the grass under the brush goes, elsewhere it stays.
	assert_true(terrain.set_user_channel(0, terrain.to_global(Vector3(48, 0, 48)), 10.0, 1.0), "painted 1.0")
	assert_eq(terrain.get_foliage_instances("grass", square).size(), 0, "cut under the brush")
	assert_eq(terrain.get_foliage_instances("grass", Rect2(100, 100, 16, 16)).size(), far_before, "untouched elsewhere")
	scatter.update_for_viewer(CENTRE, -1)
	var drawn_after := scatter.get_chunk_instance_count(Vector2i(1, 1), "grass")
	assert_true(drawn_after < drawn_before - 150, "the drawn chunk lost the cut grass: %d → %d" % [drawn_before, drawn_after])
	assert_eq(drawn_after, terrain.get_foliage_instances("grass", Rect2(32, 32, 32, 32)).size(), "the chunk draws the core's count")
	terrain.queue_free()


## A protect stroke blocks foliage like exclusion paint (incremental and after regeneration).
func test_protection_blocks_foliage() -> void:
	var s := _setup()
	var terrain: Terrain3D = s[0]
	var scatter: TerrainScatter = s[1]
	var square := Rect2(84, 84, 8, 8)
	assert_true(terrain.get_foliage_instances("grass", square).size() > 30, "grass before")
	assert_true(terrain.apply_stroke({"type": "protect", "center": [88, 88], "radius": 9.0, "falloff": 1.0}), "protect")
	assert_eq(terrain.get_foliage_instances("grass", square).size(), 0, "no grass where protected")
	assert_true(terrain.get_foliage_instances("grass", Rect2(10, 10, 8, 8)).size() > 30, "grass elsewhere")
	var drawn := scatter.get_chunk_instance_count(Vector2i(2, 2), "grass")
	scatter.update_for_viewer(CENTRE, -1)
	assert_true(scatter.get_chunk_instance_count(Vector2i(2, 2), "grass") < drawn, "the drawn chunk follows")
	terrain.generate()
	terrain.wait_for_generation()
	assert_eq(terrain.get_foliage_instances("grass", square).size(), 0, "and after regeneration")
	terrain.queue_free()

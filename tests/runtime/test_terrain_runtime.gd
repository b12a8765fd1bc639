extends "res://lib/case.gd"
## Terrain3D at runtime: asset loading, background generation, queries, physics, transforms.

const Util = preload("res://runtime/terrain_util.gd")


func test_asset_loads_as_terrain_asset() -> void:
	var asset: Resource = load("res://fixtures/small.terrain.json")
	assert_true(asset is TerrainAsset, "the loader recognises *.terrain.json")
	assert_eq(asset.get_asset_id(), "asset://terrain/test-small", "asset id")
	assert_true(asset.get_source_json().contains("\"chunk_cells\": 16"), "canonical source")


func test_broken_asset_fails_to_load_with_located_errors() -> void:
	# Godot falls back to its own JSON loader for a `.json` file our loader refuses, so the
	# result is never a TerrainAsset (the located errors are printed).
	var asset: Resource = ResourceLoader.load("res://fixtures/broken.terrain.json")
	assert_false(asset is TerrainAsset, "an invalid document does not load as a TerrainAsset")


func test_generation_signals_arrive_in_order() -> void:
	var terrain := Terrain3D.new()
	var events: Array = []
	terrain.generation_progress.connect(func(f: float, stage: String) -> void: events.append(["progress", f, stage]))
	terrain.generation_finished.connect(func(ok: bool, msg: String) -> void: events.append(["finished", ok, msg]))
	terrain.asset = load("res://fixtures/small.terrain.json")
	add_child(terrain)
	assert_true(terrain.is_generating(), "generation starts when the terrain enters the tree")
	var result: Array = await terrain.generation_finished
	# Leave the signal emission before the runner frees the terrain.
	await get_tree().process_frame
	assert_true(result[0], "generation succeeded: %s" % [result])
	assert_false(terrain.is_generating(), "no longer generating")
	assert_true(events.size() >= 2, "progress then finished")
	assert_eq(events[-1][0], "finished", "finished comes last")
	for e in events.slice(0, events.size() - 1):
		assert_eq(e[0], "progress", "only progress before finished")
	assert_eq(terrain.get_size(), Vector2(128, 96), "size")
	assert_true(terrain.get_chunk_count() == 4 * 3, "every chunk shown")
	assert_eq(terrain.get_child_count(), 0, "chunks are not nodes in the tree")


func test_get_height_matches_the_grid_at_random_points() -> void:
	var terrain := Util.make_terrain(self)
	var rng := RandomNumberGenerator.new()
	rng.seed = 11
	for i in 200:
		var p := Vector3(rng.randf_range(0.0, 128.0), 50.0, rng.randf_range(0.0, 96.0))
		var expected := Util.reference_height(terrain, p.x, p.z)
		assert_near(terrain.get_height(p), expected, 1e-3, "height at %s" % p)
	assert_true(is_nan(terrain.get_height(Vector3(-1, 0, 5))), "NAN outside")
	var pts := PackedVector3Array([Vector3(10, 0, 10), Vector3(200, 0, 10), Vector3(64.5, 3, 40.25)])
	var batch := terrain.get_heights(pts)
	assert_near(batch[0], terrain.get_height(pts[0]), 1e-6, "batch equals single")
	assert_true(is_nan(batch[1]), "batch NAN outside")
	assert_near(batch[2], terrain.get_height(pts[2]), 1e-6, "batch equals single")


func test_physics_ray_hits_the_surface_everywhere() -> void:
	var terrain := Util.make_terrain(self)
	# Let the physics server register the new bodies.
	await get_tree().physics_frame
	await get_tree().physics_frame
	var space := terrain.get_world_3d().direct_space_state
	var rng := RandomNumberGenerator.new()
	rng.seed = 12
	var misses := 0
	for i in 200:
		var x := rng.randf_range(0.5, 127.5)
		var z := rng.randf_range(0.5, 95.5)
		var query := PhysicsRayQueryParameters3D.create(Vector3(x, 200, z), Vector3(x, -200, z))
		var hit := space.intersect_ray(query)
		if hit.is_empty():
			misses += 1
			continue
		assert_near(hit.position.y, terrain.get_height(Vector3(x, 0, z)), 0.01, "physics vs get_height at (%f, %f)" % [x, z])
		assert_eq(hit.collider_id, terrain.get_instance_id(), "the collider is the terrain")
	assert_eq(misses, 0, "every downward ray hits the terrain")
	print("  physics engine: %s" % ProjectSettings.get_setting("physics/3d/physics_engine"))


func test_raycast_agrees_with_get_height() -> void:
	var terrain := Util.make_terrain(self)
	var rng := RandomNumberGenerator.new()
	rng.seed = 13
	for i in 100:
		var from := Vector3(rng.randf_range(0, 128), 80, rng.randf_range(0, 96))
		var dir := Vector3(rng.randf_range(-0.5, 0.5), -1, rng.randf_range(-0.5, 0.5))
		var hit := terrain.raycast(from, dir, 500.0)
		if hit.is_empty():
			continue
		assert_near(hit.position.y, terrain.get_height(hit.position), 1e-3, "hit lies on the surface")
		assert_near(hit.distance, from.distance_to(hit.position), 1e-3, "distance")
		assert_true(hit.normal.dot(dir) <= 0.0, "normal faces the ray")
	assert_true(terrain.raycast(Vector3(10, 80, 10), Vector3.UP, 100).is_empty(), "a ray pointing away misses")


func test_queries_follow_a_rotated_scaled_translated_terrain() -> void:
	var terrain := Util.make_terrain(self)
	var local_point := Vector3(40.3, 0, 27.9)
	var local_h := terrain.get_height(local_point)
	terrain.transform = Transform3D(Basis(Vector3.UP, deg_to_rad(30.0)).scaled(Vector3(2, 1.5, 2)), Vector3(100, -5, 40))
	var world := terrain.global_transform * Vector3(local_point.x, 0, local_point.z)
	var expected := local_h * 1.5 - 5.0
	assert_near(terrain.get_height(world + Vector3(0, 77, 0)), expected, 1e-3, "height honours rotation, scale and translation")
	var hit := terrain.raycast(world + Vector3(0, 300, 0), Vector3.DOWN, 1000.0)
	assert_false(hit.is_empty(), "ray hits the moved terrain")
	assert_near(hit.position.y, expected, 1e-3, "ray hit height")
	var n := terrain.get_normal(world)
	assert_near(n.length(), 1.0, 1e-4, "unit normal")
	assert_true(n.y > 0.0, "normal points up")


func test_invalid_lod_error_pixels_is_rejected() -> void:
	var terrain := Terrain3D.new()
	assert_near(terrain.lod_error_pixels, 2.0, 0.0, "default 2")
	terrain.lod_error_pixels = -1.0
	assert_near(terrain.lod_error_pixels, 2.0, 0.0, "negative rejected")
	terrain.lod_error_pixels = INF
	assert_near(terrain.lod_error_pixels, 2.0, 0.0, "infinite rejected")
	terrain.lod_error_pixels = 0.0
	assert_near(terrain.lod_error_pixels, 0.0, 0.0, "0 (LOD off) accepted")
	terrain.free()


func test_asset_and_recipe_together_are_rejected() -> void:
	var terrain := Util.make_terrain(self)
	var before := terrain.get_height(Vector3(20, 0, 20))
	terrain.recipe = '{"size": [10, 10], "resolution": [4, 4]}'
	assert_false(terrain.is_generating(), "no generation starts")
	assert_true(terrain.get_last_error().contains("not both"), "clear error: %s" % terrain.get_last_error())
	assert_near(terrain.get_height(Vector3(20, 0, 20)), before, 0.0, "the previous surface stays")


func test_invalid_inline_recipe_keeps_the_previous_surface() -> void:
	var terrain := Terrain3D.new()
	terrain.recipe = '{"size": [32, 32], "resolution": [16, 16], "seed": 1}'
	add_child(terrain)
	terrain.wait_for_generation()
	var before := terrain.get_height(Vector3(10, 0, 10))
	assert_false(is_nan(before), "inline recipe generated")
	terrain.recipe = '{"size": [32, 32], "resolution": [16, 16], "landforms": {"a": {"octaves": 99}}, "default_landform": "a"}'
	assert_true(terrain.get_last_error().contains("octaves: must be 1..=16"), "located error: %s" % terrain.get_last_error())
	assert_near(terrain.get_height(Vector3(10, 0, 10)), before, 0.0, "the previous surface stays")


func test_cancel_keeps_the_old_surface() -> void:
	var terrain := Util.make_terrain(self)
	var before := terrain.get_height(Vector3(30, 0, 30))
	await get_tree().process_frame
	var finished: Array = []
	terrain.generation_finished.connect(func(ok: bool, msg: String) -> void: finished.append([ok, msg]))
	var big := '{"size": [2048, 2048], "resolution": [2048, 2048], "seed": 9, "landforms": {"m": {"octaves": 12, "warp_amplitude": 50}}, "default_landform": "m"}'
	terrain.asset = null
	terrain.recipe = big
	assert_true(terrain.is_generating(), "a big generation runs")
	terrain.cancel_generation()
	for i in 600:
		if not terrain.is_generating() and not finished.is_empty():
			break
		await get_tree().process_frame
	await get_tree().process_frame
	assert_false(finished.is_empty(), "a finished signal arrived")
	var last: Array = finished[-1]
	assert_false(last[0], "cancelled generation reports failure: %s" % [finished])
	assert_true(String(last[1]).contains("cancel"), "message says cancelled: %s" % [finished])
	assert_near(terrain.get_height(Vector3(30, 0, 30)), before, 0.0, "the old surface stays")


func test_nothing_generated_is_saved_into_the_scene() -> void:
	var terrain := Util.make_terrain(self)
	terrain.owner = null
	var packed := PackedScene.new()
	var root := Node3D.new()
	add_child(root)
	var t2 := Terrain3D.new()
	t2.asset = terrain.asset
	root.add_child(t2)
	t2.owner = root
	t2.wait_for_generation()
	assert_eq(packed.pack(root), OK, "packs")
	var path := "user://terrain_scene_test.tscn"
	assert_eq(ResourceSaver.save(packed, path), OK, "saves")
	var text := FileAccess.get_file_as_string(path)
	assert_true(text.contains("small.terrain.json"), "the scene references the asset")
	assert_false(text.contains("ArrayMesh") or text.contains("HeightMapShape3D") or text.contains("PackedVector3Array"), "no generated data in the scene")
	assert_true(text.length() < 2000, "scene stays small (%d bytes)" % text.length())
	DirAccess.remove_absolute(ProjectSettings.globalize_path(path))


func test_development_cache_reuses_a_warm_generation() -> void:
	# The test runner points RIDGELINE_CACHE_DIR at a fresh directory outside the project.
	var cache_root := OS.get_environment("RIDGELINE_CACHE_DIR")
	assert_true(cache_root != "", "the runner isolates the cache")
	var recipe := '{"size": [64, 64], "resolution": [32, 32], "seed": %d}' % (1000 + randi() % 100000)
	var origins: Array = []
	var heights: Array = []
	for use_cache in [true, true, false]:
		var terrain := Terrain3D.new()
		terrain.use_generation_cache = use_cache
		terrain.recipe = recipe
		terrain.generation_finished.connect(func(ok: bool, msg: String) -> void: origins.append(msg))
		add_child(terrain)
		terrain.wait_for_generation()
		await get_tree().process_frame
		heights.append(terrain.get_height(Vector3(20, 0, 20)))
		terrain.queue_free()
	assert_eq(origins, ["generated", "development cache", "generated"], "cold, warm, disabled")
	assert_eq(heights[1], heights[0], "the warm load gives the same surface")
	assert_eq(heights[2], heights[0], "so does a fresh generation")
	var files := DirAccess.get_files_at(cache_root.path_join("terrain"))
	assert_true(files.size() >= 1 and files[0].ends_with(".terrain.bin"), "entries live in the cache dir: %s" % [files])
	assert_false(DirAccess.dir_exists_absolute(ProjectSettings.globalize_path("res://").path_join("terrain")), "nothing is written into the project")


func test_a_recipe_round_tripped_through_gdscript_json_generates_the_same_terrain() -> void:
	# JSON.parse_string reads every number as a float and JSON.stringify writes it back as
	# `5.0`: a recipe loaded, changed and saved from GDScript must stay valid and mean the same.
	var text := JSON.stringify({"size": [64, 64], "resolution": [32, 32], "seed": 5, "chunk_cells": 16,
		"graph": {"format_version": 1, "output": "out", "nodes": [
			{"id": "hills", "type": "noise_terrain", "position": [0, 0], "params": {"octaves": 4, "height_variation": 20, "feature_size": 40, "seed_offset": 2}},
			{"id": "out", "type": "terrain_output", "position": [300, 0], "inputs": {"heightfield": "hills"}}]}})
	var round_tripped := JSON.stringify(JSON.parse_string(text))
	assert_true(round_tripped.contains("\"seed\":5.0") and round_tripped.contains("\"octaves\":4.0"), "GDScript writes whole numbers as floats: %s" % round_tripped)
	var a := recipe_terrain(text)
	var b := recipe_terrain(round_tripped)
	assert_eq(b.get_last_error(), "", "the round-tripped recipe is accepted")
	for p in [Vector3(3, 0, 5), Vector3(31.5, 0, 17.25), Vector3(60, 0, 60)]:
		assert_eq(b.get_height(p), a.get_height(p), "the same terrain at %s" % p)
	# A fraction where a whole number belongs is still refused, with its location.
	var c := recipe_terrain(round_tripped.replace("\"octaves\":4.0", "\"octaves\":4.5"))
	assert_true(c.get_last_error().contains("octaves: must be a whole number, got 4.5"), "located error: %s" % c.get_last_error())

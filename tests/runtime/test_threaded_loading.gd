extends "res://lib/case.gd"
## Terrain assets load on Godot's loader threads (ResourceLoader.load_threaded_request), many at
## once, recipes and cooked payloads alike, with the same result as a load on the main thread.
## So do material sets and texture layers saved as `.tres`, which Godot itself constructs on the
## loader thread. (Built without gdext's `experimental-threads`, these loads fail — gdext refuses
## engine calls off the main thread — and the `.tres` case aborts the whole process, because
## Godot constructs the extension's Resource classes there. That is why the extension keeps the
## feature; see vendor/godot-cell/RIDGELINE.md for how calls stay cheap with it.)

const SOURCES := ["res://fixtures/small.terrain.json", "res://fixtures/lakes.terrain.json", "res://fixtures/generated/small.terrain.bin"]
const COPIES := 6


func _copies() -> Array:
	var paths: Array = []
	for src in SOURCES:
		var bytes := FileAccess.get_file_as_bytes(src)
		for i in COPIES:
			var ext := ".terrain.bin" if src.ends_with(".bin") else ".terrain.json"
			var path := "user://threaded_%s_%d%s" % [src.get_file().get_basename().get_basename(), i, ext]
			var f := FileAccess.open(path, FileAccess.WRITE)
			f.store_buffer(bytes)
			f.close()
			paths.append([src, path])
	return paths


func _wait_all(paths: Array) -> Dictionary:
	var status := {}
	for i in 1200:
		var pending := 0
		for pair in paths:
			var s := ResourceLoader.load_threaded_get_status(pair[1])
			status[pair[1]] = s
			if s == ResourceLoader.THREAD_LOAD_IN_PROGRESS:
				pending += 1
		if pending == 0:
			break
		await get_tree().process_frame
	return status


func test_many_assets_load_on_loader_threads_at_once() -> void:
	var paths := _copies()
	for pair in paths:
		assert_eq(ResourceLoader.load_threaded_request(pair[1], "", true, ResourceLoader.CACHE_MODE_IGNORE), OK, "requested %s" % pair[1])
	var status := await _wait_all(paths)
	var cooked: Resource = null
	for pair in paths:
		assert_eq(status[pair[1]], ResourceLoader.THREAD_LOAD_LOADED, "%s loaded on a loader thread" % pair[1])
		var threaded: Resource = ResourceLoader.load_threaded_get(pair[1])
		var direct: Resource = ResourceLoader.load(pair[0], "", ResourceLoader.CACHE_MODE_IGNORE)
		assert_true(threaded is TerrainAsset, "%s is a TerrainAsset" % pair[1])
		if threaded is TerrainAsset:
			if threaded.is_cooked():
				cooked = threaded
			assert_eq(threaded.is_cooked(), direct.is_cooked(), "cooked or not, as on the main thread")
			assert_eq(threaded.get_source_json(), direct.get_source_json(), "the same document as on the main thread")
	# A threaded asset shows like any other.
	var terrain := Terrain3D.new()
	assert_true(cooked != null, "cooked payloads were among them")
	terrain.asset = cooked
	add_child(terrain)
	assert_true(terrain.wait_for_generation(), "a cooked payload loaded on a thread shows")
	assert_eq(terrain.get_chunk_count(), 12, "with its chunks")
	for pair in paths:
		DirAccess.remove_absolute(ProjectSettings.globalize_path(pair[1]))


func test_a_broken_asset_fails_on_a_loader_thread() -> void:
	var path := "user://threaded_broken.terrain.json"
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_string('{"size": [10, 10], "resolution": [4, 4], "landforms": {"a": {"octaves": 99}}, "default_landform": "a"}')
	f.close()
	assert_eq(ResourceLoader.load_threaded_request(path, "", true, ResourceLoader.CACHE_MODE_IGNORE), OK, "requested")
	var status := await _wait_all([[path, path]])
	assert_true(status[path] != ResourceLoader.THREAD_LOAD_IN_PROGRESS, "the load ends")
	# As on the main thread, Godot falls back to its own JSON loader for a `.json` file ours
	# refuses (after printing the located errors): never a TerrainAsset.
	var res: Resource = ResourceLoader.load_threaded_get(path) if status[path] == ResourceLoader.THREAD_LOAD_LOADED else null
	assert_false(res is TerrainAsset, "an invalid document does not load as a TerrainAsset on a loader thread")
	DirAccess.remove_absolute(ProjectSettings.globalize_path(path))


func test_material_set_resources_load_on_loader_threads() -> void:
	var paths: Array = []
	for i in 4:
		var layer := TerrainTextureLayer.new()
		layer.name = "layer_%d" % i
		var set := TerrainMaterialSet.new()
		set.layers = [layer]
		set.rock = 0
		var path := "user://threaded_set_%d.tres" % i
		assert_eq(ResourceSaver.save(set, path), OK, "saved %s" % path)
		paths.append([path, path])
	for pair in paths:
		assert_eq(ResourceLoader.load_threaded_request(pair[1], "", true, ResourceLoader.CACHE_MODE_IGNORE), OK, "requested %s" % pair[1])
	var status := await _wait_all(paths)
	for i in paths.size():
		var path: String = paths[i][1]
		assert_eq(status[path], ResourceLoader.THREAD_LOAD_LOADED, "%s loaded on a loader thread" % path)
		var set: Resource = ResourceLoader.load_threaded_get(path)
		assert_true(set is TerrainMaterialSet, "%s is a TerrainMaterialSet" % path)
		if set is TerrainMaterialSet:
			assert_eq(set.layers.size(), 1, "with its layer")
			if set.layers.size() == 1:
				assert_eq(set.layers[0].name, "layer_%d" % i, "the layer's fields as saved")
		DirAccess.remove_absolute(ProjectSettings.globalize_path(path))

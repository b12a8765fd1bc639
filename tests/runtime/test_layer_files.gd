extends "res://lib/case.gd"
## export_layers / import_layers: seed-004 PNG layer files written and read back as one undo
## step; export → import → export is byte-identical; a bad file changes nothing.

const RECIPE := '{"size": [64, 48], "resolution": [64, 48], "seed": 5, "chunk_cells": 16, "landforms": {"hills": {"base_height": 2, "height_variation": 12, "feature_size": 32, "octaves": 3}}, "default_landform": "hills"}'
const NAMES := ["heightmap.png", "surface.png", "splat-0.png", "splat-1.png", "splat-2.png", "user.png", "water.png", "foliage-0.png", "foliage-1.png", "layers.json"]


func _terrain() -> Terrain3D:
	return recipe_terrain(RECIPE)


func _fresh_dir(name: String) -> String:
	var dir := "user://layer_files_test/" + name
	DirAccess.make_dir_recursive_absolute(dir)
	for f in DirAccess.get_files_at(dir):
		DirAccess.remove_absolute(dir + "/" + f)
	return dir


func _bytes(dir: String) -> Array:
	var out := []
	for n in NAMES:
		out.append(FileAccess.get_file_as_bytes(dir + "/" + n))
	return out


func _all(terrain: Terrain3D) -> PackedFloat32Array:
	return terrain.get_height_rect(Rect2i(0, 0, 65, 49))


func _edit(terrain: Terrain3D) -> void:
	assert_true(terrain.apply_stroke({"type": "raise", "center": [20, 20], "radius": 6.0, "amount": 3.0}), "raise")
	assert_true(terrain.apply_stroke({"type": "paint_water", "center": [40, 30], "radius": 5.0, "depth": 2.0}), "water")
	assert_true(terrain.apply_stroke({"type": "user_channel", "channel": 1, "value": 0.5, "center": [10, 10], "radius": 4.0}), "user channel")
	assert_true(terrain.apply_stroke({"type": "paint_surface", "surface": "rock", "center": [50, 12], "radius": 5.0}), "surface")


func test_export_then_import_is_byte_identical_and_one_undo_step() -> void:
	var src := _terrain()
	_edit(src)
	var dir := _fresh_dir("round_trip")
	var written := src.export_layers(dir)
	assert_eq(written.size(), NAMES.size(), "every file written the first time: %s" % [written])
	assert_eq(src.export_layers(dir).size(), 0, "unchanged layers are not written again")
	var first := _bytes(dir)
	var dst := _terrain()
	var h0 := _all(dst)
	var events: Array = []
	dst.terrain_changed.connect(func(l: int, c: Rect2i, k: Rect2i, u: bool) -> void: events.append(l))
	assert_true(dst.import_layers(dir), "import")
	assert_eq(events.size(), 1, "one terrain_changed for the whole import")
	assert_near(dst.get_height(Vector3(20, 0, 20)), src.get_height(Vector3(20, 0, 20)), 0.01, "heights follow the files")
	assert_near(dst.get_water_depth(Vector3(40, 0, 30)), src.get_water_depth(Vector3(40, 0, 30)), 0.05, "painted water follows")
	assert_near(dst.get_user_channel(1, Vector3(10, 0, 10)), 0.5, 0.01, "user channel follows")
	assert_eq(dst.export_layers(dir).size(), 0, "the imported terrain exports the same bytes")
	assert_eq(_bytes(dir), first, "byte-identical files")
	assert_true(dst.undo_stroke(), "undo")
	assert_eq(_all(dst), h0, "one undo reverts the whole import")
	assert_false(dst.can_undo_stroke(), "the import was one step")
	src.queue_free()
	dst.queue_free()


func test_a_bad_file_is_refused_and_changes_nothing() -> void:
	var src := _terrain()
	_edit(src)
	var dir := _fresh_dir("bad")
	src.export_layers(dir)
	var f := FileAccess.open(dir + "/water.png", FileAccess.WRITE)
	f.store_buffer("not a png".to_utf8_buffer())
	f.close()
	var dst := _terrain()
	var h0 := _all(dst)
	assert_false(dst.import_layers(dir), "a corrupt water.png is refused")
	assert_eq(_all(dst), h0, "nothing changed")
	assert_false(dst.can_undo_stroke(), "nothing recorded")
	assert_false(dst.import_layers("user://layer_files_test/no_such_folder"), "a folder without layer files is refused")
	src.queue_free()
	dst.queue_free()


func test_layer_selections_other_than_bit_sums_are_refused() -> void:
	var terrain := _terrain()
	var dir := _fresh_dir("bits")
	# 64 is no layer; 65 is the heightmap bit plus an unknown one; only -1 means every layer.
	for layers in [0, 64, 65, -2, 1 << 40]:
		assert_eq(terrain.export_layers(dir, layers), PackedStringArray(), "layers %d is refused" % layers)
	assert_false(FileAccess.file_exists(dir + "/layers.json"), "nothing written")
	assert_eq(terrain.export_layers(dir, 1 | 2).size(), 3, "heightmap, surface and the manifest")
	terrain.queue_free()


func test_folders_outside_the_project_are_refused() -> void:
	var terrain := _terrain()
	var before := _all(terrain)
	for dir in ["", "   ", "res://a/../../outside", "user://../escape", "res://layers\u0007", "user://x/../../y"]:
		assert_eq(terrain.export_layers(dir), PackedStringArray(), "export into %s is refused" % dir.c_escape())
		assert_false(terrain.import_layers(dir), "import from %s is refused" % dir.c_escape())
	for d in ["res://", "res://..", "user://.."]:
		assert_false(FileAccess.file_exists(d.path_join("layers.json")), "nothing written in %s" % d)
	assert_eq(_all(terrain), before, "the terrain is unchanged")
	# `..` inside the root is fine.
	var ok := _fresh_dir("inside") + "/sub/.."
	assert_true(terrain.export_layers(ok).size() > 0, "export into %s writes" % ok)

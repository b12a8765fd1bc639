@tool
extends "res://lib/editor_case.gd"
## The dock's Export layers… / Import layers… on `layers.tscn` (flat at height 10): an import
## of exported layer files is one Ctrl+Z, Ctrl+Y brings it back, and a bad folder changes
## nothing.

const DIR := "user://layer_files_editor"


func _fresh_dir() -> void:
	DirAccess.make_dir_recursive_absolute(DIR)
	for f in DirAccess.get_files_at(DIR):
		DirAccess.remove_absolute(DIR + "/" + f)


func _max_diff(a: PackedFloat32Array, b: PackedFloat32Array) -> float:
	var m := 0.0
	for i in a.size():
		m = maxf(m, absf(a[i] - b[i]))
	return m


func test_dock_import_is_one_undo_step() -> void:
	var t := await select_terrain("res://scenes/layers.tscn")
	var plugin := ridgeline()
	await frames(2)
	var base := EditorInterface.get_base_control()
	assert_eq(base.find_children("ExportLayers", "Button", true, false).size(), 1, "the dock has Export layers…")
	assert_eq(base.find_children("ImportLayers", "Button", true, false).size(), 1, "the dock has Import layers…")
	var flat := heights(t)
	_fresh_dir()
	# Layers of a raised terrain, exported, then the raise undone outside the editor history.
	assert_true(t.call("apply_stroke", {"type": "raise", "center": [64, 64], "radius": 20.0, "amount": 4.0}), "raise")
	var raised := heights(t)
	assert_true(_max_diff(raised, flat) > 1.0, "the raise moved the ground")
	assert_true(int(plugin.call("export_layer_files", DIR)) > 0, "export wrote files: " + String(plugin.call("get_message")))
	assert_true(t.call("undo_stroke"), "undo the raise")
	assert_true(heights(t) == flat, "flat again")
	# Import through the plugin's dock action: one editor undo step.
	assert_true(plugin.call("import_layer_files", DIR), "import: " + String(plugin.call("get_message")))
	await frames(2)
	assert_true(_max_diff(heights(t), raised) < 0.01, "the import restores the raise (16-bit steps)")
	var imported := heights(t)
	await undo()
	assert_true(heights(t) == flat, "Ctrl+Z reverts the whole import")
	await redo()
	assert_true(heights(t) == imported, "Ctrl+Y applies it again")
	await undo()
	# A corrupt file: refused with a message, nothing changes.
	var f := FileAccess.open(DIR + "/heightmap.png", FileAccess.WRITE)
	f.store_buffer("broken".to_utf8_buffer())
	f.close()
	assert_true(not plugin.call("import_layer_files", DIR), "a corrupt heightmap.png is refused")
	assert_true(String(plugin.call("get_message")).contains("heightmap.png"), "the dock names the file: " + String(plugin.call("get_message")))
	assert_true(heights(t) == flat, "nothing changed")

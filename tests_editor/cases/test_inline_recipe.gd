@tool
extends "res://lib/editor_case.gd"
## A terrain with an inline `recipe` (no asset, `inline.tscn`: flat at height 5, 64 m) is edited
## like an asset-backed one: strokes, layer edits, undo and redo write into the node's `recipe`
## property, and saving the scene keeps them.

var t: Node3D
var plugin: EditorPlugin


func _setup() -> void:
	t = await select_terrain("res://scenes/inline.tscn", 60.0)
	plugin = ridgeline()
	plugin.call("set_tool", "raise")
	plugin.call("set_brush", {"size": 8.0, "strength": 0.5, "falloff": 0.5, "spacing": 0.25, "slope_min": 0.0, "slope_max": 90.0})


func _strokes(kind: String) -> int:
	var doc: Variant = JSON.parse_string(String(t.get("recipe")))
	if typeof(doc) != TYPE_DICTIONARY:
		return -1
	return (doc as Dictionary).get(kind, []).size()


func _layer_ids() -> PackedStringArray:
	var out := PackedStringArray()
	for l in t.call("get_layers"):
		out.append(l["id"])
	return out


func test_a_strokes_undo_and_redo_write_the_inline_recipe() -> void:
	await _setup()
	var before := heights(t, 32)
	var text_before := String(t.get("recipe"))
	await drag(line(screen_of(at(t, 20, 32)), screen_of(at(t, 44, 32)), 8))
	await frames(2)
	var after := heights(t, 32)
	assert_true(after != before, "the drag raised the inline terrain")
	assert_true(not String(plugin.call("get_message")).contains("Read-only"), "no read-only refusal: %s" % plugin.call("get_message"))
	assert_eq(_strokes("edits"), 1, "the stroke is in the node's recipe property")
	assert_true(String(t.get("recipe")).contains("\"raise\""), "as a raise stroke")
	var status: Array = EditorInterface.get_base_control().find_children("Status", "Label", true, false)
	var said := ""
	for l in status:
		said += String((l as Label).text)
	assert_true(said.contains("inline recipe"), "the dock says the inline recipe is edited: %s" % said)
	await undo()
	assert_true(heights(t, 32) == before, "Ctrl+Z restores the heights exactly")
	assert_eq(_strokes("edits"), 0, "and removes the stroke from the recipe")
	assert_true(String(t.get("recipe")) != text_before or _strokes("edits") == 0, "recipe still parses")
	await redo()
	assert_true(heights(t, 32) == after, "Ctrl+Y re-applies it exactly")
	assert_eq(_strokes("edits"), 1, "and writes it back")


func test_b_layer_edits_write_the_inline_recipe() -> void:
	await _setup()
	var id: String = plugin.call("add_layer", 2, "Ridges")  # LayerKind.SCULPT
	assert_true(id != "", "a sculpt layer was added: %s" % plugin.call("get_message"))
	await frames(2)
	assert_true(String(t.get("recipe")).contains("Ridges"), "the new layer is in the inline recipe")
	assert_true(_layer_ids().has(id), "and in get_layers")
	await undo()
	assert_true(not String(t.get("recipe")).contains("Ridges"), "Ctrl+Z removes it from the recipe")


func test_z_saving_the_scene_keeps_the_strokes() -> void:
	await _setup()
	var edited := heights(t, 32)
	assert_eq(_strokes("edits"), 1, "the redone stroke of the first test is there")
	EditorInterface.save_scene()
	await frames(2)
	var text := FileAccess.get_file_as_string("res://scenes/inline.tscn")
	assert_true(text.contains("raise"), "the saved scene's recipe holds the stroke")
	var packed: PackedScene = ResourceLoader.load("res://scenes/inline.tscn", "", ResourceLoader.CACHE_MODE_IGNORE)
	var root := packed.instantiate()
	add_child(root)
	var t2: Node3D = root.get_node("Terrain3D")
	t2.call("wait_for_generation")
	var reloaded := heights(t2, 32)
	var worst := 0.0
	for i in edited.size():
		worst = maxf(worst, absf(edited[i] - reloaded[i]))
	assert_true(worst < 1e-4, "the saved scene regenerates the edited surface (max diff %s)" % worst)
	root.queue_free()
	await frames(1)

@tool
extends "res://lib/editor_case.gd"
## The dock's Layers panel on `layers.tscn` (flat at height 10, 128 m): rows for the recipe's
## layers, add / rename / toggle / remove as one Ctrl+Z each, the target marker steering where
## a brush stroke goes, and refusals that change nothing.

var t: Node3D
var plugin: EditorPlugin


func _setup() -> void:
	t = await select_terrain("res://scenes/layers.tscn")
	plugin = ridgeline()
	plugin.call("set_tool", "raise")
	plugin.call("set_brush", {"size": 12.0, "strength": 1.0, "falloff": 0.5, "spacing": 0.25, "slope_min": 0.0, "slope_max": 90.0})


func _panel() -> Control:
	var found := EditorInterface.get_base_control().find_children("Layers", "VBoxContainer", true, false)
	return found[0] if found.size() == 1 else null


func _row(id: String) -> Control:
	var p := _panel()
	return p.find_child("Layer_" + id, true, false) if p else null


func _ids() -> PackedStringArray:
	var out := PackedStringArray()
	for l in t.call("get_layers"):
		out.append(l["id"])
	return out


func _layer(id: String) -> Dictionary:
	for l in t.call("get_layers"):
		if l["id"] == id:
			return l
	return {}


func _click(world: Vector3) -> void:
	var p := screen_of(world)
	motion(p, Vector2.ZERO, 0)
	button(p, MOUSE_BUTTON_LEFT, true)
	button(p, MOUSE_BUTTON_LEFT, false)
	await frames(2)


func test_rows_show_the_recipe_layers_with_a_target_marker() -> void:
	await _setup()
	await frames(2)
	assert_true(_panel() != null, "the dock has a Layers panel")
	for id in ["generation", "biomes", "sculpt", "protection", "exclusions"]:
		assert_true(_row(id) != null, "a row for " + id)
	var sculpt := _row("sculpt")
	if sculpt == null:
		return
	assert_true((sculpt.get_node("Enabled") as CheckBox).button_pressed, "sculpt is enabled")
	assert_true((sculpt.get_node("Target") as Button).button_pressed, "Raise paints into the first sculpt layer")
	assert_true((_row("exclusions").get_node("Target") as Button).disabled, "Raise cannot paint into exclusions")
	assert_eq(plugin.call("get_target_layer"), "sculpt", "the target layer")
	assert_true(_row("sculpt").get_node_or_null("Remove") == null, "default layers have no remove button")
	plugin.call("set_tool", "exclude")
	await frames(1)
	assert_eq(plugin.call("get_target_layer"), "exclusions", "Exclude paints into exclusions")
	assert_true((_row("exclusions").get_node("Target") as Button).button_pressed, "the marker moves with the tool")


func test_add_target_paint_toggle_rename_remove_each_undo() -> void:
	await _setup()
	var flat := heights(t)
	var layers_before := _ids()
	# Add through the dock's own controls.
	var name_edit: LineEdit = _panel().find_child("AddLayerName", true, false)
	var kind: OptionButton = _panel().find_child("AddLayerKind", true, false)
	kind.select(0)  # Sculpt
	name_edit.text = "Mounds"
	(_panel().find_child("AddLayer", true, false) as Button).pressed.emit()
	await frames(2)
	assert_true("mounds" in _ids(), "Add created layer `mounds`: %s" % [_ids()])
	assert_true(_row("mounds") != null, "and a row for it")
	assert_eq(name_edit.text, "", "the name field is cleared")
	# Target it with its marker and paint: the stroke goes into the new layer.
	(_row("mounds").get_node("Target") as Button).pressed.emit()
	await frames(1)
	assert_eq(plugin.call("get_target_layer"), "mounds", "the marker chose mounds")
	await _click(at(t, 64, 64))
	var raised := heights(t)
	assert_true(raised != flat, "the stroke raised the ground")
	assert_eq(_layer("mounds")["strokes"], 1, "the stroke is in mounds")
	assert_eq(_layer("sculpt")["strokes"], 0, "not in sculpt")
	await frames(2)
	assert_eq((_row("mounds").get_node("Strokes") as Label).text, "1", "the row counts it")
	# Toggle off through the row's checkbox: the mound goes, the stroke stays.
	(_row("mounds").get_node("Enabled") as CheckBox).toggled.emit(false)
	await frames(2)
	assert_true(heights(t) == flat, "disabling the layer removes its effect")
	assert_eq(_layer("mounds")["enabled"], false, "disabled")
	# A disabled target refuses strokes with a message.
	await _click(at(t, 30, 30))
	assert_true(heights(t) == flat, "no stroke into a disabled layer")
	assert_true(String(plugin.call("get_message")).contains("disabled"), "the dock says why: " + String(plugin.call("get_message")))
	await undo()
	assert_true(heights(t) == raised, "Ctrl+Z re-enables the layer")
	# Rename through the row's field.
	var field: LineEdit = _row("mounds").get_node("Name")
	field.text = "Hills"
	field.text_submitted.emit("Hills")
	await frames(2)
	assert_eq(_layer("mounds")["name"], "Hills", "renamed, same id")
	await undo()
	assert_eq(_layer("mounds")["name"], "Mounds", "Ctrl+Z restores the name")
	await redo()
	assert_eq(_layer("mounds")["name"], "Hills", "Ctrl+Y renames again")
	# Removal is refused while the layer holds a stroke: nothing changes.
	(_row("mounds").get_node("Remove") as Button).pressed.emit()
	await frames(2)
	assert_true("mounds" in _ids(), "a layer with strokes stays")
	assert_true(String(plugin.call("get_message")).contains("not removed"), "and the dock says why")
	# Undo rename and stroke, then remove the empty layer and undo the removal.
	await undo()
	await undo()
	assert_true(heights(t) == flat, "the stroke is undone")
	assert_eq(_layer("mounds")["strokes"], 0, "mounds is empty")
	assert_true(plugin.call("remove_layer", "mounds"), "an empty user layer is removed")
	await frames(2)
	assert_true(not ("mounds" in _ids()), "gone")
	assert_true(_row("mounds") == null, "and its row")
	assert_eq(plugin.call("get_target_layer"), "sculpt", "the target falls back to the first sculpt layer")
	await undo()
	await frames(2)
	assert_true("mounds" in _ids(), "Ctrl+Z brings it back")
	await undo()
	await frames(2)
	assert_eq(_ids(), layers_before, "Ctrl+Z removes the added layer: the layers are as before")
	assert_true(heights(t) == flat, "and the surface is as before")


func test_bad_layer_edits_change_nothing() -> void:
	await _setup()
	var layers: Array = t.call("get_layers")
	assert_eq(plugin.call("add_layer", 2, ""), "", "an empty name is refused")
	assert_eq(plugin.call("add_layer", 0, "Base 2"), "", "a second generation layer is refused")
	assert_eq(plugin.call("add_layer", 2, "sculpt"), "", "a taken name is refused")
	assert_true(not plugin.call("rename_layer", "nope", "X"), "an unknown layer cannot be renamed")
	assert_true(not plugin.call("remove_layer", "sculpt"), "a default layer cannot be removed")
	assert_true(not plugin.call("set_target_layer", "exclusions"), "Raise cannot target exclusions")
	assert_eq(t.call("get_layers"), layers, "nothing changed")
	assert_true(String(plugin.call("get_message")).length() > 0, "the dock says why")
	# A refused rename typed into a row shows the layer's name again, not the refused text.
	await frames(2)
	var field: LineEdit = _row("sculpt").get_node("Name")
	var name_before := field.text
	field.text = ""
	field.text_submitted.emit("")
	await frames(2)
	assert_eq(t.call("get_layers"), layers, "an empty name is refused")
	var shown: LineEdit = _row("sculpt").get_node("Name")
	assert_eq(shown.text, name_before, "the row shows the name again")

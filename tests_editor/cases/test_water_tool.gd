@tool
extends "res://lib/editor_case.gd"
## The dock's **Water** tool (L) on `foliage.tscn` (flat 64 m inline recipe): Ctrl+click picks
## the water level, a drag paints a `paint_water` stroke whose level mode fills flat and full
## (the bed lowered by the depth under the level), Shift+drag removes the water, and Ctrl+Z /
## Ctrl+Y step through the strokes exactly.

var t: Node3D
var plugin: EditorPlugin


func _setup() -> void:
	t = await select_terrain("res://scenes/foliage.tscn", 60.0)
	plugin = ridgeline()


func _water_strokes() -> int:
	var doc: Variant = JSON.parse_string(String(t.get("recipe")))
	if typeof(doc) != TYPE_DICTIONARY:
		return -1
	var n := 0
	for s in (doc as Dictionary).get("edits", []):
		if s is Dictionary and s.get("type", "") == "paint_water":
			n += 1
	return n


func _depth(x: float, z: float) -> float:
	return t.call("get_water_depth", t.global_position + Vector3(x, 0.0, z))


## The dock's **Level surface** check box.
func _level_box() -> CheckBox:
	var found := EditorInterface.get_base_control().find_children("WaterLevel", "CheckBox", true, false)
	return found[0] if not found.is_empty() else null


## Whether the dock's brush row labelled `text` is shown.
func _row_shown(text: String) -> bool:
	for l in _level_box().get_parent().find_children("*", "Label", false, false):
		if (l as Label).text == text:
			return (l as Label).is_visible_in_tree()
	return false


func test_water_tool_paints_a_level_pond_shift_removes_and_undo_steps_back() -> void:
	await _setup()
	plugin.call("set_tool", "raise")
	await key(KEY_L)
	assert_eq(plugin.call("get_tool"), "water", "L selects Water")
	assert_eq(plugin.call("get_brush")["water_level"], 1.0, "level mode is on by default")
	# The dock shows the rows the tool reads: the level as a check box, no slope limits.
	var level_box := _level_box()
	assert_true(level_box != null and level_box.is_visible_in_tree() and level_box.button_pressed, "Level surface is a checked box")
	level_box.toggled.emit(false)
	assert_eq(plugin.call("get_brush")["water_level"], 0.0, "unchecking turns level mode off")
	level_box.toggled.emit(true)
	assert_eq(plugin.call("get_brush")["water_level"], 1.0, "and on again")
	assert_true(not _row_shown("Slope min (°)"), "water reads no slope limits")
	assert_true(_row_shown("Water depth (m)"), "but the depth")
	plugin.call("set_tool", "raise")
	await frames(1)
	assert_true(not (_row_shown("Water depth (m)") or level_box.is_visible_in_tree()), "Raise hides the water rows")
	assert_true(_row_shown("Slope min (°)"), "and shows the slope limits")
	await key(KEY_L)
	var centre := at(t, 32, 32)
	var from := screen_of(at(t, 26, 32))
	var to := screen_of(at(t, 38, 32))
	# Ctrl+click picks the level from the surface under the cursor.
	plugin.call("set_brush", {"target_height": -50.0})
	motion(screen_of(centre), Vector2.ZERO, 0)
	button(screen_of(centre), MOUSE_BUTTON_LEFT, true, false, true)
	button(screen_of(centre), MOUSE_BUTTON_LEFT, false, false, true)
	await frames(2)
	var h0: float = centre.y - t.global_position.y
	var picked: float = plugin.call("get_brush")["target_height"]
	assert_true(absf(picked - h0) < 0.05, "Ctrl+click picked the level %s (surface %s)" % [picked, h0])
	assert_eq(_water_strokes(), 0, "picking paints nothing")
	var level := h0 + 1.0
	plugin.call("set_brush", {"size": 12.0, "strength": 1.0, "falloff": 1.0, "spacing": 0.25, "water_depth": 2.0, "target_height": level})
	var before := heights(t, 16)

	await drag(line(from, to, 6))
	assert_eq(_water_strokes(), 1, "one paint_water stroke in the recipe: %s" % plugin.call("get_message"))
	assert_true(absf(_depth(32, 32) - 2.0) < 1e-3, "2 m of water under the drag: %s" % _depth(32, 32))
	var bed: float = t.call("get_height", t.global_position + Vector3(32, 0, 32)) - t.global_position.y
	assert_true(absf(bed - (level - 2.0)) < 1e-3, "the bed lies 2 m under the level: %s" % bed)
	var s: WaterSample = TerrainWater.sample(t.global_position + Vector3(32, 0, 32))
	assert_true(s != null and s.kind == WaterSample.KIND_PAINTED, "TerrainWater.sample finds painted water")
	assert_eq(_depth(4, 4), 0.0, "dry far away")
	var painted := heights(t, 16)

	await drag(line(from, to, 6), true)
	assert_eq(_water_strokes(), 2, "Shift+drag is a second stroke")
	assert_eq(_depth(32, 32), 0.0, "Shift removes the water")

	await undo()
	assert_true(absf(_depth(32, 32) - 2.0) < 1e-3, "Ctrl+Z undoes the removal")
	assert_true(heights(t, 16) == painted, "with the painted bed")
	await undo()
	assert_eq(_depth(32, 32), 0.0, "Ctrl+Z again: dry")
	assert_true(heights(t, 16) == before, "heights exactly as before")
	assert_eq(_water_strokes(), 0, "no water strokes left")
	await redo()
	assert_true(absf(_depth(32, 32) - 2.0) < 1e-3, "Ctrl+Y paints again")
	assert_true(heights(t, 16) == painted, "the same bed")
	await undo()

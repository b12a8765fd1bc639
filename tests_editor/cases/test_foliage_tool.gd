@tool
extends "res://lib/editor_case.gd"
## The dock's **Foliage** tool (G) on `foliage.tscn` (flat 64 m inline recipe, palette foliage
## types `grass` and `clover`): the type choice, a drag paints the brush's density into the
## chosen type only, Shift restores full density, Ctrl+Z / Ctrl+Y step through it, and the
## strokes are written into the node's `recipe` as `foliage_paint` strokes.

var t: Node3D
var plugin: EditorPlugin


func _setup() -> void:
	t = await select_terrain("res://scenes/foliage.tscn", 60.0)
	plugin = ridgeline()


func _painted() -> int:
	var doc: Variant = JSON.parse_string(String(t.get("recipe")))
	if typeof(doc) != TYPE_DICTIONARY:
		return -1
	return (doc as Dictionary).get("foliage_paint", []).size()


func _density(type: String, x: float, z: float) -> float:
	return t.call("get_foliage_density", type, at(t, x, z))


func _count(type: String) -> int:
	return (t.call("get_foliage_instances", type, Rect2(24, 24, 16, 16)) as PackedVector3Array).size()


func test_a_g_selects_the_tool_and_the_dock_lists_the_palette_types() -> void:
	await _setup()
	plugin.call("set_tool", "raise")
	await key(KEY_G)
	assert_eq(plugin.call("get_tool"), "foliage_paint", "G selects Foliage")
	var options: Array = EditorInterface.get_base_control().find_children("FoliageType", "OptionButton", true, false)
	assert_eq(options.size(), 1, "the dock has the foliage type choice")
	if options.size() == 1:
		var o: OptionButton = options[0]
		assert_true(o.is_visible_in_tree(), "shown for the Foliage tool")
		assert_eq(o.item_count, 2, "both palette types listed")
		assert_eq(o.get_item_text(0), "clover", "in palette order (ids sorted)")
		assert_eq(o.get_item_text(1), "grass", "in palette order (ids sorted)")
		o.item_selected.emit(0)
		assert_eq(plugin.call("get_foliage_type"), "clover", "choosing in the dock sets the type")
		assert_true(not plugin.call("set_foliage_type", "fern"), "an unknown type is refused")
		assert_eq(plugin.call("get_foliage_type"), "clover", "and the choice stays")
	assert_true(plugin.call("set_foliage_type", "grass"), "grass is a palette type")
	assert_eq(plugin.call("get_foliage_type"), "grass", "chosen")


func test_b_drag_paints_density_shift_restores_and_undo_steps_back() -> void:
	await _setup()
	plugin.call("set_tool", "foliage_paint")
	plugin.call("set_foliage_type", "grass")
	plugin.call("set_brush", {"size": 10.0, "strength": 1.0, "falloff": 1.0, "spacing": 0.25, "density": 0.0})
	assert_eq(plugin.call("get_brush")["density"], 0.0, "the brush carries the density")
	var heights_before := heights(t, 16)
	var grass_before := _count("grass")
	var clover_before := _count("clover")
	assert_true(grass_before > 100 and clover_before > 50, "foliage placed: %d grass, %d clover" % [grass_before, clover_before])
	assert_eq(_density("grass", 32, 32), 1.0, "unpainted: full density")

	await drag(line(screen_of(at(t, 26, 32)), screen_of(at(t, 38, 32)), 6))
	assert_eq(_painted(), 1, "one foliage_paint stroke in the recipe: %s" % plugin.call("get_message"))
	assert_true(_density("grass", 32, 32) < 0.01, "painted to 0 under the drag: %s" % _density("grass", 32, 32))
	assert_eq(_density("grass", 4, 4), 1.0, "untouched far away")
	assert_eq(_density("clover", 32, 32), 1.0, "the other type is untouched")
	assert_true(_count("grass") < grass_before * 0.6, "fewer grass instances: %d → %d" % [grass_before, _count("grass")])
	assert_eq(_count("clover"), clover_before, "clover instances unchanged")
	assert_true(heights(t, 16) == heights_before, "heights unchanged")

	await drag(line(screen_of(at(t, 26, 32)), screen_of(at(t, 38, 32)), 6), true)
	assert_eq(_painted(), 2, "Shift+drag is a second stroke")
	assert_true(_density("grass", 32, 32) > 0.99, "Shift restores full density: %s" % _density("grass", 32, 32))
	assert_eq(_count("grass"), grass_before, "and every instance comes back")

	await undo()
	assert_true(_density("grass", 32, 32) < 0.01, "Ctrl+Z undoes the restore")
	assert_eq(_painted(), 1, "and removes its stroke from the recipe")
	await undo()
	assert_eq(_density("grass", 32, 32), 1.0, "Ctrl+Z again: back to unpainted")
	assert_eq(_count("grass"), grass_before, "with the same instances")
	assert_eq(_painted(), 0, "no foliage strokes left")
	await redo()
	assert_true(_density("grass", 32, 32) < 0.01, "Ctrl+Y re-paints")
	await undo()

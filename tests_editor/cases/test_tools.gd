@tool
extends "res://lib/editor_case.gd"
## Ramp, Protect and Biome paint, their hotkeys and undo, on `biomes.tscn` (flat at height 10,
## 128 m, biomes meadow / rock / sand) seen from straight above.

var t: Node3D
var plugin: EditorPlugin


func _setup(tool: String) -> void:
	if t == null:
		t = await open_terrain("res://scenes/biomes.tscn")
		plugin = ridgeline()
	EditorInterface.edit_node(t)
	await frames(2)
	await top_down(t)
	plugin.call("set_tool", tool)
	plugin.call("set_brush", {"size": 12.0, "strength": 1.0, "falloff": 0.5, "spacing": 0.25, "slope_min": 0.0, "slope_max": 90.0})


func _click(world: Vector3) -> void:
	var p := screen_of(world)
	motion(p, Vector2.ZERO, 0)
	button(p, MOUSE_BUTTON_LEFT, true)
	button(p, MOUSE_BUTTON_LEFT, false)
	await frames(2)


func _grade(label: String) -> float:
	var re := RegEx.create_from_string("grade (-?[0-9.]+)%")
	var m := re.search(label)
	return float(m.get_string(1)) if m else NAN


func test_hotkeys_select_the_new_tools() -> void:
	await _setup("raise")
	await key(KEY_0)
	assert_eq(plugin.call("get_tool"), "ramp", "0 selects Ramp")
	await key(KEY_P)
	assert_eq(plugin.call("get_tool"), "protect", "P selects Protect")
	await key(KEY_B)
	assert_eq(plugin.call("get_tool"), "biome_paint", "B selects Biome paint")
	# Settings are kept per tool group.
	plugin.call("set_brush", {"size": 33.0})
	plugin.call("set_tool", "protect")
	plugin.call("set_brush", {"size": 7.0})
	plugin.call("set_tool", "biome_paint")
	assert_eq(plugin.call("get_brush")["size"], 33.0, "biome paint keeps its own size")
	plugin.call("set_tool", "protect")
	assert_eq(plugin.call("get_brush")["size"], 7.0, "protect keeps its own size")


func test_ramp_two_clicks_grade_and_one_undo_step() -> void:
	await _setup("ramp")
	var before := heights(t)
	# A plateau at 30 m to start from (a script stroke: its own core history record).
	assert_true(t.call("apply_stroke", {"type": "set_height", "center": [30, 64], "radius": 10, "falloff": 1.0, "target_height": 30.0}), "plateau")
	await frames(2)
	var plateau := heights(t)
	# Esc between the clicks drops the start.
	await _click(at(t, 30, 64))
	await key(KEY_ESCAPE)
	assert_true(String(plugin.call("get_message")).contains("cancelled"), "Esc cancels the ramp")
	assert_eq(plugin.call("get_tool"), "ramp", "the first Esc keeps the tool")
	assert_true(heights(t) == plateau, "a cancelled ramp changes nothing")
	await _click(at(t, 30, 64))
	assert_true(heights(t) == plateau, "the first click changes nothing")
	motion(screen_of(at(t, 100, 64)), Vector2(1, 0), 0)
	await frames(1)
	var label: String = plugin.call("get_cursor_label")
	assert_true(absf(_grade(label) + 28.57) < 0.5, "the cursor label shows the grade (20 m down over 70 m): " + label)
	await _click(at(t, 100, 64))
	var ramped := heights(t)
	var mid: float = t.call("get_height", t.global_position + Vector3(65, 0, 64))
	assert_true(absf(mid - 20.0) < 1.0, "halfway along the ramp it is halfway down: %f" % mid)
	assert_eq(t.call("get_height", t.global_position + Vector3(65, 0, 110)), 10.0, "beside the ramp nothing changed")
	assert_true(String(plugin.call("get_message")).contains("grade"), "the dock reports the ramp")
	await undo()
	assert_true(heights(t) == plateau, "one Ctrl+Z removes the whole ramp, bit-exactly")
	await redo()
	assert_true(heights(t) == ramped, "Ctrl+Y brings it back")
	await undo()
	t.call("undo_stroke")
	await frames(2)
	assert_true(heights(t) == before, "back to the start")


func test_protect_keeps_heights_under_later_sculpting() -> void:
	await _setup("protect")
	var before := heights(t)
	await drag(line(screen_of(at(t, 62, 64)), screen_of(at(t, 66, 64)), 2))
	assert_true(heights(t) == before, "protecting changes no height")
	assert_true(String(plugin.call("get_message")).contains("Protect"), "the dock reports the protect stroke")
	plugin.call("set_tool", "raise")
	plugin.call("set_brush", {"size": 40.0, "strength": 1.0, "falloff": 0.5, "spacing": 0.25})
	await drag(line(screen_of(at(t, 40, 64)), screen_of(at(t, 88, 64)), 8))
	assert_eq(t.call("get_height", t.global_position + Vector3(64, 0, 64)), 10.0, "the protected spot keeps its height")
	assert_true(t.call("get_height", t.global_position + Vector3(46, 0, 64)) > 11.0, "raised beside it")
	await undo()
	await undo()
	assert_true(heights(t) == before, "two Ctrl+Z undo the raise and the protection")
	await drag(line(screen_of(at(t, 40, 64)), screen_of(at(t, 88, 64)), 8))
	assert_true(t.call("get_height", t.global_position + Vector3(64, 0, 64)) > 11.0, "without the protection the spot rises")
	await undo()
	assert_true(heights(t) == before, "undone")


func test_biome_paint_swatches_stroke_and_undo() -> void:
	await _setup("biome_paint")
	var swatches := EditorInterface.get_base_control().find_children("Biome_*", "Button", true, false)
	assert_eq(swatches.size(), 3, "one swatch per recipe biome")
	var rock := EditorInterface.get_base_control().find_children("Biome_rock", "Button", true, false)
	assert_true(not rock.is_empty(), "a rock swatch")
	if rock.is_empty():
		return
	(rock[0] as Button).pressed.emit()
	assert_eq(plugin.call("get_paint_biome"), "rock", "the swatch chooses the biome")
	assert_eq(String(t.call("get_biome", t.global_position + Vector3(64, 0, 64))), "meadow", "meadow before painting")
	await drag(line(screen_of(at(t, 50, 64)), screen_of(at(t, 78, 64)), 6))
	assert_eq(String(t.call("get_biome", t.global_position + Vector3(64, 0, 64))), "rock", "painted rock under the stroke")
	assert_eq(String(t.call("get_biome", t.global_position + Vector3(64, 0, 110))), "meadow", "meadow away from it")
	assert_true(String(plugin.call("get_cursor_label")).contains("biome rock"), "the label names the biome")
	await undo()
	assert_eq(String(t.call("get_biome", t.global_position + Vector3(64, 0, 64))), "meadow", "Ctrl+Z removes the paint")
	assert_true(not plugin.call("set_paint_biome", "lava"), "an unknown biome is refused")
	assert_eq(plugin.call("get_paint_biome"), "rock", "and the choice stays")


func test_brush_masks_circle_square_and_png() -> void:
	await _setup("raise")
	var found := EditorInterface.get_base_control().find_children("BrushMask", "OptionButton", true, false)
	assert_eq(found.size(), 1, "the dock has a mask choice")
	if found.size() != 1:
		return
	var opt: OptionButton = found[0]
	assert_eq(opt.item_count, 3, "circle, square and the project's res://brush_masks/ PNG")
	assert_true(opt.get_item_icon(2) != null, "the PNG has a thumbnail")
	if opt.get_item_icon(2) != null:
		var thumb := opt.get_item_icon(2).get_image()
		assert_eq(thumb.get_size(), Vector2i(24, 24), "24 px")
		assert_true(thumb.get_pixel(2, 12).v < 0.2 and thumb.get_pixel(21, 12).v > 0.8, "showing the mask: dark left, bright right half")
	plugin.call("set_brush", {"size": 16.0, "strength": 1.0, "falloff": 1.0})
	var before := heights(t)
	var corner := t.global_position + Vector3(70.5, 0, 70.5)
	await _click(at(t, 64, 64))
	assert_eq(t.call("get_height", corner), 10.0, "a circle does not reach the square's corner")
	await undo()
	opt.select(1)
	opt.item_selected.emit(1)
	assert_eq(plugin.call("get_brush_mask"), "square", "the dock chose the square")
	await _click(at(t, 64, 64))
	assert_true(t.call("get_height", corner) > 10.5, "a square reaches its corner")
	await undo()
	opt.select(2)
	opt.item_selected.emit(2)
	assert_eq(plugin.call("get_brush_mask"), "res://brush_masks/right_half.png", "the dock chose the PNG")
	await _click(at(t, 64, 64))
	assert_true(t.call("get_height", t.global_position + Vector3(68, 0, 64)) > 10.5, "the PNG's white half raises")
	assert_eq(t.call("get_height", t.global_position + Vector3(60, 0, 64)), 10.0, "its black half does not")
	await undo()
	assert_true(heights(t) == before, "undone")
	plugin.call("set_tool", "lower")
	assert_eq(plugin.call("get_brush_mask"), "res://brush_masks/right_half.png", "masks are kept per tool group (sculpt)")
	plugin.call("set_tool", "protect")
	assert_eq(plugin.call("get_brush_mask"), "", "another group keeps its own (circle)")
	plugin.call("set_tool", "raise")
	assert_true(plugin.call("set_brush_mask", "circle"), "back to circle")
	assert_true(not plugin.call("set_brush_mask", "res://brush_masks/missing.png"), "a missing PNG is refused")

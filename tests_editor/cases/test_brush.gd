@tool
extends "res://lib/editor_case.gd"
## Strokes, undo/redo, Esc, Shift, hotkeys and saving on `flat.tscn` (flat at height 10, 128 m)
## seen from straight above, so screen positions map exactly onto terrain positions.

var t: Node3D
var plugin: EditorPlugin


func _setup() -> void:
	if t == null:
		t = await open_terrain("res://scenes/flat.tscn")
		plugin = ridgeline()
		await top_down(t)
	# A test may leave the terrain deselected (a click with tool None selects in Godot).
	EditorInterface.edit_node(t)
	await frames(2)
	plugin.call("set_tool", "raise")
	plugin.call("set_brush", {"size": 16.0, "strength": 0.5, "falloff": 0.5, "spacing": 0.25})


func _path(t: Node3D, n: int) -> Array:
	# 46 m: not a whole number of 4 m spacings, so no stamp sits on the path's end.
	return line(screen_of(at(t, 40, 64)), screen_of(at(t, 86, 64)), n)


func test_a_plugin_and_dock() -> void:
	await _setup()
	assert_true(plugin != null, "RidgelineEditorPlugin is a child of EditorNode")
	var docks := EditorInterface.get_base_control().find_children("Terrain", "VBoxContainer", true, false)
	assert_true(not docks.is_empty(), "the Terrain dock exists")
	assert_eq(plugin.call("get_tool"), "raise", "set_tool")


func test_stroke_undo_redo_exact() -> void:
	await _setup()
	var before := heights(t)
	var ur := EditorInterface.get_editor_undo_redo()
	await drag(_path(t, 12))
	var after := heights(t)
	assert_true(after != before, "a drag changed the heights")
	assert_true(t.call("get_height", at(t, 64, 64)) > 10.5, "raised under the path")
	assert_eq(t.call("get_height", at(t, 64, 110)), 10.0, "untouched away from the path")
	assert_true(String(plugin.call("get_message")).contains("stamps"), "dock reports the stroke")
	await undo()
	assert_true(heights(t) == before, "Ctrl+Z restores the heights bit-exactly (one step per stroke)")
	await redo()
	assert_true(heights(t) == after, "Ctrl+Y re-applies the stroke bit-exactly")
	await undo()
	assert_true(heights(t) == before, "undo again")


func test_stamps_do_not_depend_on_event_count() -> void:
	await _setup()
	var before := heights(t, 96)
	await drag(_path(t, 2))
	var few := heights(t, 96)
	await undo()
	await drag(_path(t, 40))
	var many := heights(t, 96)
	await undo()
	assert_true(heights(t, 96) == before, "both strokes undone")
	var worst := 0.0
	for i in few.size():
		worst = maxf(worst, absf(few[i] - many[i]))
	assert_true(worst < 1e-3, "2 and 40 motion events give the same stroke (max diff %s)" % worst)


func test_a_fast_drag_is_capped_per_frame_and_carried() -> void:
	await _setup()
	# 0.8 m spacing over 46 m: 58 stamps in one motion event, more than one frame shows.
	plugin.call("set_brush", {"spacing": 0.05})
	var before := heights(t, 96)
	var path := _path(t, 1)
	motion(path[0], Vector2.ZERO, 0)
	button(path[0], MOUSE_BUTTON_LEFT, true)
	motion(path[1], path[1] - path[0], MOUSE_BUTTON_MASK_LEFT)
	var pending: int = plugin.call("get_pending_stamps")
	assert_true(pending > 0 and pending < 58, "one event's stamps beyond the frame's cap wait (%d pending)" % pending)
	await frames(4)
	assert_eq(plugin.call("get_pending_stamps"), 0, "the next frames show the rest")
	button(path[1], MOUSE_BUTTON_LEFT, false)
	await frames(2)
	var capped := heights(t, 96)
	await undo()
	assert_true(heights(t, 96) == before, "one undo step")
	await drag(_path(t, 40))
	var many := heights(t, 96)
	await undo()
	var worst := 0.0
	for i in capped.size():
		worst = maxf(worst, absf(capped[i] - many[i]))
	assert_true(capped != before and worst < 1e-3, "the capped one-event drag and a 40-event drag give the same stroke (max diff %s)" % worst)


func test_shift_inverts() -> void:
	await _setup()
	await drag(_path(t, 6), true)
	assert_true(t.call("get_height", at(t, 64, 64)) < 9.5, "Shift+drag with Raise lowers")
	await undo()
	assert_eq(t.call("get_height", at(t, 64, 64)), 10.0, "undone")


func test_escape_cancels_exactly() -> void:
	await _setup()
	var before := heights(t)
	var pts := _path(t, 8)
	button(pts[0], MOUSE_BUTTON_LEFT, true)
	for i in range(1, pts.size()):
		motion(pts[i], pts[i] - pts[i - 1], MOUSE_BUTTON_MASK_LEFT)
	assert_true(heights(t) != before, "the live stroke shows while dragging")
	assert_true(plugin.call("is_stroking"), "stroking")
	await key(KEY_ESCAPE)
	assert_true(heights(t) == before, "Esc restores the surface exactly")
	assert_eq(plugin.call("get_tool"), "raise", "the first Esc only cancels the stroke")
	button(pts[-1], MOUSE_BUTTON_LEFT, false)
	await key(KEY_ESCAPE)
	assert_eq(plugin.call("get_tool"), "none", "the second Esc leaves the tool")
	# With no tool, a left click is Godot's (selection), the surface stays.
	await drag(_path(t, 3))
	assert_true(heights(t) == before, "tool None does not paint")


func test_hotkeys() -> void:
	await _setup()
	await key(KEY_3)
	assert_eq(plugin.call("get_tool"), "smooth", "3 selects Smooth")
	await key(KEY_1)
	assert_eq(plugin.call("get_tool"), "raise", "1 selects Raise")
	var size: float = plugin.call("get_brush")["size"]
	await key(KEY_BRACKETRIGHT)
	assert_true(plugin.call("get_brush")["size"] > size, "] enlarges the brush")
	await key(KEY_BRACKETLEFT)
	await key(KEY_BRACKETLEFT)
	assert_true(plugin.call("get_brush")["size"] < size, "[ shrinks it")
	var s: float = plugin.call("get_brush")["strength"]
	await key(KEY_MINUS)
	assert_true(is_equal_approx(plugin.call("get_brush")["strength"], s - 0.05), "- weakens")
	await key(KEY_EQUAL)
	assert_true(is_equal_approx(plugin.call("get_brush")["strength"], s), "= strengthens")
	# Settings are remembered in the project metadata.
	var saved: Dictionary = EditorInterface.get_editor_settings().get_project_metadata("ridgeline", "brush.sculpt", {})
	assert_true(is_equal_approx(saved.get("strength", -1.0), s), "brush settings persist in project metadata")
	motion(screen_of(at(t, 64, 64)), Vector2.ZERO, 0)
	assert_true(String(plugin.call("get_cursor_label")).contains("Raise"), "cursor label names the tool")
	var label := String(plugin.call("get_cursor_label"))
	assert_true(label.contains("h 10.0"), "cursor label shows the height: " + label)


func test_set_height_pick_and_wheel() -> void:
	await _setup()
	await key(KEY_5)
	assert_eq(plugin.call("get_tool"), "set_height", "5 selects Set height")
	var p := screen_of(at(t, 64, 64))
	motion(p, Vector2.ZERO, 0)
	button(p, MOUSE_BUTTON_LEFT, true, false, true)
	button(p, MOUSE_BUTTON_LEFT, false, false, true)
	assert_true(is_equal_approx(plugin.call("get_brush")["target_height"], 10.0), "Ctrl+click picks the height")
	button(p, MOUSE_BUTTON_WHEEL_UP, true, false, true)
	button(p, MOUSE_BUTTON_WHEEL_UP, true, false, true, true)
	assert_true(is_equal_approx(plugin.call("get_brush")["target_height"], 11.1), "Ctrl+wheel +1 m, Ctrl+Alt+wheel +0.1 m")
	plugin.call("set_brush", {"size": 20.0, "strength": 1.0, "falloff": 0.0})
	await drag([p, p + Vector2(1, 0)])
	assert_true(absf(t.call("get_height", at(t, 64, 64)) - 11.1) < 0.05, "Set height moves toward the target")
	await undo()
	plugin.call("set_tool", "raise")


func test_z_save_persists() -> void:
	await _setup()
	await drag(_path(t, 10))
	var edited := heights(t)
	EditorInterface.save_scene_as("res://scenes/flat.tscn", false)
	await frames(2)
	assert_true(String(plugin.call("get_message")).contains("Saved"), "dock reports the save: %s" % plugin.call("get_message"))
	var text := FileAccess.get_file_as_string("res://terrains/flat.terrain.json")
	assert_true(text.contains("\"raise\""), "the asset file holds the stroke")
	var fresh: Resource = ResourceLoader.load("res://terrains/flat.terrain.json", "", ResourceLoader.CACHE_MODE_IGNORE)
	var t2: Node3D = ClassDB.instantiate("Terrain3D")
	t2.set("asset", fresh)
	add_child(t2)
	t2.call("wait_for_generation")
	var reloaded := heights(t2)
	var worst := 0.0
	for i in edited.size():
		worst = maxf(worst, absf(edited[i] - reloaded[i]))
	assert_true(worst < 1e-4, "the saved asset regenerates the edited surface (max diff %s)" % worst)
	t2.queue_free()
	await frames(1)


func test_hole_tool_cuts_and_undo_fills() -> void:
	await _setup()
	plugin.call("set_tool", "hole")
	plugin.call("set_brush", {"size": 12.0, "strength": 1.0, "falloff": 0.0, "spacing": 0.25})
	var before := heights(t)
	var centre := t.global_position + Vector3(64, 10, 64)
	await drag(line(screen_of(centre + Vector3(-6, 0, 0)), screen_of(centre + Vector3(6, 0, 0)), 6))
	assert_true(is_nan(float(t.call("get_height", centre))), "the Hole tool cut the surface under the drag")
	assert_eq(t.call("get_height", t.global_position + Vector3(64, 0, 110)), 10.0, "untouched away from the drag")
	await undo()
	assert_true(heights(t) == before, "Ctrl+Z fills the hole again, bit-exactly")
	await key(KEY_9)
	assert_eq(plugin.call("get_tool"), "fill_hole", "hotkey 9 selects Fill hole")
	await key(KEY_8)
	assert_eq(plugin.call("get_tool"), "hole", "hotkey 8 selects Hole")

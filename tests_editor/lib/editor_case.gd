@tool
extends Node
## Base of the editor tests: assertions (a test without any fails) and helpers that drive the
## real editor — open a scene, select the terrain, place the editor camera, send synthetic
## mouse and key events through the 3D viewport's input surface (the editor's own route to
## `_forward_3d_gui_input`), undo/redo with Ctrl+Z / Ctrl+Y.

var _failures: PackedStringArray = []
var _assertions := 0


func _begin_test() -> void:
	_failures = []
	_assertions = 0


func get_failures() -> PackedStringArray:
	var out := _failures.duplicate()
	if _assertions == 0 and out.is_empty():
		out.append("the test made no assertion")
	return out


func cleanup() -> void:
	pass


func fail(message: String) -> void:
	_assertions += 1
	_failures.append(message)


func assert_true(condition: bool, message: String = "expected true") -> void:
	_assertions += 1
	if not condition:
		_failures.append(message)


func assert_eq(actual: Variant, expected: Variant, message: String = "") -> void:
	_assertions += 1
	if typeof(actual) != typeof(expected) or actual != expected:
		_failures.append("%s: expected %s, got %s" % [message, var_to_str(expected), var_to_str(actual)])


func frames(n: int = 2) -> void:
	for i in n:
		await get_tree().process_frame


## The Ridgeline editor plugin (a child of EditorNode).
func ridgeline() -> EditorPlugin:
	for c in EditorInterface.get_base_control().get_parent().get_children():
		if c.get_class() == "RidgelineEditorPlugin":
			return c
	return null


## The 3D viewport's input surface (its `gui_input` feeds the editor's viewport input).
func surface() -> Control:
	var vp := EditorInterface.get_editor_viewport_3d(0)
	var n3d_vp: Control = vp.get_parent().get_parent()
	for c in n3d_vp.get_children():
		if c is Control and not c.get_signal_connection_list("gui_input").is_empty():
			return c
	return null


func camera() -> Camera3D:
	return EditorInterface.get_editor_viewport_3d(0).get_camera_3d()


## Opens `path`, waits for its Terrain3D, selects it in the 3D editor and returns it.
func open_terrain(path: String) -> Node3D:
	EditorInterface.open_scene_from_path(path)
	await frames(3)
	var root := EditorInterface.get_edited_scene_root()
	var t: Node3D = root.get_node("Terrain3D")
	t.call("wait_for_generation")
	await frames(2)
	EditorInterface.set_main_screen_editor("3D")
	EditorInterface.edit_node(t)
	await frames(3)
	return t


## Looks straight down at the terrain's centre from `height` above it.
func top_down(t: Node3D, height: float = 120.0) -> void:
	var size: Vector2 = t.call("get_size")
	var centre := t.global_position + Vector3(size.x / 2.0, 0.0, size.y / 2.0)
	camera().global_transform = Transform3D(Basis.looking_at(Vector3.DOWN, Vector3.FORWARD), centre + Vector3(0, height, 0))
	await frames(3)


var _selected_terrain: Node3D


## Opens the scene at `path` once per case (later calls reuse its terrain), selects the
## terrain again (a test may have deselected it) and looks straight down from `height` m.
func select_terrain(path: String, height: float = 120.0) -> Node3D:
	if _selected_terrain == null:
		_selected_terrain = await open_terrain(path)
	EditorInterface.edit_node(_selected_terrain)
	await frames(2)
	await top_down(_selected_terrain, height)
	return _selected_terrain


## Screen position (surface pixels) of a world point.
func screen_of(world: Vector3) -> Vector2:
	var shrink: int = (EditorInterface.get_editor_viewport_3d(0).get_parent() as SubViewportContainer).stretch_shrink
	return camera().unproject_position(world) * shrink


func _mods(e: InputEventWithModifiers, shift: bool, ctrl: bool, alt: bool) -> void:
	e.shift_pressed = shift
	e.ctrl_pressed = ctrl
	e.alt_pressed = alt


func button(pos: Vector2, index: MouseButton, pressed: bool, shift := false, ctrl := false, alt := false) -> void:
	var e := InputEventMouseButton.new()
	e.position = pos
	e.global_position = pos
	e.button_index = index
	e.pressed = pressed
	_mods(e, shift, ctrl, alt)
	if pressed and index <= MOUSE_BUTTON_MIDDLE:
		e.button_mask = 1 << (index - 1)
	surface().gui_input.emit(e)


func motion(pos: Vector2, rel: Vector2, mask: int, shift := false) -> void:
	var e := InputEventMouseMotion.new()
	e.position = pos
	e.global_position = pos
	e.relative = rel
	e.button_mask = mask
	_mods(e, shift, false, false)
	surface().gui_input.emit(e)


## A left drag through `points` (surface pixels): press, one motion per further point, release.
func drag(points: Array, shift := false) -> void:
	motion(points[0], Vector2.ZERO, 0, shift)
	button(points[0], MOUSE_BUTTON_LEFT, true, shift)
	for i in range(1, points.size()):
		motion(points[i], points[i] - points[i - 1], MOUSE_BUTTON_MASK_LEFT, shift)
	button(points[-1], MOUSE_BUTTON_LEFT, false, shift)
	await frames(2)


## Evenly spaced points from `a` to `b`, `n` segments.
func line(a: Vector2, b: Vector2, n: int) -> Array:
	var out := []
	for i in n + 1:
		out.append(a.lerp(b, float(i) / n))
	return out


func key(k: Key, shift := false, ctrl := false, alt := false) -> void:
	for pressed in [true, false]:
		var e := InputEventKey.new()
		e.keycode = k
		e.physical_keycode = k
		e.pressed = pressed
		_mods(e, shift, ctrl, alt)
		surface().gui_input.emit(e)
	await frames(1)


## Ctrl+Z / Ctrl+Y through the editor's own shortcut handling.
func shortcut(k: Key) -> void:
	for pressed in [true, false]:
		var e := InputEventKey.new()
		e.keycode = k
		e.physical_keycode = k
		e.pressed = pressed
		e.ctrl_pressed = true
		Input.parse_input_event(e)
	await frames(4)


func undo() -> void:
	await shortcut(KEY_Z)


func redo() -> void:
	await shortcut(KEY_Y)


## Heights on a `n`×`n` grid of world points covering the whole terrain.
func heights(t: Node3D, n: int = 64) -> PackedFloat32Array:
	var size: Vector2 = t.call("get_size")
	var pts := PackedVector3Array()
	for z in n:
		for x in n:
			pts.append(t.global_position + Vector3((x + 0.5) * size.x / n, 0.0, (z + 0.5) * size.y / n))
	return t.call("get_heights", pts)


## World point on the terrain at terrain-local (x, z).
func at(t: Node3D, x: float, z: float) -> Vector3:
	var p := t.global_position + Vector3(x, 0.0, z)
	p.y = t.call("get_height", p)
	return p

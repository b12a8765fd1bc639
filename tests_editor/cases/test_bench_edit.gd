@tool
extends "res://lib/editor_case.gd"
## Editor benchmarks (printed as `bench <id> …` lines; `cargo xtask bench` collects them), on a
## 1025² terrain (1024 m, 1 m cells, 64-cell chunks) seen from above, in the real editor:
## - `editor_stroke_tick_20m` / `editor_stroke_tick_128m`: one drag tick — a mouse motion on
##   the viewport moving one stamp spacing (0.25 × size), through the plugin's input handling,
##   the raycast, the stamp applied to the surface and the touched chunks' meshes and collision
##   rebuilt — median over the ticks of a stroke;
## - `editor_undo_stroke_128m`: Ctrl+Z of a 128 m stroke through the editor's shortcut and
##   undo history down to the restored surface and rebuilt chunks, median of five.

var t: Node3D
var plugin: EditorPlugin


func _setup() -> void:
	t = await select_terrain("res://scenes/bench.tscn", 700.0)
	plugin = ridgeline()
	plugin.call("set_tool", "raise")


func _median(v: Array) -> float:
	v.sort()
	return v[v.size() / 2]


## Drags `ticks` motions of one spacing each along z = 512 from x = 200; returns the tick times
## (ms). The stroke stays applied (left button released).
func _stroke(size: float, ticks: int) -> Array:
	plugin.call("set_brush", {"size": size, "strength": 0.2, "falloff": 0.5, "spacing": 0.25})
	var step := size * 0.25
	var p0 := screen_of(at(t, 200, 512))
	motion(p0, Vector2.ZERO, 0)
	button(p0, MOUSE_BUTTON_LEFT, true)
	var times := []
	var prev := p0
	for i in range(1, ticks + 1):
		var p := screen_of(at(t, 200 + step * i, 512))
		var t0 := Time.get_ticks_usec()
		motion(p, p - prev, MOUSE_BUTTON_MASK_LEFT)
		times.append((Time.get_ticks_usec() - t0) / 1000.0)
		prev = p
		await frames(1)
	button(prev, MOUSE_BUTTON_LEFT, false)
	await frames(2)
	return times


func _tick_bench(id: String, size: float) -> void:
	await _setup()
	var before: float = t.call("get_height", t.global_position + Vector3(260, 0, 512))
	var times := await _stroke(size, 24)
	var after: float = t.call("get_height", t.global_position + Vector3(260, 0, 512))
	assert_true(after > before, "the stroke raised the surface (%f → %f)" % [before, after])
	var ms := _median(times)
	print("bench %s ours=%.3f peer=- ratio=- unit=ms" % [id, ms])
	print("editor bench: %s ticks min %.3f max %.3f ms" % [id, times.min(), times.max()])
	assert_true(ms < 1000.0, "a drag tick takes well under a second (%.1f ms)" % ms)
	await undo()


func test_bench_editor_stroke_tick_20m() -> void:
	await _tick_bench("editor_stroke_tick_20m", 20.0)


func test_bench_editor_stroke_tick_128m() -> void:
	await _tick_bench("editor_stroke_tick_128m", 128.0)


func test_bench_editor_undo_stroke_128m() -> void:
	await _setup()
	var flat := heights(t)
	await _stroke(128.0, 8)
	var stroked := heights(t)
	assert_true(stroked != flat, "the stroke changed the surface")
	var times := []
	for run in 5:
		var t0 := Time.get_ticks_usec()
		for pressed in [true, false]:
			var e := InputEventKey.new()
			e.keycode = KEY_Z
			e.physical_keycode = KEY_Z
			e.pressed = pressed
			e.ctrl_pressed = true
			Input.parse_input_event(e)
		Input.flush_buffered_events()
		times.append((Time.get_ticks_usec() - t0) / 1000.0)
		assert_true(heights(t) == flat, "Ctrl+Z restored the surface within the timed call")
		await frames(2)
		await redo()
		assert_true(heights(t) == stroked, "Ctrl+Y re-applied it")
	var ms := _median(times)
	print("bench editor_undo_stroke_128m ours=%.3f peer=- ratio=- unit=ms" % ms)
	assert_true(ms < 1000.0, "an undo takes well under a second (%.1f ms)" % ms)
	await undo()

extends "res://lib/case.gd"
## Brush mask images are read off the main thread: a mask that never answers (a FIFO) costs a
## stroke a bounded wait and an error instead of freezing Godot, and ordinary masks still apply.

const RECIPE := '{"size": [32, 32], "resolution": [16, 16], "seed": 4}'


func _terrain() -> Terrain3D:
	return recipe_terrain(RECIPE)


func test_a_png_mask_applies() -> void:
	var terrain := _terrain()
	var before := terrain.get_height(Vector3(16, 0, 16))
	assert_true(terrain.apply_stroke({"type": "raise", "center": [16, 16], "radius": 6.0, "amount": 2.0, "falloff": 1.0, "mask": "fixtures/brush_mask.png"}), "a stroke with a PNG mask (relative to the project for an inline recipe)")
	var after := terrain.get_height(Vector3(16, 0, 16))
	assert_true(after > before and after <= before + 2.0 + 1e-4, "the mask weights the stroke: %s → %s" % [before, after])


func test_a_fifo_mask_does_not_freeze_godot() -> void:
	# Inside the project (masks resolve there), so only the regular-file rule can refuse it.
	var fifo := ProjectSettings.globalize_path("res://fixtures/never_written.fifo")
	DirAccess.remove_absolute(fifo)
	var code := OS.execute("mkfifo", [fifo])
	if code != 0:
		fail("mkfifo is needed for this test (exit %d)" % code)
		return
	var terrain := _terrain()
	var before := terrain.get_height(Vector3(10, 0, 10))
	var start := Time.get_ticks_msec()
	var ok := terrain.apply_stroke({"type": "raise", "center": [10, 10], "radius": 4.0, "amount": 1.0, "mask": "fixtures/never_written.fifo"})
	var waited := Time.get_ticks_msec() - start
	assert_false(ok, "a mask that never answers fails the stroke")
	assert_true(waited < 5000, "within a bounded wait (%d ms), not forever" % waited)
	assert_near(terrain.get_height(Vector3(10, 0, 10)), before, 0.0, "nothing changed")
	assert_true(terrain.apply_stroke({"type": "raise", "center": [20, 20], "radius": 4.0, "amount": 1.0}), "the terrain keeps working")
	# Release a reader if one were blocked: open the FIFO for writing once, never waiting more
	# than a second (nobody reads it when the mask was refused before opening).
	OS.execute("timeout", ["1", "sh", "-c", "exec 3>'%s'; exec 3>&-" % fifo])
	DirAccess.remove_absolute(fifo)

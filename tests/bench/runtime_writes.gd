extends SceneTree
## Runtime data writes for `cargo xtask bench` (issue #20): prints `bench …` lines.
## - godot_set_heights_64: `Terrain3D.set_height_rect` of a 64 × 64 sample rectangle on the
##   1 km terrain, until the touched chunks' meshes and collision are rebuilt (the call does
##   that before it returns; terrain_changed is raised synchronously and checked). Goal ≤ 2 ms.
## `-- --quick` uses fewer repetitions.


func _median(samples: Array) -> float:
	samples.sort()
	return samples[samples.size() / 2]


func _initialize() -> void:
	_run.call_deferred()


## The 1 km bench terrain (1025² samples, 64-cell chunks, about 40 m of relief).
func _make_terrain() -> Terrain3D:
	var terrain := Terrain3D.new()
	terrain.recipe = JSON.stringify({
		"size": [1024, 1024], "resolution": [1024, 1024], "seed": 3, "chunk_cells": 64,
		"landforms": {"hills": {"base_height": 0, "height_variation": 40, "feature_size": 300,
			"roughness": 0.5, "octaves": 6}},
		"default_landform": "hills"})
	root.add_child(terrain)
	terrain.wait_for_generation()
	return terrain


func _run() -> void:
	var quick := OS.get_cmdline_user_args().has("--quick")
	var reps := 3 if quick else 11
	var terrain := _make_terrain()
	await physics_frame
	_bench_set_heights(terrain, reps)
	terrain.queue_free()
	await process_frame
	quit(0)


func _bench_set_heights(terrain: Terrain3D, reps: int) -> void:
	var rng := RandomNumberGenerator.new()
	rng.seed = 64
	var signals := [0]
	terrain.terrain_changed.connect(func(_l: int, _c: Rect2i, _k: Rect2i, _u: bool) -> void: signals[0] += 1)
	var times := []
	var n := reps * 5
	for i in n:
		var rect := Rect2i(rng.randi_range(0, 1024 - 64), rng.randi_range(0, 1024 - 64), 64, 64)
		var values := terrain.get_height_rect(rect)
		for k in values.size():
			values[k] += 0.25
		var start := Time.get_ticks_usec()
		var ok := terrain.set_height_rect(rect, values)
		times.append((Time.get_ticks_usec() - start) / 1000.0)
		if not ok:
			push_error("set_height_rect failed")
	if signals[0] != n:
		push_error("expected %d terrain_changed signals, got %d" % [n, signals[0]])
	print("bench godot_set_heights_64 ours=%.3f peer=- ratio=- unit=ms" % _median(times))
	# Where the time goes: a 2 × 2 patch inside one chunk (one chunk rebuilt) against the 64²
	# one (four chunks rebuilt; a 64-sample rectangle always meets 2 × 2 of the 64-cell chunks).
	var small := []
	for i in n:
		var rect := Rect2i(64 * rng.randi_range(1, 14) + 30, 64 * rng.randi_range(1, 14) + 30, 2, 2)
		var values := terrain.get_height_rect(rect)
		var start := Time.get_ticks_usec()
		terrain.set_height_rect(rect, values)
		small.append((Time.get_ticks_usec() - start) / 1000.0)
	printerr("runtime writes: set_height_rect 2x2 (one chunk rebuilt) %.3f ms, 64x64 (four chunks) %.3f ms" % [_median(small), _median(times)])

extends SceneTree
## Runtime data writes for `cargo xtask bench` (issue #20): prints `bench …` lines.
## - godot_set_heights_64: `Terrain3D.set_height_rect` of a 64 × 64 sample rectangle on the
##   1 km terrain, until the touched chunks' meshes and collision are rebuilt (the call does
##   that before it returns; terrain_changed is raised synchronously and checked). Goal ≤ 2 ms.
## - godot_user_channel_tick: `Terrain3D.set_user_channel` with a 2 m radius every physics tick
##   while the writer walks (a new stamp each tick), CPU time of the call per tick (goal ≤ 0.02
##   ms); stderr says how many flushes and tile uploads each rendered frame made (goal: one
##   sub-rectangle upload per frame).
## - godot_user_channel_query: `Terrain3D.get_user_channel` from typed GDScript, per call (goal
##   ≤ 0.10 µs, like get_surface).
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
	await _bench_user_channel_tick(terrain, reps)
	_bench_user_channel_query(terrain, reps)
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


func _bench_user_channel_tick(terrain: Terrain3D, reps: int) -> void:
	var ticks := 60 * reps
	var times := []
	var start_uploads: Dictionary = terrain._test_user_channel_uploads()
	var frames_with_writes := 0
	var max_flushes_per_frame := 0
	var last: Dictionary = start_uploads
	var frame := [0]
	var on_frame := func() -> void: frame[0] += 1
	process_frame.connect(on_frame)
	var seen_frame: int = frame[0]
	var wrote_since := false
	for t in ticks:
		await physics_frame
		if frame[0] != seen_frame:
			# A rendered frame passed since the last tick: what did its flush upload?
			var now: Dictionary = terrain._test_user_channel_uploads()
			if wrote_since:
				frames_with_writes += 1
				max_flushes_per_frame = maxi(max_flushes_per_frame, now.flushes - last.flushes)
			last = now
			seen_frame = frame[0]
			wrote_since = false
		# A mower walking 5 m/s across the terrain: a new 2 m stamp every tick.
		var p := Vector3(100.0 + t * 0.083, 0.0, 300.0 + 20.0 * sin(t * 0.01))
		var start := Time.get_ticks_usec()
		var ok := terrain.set_user_channel(0, p, 2.0, 1.0)
		times.append((Time.get_ticks_usec() - start) / 1000.0)
		wrote_since = true
		if not ok:
			push_error("set_user_channel failed")
	await process_frame
	process_frame.disconnect(on_frame)
	var end: Dictionary = terrain._test_user_channel_uploads()
	var flushes: int = end.flushes - start_uploads.flushes
	var tiles: int = end.tile_uploads - start_uploads.tile_uploads
	print("bench godot_user_channel_tick ours=%.4f peer=- ratio=- unit=ms" % _median(times))
	printerr("runtime writes: user channel tick: %d ticks, %d frames with writes, at most %d flush per frame, %d flushes, %d tiles (%d texels each) uploaded, strokes kept %d" % [ticks, frames_with_writes, max_flushes_per_frame, flushes, tiles, end.tile_size * end.tile_size, terrain.get_runtime_strokes().size()])
	# The same write a second time within a tick (the caches warm from the first): what the
	# write itself costs; the difference is the cache misses of a call made after the main
	# loop slept (headless Godot sleeps out each frame; a game renders instead).
	var warm := []
	for t in 60 * reps:
		await physics_frame
		var p := Vector3(700.0 - t * 0.083, 0.0, 600.0)
		terrain.set_user_channel(0, p, 2.0, 1.0)
		var start := Time.get_ticks_usec()
		terrain.set_user_channel(0, p + Vector3(0.05, 0.0, 0.0), 2.0, 1.0)
		warm.append((Time.get_ticks_usec() - start) / 1000.0)
	printerr("runtime writes: user channel tick: the first write of a tick %.4f ms, a second write in the same tick %.4f ms" % [_median(times), _median(warm)])


func _bench_user_channel_query(terrain: Terrain3D, reps: int) -> void:
	var rng := RandomNumberGenerator.new()
	rng.seed = 7
	var points := PackedVector3Array()
	for i in 20000:
		points.append(Vector3(rng.randf() * 1024.0, 0.0, rng.randf() * 1024.0))
	var best := INF
	var sink := 0.0
	for r in reps:
		var start := Time.get_ticks_usec()
		for p: Vector3 in points:
			sink += terrain.get_user_channel(0, p)
		best = minf(best, float(Time.get_ticks_usec() - start) / points.size())
	if is_nan(sink):
		push_error("get_user_channel returned NAN")
	print("bench godot_user_channel_query ours=%.3f peer=- ratio=- unit=us" % best)

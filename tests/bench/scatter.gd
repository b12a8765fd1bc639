extends SceneTree
## Scatter benchmarks, rendered (Xvfb, OpenGL 3: MultiMesh uploads reach a real GPU buffer):
## foliage_chunk_build, foliage_thinning_frame and godot_scatter_memory (peer: the same
## instances as one MultiMeshInstance3D node per chunk built from GDScript). Prints full
## `bench …` lines and `scatter:` details. `-- --quick` uses fewer repetitions.

const GRASS := '{"model": "res://bench/scatter_grass.tres", "category": "grass", "density": 4, "collision": "none"}'


func _recipe(size: int, grass_density: float) -> String:
	var grass := GRASS.replace('"density": 4', '"density": %s' % grass_density)
	return '{"size": [%d, %d], "resolution": [%d, %d], "seed": 3, "chunk_cells": 32, "landforms": {"flat": {"base_height": 1, "height_variation": 0}}, "default_landform": "flat", "palette": {"format_version": 3, "name": "Bench", "placements": {"grass": %s}}}' % [size, size, size / 2, size / 2, grass]


func _foliage_recipe(size: int) -> String:
	return '{"size": [%d, %d], "resolution": [%d, %d], "seed": 3, "chunk_cells": 32, "landforms": {"flat": {"base_height": 1, "height_variation": 0}}, "default_landform": "flat", "palette": {"format_version": 3, "name": "Bench", "foliage": {"grass": {"model": "res://bench/scatter_grass.tres", "density": 4, "cell_size": 1, "full_density_distance": 1000, "max_distance": 1000}}}}' % [size, size, size / 2, size / 2]


func _median(samples: Array) -> float:
	samples.sort()
	return samples[samples.size() / 2]


func _initialize() -> void:
	_run.call_deferred()


func _terrain(size: int, density: float, recipe := "") -> Terrain3D:
	var t := Terrain3D.new()
	t.use_generation_cache = false
	t.recipe = recipe if recipe != "" else _recipe(size, density)
	root.add_child(t)
	if not t.wait_for_generation():
		push_error("bench terrain failed: %s" % t.get_last_error())
		quit(1)
	return t


func _run() -> void:
	var quick := OS.get_cmdline_user_args().has("--quick")
	var reps := 5 if quick else 21
	var cam := Camera3D.new()
	root.add_child(cam)
	await _chunk_build(reps)
	await _foliage_type_chunk_build(reps)
	await _thinning(reps)
	await _memory()
	quit(0)


## One 32 m chunk of grass at 4 instances/m² (≈ 4096) built: MultiMesh buffer + upload + instance.
func _chunk_build(reps: int) -> void:
	var t := _terrain(64, 4.0)
	var s := TerrainScatter.new()
	s.build_radius = 1.0
	s.rule_settings = {"grass": {"full_density_distance": 1000.0, "max_distance": 1000.0}}
	t.add_child(s)
	# Driven by update_for_viewer only (no camera-driven frames in between).
	s.set_process(false)
	var at := Vector3(16, 1, 16)
	var away := Vector3(5000, 1, 5000)
	var times := []
	var count := 0
	for i in reps:
		s.update_for_viewer(away, -1)
		await process_frame
		var start := Time.get_ticks_usec()
		var built := s.update_for_viewer(at, -1)
		times.append((Time.get_ticks_usec() - start) / 1000.0)
		count = s.get_chunk_instance_count(Vector2i(0, 0), "grass")
		if built != 1:
			push_error("foliage_chunk_build built %d chunks" % built)
		await process_frame
	printerr("scatter: chunk build, %d instances in chunk (0, 0)" % count)
	print("bench foliage_chunk_build ours=%.3f peer=- ratio=- unit=ms" % _median(times))
	t.queue_free()
	await process_frame


## The same chunk from a seed-004 foliage type (4 per 1 m cell): the core's placement of the
## chunk, instance transforms, MultiMesh allocation and upload, render instance.
func _foliage_type_chunk_build(reps: int) -> void:
	var t := _terrain(64, 0.0, _foliage_recipe(64))
	var s := TerrainScatter.new()
	s.build_radius = 1.0
	t.add_child(s)
	s.set_process(false)
	var at := Vector3(16, 1, 16)
	var away := Vector3(5000, 1, 5000)
	var times := []
	var count := 0
	for i in reps:
		s.update_for_viewer(away, -1)
		await process_frame
		var start := Time.get_ticks_usec()
		var built := s.update_for_viewer(at, -1)
		times.append((Time.get_ticks_usec() - start) / 1000.0)
		count = s.get_chunk_instance_count(Vector2i(0, 0), "grass")
		if built != 1:
			push_error("foliage type chunk build built %d chunks" % built)
		await process_frame
	printerr("scatter: foliage-type chunk build %.3f ms, %d instances in chunk (0, 0)" % [_median(times), count])
	t.queue_free()
	await process_frame


## Per-frame thinning and build-radius bookkeeping with 256 built chunks, the viewer moving.
func _thinning(reps: int) -> void:
	var t := _terrain(512, 0.05)
	var s := TerrainScatter.new()
	s.build_radius = 2000.0
	t.add_child(s)
	# Driven by update_for_viewer only (no camera-driven frames in between).
	s.set_process(false)
	s.update_for_viewer(Vector3(256, 2, 256), -1)
	printerr("scatter: thinning, %d built chunks, %s drawn/placed" % [s.get_built_chunk_count(), s.get_instance_counts()])
	var per_frame := []
	for r in reps:
		var start := Time.get_ticks_usec()
		for i in 100:
			var a := TAU * (r * 100 + i) / 400.0
			s.update_for_viewer(Vector3(256 + 200 * cos(a), 2, 256 + 200 * sin(a)), 2000)
		per_frame.append((Time.get_ticks_usec() - start) / 1000.0 / 100.0)
	if s.get_built_chunk_count() != 256:
		push_error("foliage_thinning_frame: %d built chunks, expected 256" % s.get_built_chunk_count())
	print("bench foliage_thinning_frame ours=%.4f peer=- ratio=- unit=ms" % _median(per_frame))
	t.queue_free()
	await process_frame


func _mem() -> int:
	return OS.get_static_memory_usage() + int(RenderingServer.get_rendering_info(RenderingServer.RENDERING_INFO_BUFFER_MEM_USED))


## Bytes per rendered instance: TerrainScatter against one MultiMeshInstance3D per chunk.
func _memory() -> void:
	var t := _terrain(256, 1.0)
	for i in 3:
		await process_frame
	var before := _mem()
	var s := TerrainScatter.new()
	s.build_radius = 2000.0
	s.rule_settings = {"grass": {"full_density_distance": 1000.0, "max_distance": 1000.0}}
	t.add_child(s)
	# Driven by update_for_viewer only (no camera-driven frames in between).
	s.set_process(false)
	s.update_for_viewer(Vector3(128, 2, 128), -1)
	for i in 3:
		await process_frame
	var n := s.get_instance_counts().x
	var ours := float(_mem() - before + s.get_memory_usage()) / n
	# The peer: the same placements as one MultiMeshInstance3D node per chunk, from GDScript.
	var mesh: Mesh = load("res://bench/scatter_grass.tres")
	var chunks := {}
	for p in t.get_scatter_placements():
		var c: Vector2i = s.get_chunk_of(p.position)
		if not chunks.has(c):
			chunks[c] = []
		chunks[c].append(Transform3D(Basis(Vector3.UP, deg_to_rad(p.yaw)).scaled(Vector3.ONE * p.scale), p.position))
	s.free()
	for i in 3:
		await process_frame
	var before_peer := _mem()
	var nodes := []
	var m := 0
	for c in chunks:
		var mm := MultiMesh.new()
		mm.transform_format = MultiMesh.TRANSFORM_3D
		mm.mesh = mesh
		mm.instance_count = chunks[c].size()
		for i in chunks[c].size():
			mm.set_instance_transform(i, chunks[c][i])
		var mi := MultiMeshInstance3D.new()
		mi.multimesh = mm
		t.add_child(mi)
		nodes.append(mi)
		m += chunks[c].size()
	for i in 3:
		await process_frame
	var peer := float(_mem() - before_peer) / m
	printerr("scatter: memory, %d instances ours, %d peer" % [n, m])
	print("bench godot_scatter_memory ours=%.1f peer=%.1f ratio=%.3f unit=B" % [ours, peer, peer / ours])
	for mi in nodes:
		mi.free()
	t.queue_free()
	await process_frame

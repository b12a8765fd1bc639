extends SceneTree
## Godot-side benchmark peers for `cargo xtask bench`. Prints `peer <id> <value>` lines that the
## core benchmarks combine with their own measures, and full `bench …` lines for Godot-only
## measures. `-- --quick` uses fewer repetitions (median of at least 3).


const PlainPeer := preload("res://bench/plain_peer.gd")

func _median(samples: Array) -> float:
	samples.sort()
	return samples[samples.size() / 2]


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var quick := OS.get_cmdline_user_args().has("--quick")
	var reps := 3 if quick else 7
	# noise_fbm8_1025: FastNoiseLite Perlin fBm, 8 octaves, frequency 1/256, a 1025² image —
	# the same octaves, frequency and sample count as Ridgeline's measurement.
	var noise := FastNoiseLite.new()
	noise.noise_type = FastNoiseLite.TYPE_PERLIN
	noise.fractal_type = FastNoiseLite.FRACTAL_FBM
	noise.fractal_octaves = 8
	noise.fractal_lacunarity = 2.0
	noise.fractal_gain = 0.5
	noise.frequency = 1.0 / 256.0
	var times := []
	for i in reps:
		var start := Time.get_ticks_usec()
		var image := noise.get_image(1025, 1025)
		times.append((Time.get_ticks_usec() - start) / 1000.0)
		if image == null or image.get_width() != 1025:
			push_error("FastNoiseLite returned no image")
			quit(1)
			return
	print("peer noise_fbm8_1025 %.3f" % _median(times))
	await _bench_terrain_queries(reps)
	await _bench_load_cooked(reps)
	quit(0)


## godot_load_cooked_1km: load a cooked 1 km terrain (1025², 64-cell chunks) until it is shown
## and collidable: payload decode + chunk meshes (all LODs) + collision + server resources.
func _bench_load_cooked(reps: int) -> void:
	var path := "res://fixtures/generated/one_km.terrain.bin"
	var times := []
	for r in reps:
		var start := Time.get_ticks_usec()
		var asset: Resource = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
		var terrain := Terrain3D.new()
		terrain.asset = asset
		root.add_child(terrain)
		var ok := terrain.wait_for_generation()
		times.append((Time.get_ticks_usec() - start) / 1000.0)
		if not ok or terrain.get_chunk_instance_count() != 256:
			push_error("cooked load failed: %s" % terrain.get_last_error())
		terrain.queue_free()
		await process_frame
	print("bench godot_load_cooked_1km ours=%.3f peer=- ratio=- unit=ms" % _median(times))
	await _bench_memory(path)


## godot_memory_1km_headless: memory held for a loaded cooked 1 km terrain (default render
## path, headless: no video memory; the rendered godot_memory_1km is tests/bench/render_world.gd): Godot's static memory delta
## (server meshes, physics shapes, resources) plus the extension's own heap (surface, CPU mesh
## copies, collision data, water), which Godot's counter does not see. Peer: the same 1025²
## surface as a plain Godot HeightMapShape3D + a full-detail ArrayMesh (no LODs), measured the
## same way.
func _bench_memory(path: String) -> void:
	for i in 3:
		await process_frame
	var before := OS.get_static_memory_usage()
	var asset: Resource = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	var terrain := Terrain3D.new()
	terrain.asset = asset
	root.add_child(terrain)
	terrain.wait_for_generation()
	for i in 3:
		await process_frame
	var godot_bytes := OS.get_static_memory_usage() - before
	var usage: Dictionary = terrain.get_memory_usage()
	var ours := (godot_bytes + int(usage["total"])) / 1048576.0
	print("memory godot_static=%.2f MB extension=%.2f MB (surface %.2f, meshes %.2f, collision %.2f, water %.2f)" % [
		godot_bytes / 1048576.0, usage["total"] / 1048576.0, usage["surface"] / 1048576.0,
		usage["meshes"] / 1048576.0, usage["collision"] / 1048576.0, usage["water"] / 1048576.0])
	# Peer: plain Godot resources for the same samples.
	var n := 1025
	var heights := terrain.get_height_rect(Rect2i(0, 0, n, n))
	terrain.queue_free()
	await process_frame
	before = OS.get_static_memory_usage()
	var plain := PlainPeer.build(heights, n)
	var body: RID = plain["body"]
	for i in 3:
		await process_frame
	var peer := (OS.get_static_memory_usage() - before) / 1048576.0
	PhysicsServer3D.free_rid(body)
	print("bench godot_memory_1km_headless ours=%.2f peer=%.2f ratio=%.2f unit=MB" % [ours, peer, peer / ours])


## A 1 km terrain (1025² samples, 64-cell chunks) with about 40 m of relief.
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


func _bench_terrain_queries(reps: int) -> void:
	var terrain := _make_terrain()
	await physics_frame
	await physics_frame
	var rng := RandomNumberGenerator.new()
	rng.seed = 5
	var n := 20000
	var points := PackedVector3Array()
	for i in n:
		points.append(Vector3(rng.randf() * 1024.0, 0.0, rng.randf() * 1024.0))
	# godot_get_height_call: one get_height call from GDScript vs an empty extension call with
	# the same signature and receiver (Vector3 in, float out) on the same object, per call.
	# godot_empty_call: that empty call on its own, against the engine's own Node3D.get_position().
	# Issue #19's method: typed GDScript, 1,000,000 calls per sample, median of 5, the empty loop
	# (the same loop without a call) subtracted. The calls go to 65,536 random points over the
	# whole map, 16 passes (the points touch about 86 % of the map's 4 MB of heights, so this is
	# the steady-state cost of queries spread over the map). A `calls:` line adds the first
	# 20,000 calls after generation (cold caches: each one waits for memory) and the same call at
	# random points within a 64 m square (a character's queries).
	# (Their own generators, so the rays below stay the ones the raycast figures always used.)
	var cold := Time.get_ticks_usec()
	var cold_acc := 0.0
	for p in points:
		cold_acc += terrain.get_height(p)
	var cold_us := float(Time.get_ticks_usec() - cold) / n
	var pool := 65536
	var passes := 16
	var calls := pool * passes
	var far_rng := RandomNumberGenerator.new()
	far_rng.seed = 7
	var far_points := PackedVector3Array()
	for i in pool:
		far_points.append(Vector3(far_rng.randf() * 1024.0, 0.0, far_rng.randf() * 1024.0))
	var near_rng := RandomNumberGenerator.new()
	near_rng.seed = 11
	var near_points := PackedVector3Array()
	for i in pool:
		near_points.append(Vector3(480.0 + near_rng.randf() * 64.0, 0.0, 480.0 + near_rng.randf() * 64.0))
	var near := []
	var ours := []
	var peer := []
	var engine := []
	var bound := []
	var loop := []
	# Five samples in quick runs too: the issue's method (about 2 s).
	for r in 5:
		var start := Time.get_ticks_usec()
		var acc := 0.0
		for pass_i in passes:
			for p in far_points:
				acc += terrain.get_height(p)
		ours.append(float(Time.get_ticks_usec() - start) / calls)
		start = Time.get_ticks_usec()
		for pass_i in passes:
			for p in near_points:
				acc += terrain.get_height(p)
		near.append(float(Time.get_ticks_usec() - start) / calls)
		start = Time.get_ticks_usec()
		for pass_i in passes:
			for p in far_points:
				acc += terrain._empty_query(p)
		peer.append(float(Time.get_ticks_usec() - start) / calls)
		start = Time.get_ticks_usec()
		for pass_i in passes:
			for p in far_points:
				acc += terrain.get_position().x
		engine.append(float(Time.get_ticks_usec() - start) / calls)
		start = Time.get_ticks_usec()
		for pass_i in passes:
			for p in far_points:
				acc += terrain.get_cell_counts().x
		bound.append(float(Time.get_ticks_usec() - start) / calls)
		start = Time.get_ticks_usec()
		for pass_i in passes:
			for p in far_points:
				acc += p.x
		loop.append(float(Time.get_ticks_usec() - start) / calls)
	var base: float = _median(loop)
	var o: float = _median(ours) - base
	var pe: float = _median(peer) - base
	var en: float = _median(engine) - base
	print("bench godot_get_height_call ours=%.3f peer=%.3f ratio=%.2f unit=us" % [o, pe, pe / o])
	print("bench godot_empty_call ours=%.3f peer=%.3f ratio=%.2f unit=us" % [pe, en, en / pe])
	print("calls (raw, per loop iteration, %d calls a sample): get_height %.3f us, empty query (&self) %.3f us, get_cell_counts (&self, returns a Vector2i) %.3f us, Node3D.get_position %.3f us, the loop alone %.3f us" % [calls, _median(ours), _median(peer), _median(bound), _median(engine), base])
	# The whole-map samples' spread: memory latency varies with the machine's neighbours.
	print("calls: get_height over the whole map %.3f us (its five samples %.3f–%.3f), within a 64 m square %.3f us, the first %d calls after generation (cold caches) %.3f us (loop subtracted)" % [o, ours.min() - base, ours.max() - base, _median(near) - base, n, cold_us - base])
	# godot_surface_query: get_surface per call (nearest-sample role, water check), against the
	# same empty call; both raw (loop included), as issue #20 measured them.
	var surf := []
	for r in reps:
		var start := Time.get_ticks_usec()
		var acc_s := 0
		for p in points:
			acc_s += terrain.get_surface(p, false)
		surf.append(float(Time.get_ticks_usec() - start) / n)
	var so: float = _median(surf)
	var pe_raw: float = _median(peer)
	print("bench godot_surface_query ours=%.3f peer=%.3f ratio=%.2f unit=us" % [so, pe_raw, pe_raw / so])
	# The same query under a moving Node3D parent: the transform is fetched on every call.
	var parent := Node3D.new()
	root.add_child(parent)
	terrain.reparent(parent)
	var nested := []
	for r in reps:
		var start := Time.get_ticks_usec()
		var acc := 0.0
		for p in points:
			acc += terrain.get_height(p)
		nested.append(float(Time.get_ticks_usec() - start) / n)
	print("calls: get_height under a Node3D parent (transform fetched per call) %.3f us" % _median(nested))
	terrain.reparent(root)
	parent.free()
	var batch := []
	for r in reps:
		var start := Time.get_ticks_usec()
		var heights := terrain.get_heights(points)
		batch.append(float(Time.get_ticks_usec() - start) * 1000.0 / n)
		if heights.size() != n:
			push_error("get_heights returned %d values" % heights.size())
	print("bench godot_get_heights_batch ours=%.3f peer=- ratio=- unit=ns" % _median(batch))
	# godot_raycast: long slanted rays across the map, Terrain3D.raycast vs
	# PhysicsDirectSpaceState3D.intersect_ray against the terrain's own HeightMapShape3D bodies.
	var space := terrain.get_world_3d().direct_space_state
	var rays := []
	for i in 2000:
		var from := Vector3(rng.randf() * 1024.0, 50.0, 0.0)
		var dir := Vector3(rng.randf() - 0.5, -40.0 / (600.0 + rng.randf() * 600.0), 1.0).normalized()
		rays.append([from, dir])
	var ours_ray := []
	var peer_ray := []
	var hits_ours := 0
	var hits_peer := 0
	for r in reps:
		hits_ours = 0
		var start := Time.get_ticks_usec()
		for ray in rays:
			if not terrain.raycast(ray[0], ray[1], 2000.0).is_empty():
				hits_ours += 1
		ours_ray.append(float(Time.get_ticks_usec() - start) / rays.size())
		hits_peer = 0
		start = Time.get_ticks_usec()
		for ray in rays:
			var q := PhysicsRayQueryParameters3D.create(ray[0], ray[0] + ray[1] * 2000.0)
			if not space.intersect_ray(q).is_empty():
				hits_peer += 1
		peer_ray.append(float(Time.get_ticks_usec() - start) / rays.size())
	if absi(hits_ours - hits_peer) > rays.size() / 50:
		push_error("raycast bench: ours hit %d rays, physics %d" % [hits_ours, hits_peer])
	var orr: float = _median(ours_ray)
	var pr: float = _median(peer_ray)
	print("bench godot_raycast ours=%.3f peer=%.3f ratio=%.2f unit=us" % [orr, pr, pr / orr])
	await _bench_stroke(terrain, reps)
	terrain.queue_free()
	await process_frame


## stroke_godot_20m: one 20 m brush stamp through apply_stroke on the 1 km terrain, until the
## touched chunks' meshes and collision are rebuilt (apply_stroke does that before it returns;
## surface_changed is then queued, and checked to arrive).
func _bench_stroke(terrain: Terrain3D, reps: int) -> void:
	var rng := RandomNumberGenerator.new()
	rng.seed = 21
	var signals := [0]
	terrain.surface_changed.connect(func(_r: Rect2i) -> void: signals[0] += 1)
	var times := []
	var n := reps * 10
	for i in n:
		var stroke := {"type": "raise", "center": [rng.randf_range(50, 970), rng.randf_range(50, 970)], "radius": 10.0, "amount": 0.5}
		var start := Time.get_ticks_usec()
		var ok := terrain.apply_stroke(stroke)
		times.append((Time.get_ticks_usec() - start) / 1000.0)
		if not ok:
			push_error("stroke failed")
	await process_frame
	if signals[0] != n:
		push_error("expected %d surface_changed signals, got %d" % [n, signals[0]])
	print("bench stroke_godot_20m ours=%.3f peer=- ratio=- unit=ms" % _median(times))

extends SceneTree
## godot_raycast_fast for `cargo xtask bench`, run with Jolt Physics (the xtask selects it with a
## temporary override.cfg): long slanted rays across a 1 km terrain through
## Terrain3D.raycast_batch (the hot-loop form: no Dictionary), per ray from GDScript, against
## PhysicsDirectSpaceState3D.intersect_ray (reusing one query object) on one HeightMapShape3D of
## the same 1025² heights. `-- --quick` uses fewer repetitions (median of at least 3).


func _median(samples: Array) -> float:
	samples.sort()
	return samples[samples.size() / 2]


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var quick := OS.get_cmdline_user_args().has("--quick")
	# Each repetition casts 2000 rays (about a millisecond): many of them, so that the median
	# is not one scheduler hiccup on a shared machine.
	var reps := 5 if quick else 25
	var engine := str(ProjectSettings.get_setting("physics/3d/physics_engine"))
	if engine != "Jolt Physics":
		push_error("raycast_fast.gd must run with Jolt Physics, got %s" % engine)
		quit(1)
		return
	var terrain := Terrain3D.new()
	terrain.recipe = JSON.stringify({
		"size": [1024, 1024], "resolution": [1024, 1024], "seed": 3, "chunk_cells": 64,
		"landforms": {"hills": {"base_height": 0, "height_variation": 40, "feature_size": 300,
			"roughness": 0.5, "octaves": 6}},
		"default_landform": "hills"})
	# The terrain's own collision would be hit by the peer's rays too: keep it off every layer.
	terrain.collision_layer = 0
	terrain.collision_mask = 0
	root.add_child(terrain)
	if not terrain.wait_for_generation():
		push_error("generation failed: %s" % terrain.get_last_error())
		quit(1)
		return
	# Peer: one HeightMapShape3D of the same samples (centred on its grid, one unit per sample).
	var n := 1025
	var grid := PackedVector3Array()
	grid.resize(n * n)
	for z in n:
		for x in n:
			grid[z * n + x] = Vector3(x, 0, z)
	var heights := terrain.get_heights(grid)
	var shape := HeightMapShape3D.new()
	shape.map_width = n
	shape.map_depth = n
	shape.map_data = heights
	var body := StaticBody3D.new()
	var collider := CollisionShape3D.new()
	collider.shape = shape
	body.add_child(collider)
	body.position = Vector3((n - 1) * 0.5, 0, (n - 1) * 0.5)
	root.add_child(body)
	await physics_frame
	await physics_frame
	var space := body.get_world_3d().direct_space_state
	# The godot_raycast rays: long and slanted, across the map.
	var rng := RandomNumberGenerator.new()
	rng.seed = 5
	for i in 20000:
		rng.randf()
		rng.randf()
	var count := 2000
	var origins := PackedVector3Array()
	var directions := PackedVector3Array()
	for i in count:
		origins.append(Vector3(rng.randf() * 1024.0, 50.0, 0.0))
		directions.append(Vector3(rng.randf() - 0.5, -40.0 / (600.0 + rng.randf() * 600.0), 1.0).normalized())
	var ours := []
	var dict := []
	var into := []
	var hit := TerrainRayHit.new()
	var peer := []
	var hits_ours := 0
	var hits_peer := 0
	var query := PhysicsRayQueryParameters3D.new()
	for r in reps:
		var start := Time.get_ticks_usec()
		var results := terrain.raycast_batch(origins, directions, 2000.0)
		ours.append(float(Time.get_ticks_usec() - start) / count)
		hits_ours = 0
		for v in results:
			if not is_nan(v.w):
				hits_ours += 1
		start = Time.get_ticks_usec()
		for i in count:
			terrain.raycast(origins[i], directions[i], 2000.0)
		dict.append(float(Time.get_ticks_usec() - start) / count)
		start = Time.get_ticks_usec()
		for i in count:
			terrain.raycast_into(origins[i], directions[i], 2000.0, hit)
		into.append(float(Time.get_ticks_usec() - start) / count)
		hits_peer = 0
		start = Time.get_ticks_usec()
		for i in count:
			query.from = origins[i]
			query.to = origins[i] + directions[i] * 2000.0
			if not space.intersect_ray(query).is_empty():
				hits_peer += 1
		peer.append(float(Time.get_ticks_usec() - start) / count)
	if absi(hits_ours - hits_peer) > count / 50:
		push_error("raycast_fast: ours hit %d rays, Jolt %d" % [hits_ours, hits_peer])
		quit(1)
		return
	var o: float = _median(ours)
	var p: float = _median(peer)
	print("raycast fast: %d of %d rays hit (Jolt: %d); Terrain3D.raycast with its Dictionary costs %.3f us per ray" % [hits_ours, count, hits_peer, _median(dict)])
	print("bench godot_raycast_fast ours=%.3f peer=%.3f ratio=%.2f unit=us" % [o, p, p / o])
	var oi: float = _median(into)
	print("bench godot_raycast_into ours=%.3f peer=%.3f ratio=%.2f unit=us" % [oi, p, p / oi])
	terrain.free()
	body.free()
	quit(0)

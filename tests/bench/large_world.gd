extends SceneTree
## Large worlds (issue #19), printed as `bench …` lines:
## - godot_load_cooked_4km: load a cooked 4 km terrain (4097² samples at 1 m, 64-cell chunks)
##   until it is shown and collidable near a body (payload decode, chunk meshes with LODs,
##   server resources, and the chunk shapes near a frozen RigidBody3D at the centre: 4 km uses
##   near-bodies collision, so a physics ray there hitting the terrain ends the timing; and GPU
##   patches, so no chunk meshes are built).
##   Goal ≤ 1500 ms.
## - godot_memory_4km: Godot's static memory delta plus the extension's heap for that terrain
##   (the same measure as godot_memory_1km; headless, so no video memory).
## The cooked fixture is res://fixtures/generated/four_km.terrain.bin (`cargo xtask bench`
## cooks tests/bench/four_km.terrain.json). `-- --km=8` loads eight_km.terrain.bin instead
## (8193², cooked by hand with `ridgeline cook`; not part of `cargo xtask bench`) and prints
## godot_load_cooked_8km / godot_memory_8km.


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var km := 4
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--km="):
			km = a.substr(5).to_int()
	var path := "res://fixtures/generated/%s_km.terrain.bin" % ("eight" if km == 8 else "four")
	var side := 1024 * km / 64
	for i in 3:
		await process_frame
	var centre := Vector3(512.0 * km, 0.0, 512.0 * km)
	var body := RigidBody3D.new()
	body.freeze = true
	body.collision_layer = 2
	root.add_child(body)
	body.global_position = centre + Vector3(0, 5000, 0)
	var before := OS.get_static_memory_usage()
	var start := Time.get_ticks_usec()
	var asset: Resource = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	var loaded := Time.get_ticks_usec()
	var terrain := Terrain3D.new()
	terrain.asset = asset
	root.add_child(terrain)
	var ok := terrain.wait_for_generation()
	var space := root.get_world_3d().direct_space_state
	var ray := PhysicsRayQueryParameters3D.create(centre + Vector3(0, 6000, 0), centre - Vector3(0, 6000, 0), 1)
	for i in 10:
		if ok and not space.intersect_ray(ray).is_empty():
			break
		await physics_frame
	var shown := Time.get_ticks_usec()
	if space.intersect_ray(ray).is_empty():
		printerr("large world bench: no collision under the body at the centre")
		quit(1)
		return
	if not ok:
		printerr("large world bench: the 4 km terrain did not load: %s" % terrain.get_last_error())
		quit(1)
		return
	var chunks := terrain.get_chunk_instance_count()
	if terrain.get_render_path_in_use() == Terrain3D.RENDER_GPU:
		chunks = int(terrain.get_collision_info()["total_chunks"])
	if chunks != side * side:
		printerr("large world bench: %d chunk instances, expected %d" % [chunks, side * side])
		quit(1)
		return
	var h := terrain.get_height(Vector3(512.0 * km, 0.0, 512.0 * km))
	if is_nan(h):
		printerr("large world bench: no height at the centre")
		quit(1)
		return
	for i in 3:
		await process_frame
	var godot_bytes := OS.get_static_memory_usage() - before
	var usage: Dictionary = terrain.get_memory_usage()
	var total := (godot_bytes + int(usage["total"])) / 1048576.0
	printerr("large world bench (%d km): resource load %.0f ms, shown and collidable %.0f ms; memory godot_static=%.1f MB extension=%.1f MB (surface %.1f, meshes %.1f, collision %.1f); collision %s" % [
		km, (loaded - start) / 1000.0, (shown - start) / 1000.0, godot_bytes / 1048576.0,
		usage["total"] / 1048576.0, usage["surface"] / 1048576.0, usage["meshes"] / 1048576.0,
		usage["collision"] / 1048576.0, terrain.get_collision_info()])
	printerr("large world bench: %s; %s" % [terrain.get_render_path_reason(), terrain.get_patch_info()])
	print("bench godot_load_cooked_%dkm ours=%.1f peer=- ratio=- unit=ms" % [km, (shown - start) / 1000.0])
	print("bench godot_memory_%dkm ours=%.1f peer=- ratio=- unit=MB" % [km, total])
	terrain.queue_free()
	body.queue_free()
	await process_frame
	quit(0)

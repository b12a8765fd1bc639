extends SceneTree
## godot_lod_primitives: primitives drawn for the cooked 1 km terrain seen from 100 m altitude,
## with lod_error_pixels 2 versus 0 (full detail), from Godot's rendering statistics in rendered
## frames. Needs a renderer (run under Xvfb by `cargo xtask bench`).


func _initialize() -> void:
	_run.call_deferred()


func _primitives() -> int:
	# Statistics describe the previous frame; let a few frames settle.
	for i in 4:
		await process_frame
	await RenderingServer.frame_post_draw
	return RenderingServer.get_rendering_info(RenderingServer.RENDERING_INFO_TOTAL_PRIMITIVES_IN_FRAME)


func _run() -> void:
	var terrain := Terrain3D.new()
	terrain.asset = ResourceLoader.load("res://fixtures/generated/one_km.terrain.bin")
	root.add_child(terrain)
	if not terrain.wait_for_generation():
		push_error("terrain failed: %s" % terrain.get_last_error())
		quit(1)
		return
	var camera := Camera3D.new()
	camera.far = 5000.0
	root.add_child(camera)
	var ground := terrain.get_height(Vector3(512, 0, 200))
	camera.position = Vector3(512, ground + 100.0, 200)
	camera.look_at(Vector3(512, ground, 700))
	camera.make_current()
	var sun := DirectionalLight3D.new()
	root.add_child(sun)
	# godot_lod_primitives is the mesh path's; the GPU path's follows below.
	terrain.render_path = Terrain3D.RENDER_MESH
	terrain.lod_error_pixels = 0.0
	var full := await _primitives()
	terrain.lod_error_pixels = 2.0
	var lod := await _primitives()
	if full <= 0:
		push_error("no primitives were drawn")
		quit(1)
		return
	print("bench godot_lod_primitives ours=%.3f peer=- ratio=- unit=%%" % (100.0 * lod / full))
	print("lod primitives: %d at 2 px vs %d at full detail" % [lod, full])
	# Accuracy check of the pixel-error mapping: from a low camera the horizon silhouette is
	# where vertical error shows most; at 2 px it must stay within a few pixels of full detail.
	camera.position = Vector3(512, ground + 20.0, 200)
	camera.look_at(Vector3(512, ground + 10.0, 700))
	terrain.lod_error_pixels = 0.0
	var base := _silhouette(await _image())
	terrain.lod_error_pixels = 2.0
	var coarse := _silhouette(await _image())
	var worst := 0
	for x in base.size():
		worst = maxi(worst, absi(coarse[x] - base[x]))
	print("lod accuracy: horizon silhouette moves at most %d px at lod_error_pixels 2" % worst)
	# The same two measures on the GPU path (godot_lod_primitives_gpu): patches picked per
	# frame by projected error, same allowance.
	terrain.render_path = Terrain3D.RENDER_GPU
	camera.position = Vector3(512, ground + 100.0, 200)
	camera.look_at(Vector3(512, ground, 700))
	terrain.lod_error_pixels = 0.0
	var full_gpu := await _primitives()
	terrain.lod_error_pixels = 2.0
	var lod_gpu := await _primitives()
	print("bench godot_lod_primitives_gpu ours=%.3f peer=- ratio=- unit=%%" % (100.0 * lod_gpu / maxi(full_gpu, 1)))
	print("lod primitives: GPU path %d at 2 px vs %d at full detail" % [lod_gpu, full_gpu])
	camera.position = Vector3(512, ground + 20.0, 200)
	camera.look_at(Vector3(512, ground + 10.0, 700))
	terrain.lod_error_pixels = 0.0
	var base_gpu := _silhouette(await _image())
	terrain.lod_error_pixels = 2.0
	var coarse_gpu := _silhouette(await _image())
	var worst_gpu := 0
	var worst_vs_mesh := 0
	for x in base_gpu.size():
		worst_gpu = maxi(worst_gpu, absi(coarse_gpu[x] - base_gpu[x]))
		worst_vs_mesh = maxi(worst_vs_mesh, absi(base_gpu[x] - base[x]))
	print("lod accuracy: GPU path horizon silhouette moves at most %d px at lod_error_pixels 2 (full detail vs the mesh path's: %d px)" % [worst_gpu, worst_vs_mesh])
	terrain.render_path = Terrain3D.RENDER_MESH
	terrain.lod_error_pixels = 2.0
	# The same 20 m stamp as stroke_godot_20m, with a real renderer receiving the new meshes.
	var times := []
	var rng := RandomNumberGenerator.new()
	rng.seed = 21
	for i in 30:
		var start := Time.get_ticks_usec()
		terrain.apply_stroke({"type": "raise", "center": [rng.randf_range(50, 970), rng.randf_range(50, 970)], "radius": 10.0, "amount": 0.5})
		times.append((Time.get_ticks_usec() - start) / 1000.0)
	times.sort()
	print("stroke rendered: a 20 m stamp through apply_stroke takes %.3f ms (median) with OpenGL" % times[times.size() / 2])
	quit(0)


func _image() -> Image:
	for i in 4:
		await process_frame
	await RenderingServer.frame_post_draw
	return root.get_viewport().get_texture().get_image()


## Per column, the first row (from the top) that differs from the sky colour.
func _silhouette(img: Image) -> PackedInt32Array:
	var out := PackedInt32Array()
	var sky := img.get_pixel(img.get_width() / 2, 0)
	for x in img.get_width():
		var top := img.get_height()
		for y in img.get_height():
			var c := img.get_pixel(x, y)
			if absf(c.r - sky.r) + absf(c.g - sky.g) + absf(c.b - sky.b) > 0.08:
				top = y
				break
		out.append(top)
	return out

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
	quit(0)

extends SceneTree
var camera: Camera3D
func _initialize() -> void:
	_run.call_deferred()
func _settle(n: int) -> void:
	for i in n:
		await process_frame
	await RenderingServer.frame_post_draw
func _video() -> int:
	return RenderingServer.get_rendering_info(RenderingServer.RENDERING_INFO_VIDEO_MEM_USED)
func _run() -> void:
	camera = Camera3D.new()
	camera.far = 8000.0
	root.add_child(camera)
	camera.position = Vector3(100, 300, 100)
	camera.look_at(Vector3(512, 0, 512))
	camera.make_current()
	var sun := DirectionalLight3D.new()
	root.add_child(sun)
	await _settle(4)
	var s0 := OS.get_static_memory_usage()
	var v0 := _video()
	var asset = ResourceLoader.load("res://fixtures/generated/one_km.terrain.bin", "", ResourceLoader.CACHE_MODE_IGNORE)
	await _settle(2)
	printerr("asset only: static %.2f video %.2f" % [(OS.get_static_memory_usage() - s0) / 1048576.0, (_video() - v0) / 1048576.0])
	for mode in [Terrain3D.COLLISION_FULL, Terrain3D.COLLISION_NEAR_BODIES]:
		var s1 := OS.get_static_memory_usage()
		var v1 := _video()
		var terrain := Terrain3D.new()
		terrain.collision_mode = mode
		terrain.asset = asset
		root.add_child(terrain)
		terrain.wait_for_generation()
		await _settle(4)
		printerr("terrain collision %d: static %.2f video %.2f ext %.2f info %s" % [mode, (OS.get_static_memory_usage() - s1) / 1048576.0, (_video() - v1) / 1048576.0, terrain.get_memory_usage()["total"] / 1048576.0, terrain.get_patch_info()])
		terrain.visible = false
		await _settle(3)
		printerr("  hidden: static %.2f video %.2f" % [(OS.get_static_memory_usage() - s1) / 1048576.0, (_video() - v1) / 1048576.0])
		terrain.queue_free()
		await _settle(3)
		printerr("  freed: static %.2f video %.2f" % [(OS.get_static_memory_usage() - s1) / 1048576.0, (_video() - v1) / 1048576.0])
	quit(0)

extends SceneTree
## Water render views: opens the demo scene (run with `--path demo_project`), waits for the
## terrain, then places the demo's Camera3D a few metres above the river and a lake shore (heights
## from `Terrain3D.get_height`, water from `TerrainWater.sample`) and saves one PNG per view into
## the directory given by `--out=DIR`. `cargo xtask test` runs it under Xvfb (OpenGL 3) and checks
## image statistics of the saved views (see rust/xtask/src/water_views.rs).
##
## Views: `river_bank` (5 m above the river's bank, looking along it), `river_low` (3 m above the
## water, looking across), `lake_shore` (6 m above a lake's shore, looking over the lake),
## `underwater` (2 m below the lake surface where it is 5 m deep, looking along the shore),
## `above_water` (the same column 3 m above the surface),
## `underwater_off` and `above_water_off` (those two with TerrainWaterSurface.underwater off) and
## `river_low_dry` (`river_low` with the terrain's TerrainWaterSurface hidden).

var out_dir := "."
## Optional: a water shader file to try as the water node's material override.
var shader_path := ""
var main: Node3D
var terrain: Terrain3D
var camera: Camera3D


func _initialize() -> void:
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--out="):
			out_dir = arg.trim_prefix("--out=")
		if arg.begins_with("--shader="):
			shader_path = arg.trim_prefix("--shader=")
	_run.call_deferred()


func _run() -> void:
	var scene: PackedScene = load("res://main.tscn")
	main = scene.instantiate()
	root.add_child(main)
	terrain = main.get_node("Terrain3D")
	camera = main.get_node("Camera3D")
	while terrain.is_generating() or terrain.get_size() == Vector2.ZERO:
		await process_frame
	# Let main.gd's finish handler run (it moves the camera and sculpts), then take over.
	for i in 10:
		await physics_frame
	if shader_path != "":
		var shader := Shader.new()
		shader.code = FileAccess.get_file_as_string(shader_path)
		var mat := ShaderMaterial.new()
		mat.shader = shader
		mat.set_shader_parameter("gl_depth_range", RenderingServer.get_current_rendering_method() == "gl_compatibility")
		for child in terrain.get_children(true):
			if child is TerrainWaterSurface:
				child.material_override = mat
	var hud := main.get_node_or_null("HUD")
	if hud:
		hud.visible = false
	var views := _views()
	if views.is_empty():
		push_error("water views: no river or lake found on the demo terrain")
		quit(1)
		return
	for name in views:
		if not await _shoot(name, views[name]):
			return
	# The lake views again with the underwater view switched off: what the tint must differ
	# from under water, and equal above it.
	var water_node: TerrainWaterSurface = null
	for child in terrain.get_children(true):
		if child is TerrainWaterSurface:
			water_node = child
	if water_node:
		water_node.underwater = false
		for name in ["underwater", "above_water"]:
			if views.has(name) and not await _shoot(name + "_off", views[name]):
				return
		water_node.underwater = true
	# The river view again without the water node: what refraction must differ from.
	if views.has("river_low"):
		for child in terrain.get_children(true):
			if child is TerrainWaterSurface:
				child.visible = false
		if not await _shoot("river_low_dry", views["river_low"]):
			return
	quit(0)


func _shoot(name: String, v: Array) -> bool:
	camera.position = v[0]
	camera.look_at(v[1])
	for i in 6:
		await process_frame
	await RenderingServer.frame_post_draw
	var image := root.get_viewport().get_texture().get_image()
	var path := out_dir.path_join(name + ".png")
	if image.save_png(path) != OK:
		push_error("water views: could not save %s" % path)
		quit(1)
		return false
	var s := TerrainWater.sample(camera.global_position)
	print("water view %s: camera %s, underwater %s, saved %s" % [name, camera.position, s != null and s.underwater, path])
	return true


func _ground(x: float, z: float) -> float:
	return terrain.get_height(Vector3(x, 0.0, z))


## name -> [camera position, look-at target]
func _views() -> Dictionary:
	var views := {}
	# The river: the demo's authored path runs through (480, 520) and (700, 600).
	var a := Vector3(480.0, 0.0, 520.0)
	var b := Vector3(700.0, 0.0, 600.0)
	var along := (b - a).normalized()
	var across := Vector3(-along.z, 0.0, along.x)
	var river := TerrainWater.sample(a + Vector3(0, 100, 0))
	if river:
		# Walk across the channel to the first dry sample: the bank.
		var bank := a
		for i in 60:
			bank = a + across * float(i)
			if TerrainWater.sample(bank + Vector3(0, 200, 0)) == null:
				break
		var cam := bank + across * 2.0 - along * 10.0
		cam.y = _ground(cam.x, cam.z) + 5.0
		var target := bank + along * 30.0 - across * 6.0
		target.y = river.surface.y
		views["river_bank"] = [cam, target]
		var low := a - across * 4.0 - along * 4.0
		low.y = river.surface.y + 3.0
		var far := a + across * 20.0 + along * 20.0
		far.y = river.surface.y
		views["river_low"] = [low, far]
	# A lake: scan for the widest lake column, then back off to its shore.
	var best := Vector3.ZERO
	var best_depth := 0.0
	var size := terrain.get_size()
	for zi in 64:
		for xi in 64:
			var p := Vector3((xi + 0.5) * size.x / 64.0, 400.0, (zi + 0.5) * size.y / 64.0)
			var s := TerrainWater.sample(p)
			if s and s.kind == WaterSample.KIND_LAKE and s.depth > best_depth:
				best_depth = s.depth
				best = Vector3(p.x, s.surface.y, p.z)
	if best_depth > 0.0:
		var dir := Vector3(1, 0, 0.3).normalized()
		var shore := best
		for i in 400:
			shore = best + dir * float(i)
			if TerrainWater.sample(shore + Vector3(0, 400, 0)) == null:
				break
		var cam := shore + dir * 4.0
		cam.y = maxf(_ground(cam.x, cam.z), best.y) + 6.0
		views["lake_shore"] = [cam, best + Vector3(0, -1.0, 0)]
		# Under water: back from the shore to where the lake is 5 m deep, 2 m below the surface,
		# looking along the shore (the bank on one side, open water on the other).
		var mid := best.lerp(shore, 0.5)
		for i in 400:
			var p := shore - dir * float(i)
			var s := TerrainWater.sample(p + Vector3(0, 400, 0))
			if s and s.depth >= minf(5.0, best_depth * 0.8):
				mid = Vector3(p.x, best.y, p.z)
				break
		var under := Vector3(mid.x, best.y - 2.0, mid.z)
		var along_shore := Vector3(-dir.z, 0.0, dir.x)
		var ahead := under + along_shore * 20.0 + dir * 6.0 + Vector3(0, -2.5, 0)
		views["underwater"] = [under, ahead]
		var above := Vector3(mid.x, best.y + 3.0, mid.z)
		views["above_water"] = [above, Vector3(ahead.x, best.y, ahead.z)]
	return views

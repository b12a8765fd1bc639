extends SceneTree
## Render-path views: opens the demo scene (run with `--path demo_project`), waits for the
## terrain, hides the water, the HUD and the sky (a flat magenta background, so terrain pixels
## are exactly the non-magenta ones), and saves each view twice into `--out=DIR`: drawn with
## chunk meshes (`<view>_mesh.png`) and with GPU patches (`<view>_gpu.png`), at the default
## `lod_error_pixels` 2. Then, on the GPU path only, a `raise` stroke and a hole in view of
## `stroke`: `stroke_after_gpu.png`, and the same edits on the mesh path,
## `stroke_after_mesh.png`, and both paths from straight above the hole, `hole_<path>.png`.
## `cargo xtask test` runs it under Xvfb and judges the pictures
## (rust/xtask/src/patch_views.rs): silhouettes within 2 px, no background showing through the
## ground (cracks) — also with the GPU path's skirts off (`*_stitched_gpu.png`: stitched edges
## alone; `*_bare_gpu.png`: neither, for comparison) — edits drawn.
##
## Views: `overview` (high, looking over the whole terrain), `grazing` (2 m above the ground,
## looking along it: the horizon silhouette), `stroke` (40 m up, looking down at the edit),
## `wall` (from outside the terrain, at the wall along its -Z border); after the edits, `spike`
## (a 1500 m raise seen from 1 km away: the GPU path on 32-bit height texels) and `shadow` (a
## low sun at the back of a camera looking away from the spike: the spike's shadow, and the
## shadows of the other ground behind the camera, fall into the view; the GPU path draws the
## chunks the camera does not see into the shadow map as the mesh path does).
## Last, `far_chunks`: the terrain replaced by a 2100 m strip of 5-cell chunks, seen from above
## its far end (chunks whose first sample is past 2048, which 16-bit floats do not hold exactly).
## `patches.json` records each GPU view's `Terrain3D.get_patch_info()`.

const BACKGROUND := Color(1.0, 0.0, 1.0)

var out_dir := "."
var main: Node3D
var terrain: Terrain3D
var camera: Camera3D
var report := {}


func _initialize() -> void:
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--out="):
			out_dir = arg.trim_prefix("--out=")
	_run.call_deferred()


func _run() -> void:
	var scene: PackedScene = load("res://main.tscn")
	main = scene.instantiate()
	root.add_child(main)
	terrain = main.get_node("Terrain3D")
	camera = main.get_node("Camera3D")
	while terrain.is_generating() or terrain.get_size() == Vector2.ZERO:
		await process_frame
	for i in 10:
		await physics_frame
	var hud := main.get_node_or_null("HUD")
	if hud:
		hud.visible = false
	var env: Environment = main.get_node("WorldEnvironment").environment
	env.background_mode = Environment.BG_COLOR
	env.background_color = BACKGROUND
	env.fog_enabled = false
	env.volumetric_fog_enabled = false
	env.glow_enabled = false
	env.tonemap_mode = Environment.TONE_MAPPER_LINEAR
	# Only the terrain: water, scatter, props and moving objects hidden (they move between
	# the two pictures of a view).
	_hide_visuals(main)
	var size := terrain.get_size()
	var c := Vector3(size.x * 0.5, 0.0, size.y * 0.5)
	var views := {
		"overview": [Vector3(size.x * 0.1, _ground(c.x, c.z) + size.x * 0.35, size.y * 0.1), c],
		"grazing": [_above(size.x * 0.3, size.y * 0.35, 2.0), _above(size.x * 0.9, size.y * 0.75, 0.0)],
		"stroke": [_above(c.x - 30.0, c.z - 30.0, 40.0), _above(c.x, c.z, 0.0)],
		"wall": [Vector3(size.x * 0.3, _ground(size.x * 0.45, 0.0) + 30.0, -size.y * 0.12), Vector3(size.x * 0.45, _ground(size.x * 0.45, 0.0) - 15.0, 0.0)],
	}
	for name in views:
		for path in ["mesh", "gpu"]:
			if not await _shoot(name, path, views[name]):
				return
	# The seams between levels with the skirts off: stitched edges alone, then neither.
	for name in ["overview", "grazing"]:
		for seams in [["stitched", true], ["bare", false]]:
			terrain.render_path = Terrain3D.RENDER_GPU
			terrain._set_patch_seams(false, seams[1])
			if not await _shoot("%s_%s" % [name, seams[0]], "gpu", views[name]):
				return
	terrain._set_patch_seams(true, true)
	# Edits in view of `stroke`: raise a mound and cut a hole beside it.
	var stroke := {"type": "raise", "center": [c.x, c.z], "radius": 12.0, "amount": 8.0, "strength": 1.0}
	var hole := {"type": "hole", "center": [c.x + 14.0, c.z - 10.0], "radius": 5.0}
	terrain.render_path = Terrain3D.RENDER_GPU
	if not (terrain.apply_stroke(stroke) and terrain.apply_stroke(hole)):
		push_error("patch views: the edits failed: %s" % terrain.get_last_error())
		quit(1)
		return
	print("patch views: hole at %s: height %s" % [hole["center"], _ground(c.x + 14.0, c.z - 10.0)])
	if not await _shoot("stroke_after", "gpu", views["stroke"]):
		return
	if not await _shoot("stroke_after", "mesh", views["stroke"]):
		return
	var above_hole := [Vector3(c.x + 14.0, _ground(c.x + 20.0, c.z) + 50.0, c.z - 10.0 + 0.01), Vector3(c.x + 14.0, 0.0, c.z - 10.0)]
	for path in ["mesh", "gpu"]:
		if not await _shoot("hole", path, above_hole):
			return
	# A 1500 m spike: the ground spans more than 16-bit height texels hold at 1 m, so the GPU
	# path switches to 32-bit texels (height_code (0, 0)); both paths must still agree.
	var spike_at := Vector2(c.x - 150.0, c.z + 120.0)
	var spike := {"type": "raise", "center": [spike_at.x, spike_at.y], "radius": 40.0, "amount": 1500.0, "strength": 1.0}
	if not terrain.apply_stroke(spike):
		push_error("patch views: the spike failed: %s" % terrain.get_last_error())
		quit(1)
		return
	var top := _ground(spike_at.x, spike_at.y)
	var spike_view := [Vector3(spike_at.x - 900.0, top * 1.2, spike_at.y - 700.0), Vector3(spike_at.x, top * 0.5, spike_at.y)]
	for path in ["gpu", "mesh"]:
		if not await _shoot("spike", path, spike_view):
			return
	if report["spike_gpu"]["height_code"] != Vector2.ZERO:
		push_error("patch views: a 1500 m spike kept 16-bit height texels: %s" % report["spike_gpu"])
		quit(1)
		return
	# Shadows cast from behind the camera: a low sun at the camera's back, looking down the
	# valley away from the 1500 m spike, which stands behind the camera and outside its view:
	# its shadow falls into the view only if the terrain the camera does not see is drawn into
	# the shadow map.
	var sun: DirectionalLight3D = main.get_node("Sun")
	var sun_xform := sun.global_transform
	var eye := _above(spike_at.x + 120.0, spike_at.y - 120.0, 60.0)
	var ahead := _above(spike_at.x + 280.0, spike_at.y - 280.0, 0.0)
	if not (is_finite(eye.y) and is_finite(ahead.y)):
		push_error("patch views: the shadow view leaves the terrain: %s → %s" % [eye, ahead])
		quit(1)
		return
	var travel := Vector3(1.0, 0.0, -1.0).normalized()
	travel = (travel + Vector3(0.0, -0.35, 0.0)).normalized()
	sun.global_transform = Transform3D(Basis.looking_at(travel), Vector3(0.0, 500.0, 0.0))
	for path in ["gpu", "mesh"]:
		if not await _shoot("shadow", path, [eye, ahead]):
			return
	sun.global_transform = sun_xform
	# Chunks past the 2048th sample: a 2100 m strip of 5-cell chunks (odd first samples, which
	# 16-bit floats round: the GPU path once passed first samples in instance custom data, so
	# these chunks were drawn a sample off, with slits between them), seen from above its far end.
	# A terrain of its own (the demo's scene reacts to its terrain's generation and follows it
	# every frame: the scene stops processing), the demo's terrain and bodies gone.
	main.process_mode = Node.PROCESS_MODE_DISABLED
	main.remove_child(terrain)
	var demo_terrain := terrain
	for child in main.get_children():
		if child is PhysicsBody3D:
			child.queue_free()
	terrain = Terrain3D.new()
	terrain.recipe = JSON.stringify({"size": [2100, 40], "resolution": [2100, 40], "seed": 5, "chunk_cells": 5,
		"landforms": {"hills": {"base_height": 0, "height_variation": 12, "feature_size": 30}},
		"default_landform": "hills"})
	root.add_child(terrain)
	terrain.wait_for_generation()
	for i in 4:
		await physics_frame
	var far := [_above(2098.0, 20.0, 30.0), _above(2040.0, 20.0, 0.0)]
	for path in ["gpu", "mesh"]:
		if not await _shoot("far_chunks", path, far):
			return
	demo_terrain.free()
	var f := FileAccess.open(out_dir.path_join("patches.json"), FileAccess.WRITE)
	f.store_string(JSON.stringify(report, "  "))
	f.close()
	quit(0)


func _shoot(name: String, path: String, v: Array) -> bool:
	terrain.render_path = Terrain3D.RENDER_GPU if path == "gpu" else Terrain3D.RENDER_MESH
	camera.position = v[0]
	camera.look_at(v[1])
	for i in 8:
		await process_frame
	await RenderingServer.frame_post_draw
	var image := root.get_viewport().get_texture().get_image()
	var file := out_dir.path_join("%s_%s.png" % [name, path])
	if image.save_png(file) != OK:
		push_error("patch views: could not save %s" % file)
		quit(1)
		return false
	var info := terrain.get_patch_info()
	if path == "gpu":
		report["%s_%s" % [name, path]] = info
	print("patch view %s (%s, %s): %s" % [name, path, terrain.get_render_path_reason(), info])
	return true


func _hide_visuals(node: Node) -> void:
	for child in node.get_children(true):
		if child is GeometryInstance3D or child is TerrainScatter:
			child.visible = false
		_hide_visuals(child)


func _ground(x: float, z: float) -> float:
	return terrain.get_height(Vector3(x, 0.0, z))


func _above(x: float, z: float, up: float) -> Vector3:
	return Vector3(x, _ground(x, z) + up, z)

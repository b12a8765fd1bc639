extends SceneTree
## Surface-role render views: opens the demo scene (run with `--path demo_project`), waits for the
## terrain, hides everything but the terrain (HUD, water, scatter, props), disables fog and looks
## straight down on the middle of the terrain with an orthographic camera, once per look
## (realistic, faceted). For every other pixel it asks the terrain which surface role is there
## (`Terrain3D.get_surface_role` at the pixel's world position, exact for a top-down orthographic
## view) and keeps pixels whose neighbourhood (±1.5 cells) has one role. Writes
## `<look>.png`, `roles.png` (the role map, one colour per role) and `roles.json` (per look: mean
## brightness, correlation ratio of pixel colour to role, per-role pixel counts and mean colours)
## into the directory given by `--out=DIR`. `cargo xtask test` runs it under Xvfb (OpenGL 3) and
## judges the statistics (rust/xtask/src/role_views.rs).

const ROLE_COLOURS := {
	"ground": Color(0.55, 0.4, 0.25), "grass": Color(0.2, 0.7, 0.2), "rock": Color(0.5, 0.5, 0.5),
	"cliff": Color(0.3, 0.3, 0.35), "sediment": Color(0.7, 0.6, 0.3), "sand": Color(0.95, 0.85, 0.5),
	"snow": Color(1, 1, 1), "wet_ground": Color(0.2, 0.3, 0.5), "underwater": Color(0, 0.2, 0.8),
}

var out_dir := "."
var main: Node3D
var terrain: Terrain3D
var camera: Camera3D


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
	_hide_all_but_the_terrain()
	var size := terrain.get_size()
	var origin := terrain.global_position
	var span := size.y * 0.5
	var centre := origin + Vector3(size.x * 0.5, 0.0, size.y * 0.5)
	camera.projection = Camera3D.PROJECTION_ORTHOGONAL
	camera.keep_aspect = Camera3D.KEEP_HEIGHT
	camera.size = span
	camera.near = 1.0
	camera.far = 5000.0
	camera.position = centre + Vector3(0, 2500.0, 0)
	camera.look_at(centre, Vector3(0, 0, -1))
	var w := root.get_viewport().get_visible_rect().size.x
	var h := root.get_viewport().get_visible_rect().size.y
	var mpp := span / h
	var cell := size.x / float(terrain.get_cell_counts().x)
	# The role map, sampled once (it does not depend on the look).
	var step := 2
	var roles := {}
	var role_image := Image.create(int(w), int(h), false, Image.FORMAT_RGB8)
	var d := 1.5 * cell
	for py in range(0, int(h), step):
		for px in range(0, int(w), step):
			var p := centre + Vector3((px + 0.5 - w * 0.5) * mpp, 0.0, (py + 0.5 - h * 0.5) * mpp)
			var r := String(terrain.get_surface_role(p))
			if r == "":
				continue
			role_image.fill_rect(Rect2i(px, py, step, step), ROLE_COLOURS.get(r, Color.MAGENTA))
			var uniform := true
			for o in [Vector3(d, 0, 0), Vector3(-d, 0, 0), Vector3(0, 0, d), Vector3(0, 0, -d)]:
				if String(terrain.get_surface_role(p + o)) != r:
					uniform = false
					break
			if uniform:
				roles[Vector2i(px, py)] = r
	role_image.save_png(out_dir.path_join("roles.png"))
	var report := {"cell": cell, "metres_per_pixel": mpp, "looks": {}}
	for look in ["realistic", "faceted"]:
		terrain.look = Terrain3D.LOOK_FACETED if look == "faceted" else Terrain3D.LOOK_REALISTIC
		for i in 8:
			await process_frame
		await RenderingServer.frame_post_draw
		var image := root.get_viewport().get_texture().get_image()
		image.save_png(out_dir.path_join(look + ".png"))
		report["looks"][look] = _statistics(image, roles)
	var f := FileAccess.open(out_dir.path_join("roles.json"), FileAccess.WRITE)
	if f == null:
		push_error("role views: cannot write into %s" % out_dir)
		quit(1)
		return
	f.store_string(JSON.stringify(report, "  "))
	f.close()
	quit(0)


## Per-role counts and mean colours (0–255), the mean brightness of the whole image, and the
## correlation ratio: the share of the chromaticity variance the role explains (chromaticity:
## colour over its brightness, so sun and shadow do not count as variation within a role).
func _statistics(image: Image, roles: Dictionary) -> Dictionary:
	var sums := {}
	var total := Vector3.ZERO
	var n := 0
	for key in roles:
		var c := image.get_pixelv(key)
		var v := _chroma(c)
		var r: String = roles[key]
		if not sums.has(r):
			sums[r] = [0, Vector3.ZERO]
		sums[r][0] += 1
		sums[r][1] += v
		total += v
		n += 1
	var mean := total / maxf(n, 1)
	var within := 0.0
	var between := 0.0
	var means := {}
	for r in sums:
		means[r] = sums[r][1] / float(sums[r][0])
		between += sums[r][0] * (means[r] - mean).length_squared()
	for key in roles:
		var c := image.get_pixelv(key)
		within += (_chroma(c) - means[roles[key]]).length_squared()
	var brightness := 0.0
	var count := 0
	for y in range(0, image.get_height(), 4):
		for x in range(0, image.get_width(), 4):
			var c := image.get_pixel(x, y)
			brightness += (0.299 * c.r + 0.587 * c.g + 0.114 * c.b) * 255.0
			count += 1
	var per_role := {}
	for r in sums:
		var colour := Vector3.ZERO
		for key in roles:
			if roles[key] == r:
				var c := image.get_pixelv(key)
				colour += Vector3(c.r, c.g, c.b) * 255.0
		colour /= float(sums[r][0])
		per_role[r] = {"pixels": sums[r][0], "mean": [colour.x, colour.y, colour.z]}
	return {
		"pixels": n,
		"brightness": brightness / maxf(count, 1),
		"eta2": between / maxf(between + within, 1e-9),
		"roles": per_role,
	}


func _hide_all_but_the_terrain() -> void:
	var hud := main.get_node_or_null("HUD")
	if hud:
		hud.visible = false
	for child in main.get_children():
		if child is WorldEnvironment:
			var env: Environment = child.environment
			if env:
				env.fog_enabled = false
				env.volumetric_fog_enabled = false
		elif child is VisualInstance3D and not child is Light3D and child != terrain:
			child.visible = false
		elif child is Node3D and child != terrain and child != camera and not child is Light3D:
			child.visible = false
	for child in terrain.get_children(true):
		if child is Node3D:
			child.visible = false


## Chromaticity ×255: r, g, b over their sum (times 3), so a shadowed and a sunlit pixel of one
## colour are equal.
func _chroma(c: Color) -> Vector3:
	var sum := maxf(c.r + c.g + c.b, 1e-3)
	return Vector3(c.r, c.g, c.b) * (255.0 / sum)

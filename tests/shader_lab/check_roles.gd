extends SceneTree
## Render check: the faceted shader draws exactly the role map. The lab terrain is rendered
## top-down (orthographic, unlit flat colours, no fog, linear tone mapping); for every pixel the
## expected colour is computed here from the control texture with the documented rule (the
## cell's triangle split along (x+1, z)–(x, z+1), the majority id of its vertices, first vertex on
## a three-way tie) and compared with the rendered one. Pixels within a small margin of a cell
## edge or the diagonal are skipped (rasterisation there is ambiguous). Also prints per-role
## pixel counts and match rates. Exits 1 when fewer than 99 % of the checked pixels match.
## Needs a renderer (Xvfb + OpenGL 3), like render.gd; `--source=synthetic` runs without the
## extension.

const Scene := preload("res://shader_lab/lab_scene.gd")
const Lab := preload("res://shader_lab/lab_terrain.gd")


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var source := "demo"
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--source="):
			source = arg.trim_prefix("--source=")
	var scene: Node3D = Scene.new()
	root.add_child(scene)
	if not await scene.setup(source):
		quit(1)
		return
	var lab: Lab = scene.lab
	scene.environment.fog_enabled = false
	scene.environment.tonemap_mode = Environment.TONE_MAPPER_LINEAR
	scene.environment.background_mode = Environment.BG_COLOR
	scene.environment.background_color = Color.BLACK
	scene.sun.visible = false
	scene.water.visible = false
	var m: ShaderMaterial = scene.looks["faceted"]
	m.set_shader_parameter("unlit", true)
	m.set_shader_parameter("facet_jitter", 0.0)
	m.set_shader_parameter("biome_count", 0)
	scene.set_look("faceted")
	var cam: Camera3D = scene.camera
	cam.projection = Camera3D.PROJECTION_ORTHOGONAL
	cam.size = lab.size.y
	cam.near = 1.0
	cam.far = lab.max_height - lab.min_height + 200.0
	var top := lab.max_height + 100.0
	cam.position = Vector3(lab.size.x * 0.5, top, lab.size.y * 0.5)
	cam.look_at(Vector3(lab.size.x * 0.5, lab.min_height, lab.size.y * 0.5), Vector3(0, 0, -1))
	var img: Image = await scene.capture()
	var w := img.get_width()
	var h := img.get_height()
	var mpp := lab.size.y / h # metres per pixel
	var control := lab.control_image()
	var checked := 0
	var matched := 0
	var per_role := {}
	var cx := lab.size.x / lab.cells.x
	var cz := lab.size.y / lab.cells.y
	for py in range(0, h, 2):
		for px in range(0, w, 2):
			var x := lab.size.x * 0.5 + (px + 0.5 - w * 0.5) * mpp
			var z := (py + 0.5) * mpp
			if x < 0.0 or z < 0.0 or x >= lab.size.x or z >= lab.size.y:
				continue
			var fx := x / cx
			var fz := z / cz
			var ix := int(fx)
			var iz := int(fz)
			var u := fx - ix
			var v := fz - iz
			var margin := 0.12
			if u < margin or u > 1.0 - margin or v < margin or v > 1.0 - margin or absf(u + v - 1.0) < margin:
				continue
			var upper := u + v > 1.0
			var v0 := control.get_pixel(ix + 1, iz) if upper else control.get_pixel(ix, iz)
			var v1 := control.get_pixel(ix + 1, iz + 1) if upper else control.get_pixel(ix + 1, iz)
			var v2 := control.get_pixel(ix, iz + 1)
			var t0 := roundi(v0.r * 255.0)
			var t1 := roundi(v1.r * 255.0)
			var t2 := roundi(v2.r * 255.0)
			var id := t1 if (t1 == t2 and t0 != t1) else t0
			var want: Color = Lab.PALETTE[id]
			var got := img.get_pixel(px, py)
			var ok := absf(got.r - want.r) < 0.02 and absf(got.g - want.g) < 0.02 and absf(got.b - want.b) < 0.02
			checked += 1
			if ok:
				matched += 1
			var stats: Array = per_role.get(id, [0, 0])
			stats[0] += 1
			stats[1] += 1 if ok else 0
			per_role[id] = stats
	var ids := per_role.keys()
	ids.sort()
	for id in ids:
		print("roles: %-10s %7d px, %6.2f %% match" % [Lab.ROLES[id], per_role[id][0], 100.0 * per_role[id][1] / per_role[id][0]])
	var rate := 100.0 * matched / maxi(checked, 1)
	print("roles: %d of %d checked pixels match the role map (%.2f %%)" % [matched, checked, rate])
	quit(0 if checked > 1000 and rate >= 99.0 else 1)

extends Node3D
## The shader lab's scene: sky, sun, the lab terrain's chunk meshes and water, a camera with
## named viewpoints, and the four looks (realistic blended, realistic sharp, faceted, tint).

const Lab := preload("res://shader_lab/lab_terrain.gd")

var lab: Lab
var views := {}
var camera: Camera3D
var chunks: Array[MeshInstance3D] = []
var looks := {}
var environment: Environment
var sun: DirectionalLight3D
var water: MeshInstance3D


## Builds everything; `source` is "demo" (the demo's river valley through the extension) or
## "synthetic". Returns false on failure (errors printed).
func setup(source: String) -> bool:
	lab = Lab.new()
	if source == "demo":
		var path := ProjectSettings.globalize_path("res://").path_join("../demo_project/terrains/river_valley.terrain.json")
		var asset = ResourceLoader.load(path)
		if asset == null:
			push_error("shader lab: cannot load the demo terrain %s" % path)
			return false
		var terrain := Terrain3D.new()
		terrain.asset = asset
		add_child(terrain)
		if not terrain.wait_for_generation():
			push_error("shader lab: generation failed: %s" % terrain.get_last_error())
			return false
		lab.read_terrain(terrain)
		terrain.visible = false
		terrain.queue_free()
	else:
		lab.synthetic(512, 1024.0)
	lab.classify()
	_environment()
	var control := lab.control_texture()
	var dir := ProjectSettings.globalize_path("res://").path_join("../demo_project/textures/generated")
	lab.read_manifest(dir)
	var arrays := Lab.texture_arrays(dir)
	looks["realistic"] = lab.realistic_material(Lab.load_shader("terrain.gdshader"), arrays, control)
	var sharp: ShaderMaterial = looks["realistic"].duplicate()
	sharp.set_shader_parameter("surface_blending", false)
	looks["sharp"] = sharp
	var nospec: ShaderMaterial = looks["realistic"].duplicate()
	nospec.set_shader_parameter("specular", 0.0)
	looks["nospec"] = nospec
	# Reference: Godot's StandardMaterial3D with the rock albedo and normal, triplanar (checks
	# that the lab's brightness is the renderer's, not the shader's).
	var std := StandardMaterial3D.new()
	std.albedo_texture = ImageTexture.create_from_image(Image.load_from_file(dir.path_join("rock_albedo.png")))
	std.normal_enabled = true
	std.normal_texture = ImageTexture.create_from_image(Image.load_from_file(dir.path_join("rock_normal.png")))
	std.uv1_triplanar = true
	std.uv1_scale = Vector3.ONE / 6.0
	std.roughness = 0.8
	looks["standard_rock"] = std
	for k in [1, 2, 3]:
		var dbg: ShaderMaterial = looks["realistic"].duplicate()
		dbg.set_shader_parameter("debug_view", k)
		looks["debug%d" % k] = dbg
	looks["faceted"] = lab.faceted_material(Lab.load_shader("terrain_faceted.gdshader"), control)
	looks["tint"] = lab.tint_material(Lab.load_shader("terrain_tint.gdshader"))
	for mesh in lab.build_meshes():
		var mi := MeshInstance3D.new()
		mi.mesh = mesh
		add_child(mi)
		chunks.append(mi)
	water = MeshInstance3D.new()
	water.mesh = lab.water_mesh()
	var wm := ShaderMaterial.new()
	wm.shader = Lab.load_shader("water.gdshader")
	wm.set_shader_parameter("shallow_color", Color(0.18, 0.32, 0.3, 0.55))
	wm.set_shader_parameter("deep_color", Color(0.04, 0.12, 0.16, 0.92))
	wm.set_shader_parameter("wave_amplitude", 0.02)
	water.material_override = wm
	add_child(water)
	camera = Camera3D.new()
	camera.far = 6000.0
	add_child(camera)
	camera.make_current()
	_define_views()
	return true


func _environment() -> void:
	var sky_mat := ProceduralSkyMaterial.new()
	sky_mat.sky_top_color = Color(0.35, 0.55, 0.85)
	sky_mat.sky_horizon_color = Color(0.75, 0.82, 0.9)
	sky_mat.ground_horizon_color = Color(0.75, 0.82, 0.9)
	var sky := Sky.new()
	sky.sky_material = sky_mat
	var env := Environment.new()
	env.background_mode = Environment.BG_SKY
	env.sky = sky
	env.ambient_light_source = Environment.AMBIENT_SOURCE_SKY
	env.ambient_light_energy = 0.3
	env.tonemap_mode = Environment.TONE_MAPPER_FILMIC
	env.fog_enabled = true
	env.fog_light_color = Color(0.7, 0.78, 0.88)
	env.fog_density = 0.00012
	environment = env
	var we := WorldEnvironment.new()
	we.environment = env
	add_child(we)
	sun = DirectionalLight3D.new()
	sun.transform = Transform3D(Basis(Vector3(0.5, 0, -0.87), Vector3(-0.6, 0.72, -0.35), Vector3(0.62, 0.69, 0.36)), Vector3(0, 500, 0))
	sun.light_energy = 0.9
	sun.shadow_enabled = true
	sun.directional_shadow_max_distance = 2500.0
	add_child(sun)


## Ground height at terrain-local (x, z), bilinear over the samples.
func ground(x: float, z: float) -> float:
	var fx := clampf(x / lab.size.x * lab.cells.x, 0.0, lab.cells.x - 0.001)
	var fz := clampf(z / lab.size.y * lab.cells.y, 0.0, lab.cells.y - 0.001)
	var ix := int(fx)
	var iz := int(fz)
	var tx := fx - ix
	var tz := fz - iz
	var a := lerpf(lab.heights[lab.index(ix, iz)], lab.heights[lab.index(ix + 1, iz)], tx)
	var b := lerpf(lab.heights[lab.index(ix, iz + 1)], lab.heights[lab.index(ix + 1, iz + 1)], tx)
	return lerpf(a, b, tz)


## Named viewpoints: [eye, target] in terrain-local coordinates; eye heights above ground.
func _define_views() -> void:
	var s := lab.size
	var v := func(ex: float, ez: float, up: float, tx: float, tz: float, tup: float) -> Array:
		return [Vector3(ex, ground(ex, ez) + up, ez), Vector3(tx, ground(tx, tz) + tup, tz)]
	views["overview"] = [Vector3(0.02 * s.x, 0.55 * maxf(s.x, s.y), -0.12 * s.y), Vector3(0.5 * s.x, ground(0.5 * s.x, 0.45 * s.y), 0.45 * s.y)]
	views["valley"] = v.call(0.3 * s.x, 0.2 * s.y, 40.0, 0.48 * s.x, 0.5 * s.y, 0.0)
	views["bank"] = v.call(0.42 * s.x, 0.44 * s.y, 6.0, 0.47 * s.x, 0.5 * s.y, 0.0)
	views["slope"] = v.call(0.6 * s.x, 0.3 * s.y, 25.0, 0.75 * s.x, 0.2 * s.y, 20.0)
	# Close-ups of role boundaries: wet bank next to grass, rock next to grass or soil.
	for spec in [["close_bank", 7, [1, 0]], ["close_rock", 2, [1, 0]], ["close_cliff", 3, [2, 0, 1]]]:
		var p := _find_boundary(spec[1], spec[2])
		if p != Vector3.INF:
			var eye := p + Vector3(-9.0, 0.0, -9.0)
			eye.y = maxf(ground(eye.x, eye.z), p.y) + 5.0
			views[spec[0]] = [eye, p]


## A terrain-local point on the valley side of a boundary between `role` and any of `others`
## (low ground preferred), or Vector3.INF.
func _find_boundary(role: int, others: Array) -> Vector3:
	var relief := lab.max_height - lab.min_height
	var dx := lab.size.x / lab.cells.x
	var dz := lab.size.y / lab.cells.y
	for z in range(8, lab.cells.y - 8, 3):
		for x in range(8, lab.cells.x - 8, 3):
			var i := lab.index(x, z)
			if lab.roles[i] != role or lab.heights[i] > lab.min_height + 0.25 * relief:
				continue
			for o in [lab.index(x + 2, z), lab.index(x, z + 2), lab.index(x - 2, z), lab.index(x, z - 2)]:
				if lab.roles[o] in others:
					return Vector3(x * dx, lab.heights[i], z * dz)
	return Vector3.INF


func set_view(name: String) -> void:
	var eye: Vector3 = views[name][0]
	var target: Vector3 = views[name][1]
	camera.position = eye
	camera.look_at(target)


func set_look(name: String) -> void:
	set_look_material(looks[name])


func set_look_material(material: Material) -> void:
	for c in chunks:
		c.material_override = material


## Renders a few frames and returns the viewport image.
func capture() -> Image:
	for i in 3:
		await get_tree().process_frame
	await RenderingServer.frame_post_draw
	return get_viewport().get_texture().get_image()

extends Node3D
## Ridgeline demo: a generated river valley (erosion, basin lakes, a river). When the terrain
## has generated, balls are dropped onto it (physics uses the terrain's collision), the HUD shows
## a height query, and a marker drifting across the river prints water events from a tracker.
## Two runtime edits show the editing API: a blast crater (lower + a raised rim, a pond painted
## into it with paint_water) and a flattened building pad, each rebuilding only the chunks it touches. A boat floats down the river and a
## swimmer crosses it (buoyancy and swimming, docs/water.md).
##
## With the user argument [code]--screenshot=PATH[/code] (as `cargo xtask demo` passes when there
## is no display) it waits for generation, lets the balls fall, saves the viewport to PATH as PNG
## and quits. [code]--look=faceted[/code] draws the faceted look instead of the realistic one (the
## terrain's material set binds the demo's generated textures, `cargo xtask art`).

@onready var terrain: Terrain3D = $Terrain3D
@onready var info: Label = $HUD/Info
@onready var camera: Camera3D = $Camera3D

var screenshot_path := ""
var tracker: WaterTracker = TerrainWater.tracker()
var marker: MeshInstance3D
var marker_t := 0.0


func _ready() -> void:
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--screenshot="):
			screenshot_path = arg.trim_prefix("--screenshot=")
		if arg == "--look=faceted":
			terrain.look = Terrain3D.LOOK_FACETED
	info.text = "Ridgeline %s — generating…" % terrain.get_generator_version()
	terrain.generation_progress.connect(_on_progress)
	terrain.generation_finished.connect(_on_generated)
	if not terrain.is_generating() and terrain.get_size() != Vector2.ZERO:
		_on_generated(true, "ready")


func _on_progress(fraction: float, stage: String) -> void:
	info.text = "Ridgeline — generating %d%% (%s)" % [int(fraction * 100.0), stage]


func _on_generated(ok: bool, message: String) -> void:
	if not ok:
		info.text = "Generation failed: %s" % message
		push_error(message)
		if screenshot_path != "":
			get_tree().quit(1)
		return
	var size := terrain.get_size()
	var centre := Vector3(size.x * 0.5, 0, size.y * 0.5)
	var h := terrain.get_height(centre)
	info.text = "Ridgeline %s — %d×%d m terrain, height at centre %.1f m" % [terrain.get_generator_version(), size.x, size.y, h]
	camera.position = Vector3(0.02 * size.x, 0.55 * maxf(size.x, size.y), -0.12 * size.y)
	camera.look_at(Vector3(size.x * 0.5, h, size.y * 0.45))
	_sculpt(size)
	_drop_balls(size)
	_add_marker()
	_launch_boats()
	if screenshot_path != "":
		_save_screenshot.call_deferred()


func _sculpt(size: Vector2) -> void:
	var changed := [0]
	terrain.surface_changed.connect(func(_region: Rect2i) -> void: changed[0] += 1)
	# A crater where something exploded: strokes use terrain-local X/Z.
	var crater := Vector2(size.x * 0.22, size.y * 0.42)
	terrain.apply_stroke({"type": "lower", "center": crater, "radius": 55.0, "amount": 30.0, "falloff": 0.25})
	var rim := PackedVector2Array()
	for i in 24:
		rim.append(crater + Vector2.from_angle(TAU * i / 24.0) * 60.0)
	terrain.apply_stroke({"type": "raise", "points": rim, "radius": 14.0, "amount": 1.2, "falloff": 0.2})
	# A pond painted into the crater: level mode fills it flat and full (docs/water.md).
	var floor_height := terrain.get_height(Vector3(crater.x, 0, crater.y))
	terrain.paint_water(Vector3(crater.x, 0, crater.y), 42.0, 4.0, 1.0, floor_height + 10.0)
	# A level building pad at the height under its centre.
	var pad := Vector2(size.x * 0.14, size.y * 0.66)
	var pad_height := terrain.get_height(Vector3(pad.x, 0, pad.y))
	terrain.apply_stroke({"type": "flatten", "center": pad, "radius": 50.0, "target_height": pad_height, "falloff": 0.6})
	print("sculpted: crater and building pad; %d undoable edits" % (3 if terrain.can_undo_stroke() else 0))


func _drop_balls(size: Vector2) -> void:
	var rng := RandomNumberGenerator.new()
	rng.seed = 3
	var mesh := SphereMesh.new()
	mesh.radius = 6.0
	mesh.height = 12.0
	var material := StandardMaterial3D.new()
	material.albedo_color = Color(0.9, 0.25, 0.2)
	mesh.material = material
	var shape := SphereShape3D.new()
	shape.radius = 6.0
	for i in 12:
		var body := RigidBody3D.new()
		var x := rng.randf_range(size.x * 0.3, size.x * 0.7)
		var z := rng.randf_range(size.y * 0.3, size.y * 0.7)
		body.position = Vector3(x, terrain.get_height(Vector3(x, 0, z)) + 60.0 + i * 5.0, z)
		var visual := MeshInstance3D.new()
		visual.mesh = mesh
		var collider := CollisionShape3D.new()
		collider.shape = shape
		body.add_child(visual)
		body.add_child(collider)
		add_child(body)


func _add_marker() -> void:
	marker = MeshInstance3D.new()
	var m := BoxMesh.new()
	m.size = Vector3(8, 8, 8)
	var mat := StandardMaterial3D.new()
	mat.albedo_color = Color(1.0, 0.85, 0.1)
	m.material = mat
	marker.mesh = m
	add_child(marker)


## A floating boat (TerrainBuoyancy) drifting down the river, and a swimmer (TerrainBuoyancy +
## TerrainSwimming) crossing it; see docs/water.md.
func _launch_boats() -> void:
	var boat := _water_body(Vector3(590, 0, 562), Vector3(6, 1.6, 3), Color(0.55, 0.33, 0.18), 1200.0)
	var hull := TerrainBuoyancy.new()
	hull.half_height = 0.8
	hull.density_ratio = 2.5
	boat.add_child(hull)
	var swimmer := _water_body(Vector3(700, 0, 596), Vector3(1.2, 1.2, 1.2), Color(1.0, 0.45, 0.1), 80.0)
	var body := TerrainBuoyancy.new()
	body.half_height = 0.6
	body.density_ratio = 1.2
	body.linear_drag = 0.0  # the swimming force handles drag
	swimmer.add_child(body)
	var swim := TerrainSwimming.new()
	swim.name = "Swimming"
	swim.speed = 2.5
	swim.direction = Vector3(-0.34, 0, 0.94)  # across the river
	swimmer.add_child(swim)


func _water_body(at: Vector3, size: Vector3, color: Color, mass: float) -> RigidBody3D:
	var body := RigidBody3D.new()
	body.mass = mass
	var water := TerrainWater.sample(Vector3(at.x, 500, at.z))
	at.y = (water.surface.y if water else terrain.get_height(at)) + 0.5
	body.position = at
	var mesh := BoxMesh.new()
	mesh.size = size
	var material := StandardMaterial3D.new()
	material.albedo_color = color
	mesh.material = material
	var visual := MeshInstance3D.new()
	visual.mesh = mesh
	var shape := BoxShape3D.new()
	shape.size = size
	var collider := CollisionShape3D.new()
	collider.shape = shape
	body.add_child(visual)
	body.add_child(collider)
	add_child(body)
	return body


func _physics_process(delta: float) -> void:
	if marker == null:
		return
	# The marker bobs across the valley floor, dipping in and out of the river.
	marker_t += delta
	var p := Vector3(380.0 + 120.0 * sin(marker_t * 0.4), 0.0, 420.0 + 120.0 * sin(marker_t * 0.4))
	var ground := terrain.get_height(p)
	var water := TerrainWater.sample(p)
	var level := water.surface.y if water else ground
	p.y = level + 2.0 * sin(marker_t * 2.0)
	marker.position = p
	for event in tracker.update(p):
		if event.phase != WaterEvent.PHASE_STAY:
			var what := "entered" if event.phase == WaterEvent.PHASE_ENTER else "left"
			print("water %s: %s (depth %.1f m)" % [what, event.sample.body_id, event.sample.depth])


func _save_screenshot() -> void:
	# The forest, rocks and grass: build every scatter chunk now instead of over a few frames.
	var scatter := get_node_or_null("Terrain3D/Scatter") as TerrainScatter
	if scatter:
		scatter.build_now()
		print("scatter: %d chunks, %s instances drawn/placed; foliage: %d chunks" % [scatter.get_built_chunk_count(), scatter.get_instance_counts(), scatter.get_foliage_build_counts().x])
	# Let the balls fall and land, then render.
	for i in 90:
		await get_tree().physics_frame
	for i in 5:
		await get_tree().process_frame
	await RenderingServer.frame_post_draw
	var image := get_viewport().get_texture().get_image()
	var err := image.save_png(screenshot_path)
	if err != OK:
		push_error("could not save the screenshot to %s (error %d)" % [screenshot_path, err])
	else:
		print("saved screenshot %s" % screenshot_path)
	get_tree().quit(0 if err == OK else 1)

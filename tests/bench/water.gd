extends SceneTree
## Water benchmarks (headless, Godot Physics), printed as `bench …` lines:
## - godot_water_sample: TerrainWater.sample from typed GDScript on 20000 points of the lakes
##   fixture (wet and dry), per call, against the empty extension call (`_empty_query`).
## - buoyancy_1000_bodies: the physics-step cost of TerrainBuoyancy on 1000 floating bodies:
##   the mean physics frame time (Performance.TIME_PHYSICS_PROCESS) with the components enabled
##   minus with them disabled (the same bodies falling freely), in ms; the peer is the same
##   buoyancy written in GDScript (TerrainWater.sample + apply_central_force per body, one loop).

var _gd_bodies: Array[RigidBody3D] = []
var _gd_on := false


func _initialize() -> void:
	_run.call_deferred()


static func _median(v: Array) -> float:
	var s := v.duplicate()
	s.sort()
	return s[s.size() / 2]


func _run() -> void:
	var quick := OS.get_cmdline_user_args().has("--quick")
	var reps := 3 if quick else 7
	var terrain := Terrain3D.new()
	terrain.asset = load("res://fixtures/lakes.terrain.json")
	root.add_child(terrain)
	terrain.wait_for_generation()
	await physics_frame
	var rng := RandomNumberGenerator.new()
	rng.seed = 9
	var points := PackedVector3Array()
	for i in 20000:
		points.append(Vector3(rng.randf() * 128.0, rng.randf_range(-3.0, 1.0), rng.randf() * 64.0))
	var ours := []
	var peer := []
	for r in reps:
		var start := Time.get_ticks_usec()
		var wet := 0
		for p in points:
			var s: WaterSample = TerrainWater.sample(p)
			if s != null:
				wet += 1
		ours.append(float(Time.get_ticks_usec() - start) / points.size())
		start = Time.get_ticks_usec()
		var acc := 0.0
		for p in points:
			acc += terrain._empty_query(p)
		peer.append(float(Time.get_ticks_usec() - start) / points.size())
	var o: float = _median(ours)
	var pe: float = _median(peer)
	print("bench godot_water_sample ours=%.3f peer=%.3f ratio=%.2f unit=us" % [o, pe, pe / o])

	# 1000 bodies over the west lake (no shapes: no contacts, the bodies only integrate).
	var parts: Array[TerrainBuoyancy] = []
	for i in 1000:
		var body := RigidBody3D.new()
		body.mass = 10.0
		body.position = Vector3(10.0 + (i % 40) * 1.1, -0.2, 10.0 + (i / 40) * 1.6)
		body.gravity_scale = 1.0
		var b := TerrainBuoyancy.new()
		body.add_child(b)
		root.add_child(body)
		parts.append(b)
		_gd_bodies.append(body)
	var frames := 20 if quick else 60
	var on := []
	var off := []
	var gd := []
	for r in reps:
		for b in parts:
			b.enabled = true
		on.append(await _physics_ms(frames))
		for b in parts:
			b.enabled = false
		off.append(await _physics_ms(frames))
		_gd_on = true
		gd.append(await _physics_ms(frames))
		_gd_on = false
	var base: float = _median(off)
	# Differences of noisy frame means: printed as measured (a negative or near-zero figure
	# means the noise swamped the cost in this run — never clamped into a flattering number).
	var ours_b: float = _median(on) - base
	var peer_b: float = _median(gd) - base
	var ratio := peer_b / ours_b if absf(ours_b) > 1e-6 else 0.0
	print("bench buoyancy_1000_bodies ours=%.3f peer=%.3f ratio=%.2f unit=ms" % [ours_b, peer_b, ratio])
	if ours_b <= 0.01:
		printerr("water bench: buoyancy_1000_bodies is below the frame-time noise in this run (with %.3f ms, without %.3f ms): not a measurement" % [_median(on), base])
	print("water bench: physics frame with buoyancy %.3f ms, without %.3f ms, GDScript buoyancy %.3f ms" % [_median(on), base, _median(gd)])
	quit(0)


## Mean physics frame time over `frames` steps, ms (after two settling steps).
func _physics_ms(frames: int) -> float:
	for i in 2:
		await physics_frame
	var total := 0.0
	for i in frames:
		await physics_frame
		if _gd_on:
			_gd_buoyancy()
		total += Performance.get_monitor(Performance.TIME_PHYSICS_PROCESS) * 1000.0
	return total / frames


## The same buoyancy in GDScript (the peer), run once per step.
func _gd_buoyancy() -> void:
	for body in _gd_bodies:
		var s: WaterSample = TerrainWater.sample(body.global_position)
		if s == null:
			continue
		var above := (body.global_position - s.surface).dot(s.column_up)
		var f := clampf((0.5 - above) / 1.0, 0.0, 1.0)
		if f <= 0.0:
			continue
		body.apply_central_force(Vector3(0, 9.81, 0) * (body.mass * 2.0 * f) + (s.flow_velocity - body.linear_velocity) * (body.mass * f))

extends SceneTree
## Water benchmarks (headless, Godot Physics), printed as `bench …` lines:
## - godot_water_sample: TerrainWater.sample from typed GDScript on 20000 points of the lakes
##   fixture (wet and dry), per call, against the empty extension call (`_empty_query`).
## - godot_water_sample_into: the same points through TerrainWater.sample_into with one reused
##   WaterSample (no object per call), against the same empty call.
## - buoyancy_1000_bodies: the per-physics-step cost of TerrainBuoyancy on 1000 floating bodies,
##   in ms: the time between two stopwatch nodes (`step_timer.gd`) that run first and last among
##   the step's `_physics_process` callbacks, so it holds the 1000 components' own work and
##   their dispatch (sample, forces) and nothing of the physics solver; the median step, minus
##   the same window with the components' processing off (the stopwatches' own cost). The peer
##   is the same per-body work in GDScript (TerrainWater.sample, lift, drag, spin damping
##   through apply_central_force / apply_torque) in one `_physics_process` loop in that window.

const StepTimer := preload("res://bench/step_timer.gd")

var _gd_bodies: Array[RigidBody3D] = []


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
	var into := []
	var into_s := WaterSample.new()
	for r in reps:
		var start := Time.get_ticks_usec()
		var wet := 0
		for p in points:
			var s: WaterSample = TerrainWater.sample(p)
			if s != null:
				wet += 1
		ours.append(float(Time.get_ticks_usec() - start) / points.size())
		start = Time.get_ticks_usec()
		var wet_into := 0
		for p in points:
			if TerrainWater.sample_into(p, into_s):
				wet_into += 1
		into.append(float(Time.get_ticks_usec() - start) / points.size())
		if wet_into != wet:
			printerr("water bench: sample_into found %d wet points, sample %d" % [wet_into, wet])
		start = Time.get_ticks_usec()
		var acc := 0.0
		for p in points:
			acc += terrain._empty_query(p)
		peer.append(float(Time.get_ticks_usec() - start) / points.size())
	var o: float = _median(ours)
	var pe: float = _median(peer)
	print("bench godot_water_sample ours=%.3f peer=%.3f ratio=%.2f unit=us" % [o, pe, pe / o])
	var oi: float = _median(into)
	print("bench godot_water_sample_into ours=%.3f peer=%.3f ratio=%.2f unit=us" % [oi, pe, pe / oi])

	var b_lines := await _buoyancy_bench(quick, reps)
	for l in b_lines:
		print(l)
	quit(0)


## buoyancy_1000_bodies: see the file's documentation. Returns the lines to print.
func _buoyancy_bench(quick: bool, reps: int) -> Array[String]:
	# 1000 bodies over the west lake (no shapes: no contacts, the bodies only integrate).
	var parts: Array[TerrainBuoyancy] = []
	for i in 1000:
		var body := RigidBody3D.new()
		body.mass = 10.0
		body.position = Vector3(10.0 + (i % 40) * 1.1, -0.2, 10.0 + (i / 40) * 1.6)
		var b := TerrainBuoyancy.new()
		body.add_child(b)
		root.add_child(body)
		parts.append(b)
		_gd_bodies.append(body)
	var start: StepTimer = StepTimer.new()
	start.process_physics_priority = -1000000
	var end: StepTimer = StepTimer.new()
	end.process_physics_priority = 1000000
	end.start = start
	root.add_child(start)
	root.add_child(end)
	var peer_node: Variant = Node.new()
	peer_node.set_script(_peer_script())
	peer_node.bodies = _gd_bodies
	root.add_child(peer_node)
	var frames := 30 if quick else 120
	var on := []
	var off := []
	var gd := []
	var floating := 0
	for r in reps:
		# Ours: the components process (the peer loop is idle).
		_set_processing(parts, true)
		peer_node.enabled = false
		on.append(await _step_us(end, frames))
		floating = 0
		for b in parts:
			if b.submerged > 0.0:
				floating += 1
		# Peer: the GDScript loop does the same work (components not processing).
		_set_processing(parts, false)
		peer_node.enabled = true
		gd.append(await _step_us(end, frames))
		# Base: neither (the stopwatches' own cost).
		peer_node.enabled = false
		off.append(await _step_us(end, frames))
	var base: float = _median(off)
	var ours_b: float = (_median(on) - base) / 1000.0
	var peer_b: float = (_median(gd) - base) / 1000.0
	var lines: Array[String] = []
	lines.append("bench buoyancy_1000_bodies ours=%.3f peer=%.3f ratio=%.2f unit=ms" % [ours_b, peer_b, peer_b / maxf(ours_b, 1e-6)])
	printerr("water bench: buoyancy window %.1f us with the components, %.1f us with the GDScript peer, %.1f us empty; %d of 1000 bodies wet at the last step" % [_median(on), _median(gd), base, floating])
	if floating < 1000:
		printerr("water bench: only %d of 1000 bodies were in water: the measure is partly of dry bodies" % floating)
	return lines


func _set_processing(parts: Array[TerrainBuoyancy], on: bool) -> void:
	for b in parts:
		b.set_physics_process(on)


## The median window (µs) of `frames` physics steps, after two settling steps.
func _step_us(end: StepTimer, frames: int) -> float:
	for i in 2:
		await physics_frame
	end.windows.clear()
	end.recording = true
	for i in frames:
		await physics_frame
	end.recording = false
	return float(_median(end.windows))


## The peer: TerrainBuoyancy's per-body work written in GDScript, one loop per physics step.
static func _peer_script() -> GDScript:
	var s := GDScript.new()
	s.source_code = """extends Node
var bodies: Array[RigidBody3D] = []
var enabled := false
const HALF := 0.5
const DENSITY := 2.0
const DRAG := 1.0
const SPIN := 1.0
const GRAVITY := Vector3(0.0, -9.81, 0.0)

func _physics_process(_delta: float) -> void:
	if not enabled:
		return
	for body in bodies:
		if body.freeze:
			continue
		var s: WaterSample = TerrainWater.sample(body.global_position)
		if s == null:
			continue
		var above := (body.global_position - s.surface).dot(s.column_up)
		var f := clampf((HALF - above) / (2.0 * HALF), 0.0, 1.0)
		if f <= 0.0:
			continue
		var m := body.mass
		body.apply_central_force(-GRAVITY * (m * DENSITY * f) + (s.flow_velocity - body.linear_velocity) * (m * DRAG * f))
		body.apply_torque(-body.angular_velocity * (m * HALF * HALF * SPIN * f))
"""
	s.reload()
	return s

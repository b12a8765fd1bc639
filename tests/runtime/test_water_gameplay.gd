extends "res://lib/case.gd"
## Buoyancy, swimming and the water sensor on the lakes fixture (west lake: still, level 0, bed
## −5; east lake: the same with a 2 m/s current along +Z; dry plateau at height 2 between).


func _lakes() -> Terrain3D:
	var terrain := Terrain3D.new()
	terrain.asset = load("res://fixtures/lakes.terrain.json")
	add_child(terrain)
	terrain.wait_for_generation()
	return terrain


func _box(at: Vector3, mass: float = 10.0) -> RigidBody3D:
	var body := RigidBody3D.new()
	body.mass = mass
	var shape := CollisionShape3D.new()
	shape.shape = BoxShape3D.new()
	body.add_child(shape)
	body.position = at
	add_child(body)
	return body


func _float(body: RigidBody3D, ratio: float = 2.0) -> TerrainBuoyancy:
	var b := TerrainBuoyancy.new()
	b.half_height = 0.5
	b.density_ratio = ratio
	b.linear_drag = 2.0
	body.add_child(b)
	return b


## Runs `seconds` of simulated physics (fixed steps).
func _simulate(seconds: float) -> void:
	for i in int(seconds * Engine.physics_ticks_per_second):
		await get_tree().physics_frame


func test_a_buoyant_box_settles_at_its_draft() -> void:
	var terrain := _lakes()
	var box := _box(Vector3(32, 1.5, 32))
	var buoy := _float(box, 2.0)
	await _simulate(8.0)
	var draft := 0.0 - (box.global_position.y - 0.5)
	var expected := buoy.expected_draft()
	assert_near(expected, 0.5, 1e-6, "2 × half_height / density_ratio")
	assert_near(draft, expected, 0.05 * expected, "waterline within 5 % of the expected draft")
	assert_near(buoy.submerged, 0.5, 0.03, "half the segment submerged")
	assert_near(box.linear_velocity.length(), 0.0, 0.05, "at rest")
	var heavy := _box(Vector3(40, 0.0, 40))
	var sinker := _float(heavy, 0.8)
	await _simulate(3.0)
	assert_true(heavy.global_position.y < -3.0, "denser than water sinks: %s" % heavy.global_position)
	assert_true(sinker.submerged == 1.0, "fully submerged")
	terrain.queue_free()


func test_a_floating_box_drifts_with_the_current() -> void:
	var terrain := _lakes()
	var box := _box(Vector3(96, 0.0, 20))
	_float(box)
	await _simulate(4.0)
	var s := TerrainWater.sample(box.global_position)
	assert_true(s != null and s.flow_velocity.is_equal_approx(Vector3(0, 0, 2)), "in the current")
	assert_true(box.global_position.z > 24.0, "drifted downstream: %s" % box.global_position)
	assert_near(box.linear_velocity.z, 2.0, 0.3, "moves with the current")
	assert_near(box.global_position.x, 96.0, 0.2, "not across it")
	terrain.queue_free()


func test_no_force_for_dry_frozen_or_disabled_bodies() -> void:
	var terrain := _lakes()
	var dry := _box(Vector3(64, 30, 32))
	var dry_b := _float(dry)
	var frozen := _box(Vector3(32, -1, 20))
	frozen.freeze = true
	var frozen_b := _float(frozen)
	var kinematic := _box(Vector3(32, -1, 44))
	kinematic.freeze = true
	kinematic.freeze_mode = RigidBody3D.FREEZE_MODE_KINEMATIC
	var kinematic_b := _float(kinematic)
	var off := _box(Vector3(20, -1, 32))
	var off_b := _float(off)
	off_b.enabled = false
	var stray := _box(Vector3(44, -1, 32))
	var not_a_body := Node3D.new()
	stray.add_child(not_a_body)
	var orphan := TerrainBuoyancy.new()
	not_a_body.add_child(orphan)
	await _simulate(0.5)
	assert_eq(dry_b.submerged, 0.0, "dry: no water")
	assert_true(dry.linear_velocity.y < -4.0, "dry body falls freely: %s" % dry.linear_velocity)
	assert_eq(frozen_b.submerged, 0.0, "static (frozen) body: no force")
	assert_true(frozen.global_position.is_equal_approx(Vector3(32, -1, 20)), "static body unmoved")
	assert_eq(kinematic_b.submerged, 0.0, "kinematic body: no force")
	assert_eq(kinematic.freeze_mode, RigidBody3D.FREEZE_MODE_KINEMATIC, "body type unchanged")
	assert_eq(off_b.submerged, 0.0, "disabled component: no force")
	assert_true(off.linear_velocity.y < -2.0, "disabled: the body sinks: %s" % off.linear_velocity)
	assert_eq(orphan.submerged, 0.0, "parent not a RigidBody3D: nothing")
	assert_true(stray.linear_velocity.y < -2.0, "the grandparent body gets no force")
	assert_eq(dry.gravity_scale, 1.0, "gravity untouched")
	terrain.queue_free()


func test_a_moved_component_floats_its_new_body_and_a_disabled_body_gets_nothing() -> void:
	var terrain := _lakes()
	var first := _box(Vector3(20, -1, 20))
	var second := _box(Vector3(44, -1, 44))
	var b := _float(first)
	await _simulate(0.3)
	assert_true(b.submerged > 0.0, "floats the first body")
	b.reparent(second)
	await _simulate(1.0)
	assert_true(first.linear_velocity.y < -2.0, "the old body sinks once the component left: %s" % first.linear_velocity)
	assert_true(second.global_position.y > -1.0, "the new body floats up: %s" % second.global_position)
	second.process_mode = Node.PROCESS_MODE_DISABLED
	b.process_mode = Node.PROCESS_MODE_ALWAYS
	await _simulate(0.3)
	assert_eq(b.submerged, 0.0, "a body that cannot process gets no force")
	terrain.queue_free()


func test_non_finite_or_negative_settings_are_refused_and_status_is_read_only() -> void:
	var b := TerrainBuoyancy.new()
	for bad in [NAN, INF, -1.0]:
		b.density_ratio = bad
		b.linear_drag = bad
		b.angular_drag = bad
		b.half_height = bad
	b.half_height = 0.0
	assert_eq([b.density_ratio, b.linear_drag, b.angular_drag, b.half_height], [2.0, 1.0, 1.0, 0.5], "defaults kept")
	b.gravity = Vector3(0, NAN, 0)
	assert_eq(b.gravity, Vector3(0, -9.81, 0), "a NaN gravity is refused")
	b.density_ratio = 0.0
	b.half_height = 2.0
	assert_eq([b.density_ratio, b.half_height], [0.0, 2.0], "valid values are taken")
	var s := TerrainSwimming.new()
	for bad in [NAN, -INF, -0.5]:
		s.speed = bad
		s.min_depth = bad
		s.max_flow = bad
		s.response = bad
	assert_eq([s.speed, s.min_depth, s.max_flow, s.response], [3.0, 1.0, 2.5, 4.0], "defaults kept")
	s.direction = Vector3(INF, 0, 1)
	assert_eq(s.direction, Vector3.ZERO, "an infinite direction is refused")
	s.direction = Vector3(1, 0, 0)
	assert_eq(s.direction, Vector3(1, 0, 0), "a finite one is taken")
	assert_false(_has_setter(b, "submerged") or _has_setter(s, "swimming"), "status values have no setter")
	b.free()
	s.free()


func _has_setter(o: Object, property: String) -> bool:
	for p in o.get_property_list():
		if p["name"] == property:
			return ClassDB.class_get_property_setter(o.get_class(), property) != &""
	fail("%s has no property %s" % [o.get_class(), property])
	return false


func test_swimming_moves_along_the_direction_and_stops_at_max_flow() -> void:
	var terrain := _lakes()
	var swimmer := _box(Vector3(24, 0.0, 32), 70.0)
	# A swimmer's drag is the swimming force's business: no buoyancy drag.
	_float(swimmer, 1.1).linear_drag = 0.0
	var swim := TerrainSwimming.new()
	swim.speed = 3.0
	swim.min_depth = 1.5
	swim.max_flow = 2.5
	swim.direction = Vector3(1, 0, 0)
	swimmer.add_child(swim)
	await _simulate(2.0)
	assert_true(swim.swimming, "swimming in deep still water")
	assert_near(swimmer.linear_velocity.x, 3.0, 0.3, "at the swimming speed")
	assert_near(swimmer.linear_velocity.z, 0.0, 0.2, "along the direction")
	assert_true(swimmer.global_position.x > 28.0, "moved along +X: %s" % swimmer.global_position)
	# In the east lake's 2 m/s current with max_flow 1.5: no swimming, only drift.
	var drifter := _box(Vector3(90, 0.0, 20), 70.0)
	_float(drifter, 1.1)
	var weak := TerrainSwimming.new()
	weak.speed = 3.0
	weak.max_flow = 1.5
	weak.direction = Vector3(1, 0, 0)
	drifter.add_child(weak)
	await _simulate(2.0)
	assert_false(weak.swimming, "the current is beyond max_flow")
	assert_near(drifter.linear_velocity.x, 0.0, 0.2, "no swimming force across")
	# Shallow water: no swimming.
	swim.min_depth = 10.0
	await _simulate(0.2)
	assert_false(swim.swimming, "water shallower than min_depth")
	terrain.queue_free()


func test_the_sensor_follows_the_tracker_rules() -> void:
	var terrain := _lakes()
	var sensor := TerrainWaterSensor.new()
	sensor.vertical_offset = -1.0
	sensor.emit_stayed = true
	sensor.position = Vector3(64, 5, 32)
	add_child(sensor)
	var events: Array[String] = []
	sensor.water_entered.connect(func(s: WaterSample) -> void: events.append("enter:" + s.body_id))
	sensor.water_stayed.connect(func(s: WaterSample) -> void: events.append("stay:" + s.body_id))
	sensor.water_exited.connect(func(s: WaterSample) -> void: events.append("exit:" + s.body_id))
	sensor.update()
	assert_eq(events, [] as Array[String], "dry: nothing")
	sensor.position = Vector3(32, 0.5, 32)  # the point is 1 m lower: underwater
	sensor.update()
	sensor.update()
	sensor.position = Vector3(96, 0.5, 32)
	sensor.update()
	sensor.position = Vector3(96, 5.0, 32)
	sensor.update()
	sensor.update()
	assert_eq(events, ["enter:west", "stay:west", "exit:west", "enter:east", "exit:east"] as Array[String], "signal sequence")
	assert_true(sensor.get_current() == null, "dry again")
	events.clear()
	sensor.emit_stayed = false
	sensor.position = Vector3(32, 0.5, 32)
	await get_tree().physics_frame
	await get_tree().physics_frame
	assert_eq(events, ["enter:west"] as Array[String], "updates each physics step; no stay signals without emit_stayed")
	sensor.enabled = false
	assert_eq(events, ["enter:west", "exit:west"] as Array[String], "disabling leaves the water")
	sensor.queue_free()
	terrain.queue_free()


func _water_node(terrain: Terrain3D) -> TerrainWaterSurface:
	for child in terrain.get_children(true):
		if child is TerrainWaterSurface:
			return child
	return null


func _vertex_count(node: TerrainWaterSurface) -> int:
	var n := 0
	for i in RenderingServer.mesh_get_surface_count(node.get_base()):
		n += (RenderingServer.mesh_surface_get_arrays(node.get_base(), i)[Mesh.ARRAY_VERTEX] as PackedVector3Array).size()
	return n


func test_water_follows_edits_and_warns_about_banks() -> void:
	# Generated (not from the development cache): the bodies keep their definitions.
	var terrain := Terrain3D.new()
	terrain.use_generation_cache = false
	terrain.asset = load("res://fixtures/lakes.terrain.json")
	add_child(terrain)
	terrain.wait_for_generation()
	var node := _water_node(terrain)
	assert_true(node != null, "the terrain shows its water through a TerrainWaterSurface")
	assert_eq(node.get_surface_count(), 2, "one surface per body")
	assert_eq(terrain.get_warnings(), PackedStringArray(), "no warnings before")
	var before := _vertex_count(node)
	assert_true(TerrainWater.sample(Vector3(64, -1, 32)) == null, "the plateau between the lakes is dry")
	# Sculpt the bank between the lakes below the water level.
	assert_true(terrain.apply_stroke({"type": "lower", "center": Vector2(64, 32), "radius": 14.0, "amount": 6.0, "falloff": 0.2}), "stroke")
	var s := TerrainWater.sample(Vector3(64, -1, 32))
	assert_true(s != null and s.underwater, "the lowered bank is covered without carving again")
	assert_true(_vertex_count(node) != before, "the water mesh was rebuilt (%d vertices before)" % before)
	var warnings := terrain.get_warnings()
	assert_true(warnings.size() > 0 and "boundary" in warnings[0], "a bank warning: %s" % warnings)
	terrain.undo_stroke()
	assert_true(TerrainWater.sample(Vector3(64, -1, 32)) == null, "undo dries the bank again")
	assert_eq(terrain.get_warnings(), PackedStringArray(), "and clears the warning")
	assert_eq(_vertex_count(node), before, "and restores the mesh")
	terrain.queue_free()


func test_the_water_node_can_be_styled_like_any_node() -> void:
	var terrain := Terrain3D.new()
	var water := TerrainWaterSurface.new()
	water.name = "MyWater"
	water.cast_shadow = GeometryInstance3D.SHADOW_CASTING_SETTING_OFF
	water.layers = 4
	terrain.add_child(water)
	terrain.asset = load("res://fixtures/lakes.terrain.json")
	add_child(terrain)
	terrain.wait_for_generation()
	assert_eq(_water_node(terrain), water, "the designer's node is used, no internal one added")
	assert_eq(terrain.get_child_count(true), 1, "only that child")
	assert_eq(water.get_surface_count(), 2, "it shows both bodies")
	assert_true(water.get_base().is_valid(), "its geometry is the terrain's water mesh")
	water.material_override = StandardMaterial3D.new()
	terrain.apply_stroke({"type": "raise", "center": Vector2(32, 32), "radius": 4.0, "amount": 1.0})
	assert_true(water.material_override is StandardMaterial3D, "restyling survives a rebuild")
	assert_eq(water.get_surface_count(), 2, "still both bodies after the edit")
	water.visible = false
	assert_false(water.is_visible_in_tree(), "hidden")
	assert_true(TerrainWater.sample(Vector3(32, -1, 32)) != null, "queries do not depend on the node")
	terrain.queue_free()


func test_a_freed_water_node_comes_back_with_the_next_edit() -> void:
	var terrain := Terrain3D.new()
	terrain.asset = load("res://fixtures/lakes.terrain.json")
	add_child(terrain)
	terrain.wait_for_generation()
	var node := _water_node(terrain)
	assert_true(node != null, "an internal water node")
	node.free()
	assert_true(_water_node(terrain) == null, "gone")
	# An edit that changes the water follows it in place, and re-attaches the mesh to a node.
	assert_true(terrain.apply_stroke({"type": "raise", "center": Vector2(32, 32), "radius": 4.0, "amount": 1.0}), "stroke")
	var again := _water_node(terrain)
	assert_true(again != null and again.get_base().is_valid(), "a water node shows the mesh again")
	if again != null:
		assert_eq(again.get_surface_count(), 2, "both bodies")
	terrain.queue_free()

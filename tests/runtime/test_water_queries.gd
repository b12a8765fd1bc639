extends "res://lib/case.gd"
## Water queries and trackers from GDScript (TerrainWater, WaterSample, WaterTracker).


func _lakes(id: String = "") -> Terrain3D:
	var terrain := Terrain3D.new()
	terrain.terrain_id = id
	terrain.asset = load("res://fixtures/lakes.terrain.json")
	add_child(terrain)
	terrain.wait_for_generation()
	return terrain


func test_sample_reports_the_column() -> void:
	var terrain := _lakes("lakes")
	var s: WaterSample = TerrainWater.sample(Vector3(32, -1, 32))
	assert_true(s != null, "wet column in the west pit")
	assert_eq(s.body_id, "west", "body")
	assert_eq(s.kind, WaterSample.KIND_LAKE, "kind")
	assert_eq(s.terrain_id, "lakes", "placement id")
	assert_true(s.surface.is_equal_approx(Vector3(32, 0, 32)), "surface point %s" % s.surface)
	assert_near(s.depth, 5.0, 1e-4, "bed-to-surface depth")
	assert_true(s.column_up.is_equal_approx(Vector3.UP), "column up")
	assert_true(s.normal.is_equal_approx(Vector3.UP), "flat surface normal")
	assert_true(s.underwater, "inside the water")
	var above: WaterSample = TerrainWater.sample(Vector3(32, 1, 32))
	assert_true(above != null and not above.underwater, "a wet column above the surface is not underwater")
	var below: WaterSample = TerrainWater.sample(Vector3(32, -6, 32))
	assert_true(below != null and not below.underwater, "below the bed is not underwater")
	var on_surface: WaterSample = TerrainWater.sample(Vector3(32, 0, 32))
	assert_false(on_surface.underwater, "on the surface is not underwater")
	assert_true(TerrainWater.sample(Vector3(64, 0, 32)) == null, "dry plateau")
	assert_true(TerrainWater.sample(Vector3(-10, 0, 32)) == null, "outside the terrain")
	var east: WaterSample = TerrainWater.sample(Vector3(96, -1, 32))
	assert_true(east.flow_velocity.is_equal_approx(Vector3(0, 0, 2)), "prescribed flow %s" % east.flow_velocity)
	assert_true(TerrainWater.sample(Vector3(32, -1, 32), "other") == null, "terrain filter excludes")
	assert_true(TerrainWater.sample(Vector3(32, -1, 32), "lakes") != null, "terrain filter includes")


func test_sample_into_and_depth_at_answer_like_sample() -> void:
	var terrain := _lakes("lakes")
	var into := WaterSample.new()
	var points := [Vector3(32, -1, 32), Vector3(30.3, 0.5, 27.9), Vector3(96, -1, 32), Vector3(32, -6, 32)]
	for p in points:
		var s: WaterSample = TerrainWater.sample(p)
		assert_true(TerrainWater.sample_into(p, into), "wet at %s" % p)
		assert_eq([into.terrain_id, into.body_id, into.kind, into.surface, into.normal, into.depth, into.column_up, into.flow_velocity, into.underwater],
			[s.terrain_id, s.body_id, s.kind, s.surface, s.normal, s.depth, s.column_up, s.flow_velocity, s.underwater], "sample_into fills what sample returns at %s" % p)
		assert_eq(TerrainWater.depth_at(p), s.depth, "depth_at at %s" % p)
	assert_false(TerrainWater.sample_into(Vector3(64, 0, 32), into), "dry plateau")
	assert_eq(into.body_id, "west", "a dry query leaves the sample unchanged")
	assert_eq(TerrainWater.depth_at(Vector3(64, 0, 32)), 0.0, "dry: depth 0")
	assert_false(TerrainWater.sample_into(Vector3(32, -1, 32), into, "other"), "terrain filter excludes")
	assert_true(TerrainWater.sample_into(Vector3(32, -1, 32), into, "lakes"), "terrain filter includes")
	assert_eq(TerrainWater.depth_at(Vector3(32, -1, 32), "other"), 0.0, "depth_at filter excludes")


func test_hidden_and_renamed_terrains_are_seen_at_once() -> void:
	var holder := Node3D.new()
	add_child(holder)
	var terrain := Terrain3D.new()
	terrain.name = "First"
	terrain.asset = load("res://fixtures/lakes.terrain.json")
	holder.add_child(terrain)
	terrain.wait_for_generation()
	var p := Vector3(32, -1, 32)
	var s: WaterSample = TerrainWater.sample(p)
	assert_eq(s.terrain_id, str(terrain.get_path()), "placement id is the node path")
	terrain.name = "Renamed"
	assert_eq(TerrainWater.sample(p).terrain_id, str(terrain.get_path()), "the path after a rename")
	holder.name = "Holder2"
	assert_eq(TerrainWater.sample(p).terrain_id, str(terrain.get_path()), "the path after a parent's rename")
	terrain.terrain_id = "named"
	assert_eq(TerrainWater.sample(p).terrain_id, "named", "terrain_id wins")
	terrain.visible = false
	assert_true(TerrainWater.sample(p) == null, "a hidden terrain has no water")
	terrain.visible = true
	holder.visible = false
	assert_true(TerrainWater.sample(p) == null, "a terrain under a hidden parent has no water")
	assert_eq(TerrainWater.depth_at(p), 0.0, "depth_at skips it too")
	holder.visible = true
	assert_true(TerrainWater.sample(p) != null, "shown again")
	holder.remove_child(terrain)
	assert_true(TerrainWater.sample(p) == null, "out of the tree")
	add_child(terrain)
	assert_eq(TerrainWater.sample(p).terrain_id, "named", "back in the tree")
	terrain.queue_free()
	holder.queue_free()


func test_samples_follow_moved_scaled_and_flipped_placements() -> void:
	var terrain := _lakes()
	terrain.transform = Transform3D(Basis(Vector3.UP, deg_to_rad(30.0)).scaled(Vector3(2, 1.5, 2)), Vector3(100, -5, 40))
	var world := terrain.global_transform * Vector3(32, -1, 32)
	var s: WaterSample = TerrainWater.sample(world)
	assert_true(s != null and s.underwater, "still underwater after moving the terrain")
	assert_true(s.surface.is_equal_approx(terrain.global_transform * Vector3(32, 0, 32)), "surface follows the placement")
	assert_near(s.depth, 7.5, 1e-3, "depth scales with local up")
	terrain.transform = Transform3D(Basis.from_scale(Vector3(1, -1, 1)), Vector3.ZERO)
	var f: WaterSample = TerrainWater.sample(terrain.global_transform * Vector3(32, -1, 32))
	assert_true(f != null and f.underwater, "flipped terrain")
	assert_true(f.column_up.is_equal_approx(Vector3.DOWN), "column_up follows a flipped local Y: %s" % f.column_up)


const PHASE_NAMES := {WaterEvent.PHASE_ENTER: "enter", WaterEvent.PHASE_STAY: "stay", WaterEvent.PHASE_EXIT: "exit"}


func _phases(events: Array) -> Array:
	return events.map(func(e: WaterEvent) -> String: return "%s:%s" % [PHASE_NAMES[e.phase], e.sample.body_id])


func test_tracker_event_sequence() -> void:
	_lakes()
	var tracker: WaterTracker = TerrainWater.tracker()
	assert_eq(_phases(tracker.update(Vector3(32, 3, 32))), [], "dry start: nothing")
	assert_eq(_phases(tracker.update(Vector3(32, -1, 32))), ["enter:west"], "enter")
	assert_eq(_phases(tracker.update(Vector3(30, -2, 30))), ["stay:west"], "stay")
	assert_eq(tracker.current().body_id, "west", "current")
	assert_eq(_phases(tracker.update(Vector3(96, -1, 32))), ["exit:west", "enter:east"], "switching bodies")
	assert_eq(_phases(tracker.update(Vector3(96, 1, 32))), ["exit:east"], "leaving")
	assert_eq(_phases(tracker.update(Vector3(96, 1, 32))), [], "outside after exit")
	assert_true(tracker.current() == null, "no current sample")
	tracker.update(Vector3(32, -1, 32))
	tracker.reset()
	assert_true(tracker.current() == null, "reset clears")
	assert_eq(_phases(tracker.update(Vector3(32, -1, 32))), ["enter:west"], "enter again after reset")


func test_unload_shows_on_the_next_update() -> void:
	var terrain := _lakes()
	var tracker: WaterTracker = TerrainWater.tracker()
	assert_eq(_phases(tracker.update(Vector3(32, -1, 32))), ["enter:west"], "enter")
	remove_child(terrain)
	assert_eq(_phases(tracker.update(Vector3(32, -1, 32))), ["exit:west"], "unloaded terrain exits")
	terrain.free()


func test_equal_body_ids_on_two_placements_do_not_mix() -> void:
	var left := _lakes("left")
	var right := _lakes("right")
	right.position = Vector3(0, 0, 200)
	var tracker: WaterTracker = TerrainWater.tracker()
	assert_eq(_phases(tracker.update(Vector3(32, -1, 32))), ["enter:west"], "left west")
	var events := tracker.update(Vector3(32, -1, 232))
	assert_eq(_phases(events), ["exit:west", "enter:west"], "same body id, other placement")
	assert_eq(events[1].sample.terrain_id, "right", "the new placement")
	assert_eq(left.get_chunk_count() > 0, true, "both terrains shown")


func test_water_is_drawn_and_has_no_collider() -> void:
	var terrain := _lakes()
	assert_eq(terrain.get_water_instance_count(), 2, "one surface per body")
	await get_tree().physics_frame
	await get_tree().physics_frame
	var space := terrain.get_world_3d().direct_space_state
	var hit := space.intersect_ray(PhysicsRayQueryParameters3D.create(Vector3(32, 50, 32), Vector3(32, -50, 32)))
	assert_false(hit.is_empty(), "the ray hits something")
	assert_near(hit.position.y, -5.0, 0.01, "it reaches the lake bed: water is not a floor")

extends "res://lib/case.gd"
## Collision modes: full collision on small maps, and near-bodies collision (chunk shapes only
## around moving bodies, built before the physics step, released into a pool) on large ones.

## 512 m at 2 m, 32 m chunks: 16 × 16 chunks.
const RECIPE := '{"size": [512, 512], "resolution": [256, 256], "seed": 11, "chunk_cells": 16, "landforms": {"hills": {"base_height": 4, "height_variation": 30, "feature_size": 96, "octaves": 4}}, "default_landform": "hills"}'

const A := Vector3(100, 0, 100)
const B := Vector3(420, 0, 380)


func _terrain(mode: int) -> Terrain3D:
	var terrain := Terrain3D.new()
	terrain.recipe = RECIPE
	terrain.collision_mode = mode
	terrain.collision_radius = 40.0
	add_child(terrain)
	terrain.wait_for_generation()
	return terrain


func _physics_hit(terrain: Terrain3D, at: Vector3) -> Dictionary:
	var space := terrain.get_world_3d().direct_space_state
	# Layer 1 only: the balls are on layer 2.
	var q := PhysicsRayQueryParameters3D.create(Vector3(at.x, 300, at.z), Vector3(at.x, -300, at.z), 1)
	return space.intersect_ray(q)


func _ball(at: Vector3, frozen: bool) -> RigidBody3D:
	var body := RigidBody3D.new()
	var shape := CollisionShape3D.new()
	var sphere := SphereShape3D.new()
	sphere.radius = 0.5
	shape.shape = sphere
	body.add_child(shape)
	body.freeze = frozen
	body.collision_layer = 2
	body.continuous_cd = true
	add_child(body)
	body.global_position = at
	return body


func _ticks(n: int) -> void:
	for i in n:
		await get_tree().physics_frame


func test_auto_keeps_every_chunk_on_a_small_map() -> void:
	var terrain := _terrain(Terrain3D.COLLISION_AUTO)
	await _ticks(2)
	assert_eq(terrain.get_collision_mode_in_use(), Terrain3D.COLLISION_FULL, "auto on 257² samples is full")
	var info := terrain.get_collision_info()
	assert_eq(info["chunks"], 256, "every chunk has its shape: %s" % info)
	assert_false(_physics_hit(terrain, A).is_empty(), "physics rays hit anywhere")
	assert_false(_physics_hit(terrain, B).is_empty(), "physics rays hit anywhere")
	terrain.queue_free()


func test_auto_keeps_only_the_ground_near_bodies_above_600k_triangles() -> void:
	# 600 × 600 cells: 720,000 triangles, past seed 004's 600,000 (the editor keeps these full:
	# tests_editor/cases/test_collision.gd).
	var terrain := Terrain3D.new()
	terrain.recipe = RECIPE.replace('"resolution": [256, 256]', '"resolution": [600, 600]').replace('"size": [512, 512]', '"size": [600, 600]').replace('"chunk_cells": 16', '"chunk_cells": 50')
	add_child(terrain)
	terrain.wait_for_generation()
	await _ticks(2)
	assert_eq(terrain.get_collision_mode_in_use(), Terrain3D.COLLISION_NEAR_BODIES, "auto on 601² samples in a game")
	assert_eq(terrain.get_collision_info()["chunks"], 0, "no body, no chunk shapes")
	terrain.queue_free()


func test_near_bodies_builds_and_releases_chunks_around_a_moving_body() -> void:
	var terrain := _terrain(Terrain3D.COLLISION_NEAR_BODIES)
	await _ticks(2)
	assert_eq(terrain.get_collision_mode_in_use(), Terrain3D.COLLISION_NEAR_BODIES, "mode in use")
	assert_eq(terrain.get_collision_info()["chunks"], 0, "no moving body, no chunk shapes")
	assert_true(_physics_hit(terrain, A).is_empty(), "a physics ray far from every body misses")
	var exact := terrain.raycast(Vector3(A.x, 300, A.z), Vector3.DOWN, 600.0)
	assert_false(exact.is_empty(), "Terrain3D.raycast stays exact everywhere")
	var ball := _ball(Vector3(A.x, terrain.get_height(A) + 2.0, A.z), true)
	await _ticks(2)
	var info := terrain.get_collision_info()
	# 40 m around a point reaches at most 5 × 5 chunks of 32 m (here 4 × 4: A sits at 100 m).
	assert_true(info["chunks"] > 0 and info["chunks"] <= 25, "chunks around the body only: %s" % info)
	assert_eq(info["bodies"], 1, "one moving body followed: %s" % info)
	var hit := _physics_hit(terrain, A)
	assert_false(hit.is_empty(), "the ground under the body collides")
	assert_near(hit["position"].y, terrain.get_height(A), 0.01, "at the exact height")
	assert_eq(hit["collider"], terrain, "the terrain is the collider")
	assert_true(_physics_hit(terrain, B).is_empty(), "far away still nothing")
	ball.global_position = Vector3(B.x, terrain.get_height(B) + 2.0, B.z)
	await _ticks(2)
	info = terrain.get_collision_info()
	assert_false(_physics_hit(terrain, B).is_empty(), "the chunks followed the body")
	assert_true(_physics_hit(terrain, A).is_empty(), "and the old ones were released")
	assert_true(info["chunks"] <= 25, "still only the chunks near the body: %s" % info)
	assert_true(info["pooled"] + info["chunks"] <= 50, "released bodies are reused from the pool: %s" % info)
	ball.queue_free()
	await _ticks(2)
	assert_eq(terrain.get_collision_info()["chunks"], 0, "a freed body releases its chunks")
	terrain.queue_free()


func test_a_fast_body_crossing_chunks_never_falls_through() -> void:
	var terrain := _terrain(Terrain3D.COLLISION_NEAR_BODIES)
	var start := Vector3(60, 0, 250)
	var ball := _ball(Vector3(start.x, terrain.get_height(start) + 20.0, start.z), false)
	ball.linear_velocity = Vector3(25, 0, 0)
	var lowest := INF
	for i in 240:
		await get_tree().physics_frame
		var p := ball.global_position
		var ground := terrain.get_height(p)
		if not is_nan(ground):
			lowest = minf(lowest, p.y - ground)
	assert_true(lowest > -0.3, "the ball never went below the ground (lowest clearance %f)" % lowest)
	assert_true(ball.global_position.x > start.x + 40.0, "it travelled across chunk boundaries: x %f" % ball.global_position.x)
	assert_true(terrain.get_collision_info()["built"] > 4, "chunks were built on the way: %s" % terrain.get_collision_info())
	ball.queue_free()
	terrain.queue_free()


func test_edits_reach_built_and_later_built_chunks() -> void:
	var terrain := _terrain(Terrain3D.COLLISION_NEAR_BODIES)
	var ball := _ball(Vector3(A.x, terrain.get_height(A) + 2.0, A.z), true)
	await _ticks(2)
	assert_true(terrain.apply_stroke({"type": "raise", "center": [A.x, A.z], "radius": 12.0, "amount": 6.0}), "raise under the body")
	assert_true(terrain.apply_stroke({"type": "raise", "center": [B.x, B.z], "radius": 12.0, "amount": 6.0}), "raise far away")
	await _ticks(2)
	assert_near(_physics_hit(terrain, A)["position"].y, terrain.get_height(A), 0.01, "a built chunk follows the edit")
	ball.global_position = Vector3(B.x, terrain.get_height(B) + 2.0, B.z)
	await _ticks(2)
	assert_near(_physics_hit(terrain, B)["position"].y, terrain.get_height(B), 0.01, "a chunk built later has the edited heights")
	ball.queue_free()
	terrain.queue_free()


func test_switching_modes_rebuilds_and_bad_radii_are_refused() -> void:
	var terrain := _terrain(Terrain3D.COLLISION_NEAR_BODIES)
	await _ticks(1)
	terrain.collision_mode = Terrain3D.COLLISION_FULL
	await _ticks(1)
	assert_eq(terrain.get_collision_mode_in_use(), Terrain3D.COLLISION_FULL, "full now")
	assert_eq(terrain.get_collision_info()["chunks"], 256, "every chunk")
	assert_false(_physics_hit(terrain, B).is_empty(), "rays hit anywhere")
	terrain.collision_mode = Terrain3D.COLLISION_NEAR_BODIES
	await _ticks(1)
	assert_eq(terrain.get_collision_info()["chunks"], 0, "back to near bodies: none without a body")
	terrain.collision_radius = -1.0
	terrain.collision_radius = NAN
	assert_eq(terrain.collision_radius, 40.0, "bad radii refused")
	terrain.queue_free()

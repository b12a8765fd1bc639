extends "res://lib/case.gd"
## Hole strokes at runtime: collision, queries and meshes follow, undo restores.

const RECIPE := '{"size": [128, 96], "resolution": [64, 48], "seed": 5, "chunk_cells": 16, "landforms": {"hills": {"base_height": 2, "height_variation": 24, "feature_size": 48, "octaves": 4}}, "default_landform": "hills"}'

## Centre of cell (20, 15) on the 2 m grid: inside the hole cut below.
const IN_HOLE := Vector3(41, 0, 31)
## A solid point of the same chunk.
const SOLID := Vector3(55, 0, 41)


func _terrain() -> Terrain3D:
	return recipe_terrain(RECIPE)


func _physics_hit(terrain: Terrain3D, at: Vector3) -> Dictionary:
	var space := terrain.get_world_3d().direct_space_state
	var q := PhysicsRayQueryParameters3D.create(Vector3(at.x, 200, at.z), Vector3(at.x, -200, at.z))
	q.hit_back_faces = true
	return space.intersect_ray(q)


func test_hole_stroke_physics_rays_pass_through_and_queries_return_nan() -> void:
	var terrain := _terrain()
	await get_tree().physics_frame
	await get_tree().physics_frame
	assert_false(_physics_hit(terrain, IN_HOLE).is_empty(), "solid before the stroke")
	assert_true(terrain.apply_stroke({"type": "hole", "center": Vector2(41, 31), "radius": 5.0}), "hole stroke applied")
	await get_tree().physics_frame
	await get_tree().physics_frame
	assert_true(_physics_hit(terrain, IN_HOLE).is_empty(), "a physics ray passes through the hole")
	assert_false(_physics_hit(terrain, SOLID).is_empty(), "the rest of the chunk still collides")
	assert_true(is_nan(terrain.get_height(IN_HOLE)), "get_height is NAN in the hole")
	assert_false(is_nan(terrain.get_height(SOLID)), "and a number beside it")
	var batch := terrain.get_heights(PackedVector3Array([IN_HOLE, SOLID]))
	assert_true(is_nan(batch[0]) and not is_nan(batch[1]), "get_heights agrees: %s" % batch)
	assert_eq(terrain.get_normal(IN_HOLE), Vector3.ZERO, "no normal in the hole")
	var ray := terrain.raycast(Vector3(IN_HOLE.x, 200, IN_HOLE.z), Vector3.DOWN, 500.0)
	assert_true(ray.is_empty(), "Terrain3D.raycast passes through: %s" % ray)


func test_undo_and_erase_restore_hole_physics() -> void:
	var terrain := _terrain()
	var h := terrain.get_height(IN_HOLE)
	assert_true(terrain.apply_stroke({"type": "hole", "center": [41, 31], "radius": 5.0}), "cut")
	assert_true(terrain.undo_stroke(), "undo")
	await get_tree().physics_frame
	await get_tree().physics_frame
	assert_eq(terrain.get_height(IN_HOLE), h, "the exact height is back")
	var hit := _physics_hit(terrain, IN_HOLE)
	assert_false(hit.is_empty(), "physics collides again after undo")
	assert_true(terrain.redo_stroke(), "redo")
	assert_true(is_nan(terrain.get_height(IN_HOLE)), "redo cuts it again")
	assert_true(terrain.apply_stroke({"type": "hole", "mode": "erase", "center": [41, 31], "radius": 8.0}), "erase")
	await get_tree().physics_frame
	await get_tree().physics_frame
	assert_eq(terrain.get_height(IN_HOLE), h, "erasing fills the hole")
	assert_false(_physics_hit(terrain, IN_HOLE).is_empty(), "and its collision")


func test_cutting_a_whole_chunk_is_refused() -> void:
	var terrain := _terrain()
	var h := terrain.get_height(Vector3(16, 0, 16))
	assert_false(terrain.apply_stroke({"type": "hole", "center": [16, 16], "radius": 40.0, "mask": "square"}), "refused")
	assert_eq(terrain.get_height(Vector3(16, 0, 16)), h, "nothing changed")


func _ball(at: Vector3) -> RigidBody3D:
	var body := RigidBody3D.new()
	var shape := CollisionShape3D.new()
	var sphere := SphereShape3D.new()
	sphere.radius = 0.3
	shape.shape = sphere
	body.add_child(shape)
	add_child(body)
	body.global_position = at
	return body


func test_a_rigid_body_falls_through_a_hole_physics() -> void:
	var terrain := _terrain()
	var ground := terrain.get_height(IN_HOLE)
	var solid := terrain.get_height(SOLID)
	assert_true(terrain.apply_stroke({"type": "hole", "center": [41, 31], "radius": 5.0}), "cut")
	var falling := _ball(Vector3(IN_HOLE.x, ground + 1.0, IN_HOLE.z))
	var resting := _ball(Vector3(SOLID.x, solid + 1.0, SOLID.z))
	for i in 90:
		await get_tree().physics_frame
	assert_true(falling.global_position.y < ground - 2.0, "the ball fell through the hole: y %f, ground was %f" % [falling.global_position.y, ground])
	assert_true(resting.global_position.y > solid - 0.5, "a ball beside it rests on the ground: y %f, ground %f" % [resting.global_position.y, solid])
	falling.queue_free()
	resting.queue_free()

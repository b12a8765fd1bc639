extends "res://lib/case.gd"
## The hot-loop query forms (raycast_batch, raycast_into) agree with raycast, and the cached
## transform never serves a stale placement: every way of moving the terrain, or a parent
## moving it, is seen by the very next query.

const Util = preload("res://runtime/terrain_util.gd")


func _rays(n: int) -> Array:
	var rng := RandomNumberGenerator.new()
	rng.seed = 77
	var rays: Array = []
	for i in n:
		var from := Vector3(rng.randf_range(-20, 150), rng.randf_range(20, 80), rng.randf_range(-20, 120))
		var dir := Vector3(rng.randf_range(-1, 1), rng.randf_range(-1, 0.2), rng.randf_range(-1, 1))
		rays.append([from, dir])
	return rays


func test_raycast_batch_agrees_with_raycast() -> void:
	var terrain := Util.make_terrain(self)
	terrain.transform = Transform3D(Basis(Vector3.UP, 0.4).scaled(Vector3(1.5, 2, 1.5)), Vector3(3, -2, 5))
	var rays := _rays(300)
	var origins := PackedVector3Array()
	var dirs := PackedVector3Array()
	var hits := 0
	for r in rays:
		origins.append(r[0])
		dirs.append(r[1])
	var batch := terrain.raycast_batch(origins, dirs, 400.0)
	assert_eq(batch.size(), rays.size(), "one result per ray")
	for i in rays.size():
		var d := terrain.raycast(rays[i][0], rays[i][1], 400.0)
		assert_eq(is_nan(batch[i].w), d.is_empty(), "raycast_batch agrees on hit/miss for ray %d" % i)
		if not d.is_empty() and not is_nan(batch[i].w):
			hits += 1
			assert_true(Vector3(batch[i].x, batch[i].y, batch[i].z).is_equal_approx(d.position), "batch: same point")
			assert_near(batch[i].w, d.distance, 1e-4, "batch: same distance")
	assert_true(hits > 50 and hits < rays.size(), "a mix of hits and misses (%d hits)" % hits)
	assert_eq(terrain.raycast_batch(origins, PackedVector3Array(), 10.0).size(), 0, "mismatched arrays: empty result")
	# raycast_into: the same answers in a reused hit object.
	var hit := TerrainRayHit.new()
	for i in rays.size():
		var d := terrain.raycast(rays[i][0], rays[i][1], 400.0)
		var got := terrain.raycast_into(rays[i][0], rays[i][1], 400.0, hit)
		assert_eq(got, not d.is_empty(), "raycast_into agrees on hit/miss for ray %d" % i)
		assert_eq(hit.hit, got, "hit.hit is the result")
		if got and not d.is_empty():
			assert_true(hit.position.is_equal_approx(d.position), "raycast_into: same point")
			assert_true(hit.normal.is_equal_approx(d.normal), "raycast_into: same normal")
			assert_near(hit.distance, d.distance, 1e-4, "raycast_into: same distance")


func _expect_follows(terrain: Terrain3D, what: String) -> void:
	# Any world position over the terrain must map through the node's *current* transform.
	var xf := terrain.global_transform
	for local in [Vector3(40.3, 0, 27.9), Vector3(100.5, 0, 70.25)]:
		var world: Vector3 = xf * local
		var expected: float = (xf * Vector3(local.x, Util.reference_height(terrain, local.x, local.z), local.z)).y
		assert_near(terrain.get_height(world), expected, 1e-3, "%s: the next query sees the new placement" % what)


func test_every_way_of_moving_the_terrain_is_seen_by_the_next_query() -> void:
	var terrain := Util.make_terrain(self)
	_expect_follows(terrain, "initial")
	terrain.position = Vector3(10, 3, -4)
	_expect_follows(terrain, "position")
	terrain.rotation = Vector3(0, 0.7, 0)
	_expect_follows(terrain, "rotation")
	terrain.scale = Vector3(2, 1.5, 2)
	_expect_follows(terrain, "scale")
	terrain.transform = Transform3D(Basis(Vector3.UP, -0.3), Vector3(-5, 1, 8))
	_expect_follows(terrain, "transform")
	terrain.global_transform = Transform3D(Basis.IDENTITY, Vector3(7, 0, 7))
	_expect_follows(terrain, "global_transform")
	terrain.global_position = Vector3(1, 2, 3)
	_expect_follows(terrain, "global_position")
	terrain.basis = Basis(Vector3.UP, 1.1)
	_expect_follows(terrain, "basis")
	terrain.quaternion = Quaternion(Vector3.UP, 0.2)
	_expect_follows(terrain, "quaternion")
	terrain.rotation_degrees = Vector3(0, 45, 0)
	_expect_follows(terrain, "rotation_degrees")
	terrain.translate(Vector3(3, 0, 0))
	_expect_follows(terrain, "translate()")
	terrain.rotate_y(0.5)
	_expect_follows(terrain, "rotate_y()")
	terrain.global_translate(Vector3(0, 1, 0))
	_expect_follows(terrain, "global_translate()")
	terrain.look_at_from_position(Vector3(0, 0, 0), Vector3(5, 0, 5))
	_expect_follows(terrain, "look_at_from_position()")


func test_a_moving_parent_is_seen_by_the_next_query() -> void:
	var parent := Node3D.new()
	add_child(parent)
	var terrain := Util.make_terrain(parent)
	_expect_follows(terrain, "under a Node3D")
	parent.position = Vector3(30, 5, -10)
	_expect_follows(terrain, "parent moved")
	parent.rotate_y(0.8)
	_expect_follows(terrain, "parent rotated")
	var grandparent := Node3D.new()
	add_child(grandparent)
	parent.reparent(grandparent)
	grandparent.scale = Vector3(2, 2, 2)
	_expect_follows(terrain, "grandparent scaled")
	terrain.top_level = true
	_expect_follows(terrain, "top level")
	terrain.top_level = false
	parent.position = Vector3(-8, 0, 3)
	_expect_follows(terrain, "top level off, parent moved")
	terrain.reparent(self)
	_expect_follows(terrain, "reparented to a plain Node")
	terrain.position += Vector3(4, 0, 0)
	_expect_follows(terrain, "moved after reparenting")
	terrain.reparent(grandparent)
	grandparent.position = Vector3(0, 9, 0)
	_expect_follows(terrain, "back under a Node3D that moves")

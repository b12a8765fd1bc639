extends "res://lib/case.gd"
## contains, get_surface, get_water_depth, get_smooth_normal and their batch forms, checked
## against the queries they must agree with.


func _lakes() -> Terrain3D:
	var terrain := Terrain3D.new()
	terrain.asset = load("res://fixtures/lakes.terrain.json")
	add_child(terrain)
	terrain.wait_for_generation()
	return terrain


func _grid_points(terrain: Terrain3D, n: int, margin: float) -> PackedVector3Array:
	var size := terrain.get_size()
	var pts := PackedVector3Array()
	for z in n:
		for x in n:
			var l := Vector3(-margin + (size.x + 2.0 * margin) * (x + 0.37) / n, 0.0, -margin + (size.y + 2.0 * margin) * (z + 0.61) / n)
			pts.append(terrain.global_transform * l)
	return pts


func test_contains_is_where_get_height_answers() -> void:
	var terrain := _lakes()
	terrain.position = Vector3(7, -3, 11)
	var inside := 0
	for p in _grid_points(terrain, 24, 10.0):
		var c := terrain.contains(p)
		assert_eq(c, not is_nan(terrain.get_height(p)), "contains at %s" % p)
		if c:
			inside += 1
	assert_true(inside > 100 and inside < 24 * 24, "both inside and outside points (%d inside)" % inside)
	assert_true(terrain.contains(terrain.global_transform * Vector3(0, 0, 0)), "the corner is on the terrain")
	terrain.queue_free()


func test_water_depth_agrees_with_terrain_water() -> void:
	var terrain := _lakes()
	var wet := 0
	var pts := _grid_points(terrain, 24, 4.0)
	var depths := terrain.get_water_depths(pts)
	for i in pts.size():
		var p := pts[i]
		var d := terrain.get_water_depth(p)
		assert_eq(depths[i], d, "batch = single at %s" % p)
		var s: WaterSample = TerrainWater.sample(p)
		if s == null:
			assert_eq(d, 0.0, "dry at %s" % p)
		else:
			wet += 1
			assert_near(d, s.depth, 1e-5, "depth = WaterSample.depth at %s" % p)
			assert_near(terrain.get_height(p) + d, s.surface.y, 1e-4, "ground + depth = water surface at %s" % p)
	assert_true(wet > 10, "some points are wet (%d)" % wet)
	terrain.queue_free()


func test_surface_is_the_role_or_water() -> void:
	var terrain := _lakes()
	var names := Terrain3D.get_surface_names()
	assert_eq(names.size(), 9, "nine surface names")
	assert_eq(names[0], "ground", "id 0")
	var constants := [Terrain3D.SURFACE_GROUND, Terrain3D.SURFACE_GRASS, Terrain3D.SURFACE_ROCK,
		Terrain3D.SURFACE_CLIFF, Terrain3D.SURFACE_SEDIMENT, Terrain3D.SURFACE_SAND,
		Terrain3D.SURFACE_SNOW, Terrain3D.SURFACE_WET_GROUND, Terrain3D.SURFACE_UNDERWATER]
	for i in constants.size():
		assert_eq(names[constants[i]], ["ground", "grass", "rock", "cliff", "sediment", "sand", "snow", "wet_ground", "underwater"][i], "SURFACE_ constant %d names its role" % i)
	var water := _assert_surfaces(terrain, _grid_points(terrain, 24, 4.0))
	assert_true(water > 10, "water was among them (%d)" % water)
	terrain.queue_free()


## get_surface reads a per-cell index built on the first query: sculpting a lake's floor above
## its level, cutting a hole and painting water on dry land afterwards must show at once.
func test_surface_follows_sculpting_holes_and_painted_water() -> void:
	var terrain := _lakes()
	var pts := _grid_points(terrain, 48, 2.0)
	var before := _assert_surfaces(terrain, pts)
	var raised := terrain.apply_stroke({"type": "raise", "center": [32, 32], "radius": 10.0, "amount": 30.0})
	assert_true(raised, "the lake floor is raised")
	var holed := terrain.apply_stroke({"type": "hole", "center": [67, 12], "radius": 5.0})
	assert_true(holed, "a hole is cut")
	var painted := terrain.paint_water(Vector3(64, 0, 50), 6.0, 1.5)
	assert_true(painted, "water is painted")
	var centre := Vector3(32, 0, 32)
	assert_eq(terrain.get_water_depth(centre), 0.0, "the raised floor is dry")
	assert_true(terrain.get_surface(centre, false) != Terrain3D.SURFACE_WATER, "and its surface is not water")
	assert_eq(terrain.get_surface(Vector3(67, 0, 12), false), Terrain3D.SURFACE_NONE, "the hole has no surface")
	assert_eq(terrain.get_surface(Vector3(64, 0, 50), false), Terrain3D.SURFACE_WATER, "painted water is water")
	var after := _assert_surfaces(terrain, pts)
	assert_true(after != before, "the wet count changed (%d → %d)" % [before, after])
	terrain.undo_stroke()
	terrain.undo_stroke()
	terrain.undo_stroke()
	assert_eq(_assert_surfaces(terrain, pts), before, "undo brings every answer back")
	terrain.queue_free()


func test_writes_forget_only_the_surface_index_tiles_they_change() -> void:
	# The lakes at 0.5 m (256 × 128 cells: 8 × 4 index tiles of 32 cells).
	var recipe: Dictionary = JSON.parse_string(FileAccess.get_file_as_string("res://fixtures/lakes.terrain.json")).recipe
	recipe.resolution = [256, 128]
	var terrain := Terrain3D.new()
	terrain.recipe = JSON.stringify(recipe)
	add_child(terrain)
	terrain.wait_for_generation()
	var pts := _grid_points(terrain, 48, 0.0)
	_assert_surfaces(terrain, pts)
	var all := terrain._test_surface_index_tiles()
	assert_eq(all, 32, "the queries built the index everywhere")
	# User channels are not part of the surface: a write keeps every tile, the first one (which
	# creates the edit session) too.
	assert_true(terrain.set_user_channel(0, Vector3(20, 0, 20), 3.0, 1.0), "a user channel write")
	assert_eq(terrain._test_surface_index_tiles(), all, "a user-channel write keeps the index")
	assert_true(terrain.set_user_channel(0, Vector3(21, 0, 20), 3.0, 1.0), "another write")
	assert_eq(terrain._test_surface_index_tiles(), all, "and so does the next one")
	terrain.queue_free()
	# Painted water only (no bodies to re-resolve): a small height change forgets only the
	# tiles around it.
	terrain = Terrain3D.new()
	terrain.recipe = JSON.stringify({"size": [256, 128], "resolution": [256, 128], "seed": 4})
	add_child(terrain)
	terrain.wait_for_generation()
	assert_true(terrain.paint_water(Vector3(200, 0, 100), 6.0, 1.5), "water is painted")
	pts = _grid_points(terrain, 48, 0.0)
	_assert_surfaces(terrain, pts)
	assert_eq(terrain._test_surface_index_tiles(), all, "the index is built everywhere again")
	var rect := Rect2i(40, 40, 2, 2)  # samples 40–41: cells 39–41, all in tile (1, 1)
	var values := terrain.get_height_rect(rect)
	for i in values.size():
		values[i] += 1.0
	assert_true(terrain.set_height_rect(rect, values), "a 2 × 2 height write")
	assert_eq(terrain._test_surface_index_tiles(), all - 1, "a height write inside one tile forgets that tile only")
	_assert_surfaces(terrain, pts)
	assert_eq(terrain._test_surface_index_tiles(), all, "the next queries rebuild it")
	terrain.queue_free()


## Checks get_surface / get_surfaces at `pts` against contains, get_water_depth and the role;
## returns how many points are water.
func _assert_surfaces(terrain: Terrain3D, pts: PackedVector3Array) -> int:
	var names := Terrain3D.get_surface_names()
	var surfaces := terrain.get_surfaces(pts)
	var dry_surfaces := terrain.get_surfaces(pts, true)
	var water := 0
	for i in pts.size():
		var p := pts[i]
		var s := terrain.get_surface(p, false)
		assert_eq(surfaces[i], s, "batch = single at %s" % p)
		assert_eq(dry_surfaces[i], terrain.get_surface(p, true), "batch = single, ignoring water, at %s" % p)
		if not terrain.contains(p):
			assert_eq(s, Terrain3D.SURFACE_NONE, "outside at %s" % p)
			continue
		var role := String(terrain.get_surface_role(p))
		assert_eq(names[terrain.get_surface(p, true)], role, "ignoring water: the role at %s" % p)
		if terrain.get_water_depth(p) > 0.0:
			water += 1
			assert_eq(s, Terrain3D.SURFACE_WATER, "water at %s" % p)
		else:
			assert_eq(names[s], role, "the role where dry at %s" % p)
	return water


func test_smooth_normal_is_unit_and_blends_face_normals() -> void:
	var terrain := _lakes()
	terrain.rotation = Vector3(0, 0.4, 0)
	var checked := 0
	for p in _grid_points(terrain, 16, 0.0):
		var n := terrain.get_smooth_normal(p)
		var f := terrain.get_normal(p)
		if f == Vector3.ZERO:
			assert_eq(n, Vector3.ZERO, "no smooth normal where there is no face normal")
			continue
		assert_near(n.length(), 1.0, 1e-4, "unit length at %s" % p)
		assert_true(n.dot(f) > 0.5, "close to the face normal at %s" % p)
		checked += 1
	assert_true(checked > 100, "normals checked (%d)" % checked)
	assert_eq(terrain.get_smooth_normal(Vector3(-1000, 0, 0)), Vector3.ZERO, "outside")
	terrain.queue_free()

extends "res://lib/case.gd"
## Painted water (issue #20, seed 004's water layer): paint_water lowers the bed under the
## drawn surface, get_height + get_water_depth is the surface, TerrainWater.sample and
## get_surface agree, level mode fills a dip flat, the change signal names the water layer,
## undo and regeneration are exact, bad arguments change nothing.

const RECIPE := '{"size": [128, 96], "resolution": [64, 48], "seed": 5, "chunk_cells": 16, "landforms": {"hills": {"base_height": 2, "height_variation": 24, "feature_size": 48, "octaves": 4}}, "default_landform": "hills"}'


func _terrain() -> Terrain3D:
	return recipe_terrain(RECIPE)


## World position of sample (x, z) (2 m spacing, unit transform).
func _at(x: int, z: int) -> Vector3:
	return Vector3(2 * x, 0, 2 * z)


## Heights of a block of samples around the brush.
func _heights(terrain: Terrain3D) -> PackedFloat32Array:
	return terrain.get_height_rect(Rect2i(20, 12, 24, 24))


func test_bed_lowered_and_queries_agree() -> void:
	var terrain := _terrain()
	var events: Array = []
	terrain.terrain_changed.connect(func(l: int, c: Rect2i, k: Rect2i, u: bool) -> void: events.append([l, c, k, u]))
	var p := _at(32, 24)
	var h0 := terrain.get_height(p)
	assert_eq(terrain.get_water_depth(p), 0.0, "dry before")
	assert_true(TerrainWater.sample(p) == null, "no water before")
	assert_true(terrain.paint_water(p, 10.0, 2.0), "paint 2 m of water")
	assert_near(terrain.get_height(p), h0 - 2.0, 1e-4, "the bed is lowered by the depth")
	assert_near(terrain.get_water_depth(p), 2.0, 1e-4, "the depth")
	var s: WaterSample = TerrainWater.sample(p)
	assert_true(s != null, "TerrainWater.sample finds the painted water")
	if s == null:
		return
	assert_eq(s.kind, WaterSample.KIND_PAINTED, "its own kind")
	assert_eq(s.body_id, "painted", "body id")
	assert_eq(s.flow_velocity, Vector3.ZERO, "no current")
	assert_near(s.surface.y, h0, 1e-4, "the surface is where the ground was")
	var wet := 0
	for k in 60:
		var q := p + Vector3(-9.0 + k * 0.31, 0.0, -7.0 + k * 0.23)
		var d := terrain.get_water_depth(q)
		var w: WaterSample = TerrainWater.sample(q)
		if d > 0.0:
			wet += 1
			assert_true(w != null, "sample agrees where wet (%s)" % q)
			if w != null:
				assert_eq(w.depth, d, "same depth")
				assert_near(terrain.get_height(q) + d, w.surface.y, 1e-4, "get_height + get_water_depth = surface at %s" % q)
			assert_eq(terrain.get_surface(q, false), Terrain3D.SURFACE_WATER, "get_surface: water")
		else:
			assert_true(w == null, "sample agrees where dry (%s)" % q)
	assert_true(wet > 30, "%d wet points" % wet)
	assert_eq(terrain.get_surface(p, true), Terrain3D.get_surface_names().find("underwater"), "ignore_water: the bed's surface, classified underwater")
	assert_eq(events.size(), 1, "one terrain_changed")
	# The water renderer draws it (the recipe has no water bodies).
	var node: TerrainWaterSurface = null
	for child in terrain.get_children(true):
		if child is TerrainWaterSurface:
			node = child
	assert_true(node != null and node.get_base().is_valid(), "a TerrainWaterSurface draws the painted water")
	if node != null and node.get_base().is_valid():
		assert_eq(RenderingServer.mesh_get_surface_count(node.get_base()), 1, "one surface: the painted water")
		var vertices: PackedVector3Array = RenderingServer.mesh_surface_get_arrays(node.get_base(), 0)[Mesh.ARRAY_VERTEX]
		assert_true(vertices.size() > 20, "%d vertices" % vertices.size())
		for v in vertices:
			var depth := terrain.get_water_depth(terrain.to_global(v))
			assert_true(absf(terrain.get_height(terrain.to_global(v)) + depth - v.y) < 1e-3, "vertex on the surface at %s" % v)
	var layers: int = events[0][0]
	assert_true(layers & Terrain3D.LAYER_WATER != 0, "the water flag")
	assert_true(layers & Terrain3D.LAYER_HEIGHT != 0, "the height flag (the bed moved)")
	assert_true((events[0][1] as Rect2i).has_point(Vector2i(32, 24)), "cells cover the brush")
	assert_false(events[0][3], "not from undo")


func test_level_undo_regeneration_and_save_games() -> void:
	var terrain := _terrain()
	var p := _at(32, 24)
	var before := _heights(terrain)
	var level := terrain.get_height(p) + 1.5
	assert_true(terrain.paint_water(p, 12.0, 3.0, 1.0, level), "a pond at a level")
	for k in 5:
		var q := p + Vector3(k - 2.0, 0.0, 0.5 * k - 1.0)
		var s: WaterSample = TerrainWater.sample(q)
		assert_true(s != null, "wet inside")
		if s != null:
			assert_near(s.surface.y, level, 1e-4, "flat at the level")
			assert_near(s.depth, 3.0, 1e-4, "full")
	var after := _heights(terrain)
	var flags: Array = []
	terrain.terrain_changed.connect(func(l: int, _c: Rect2i, _k: Rect2i, u: bool) -> void: flags.append([l, u]))
	assert_true(terrain.undo_stroke(), "undo")
	assert_eq(_heights(terrain), before, "undo restores the heights exactly")
	assert_eq(terrain.get_water_depth(p), 0.0, "and removes the water")
	assert_eq(_drawn_surfaces(terrain), 0, "and its drawn surface")
	assert_true(flags[0][0] & Terrain3D.LAYER_WATER != 0 and flags[0][1], "undo signals the water, from_undo")
	assert_true(terrain.redo_stroke(), "redo")
	assert_eq(_heights(terrain), after, "redo is exact")
	var saved := terrain.get_runtime_strokes()
	assert_eq(saved.size(), 1, "one stroke")
	assert_true(terrain.generate() and terrain.wait_for_generation(), "regenerate")
	assert_eq(_heights(terrain), after, "regeneration replays the water")
	assert_near(terrain.get_water_depth(p), 3.0, 1e-4, "and its depth")
	var fresh := _terrain()
	assert_true(fresh.apply_strokes(saved), "a save game applies")
	assert_eq(_heights(fresh), after, "and gives the same bed")
	assert_near(fresh.get_water_depth(p), 3.0, 1e-4, "and water")
	# Depth 0 removes the water.
	assert_true(terrain.paint_water(p, 14.0, 0.0), "remove")
	assert_eq(terrain.get_water_depth(p), 0.0, "dry again")


## Water surfaces the terrain's TerrainWaterSurface draws (0 without one or without a mesh).
func _drawn_surfaces(terrain: Terrain3D) -> int:
	for child in terrain.get_children(true):
		if child is TerrainWaterSurface and child.get_base().is_valid():
			return RenderingServer.mesh_get_surface_count(child.get_base())
	return 0


func test_bad_arguments_change_nothing() -> void:
	var terrain := _terrain()
	var before := _heights(terrain)
	var events: Array = []
	terrain.terrain_changed.connect(func(l: int, _c: Rect2i, _k: Rect2i, _u: bool) -> void: events.append(l))
	var p := _at(32, 24)
	assert_false(terrain.paint_water(p, 4.0, NAN), "NaN depth")
	assert_false(terrain.paint_water(p, 4.0, Terrain3D.get_max_water_depth() + 1.0), "too deep")
	assert_false(terrain.paint_water(p, 4.0, -1.0), "negative depth")
	assert_false(terrain.paint_water(p, 4.0, 1.0, 1.5), "strength above 1")
	assert_false(terrain.paint_water(p, 0.0, 1.0), "zero radius")
	assert_false(terrain.paint_water(p, NAN, 1.0), "NaN radius")
	assert_false(terrain.paint_water(Vector3(NAN, 0, 0), 4.0, 1.0), "NaN position")
	assert_false(terrain.paint_water(p, 4.0, 1.0, 1.0, INF), "infinite level")
	assert_eq(_heights(terrain), before, "nothing changed")
	assert_eq(terrain.get_water_depth(p), 0.0, "no water")
	assert_eq(events.size(), 0, "no signal")
	assert_false(terrain.can_undo_stroke(), "nothing recorded")

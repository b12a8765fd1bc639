extends "res://lib/case.gd"
## get_height_rect / set_height_rect: a rectangle of sample heights read and written as one
## replayable height-patch stroke (exact undo, identical after regeneration, clear refusals).

const RECIPE := '{"size": [128, 96], "resolution": [64, 48], "seed": 5, "chunk_cells": 16, "landforms": {"hills": {"base_height": 2, "height_variation": 24, "feature_size": 48, "octaves": 4}}, "default_landform": "hills"}'


func _terrain() -> Terrain3D:
	return recipe_terrain(RECIPE)


func _all(terrain: Terrain3D) -> PackedFloat32Array:
	return terrain.get_height_rect(Rect2i(0, 0, 65, 49))


func _patch(rect: Rect2i) -> PackedFloat32Array:
	var values := PackedFloat32Array()
	for z in rect.size.y:
		for x in rect.size.x:
			values.append(10.0 + 0.25 * x - 0.5 * z)
	return values


func test_get_height_rect_reads_the_samples_row_major() -> void:
	var terrain := _terrain()
	var r := Rect2i(3, 7, 5, 4)
	var got := terrain.get_height_rect(r)
	assert_eq(got.size(), 20, "one value per sample")
	var same := 0
	for z in 4:
		for x in 5:
			if got[z * 5 + x] == terrain.get_sample_height(3 + x, 7 + z):
				same += 1
	assert_eq(same, 20, "row-major, equal to get_sample_height")
	assert_eq(_all(terrain).size(), 65 * 49, "the whole grid")


func test_set_height_rect_writes_exactly_and_signals() -> void:
	var terrain := _terrain()
	var events: Array = []
	terrain.terrain_changed.connect(func(l: int, c: Rect2i, k: Rect2i, u: bool) -> void: events.append([l, c, k, u]))
	var before := _all(terrain)
	var r := Rect2i(20, 10, 8, 6)
	var values := _patch(r)
	assert_true(terrain.set_height_rect(r, values), "patch applied")
	assert_eq(terrain.get_height_rect(r), values, "the rectangle holds the values exactly")
	var after := _all(terrain)
	var outside_changed := 0
	for i in after.size():
		if not r.has_point(Vector2i(i % 65, i / 65)) and after[i] != before[i]:
			outside_changed += 1
	assert_eq(outside_changed, 0, "nothing outside the rectangle changed")
	assert_near(terrain.get_height(Vector3(40, 0, 20)), 10.0, 1e-5, "queries see it (sample (20, 10))")
	assert_eq(events.size(), 1, "one terrain_changed")
	assert_eq(events[0][0] & Terrain3D.LAYER_HEIGHT, Terrain3D.LAYER_HEIGHT, "heights flagged")
	assert_true((events[0][1] as Rect2i).encloses(r), "cells enclose the rectangle: %s" % events[0][1])
	await get_tree().physics_frame
	await get_tree().physics_frame
	var space := terrain.get_world_3d().direct_space_state
	var hit := space.intersect_ray(PhysicsRayQueryParameters3D.create(Vector3(42, 200, 22), Vector3(42, -200, 22)))
	assert_false(hit.is_empty(), "the ray hits")
	assert_near(hit.position.y, terrain.get_height(Vector3(42, 0, 22)), 1e-3, "collision follows")


func test_undo_redo_and_regeneration_are_exact() -> void:
	var terrain := _terrain()
	var h0 := _all(terrain)
	var r := Rect2i(30, 20, 10, 9)
	assert_true(terrain.set_height_rect(r, _patch(r)), "patch")
	assert_true(terrain.apply_stroke({"type": "smooth", "center": [60, 40], "radius": 6.0}), "a smooth over its edge")
	var edited := _all(terrain)
	assert_true(terrain.undo_stroke() and terrain.undo_stroke(), "undo both")
	assert_eq(_all(terrain), h0, "undo restores the generated heights exactly")
	assert_true(terrain.redo_stroke() and terrain.redo_stroke(), "redo both")
	assert_eq(_all(terrain), edited, "redo restores the edit exactly")
	assert_true(terrain.generate() and terrain.wait_for_generation(), "regenerate")
	assert_eq(_all(terrain), edited, "regeneration replays the patch identically")


func test_bad_arguments_change_nothing() -> void:
	var terrain := _terrain()
	var h0 := _all(terrain)
	var events := [0]
	terrain.terrain_changed.connect(func(_l: int, _c: Rect2i, _k: Rect2i, _u: bool) -> void: events[0] += 1)
	assert_false(terrain.set_height_rect(Rect2i(0, 0, 2, 2), PackedFloat32Array([1, 2, 3])), "wrong size")
	assert_false(terrain.set_height_rect(Rect2i(0, 0, 2, 1), PackedFloat32Array([1, NAN])), "NaN")
	assert_false(terrain.set_height_rect(Rect2i(0, 0, 2, 1), PackedFloat32Array([1, INF])), "infinite")
	assert_false(terrain.set_height_rect(Rect2i(0, 0, 1, 1), PackedFloat32Array([2.0e7])), "beyond ±1e7")
	assert_false(terrain.set_height_rect(Rect2i(60, 40, 8, 2), _patch(Rect2i(60, 40, 8, 2))), "leaves the grid")
	assert_false(terrain.set_height_rect(Rect2i(-1, 0, 2, 1), PackedFloat32Array([1, 2])), "negative position")
	assert_false(terrain.set_height_rect(Rect2i(0, 0, 0, 3), PackedFloat32Array()), "empty rectangle")
	assert_eq(terrain.get_height_rect(Rect2i(64, 0, 2, 1)).size(), 0, "reading outside the grid is empty")
	assert_eq(_all(terrain), h0, "nothing changed")
	assert_false(terrain.can_undo_stroke(), "nothing recorded")
	assert_eq(events[0], 0, "no terrain_changed")

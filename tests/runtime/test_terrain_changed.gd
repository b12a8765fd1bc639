extends "res://lib/case.gd"
## The terrain_changed signal: raised synchronously after every write, undo and redo, with the
## changed layers, the touched sample and chunk rectangles, and from_undo.

const RECIPE := '{"size": [128, 96], "resolution": [64, 48], "seed": 5, "chunk_cells": 16, "biomes": {"meadow": {"color": [0.3, 0.6, 0.3, 1]}, "sand": {"color": [0.9, 0.8, 0.5, 1]}}, "default_biome": "meadow", "landforms": {"hills": {"base_height": 2, "height_variation": 24, "feature_size": 48, "octaves": 4}}, "default_landform": "hills"}'

var _events: Array[Dictionary] = []


func _terrain() -> Terrain3D:
	var terrain := Terrain3D.new()
	terrain.recipe = RECIPE
	add_child(terrain)
	terrain.wait_for_generation()
	_events = []
	terrain.terrain_changed.connect(_record.bind(terrain))
	return terrain


func _record(layers: int, cells: Rect2i, chunks: Rect2i, from_undo: bool, terrain: Terrain3D) -> void:
	# Read back inside the handler: the write is complete when the signal is raised.
	_events.append({"layers": layers, "cells": cells, "chunks": chunks, "from_undo": from_undo, "height": terrain.get_height(Vector3(40, 0, 30))})


func test_a_stroke_signals_synchronously_with_its_rectangles() -> void:
	var terrain := _terrain()
	var deferred: Array = []
	terrain.surface_changed.connect(func(r: Rect2i) -> void: deferred.append(r))
	assert_true(terrain.apply_stroke({"type": "raise", "center": Vector2(40, 30), "radius": 6.0, "amount": 3.0}), "stroke applied")
	assert_eq(_events.size(), 1, "one terrain_changed before apply_stroke returned")
	var e: Dictionary = _events[0]
	assert_true(e["layers"] & Terrain3D.LAYER_HEIGHT != 0, "heights flagged: %d" % e["layers"])
	assert_eq(e["layers"] & (Terrain3D.LAYER_HOLES | Terrain3D.LAYER_EXCLUSION | Terrain3D.LAYER_REGIONS | Terrain3D.LAYER_USER_CHANNELS), 0, "no other data layer flagged")
	assert_false(e["from_undo"], "not from undo")
	var cells: Rect2i = e["cells"]
	assert_true(cells.has_point(Vector2i(20, 15)), "cells hold the stamp centre's sample: %s" % cells)
	assert_true(cells.size.x <= 10 and cells.size.y <= 10, "cells are local: %s" % cells)
	var chunks: Rect2i = e["chunks"]
	assert_true(chunks.has_point(Vector2i(1, 0)), "chunks hold the centre's chunk: %s" % chunks)
	assert_true(chunks.size.x <= 2 and chunks.size.y <= 2, "only neighbouring chunks: %s" % chunks)
	assert_eq(e["height"], terrain.get_height(Vector3(40, 0, 30)), "the handler read the new height")
	await get_tree().process_frame
	assert_eq(deferred.size(), 1, "surface_changed still follows")
	assert_eq(deferred[0], cells, "with the same rectangle")


func test_undo_and_redo_are_marked_from_undo() -> void:
	var terrain := _terrain()
	var h0 := terrain.get_height(Vector3(40, 0, 30))
	terrain.apply_stroke({"type": "raise", "center": [40, 30], "radius": 6.0, "amount": 3.0})
	var h1 := terrain.get_height(Vector3(40, 0, 30))
	assert_true(terrain.undo_stroke(), "undo")
	assert_true(terrain.redo_stroke(), "redo")
	assert_eq(_events.size(), 3, "stroke, undo and redo each signal")
	assert_eq([_events[0]["from_undo"], _events[1]["from_undo"], _events[2]["from_undo"]], [false, true, true], "from_undo")
	assert_eq(_events[1]["layers"] & Terrain3D.LAYER_HEIGHT, Terrain3D.LAYER_HEIGHT, "undo changed heights")
	assert_eq(_events[1]["cells"], _events[0]["cells"], "undo touched the stroke's cells")
	assert_eq(_events[1]["chunks"], _events[0]["chunks"], "and its chunks")
	assert_eq(_events[1]["height"], h0, "the undo handler saw the restored height")
	assert_eq(_events[2]["height"], h1, "the redo handler saw the redone height")
	assert_false(terrain.redo_stroke(), "nothing to redo")
	assert_eq(_events.size(), 3, "a refused redo does not signal")


func test_mask_and_hole_strokes_flag_their_layers() -> void:
	var terrain := _terrain()
	terrain.apply_stroke({"type": "exclude", "center": [90, 50], "radius": 6.0})
	terrain.apply_stroke({"type": "region", "biome": "sand", "center": [30, 30], "radius": 8.0})
	terrain.apply_stroke({"type": "hole", "center": [100, 20], "radius": 3.0})
	assert_eq(_events.size(), 3, "three writes, three signals")
	var ex: int = _events[0]["layers"]
	assert_true(ex & Terrain3D.LAYER_EXCLUSION != 0, "exclusion flagged: %d" % ex)
	assert_eq(ex & (Terrain3D.LAYER_HEIGHT | Terrain3D.LAYER_REGIONS | Terrain3D.LAYER_HOLES), 0, "an exclusion stroke changes no height, region or hole")
	var rg: int = _events[1]["layers"]
	assert_true(rg & Terrain3D.LAYER_REGIONS != 0, "regions flagged: %d" % rg)
	assert_true(rg & Terrain3D.LAYER_SURFACE != 0, "the painted biome changes the surface: %d" % rg)
	assert_eq(rg & (Terrain3D.LAYER_HEIGHT | Terrain3D.LAYER_EXCLUSION), 0, "a region stroke changes no height or exclusion")
	var ho: int = _events[2]["layers"]
	assert_true(ho & Terrain3D.LAYER_HOLES != 0, "holes flagged: %d" % ho)
	assert_eq(ho & Terrain3D.LAYER_HEIGHT, 0, "a hole stroke changes no height")
	var hole_cells: Rect2i = _events[2]["cells"]
	assert_true(hole_cells.has_point(Vector2i(50, 10)), "the hole's cells: %s" % hole_cells)


func test_a_refused_write_does_not_signal() -> void:
	var terrain := _terrain()
	assert_false(terrain.apply_stroke({"type": "raise", "center": [40, 30], "radius": -1.0}), "invalid stroke refused")
	assert_false(terrain.undo_stroke(), "nothing to undo")
	assert_eq(_events.size(), 0, "no terrain_changed for refused writes")


func test_a_handler_may_write_again() -> void:
	var terrain := _terrain()
	var nested := [false]
	terrain.terrain_changed.connect(func(_l: int, _c: Rect2i, _k: Rect2i, _u: bool) -> void:
		if not nested[0]:
			nested[0] = true
			terrain.apply_stroke({"type": "lower", "center": [80, 60], "radius": 4.0, "amount": 1.0}))
	var far_before := terrain.get_height(Vector3(80, 0, 60))
	assert_true(terrain.apply_stroke({"type": "raise", "center": [40, 30], "radius": 4.0}), "outer stroke applied")
	assert_eq(_events.size(), 2, "both writes signalled")
	assert_near(terrain.get_height(Vector3(80, 0, 60)), far_before - 1.0, 1e-4, "the handler's own stroke applied")

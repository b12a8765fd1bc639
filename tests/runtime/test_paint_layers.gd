extends "res://lib/case.gd"
## User channels, surface paint, layer weights and packed cell data (issue #20): writes are
## strokes (exact undo, identical after regeneration, saved by get_runtime_strokes), the change
## signal names the layer, uploads happen once per frame, bad arguments change nothing.

const RECIPE := '{"size": [128, 96], "resolution": [64, 48], "seed": 5, "chunk_cells": 16, "landforms": {"hills": {"base_height": 2, "height_variation": 24, "feature_size": 48, "octaves": 4}}, "default_landform": "hills"}'
## Samples of the 64 × 48-cell grid.
const SAMPLES := Vector2i(65, 49)


func _terrain() -> Terrain3D:
	var terrain := Terrain3D.new()
	terrain.recipe = RECIPE
	var zone := TerrainUserChannel.new()
	zone.channel_name = "zone"
	zone.kind = TerrainUserChannel.KIND_ID
	zone.legend_names = PackedStringArray(["none", "village", "forest"])
	var grass := TerrainUserChannel.new()
	grass.channel_name = "cut_grass"
	terrain.user_channel_types = [grass, zone]
	add_child(terrain)
	terrain.wait_for_generation()
	return terrain


## Every sample's bytes of `layers`.
func _cells(terrain: Terrain3D, layers: int) -> PackedByteArray:
	return terrain.get_cells(Rect2i(Vector2i.ZERO, SAMPLES), layers)


## World position of sample (x, z) (2 m spacing, unit transform).
func _at(x: int, z: int) -> Vector3:
	return Vector3(2 * x, 0, 2 * z)


func test_value_and_id_channels() -> void:
	var terrain := _terrain()
	var events: Array = []
	terrain.terrain_changed.connect(func(l: int, c: Rect2i, k: Rect2i, u: bool) -> void: events.append([l, c, k, u]))
	assert_true(terrain.set_user_channel(0, _at(20, 20), 3.0, 0.5), "value write")
	assert_near(terrain.get_user_channel(0, _at(20, 20)), 128.0 / 255.0, 1e-6, "value in 1/255 steps")
	assert_eq(terrain.get_user_channel(0, _at(30, 20)), 0.0, "outside the brush")
	assert_eq(terrain.get_user_channel(1, _at(20, 20)), 0.0, "other channels untouched")
	assert_eq(events.size(), 1, "one terrain_changed")
	assert_eq(events[0][0], Terrain3D.LAYER_USER_CHANNELS, "only the user channel flag")
	assert_true((events[0][1] as Rect2i).has_point(Vector2i(20, 20)), "cells cover the brush")
	assert_eq((events[0][2] as Rect2i).size, Vector2i.ZERO, "no chunk rebuilt")
	assert_false(events[0][3], "not from undo")
	assert_true(terrain.set_user_channel(1, _at(20, 20), 3.0, 2.0), "id write")
	assert_eq(terrain.get_user_channel(1, _at(20, 20)), 2.0, "id read back as the id")
	assert_true(terrain.set_user_channel(1, _at(21, 20), 3.0, 1.0), "another id over it")
	assert_eq(terrain.get_user_channel(1, _at(21, 20)), 1.0, "ids replace, never blend")
	var batch := terrain.get_user_channels(0, PackedVector3Array([_at(20, 20), _at(40, 40), Vector3(-50, 0, 0)]))
	assert_eq(batch.size(), 3, "batch")
	assert_near(batch[0], 128.0 / 255.0, 1e-6, "batch = point query")
	assert_eq(batch[2], 0.0, "outside the terrain: 0")
	var zone: TerrainUserChannel = terrain.user_channel_types[1]
	assert_eq(zone.get_legend_name(int(terrain.get_user_channel(1, _at(21, 20)))), "village", "legend")


func test_a_channel_kind_edited_in_place_applies_at_once() -> void:
	var terrain := _terrain()
	var grass: TerrainUserChannel = terrain.user_channel_types[0]
	assert_false(terrain.set_user_channel(0, _at(20, 20), 3.0, 7.0), "a value channel refuses 7")
	grass.kind = TerrainUserChannel.KIND_ID
	assert_true(terrain.set_user_channel(0, _at(20, 20), 3.0, 7.0), "the id channel it became takes 7")
	assert_eq(terrain.get_user_channel(0, _at(20, 20)), 7.0, "and reads it back as an id")
	grass.kind = TerrainUserChannel.KIND_VALUE
	assert_near(terrain.get_user_channel(0, _at(20, 20)), 7.0 / 255.0, 1e-6, "a value channel again reads the byte as 0–1")
	# The property reads as a copy: appending to it changes nothing (assign instead).
	var extra := TerrainUserChannel.new()
	extra.kind = TerrainUserChannel.KIND_ID
	terrain.user_channel_types.append(extra)
	assert_eq(terrain.user_channel_types.size(), 2, "an in-place append is not kept")
	terrain.user_channel_types = [grass, terrain.user_channel_types[1], extra]
	assert_true(terrain.set_user_channel(2, _at(20, 20), 3.0, 9.0), "an assigned id channel takes effect")
	terrain.queue_free()


func test_user_channel_undo_redo_regeneration_and_save_games() -> void:
	var terrain := _terrain()
	var before := _cells(terrain, Terrain3D.LAYER_USER_CHANNELS)
	for k in 30:
		assert_true(terrain.set_user_channel(0, _at(10 + k / 3, 12), 2.0, 1.0), "tick %d" % k)
	assert_true(terrain.set_user_channel(1, _at(30, 30), 4.0, 2.0), "an id")
	var after := _cells(terrain, Terrain3D.LAYER_USER_CHANNELS)
	assert_true(after != before, "the channels changed")
	var saved := terrain.get_runtime_strokes()
	assert_eq(saved.size(), 2, "thirty ticks merged into one stroke, then the id stroke")
	var flags: Array = []
	terrain.terrain_changed.connect(func(l: int, _c: Rect2i, _k: Rect2i, u: bool) -> void: flags.append([l, u]))
	assert_true(terrain.undo_stroke() and terrain.undo_stroke(), "undo both")
	assert_eq(_cells(terrain, Terrain3D.LAYER_USER_CHANNELS), before, "undo is exact")
	assert_eq(flags[0], [Terrain3D.LAYER_USER_CHANNELS, true], "undo signals the user channels, from_undo")
	assert_true(terrain.redo_stroke() and terrain.redo_stroke(), "redo both")
	assert_eq(_cells(terrain, Terrain3D.LAYER_USER_CHANNELS), after, "redo is exact")
	assert_true(terrain.generate() and terrain.wait_for_generation(), "regenerate")
	assert_eq(_cells(terrain, Terrain3D.LAYER_USER_CHANNELS), after, "regeneration replays them")
	var fresh := _terrain()
	assert_true(fresh.apply_strokes(saved), "a save game applies")
	assert_eq(_cells(fresh, Terrain3D.LAYER_USER_CHANNELS), after, "and gives the same channels")


func test_uploads_are_merged_per_frame() -> void:
	var terrain := _terrain()
	await get_tree().process_frame
	var c0: Dictionary = terrain._test_user_channel_uploads()
	for k in 8:
		terrain.set_user_channel(0, _at(5 + k, 5), 2.0, 0.25 * (k % 4))
	var c1: Dictionary = terrain._test_user_channel_uploads()
	assert_true(c1.pending, "tiles wait for the next frame")
	assert_eq(c1.flushes, c0.flushes, "nothing uploaded during the writes")
	await get_tree().process_frame
	var c2: Dictionary = terrain._test_user_channel_uploads()
	assert_eq(c2.flushes, c0.flushes + 1, "one flush for the frame's writes")
	assert_false(c2.pending, "nothing left")
	assert_true(c2.tile_uploads - c0.tile_uploads <= 2, "only the touched tiles: %d" % (c2.tile_uploads - c0.tile_uploads))
	await get_tree().process_frame
	assert_eq(terrain._test_user_channel_uploads().flushes, c2.flushes, "no upload when nothing changed")


func test_dither_paint_does_not_creep() -> void:
	var terrain := _terrain()
	terrain.look = Terrain3D.LOOK_FACETED
	var events: Array = []
	terrain.terrain_changed.connect(func(l: int, _c: Rect2i, _k: Rect2i, _u: bool) -> void: events.append(l))
	assert_true(terrain.paint_surface(_at(32, 24), 20.0, 5, 0.5), "paint sand at half coverage")
	var first := _cells(terrain, Terrain3D.LAYER_SURFACE)
	for k in 10:
		terrain.paint_surface(_at(32, 24), 20.0, 5, 0.5)
	assert_eq(_cells(terrain, Terrain3D.LAYER_SURFACE), first, "repeats cover the same samples")
	var sand := 0
	var disc := 0
	for z in range(14, 35):
		for x in range(22, 43):
			if Vector2(x, z).distance_to(Vector2(32, 24)) * 2.0 <= 19.0:
				disc += 1
				if terrain.get_surface(_at(x, z), true) == 5:
					sand += 1
	assert_true(sand > disc * 0.4 and sand < disc * 0.6, "about half the disc is sand: %d of %d" % [sand, disc])
	assert_eq(events[0] & Terrain3D.LAYER_SURFACE, Terrain3D.LAYER_SURFACE, "surface flagged")
	assert_eq(terrain.get_surface_role(_at(32, 24)) == &"sand", terrain.get_surface(_at(32, 24), true) == 5, "get_surface_role agrees")


func test_blend_paint_keeps_weights_summing_to_one() -> void:
	var terrain := _terrain()
	assert_true(terrain.paint_surface(_at(20, 20), 8.0, 2, 0.4), "rock, blended")
	assert_true(terrain.paint_surface(_at(22, 20), 6.0, 6, 0.7), "snow, blended")
	assert_true(terrain.paint_surface(_at(21, 21), 5.0, 5, 0.33), "sand, blended")
	var worst := 0.0
	for z in range(12, 30):
		for x in range(12, 30):
			var sum := 0.0
			for layer in Terrain3D.get_surface_names().size():
				sum += terrain.get_layer_weight(layer, _at(x, z))
			worst = maxf(worst, absf(sum - 1.0))
	assert_true(worst < 1e-5, "weights sum to 1 everywhere (worst off by %f)" % worst)
	var snow := terrain.get_layer_weight(6, _at(22, 20))
	assert_true(snow > 0.4 and snow < 0.55, "snow 0.7, then a third of it given to sand: %f" % snow)
	var mismatches := 0
	for z in range(12, 30):
		for x in range(12, 30):
			var best := terrain.get_surface(_at(x, z), true)
			for layer in Terrain3D.get_surface_names().size():
				if terrain.get_layer_weight(layer, _at(x, z)) > terrain.get_layer_weight(best, _at(x, z)):
					mismatches += 1
	assert_eq(mismatches, 0, "get_surface answers the strongest surface")
	var unpainted := terrain.get_surface(_at(50, 40), true)
	assert_eq(terrain.get_layer_weight(unpainted, _at(50, 40)), 1.0, "unpainted: all weight on its surface")


func test_paint_undo_regeneration_and_shader() -> void:
	var terrain := _terrain()
	var roles := terrain.get_sample_roles()
	var weights := _cells(terrain, Terrain3D.LAYER_SURFACE)
	assert_true(terrain.paint_surface(_at(30, 30), 10.0, 6), "snow, full strength")
	var painted := terrain.get_sample_roles()
	assert_true(painted != roles, "the roles changed")
	assert_eq(painted[30 * SAMPLES.x + 30], 6, "snow at the centre")
	await get_tree().process_frame
	var counters: Dictionary = terrain._test_counters()
	assert_true(counters.control_updates >= 1, "the control texture was uploaded")
	var after := _cells(terrain, Terrain3D.LAYER_SURFACE)
	assert_true(terrain.undo_stroke(), "undo")
	assert_eq(terrain.get_sample_roles(), roles, "roles restored exactly")
	assert_eq(_cells(terrain, Terrain3D.LAYER_SURFACE), weights, "weights restored exactly")
	assert_true(terrain.redo_stroke(), "redo")
	assert_eq(_cells(terrain, Terrain3D.LAYER_SURFACE), after, "redo exact")
	assert_true(terrain.generate() and terrain.wait_for_generation(), "regenerate")
	assert_eq(terrain.get_sample_roles(), painted, "regeneration replays the paint")
	assert_eq(_cells(terrain, Terrain3D.LAYER_SURFACE), after, "and the weights")


func test_cells_round_trip_and_undo() -> void:
	var terrain := _terrain()
	var r := Rect2i(4, 6, 3, 2)
	var both := Terrain3D.LAYER_SURFACE | Terrain3D.LAYER_USER_CHANNELS
	var data := terrain.get_cells(r, both)
	assert_eq(data.size(), 6 * (10 + 4), "10 + 4 bytes per sample")
	var before := data.duplicate()
	for i in 6:
		var w := i * 10
		for k in 10:
			data[w + k] = 0
		data[w + 1] = 200
		data[w + 9] = 55
		data[60 + i * 4 + 2] = i + 1
	assert_true(terrain.set_cells(r, both, data), "set_cells")
	assert_eq(terrain.get_cells(r, both), data, "read back identically")
	assert_near(terrain.get_user_channel(2, _at(4, 6)), 1.0 / 255.0, 1e-7, "channel 2 byte 1 (a value channel)")
	assert_true(terrain.undo_stroke(), "undo")
	assert_eq(terrain.get_cells(r, both), before, "undo exact")


func test_bad_arguments_change_nothing() -> void:
	var terrain := _terrain()
	var user := _cells(terrain, Terrain3D.LAYER_USER_CHANNELS)
	var surface := _cells(terrain, Terrain3D.LAYER_SURFACE)
	var events := [0]
	terrain.terrain_changed.connect(func(_l: int, _c: Rect2i, _k: Rect2i, _u: bool) -> void: events[0] += 1)
	assert_false(terrain.set_user_channel(4, _at(1, 1), 2.0, 0.5), "unknown channel")
	assert_false(terrain.set_user_channel(-1, _at(1, 1), 2.0, 0.5), "negative channel")
	assert_false(terrain.set_user_channel(0, _at(1, 1), 2.0, NAN), "NaN value")
	assert_false(terrain.set_user_channel(0, _at(1, 1), 2.0, 1.5), "value above 1")
	assert_false(terrain.set_user_channel(0, Vector3(NAN, 0, 0), 2.0, 0.5), "NaN position")
	assert_false(terrain.set_user_channel(0, _at(1, 1), INF, 0.5), "infinite radius")
	assert_false(terrain.set_user_channel(0, _at(1, 1), 0.0, 0.5), "zero radius")
	assert_false(terrain.set_user_channel(1, _at(1, 1), 2.0, 256.0), "id out of range")
	assert_false(terrain.set_user_channel(1, _at(1, 1), 2.0, 1.5), "fractional id")
	assert_true(is_nan(terrain.get_user_channel(7, _at(1, 1))), "unknown channel reads NAN")
	assert_eq(terrain.get_user_channels(9, PackedVector3Array([_at(1, 1)])).size(), 0, "batch: empty")
	assert_false(terrain.paint_surface(_at(1, 1), 2.0, 9), "unknown surface")
	assert_false(terrain.paint_surface(_at(1, 1), 2.0, -1), "negative surface")
	assert_false(terrain.paint_surface(_at(1, 1), 2.0, 2, 1.5), "strength above 1")
	assert_false(terrain.paint_surface(_at(1, 1), NAN, 2), "NaN radius")
	assert_true(is_nan(terrain.get_layer_weight(12, _at(1, 1))), "unknown layer reads NAN")
	var r := Rect2i(0, 0, 2, 2)
	assert_false(terrain.set_cells(r, Terrain3D.LAYER_USER_CHANNELS, PackedByteArray([1, 2, 3])), "wrong size")
	assert_false(terrain.set_cells(r, Terrain3D.LAYER_HEIGHT, PackedByteArray()), "unsupported layer")
	assert_false(terrain.set_cells(r, 0, PackedByteArray()), "no layer")
	assert_false(terrain.set_cells(Rect2i(64, 0, 2, 1), Terrain3D.LAYER_USER_CHANNELS, PackedByteArray([0, 0, 0, 0, 0, 0, 0, 0])), "outside the grid")
	var bad := PackedByteArray()
	bad.resize(40)
	assert_false(terrain.set_cells(r, Terrain3D.LAYER_SURFACE, bad), "weights not summing to 255")
	assert_eq(terrain.get_cells(Rect2i(0, 0, 0, 1), Terrain3D.LAYER_SURFACE).size(), 0, "empty rectangle reads empty")
	assert_eq(_cells(terrain, Terrain3D.LAYER_USER_CHANNELS), user, "user channels unchanged")
	assert_eq(_cells(terrain, Terrain3D.LAYER_SURFACE), surface, "surface paint unchanged")
	assert_false(terrain.can_undo_stroke(), "nothing recorded")
	assert_eq(events[0], 0, "no terrain_changed")

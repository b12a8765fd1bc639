extends "res://lib/case.gd"
## Save games: get_runtime_strokes returns the strokes a game applied, apply_strokes applies them
## to a freshly loaded terrain (identical surface), atomically.

const RECIPE := '{"size": [128, 96], "resolution": [64, 48], "seed": 5, "chunk_cells": 16, "biomes": {"meadow": {"color": [0.3, 0.6, 0.3, 1]}, "sand": {"color": [0.9, 0.8, 0.5, 1]}}, "default_biome": "meadow", "edits": [{"type": "raise", "center": [20, 20], "radius": 6}], "landforms": {"hills": {"base_height": 2, "height_variation": 24, "feature_size": 48, "octaves": 4}}, "default_landform": "hills"}'


func _terrain() -> Terrain3D:
	return recipe_terrain(RECIPE)


func _all(terrain: Terrain3D) -> PackedFloat32Array:
	return terrain.get_height_rect(Rect2i(0, 0, 65, 49))


func test_a_save_game_round_trip_restores_the_surface() -> void:
	var terrain := _terrain()
	assert_eq(terrain.get_runtime_strokes().size(), 0, "nothing applied yet (the recipe's own stroke is not runtime)")
	terrain.apply_stroke({"type": "lower", "center": [60, 40], "radius": 5.0, "amount": 2.0})
	var patch := PackedFloat32Array()
	patch.resize(12)
	patch.fill(7.5)
	assert_true(terrain.set_height_rect(Rect2i(40, 30, 4, 3), patch), "patch")
	terrain.apply_stroke({"type": "exclude", "center": [90, 50], "radius": 6.0})
	terrain.apply_stroke({"type": "region", "biome": "sand", "center": [30, 30], "radius": 8.0})
	terrain.apply_stroke({"type": "raise", "center": [100, 80], "radius": 4.0})
	assert_true(terrain.undo_stroke(), "the last raise is undone: not saved")
	var saved := terrain.get_runtime_strokes()
	assert_eq(saved.size(), 4, "four runtime strokes")
	assert_eq(saved[1]["type"], "height_patch", "height edits first, in order")
	assert_eq(saved[2]["type"], "exclude", "then exclusions")
	assert_eq(saved[3]["type"], "region", "then regions")
	# Through text, as a save file would store them.
	var text := JSON.stringify(saved)
	var loaded := _terrain()
	var events := [0]
	loaded.terrain_changed.connect(func(_l: int, _c: Rect2i, _k: Rect2i, _u: bool) -> void: events[0] += 1)
	var parsed: Array[Dictionary] = []
	for d: Dictionary in JSON.parse_string(text):
		parsed.append(d)
	assert_true(loaded.apply_strokes(parsed), "applied")
	assert_eq(events[0], 1, "one terrain_changed for the whole batch")
	assert_eq(_all(loaded), _all(terrain), "identical heights")
	assert_eq(loaded.get_biome(Vector3(30, 0, 30)), &"sand", "the region came back")
	assert_near(loaded.get_exclusion(Vector3(90, 0, 50)), terrain.get_exclusion(Vector3(90, 0, 50)), 0.0, "the exclusion came back")
	assert_eq(loaded.get_runtime_strokes().size(), 4, "they are runtime strokes there too")
	assert_true(loaded.undo_stroke(), "each stroke is its own undo step")
	assert_eq(loaded.get_runtime_strokes().size(), 3, "one fewer after undo")


func test_a_bad_batch_changes_nothing() -> void:
	var terrain := _terrain()
	var h0 := _all(terrain)
	var events := [0]
	terrain.terrain_changed.connect(func(_l: int, _c: Rect2i, _k: Rect2i, _u: bool) -> void: events[0] += 1)
	var batch: Array[Dictionary] = [
		{"type": "raise", "center": [40, 30], "radius": 6.0},
		{"type": "lower", "center": [50, 30], "radius": -2.0},
	]
	assert_false(terrain.apply_strokes(batch), "the second stroke is invalid")
	assert_eq(_all(terrain), h0, "the first one was rolled back")
	assert_false(terrain.can_undo_stroke(), "nothing to undo")
	assert_false(terrain.redo_stroke(), "nothing to redo either")
	assert_eq(terrain.get_runtime_strokes().size(), 0, "no runtime strokes")
	assert_eq(events[0], 0, "no terrain_changed")


## A save game of a write larger than four million numbers (a height patch over 2049² samples)
## comes back, also through GDScript's JSON (which turns its packed arrays into Arrays of floats).
func test_a_large_patch_survives_a_save_game() -> void:
	var big := '{"size": [2048, 2048], "resolution": [2048, 2048], "seed": 5, "chunk_cells": 64}'
	var terrain := recipe_terrain(big)
	var rect := Rect2i(0, 0, 2049, 2049)
	var values := PackedFloat32Array()
	values.resize(rect.size.x * rect.size.y)
	for i in values.size():
		values[i] = float(i % 977) * 0.25
	assert_true(terrain.set_height_rect(rect, values), "a whole-terrain patch")
	var saved := terrain.get_runtime_strokes()
	assert_eq(saved.size(), 1, "one stroke")
	assert_true(saved[0]["heights"] is PackedFloat64Array, "its heights come back as a packed array")
	var through_json: Array[Dictionary] = []
	for d: Dictionary in JSON.parse_string(JSON.stringify(saved)):
		through_json.append(d)
	for strokes in [saved, through_json]:
		var fresh := recipe_terrain(big)
		assert_true(fresh.apply_strokes(strokes), "apply_strokes reads it back")
		assert_true(fresh.get_height_rect(Rect2i(1000, 1000, 64, 64)) == terrain.get_height_rect(Rect2i(1000, 1000, 64, 64)), "the same heights")
		assert_eq(fresh.get_sample_height(2048, 2048), values[values.size() - 1], "to the last sample")
		fresh.queue_free()
	terrain.queue_free()

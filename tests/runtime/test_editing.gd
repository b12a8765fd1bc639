extends "res://lib/case.gd"
## Runtime editing on Terrain3D: strokes, undo/redo, layers, regions, collision follows.

const RECIPE := '{"size": [128, 96], "resolution": [64, 48], "seed": 5, "chunk_cells": 16, "biomes": {"meadow": {"color": [0.3, 0.6, 0.3, 1]}, "sand": {"color": [0.9, 0.8, 0.5, 1]}}, "default_biome": "meadow", "landforms": {"hills": {"base_height": 2, "height_variation": 24, "feature_size": 48, "octaves": 4}}, "default_landform": "hills"}'


func _terrain() -> Terrain3D:
	return recipe_terrain(RECIPE)


func _heights(terrain: Terrain3D) -> PackedFloat32Array:
	var out := PackedFloat32Array()
	for z in 49:
		for x in 65:
			out.append(terrain.get_sample_height(x, z))
	return out


func _mismatches(a: PackedFloat32Array, b: PackedFloat32Array) -> int:
	if a.size() != b.size():
		return maxi(a.size(), b.size())
	var n := 0
	for i in a.size():
		if a[i] != b[i]:
			n += 1
	return n


func test_a_stroke_changes_its_footprint_and_signals_the_region() -> void:
	var terrain := _terrain()
	var regions: Array = []
	terrain.surface_changed.connect(func(r: Rect2i) -> void: regions.append(r))
	var before := _heights(terrain)
	var center_before := terrain.get_height(Vector3(40, 0, 30))
	assert_true(terrain.apply_stroke({"type": "raise", "center": Vector2(40, 30), "radius": 6.0, "amount": 3.0, "falloff": 1.0}), "stroke applied")
	assert_near(terrain.get_height(Vector3(40, 0, 30)), center_before + 3.0, 1e-4, "raised by the amount at the centre")
	var after := _heights(terrain)
	var changed := 0
	for i in before.size():
		if before[i] != after[i]:
			changed += 1
			var x := i % 65
			var z := i / 65
			assert_true(absf(x * 2.0 - 40.0) <= 6.0 and absf(z * 2.0 - 30.0) <= 6.0, "sample (%d, %d) is inside the footprint" % [x, z])
	assert_true(changed > 0 and changed < 40, "only the footprint changed (%d samples)" % changed)
	await get_tree().process_frame
	assert_eq(regions.size(), 1, "one surface_changed")
	var r: Rect2i = regions[0]
	assert_true(r.has_point(Vector2i(20, 15)), "the region holds the stamp centre: %s" % r)
	assert_true(r.size.x <= 10 and r.size.y <= 10, "the region is local: %s" % r)


func test_physics_collision_follows_the_edit() -> void:
	var terrain := _terrain()
	terrain.apply_stroke({"type": "set_height", "center": [64, 48], "radius": 8.0, "target_height": 40.0, "falloff": 1.0})
	await get_tree().physics_frame
	await get_tree().physics_frame
	var space := terrain.get_world_3d().direct_space_state
	var hit := space.intersect_ray(PhysicsRayQueryParameters3D.create(Vector3(64, 200, 48), Vector3(64, -200, 48)))
	assert_false(hit.is_empty(), "the ray hits")
	assert_near(hit.position.y, 40.0, 0.01, "physics sees the edited surface")
	assert_near(terrain.get_height(Vector3(64, 0, 48)), 40.0, 1e-4, "queries see it too")


func test_undo_and_redo_restore_exactly() -> void:
	var terrain := _terrain()
	var h0 := _heights(terrain)
	terrain.apply_stroke({"type": "smooth", "points": PackedVector2Array([Vector2(20, 20), Vector2(24, 22)]), "radius": 7.0})
	terrain.apply_stroke({"type": "lower", "center": [22, 20], "radius": 5.0, "amount": 4.0})
	var h2 := _heights(terrain)
	assert_true(terrain.can_undo_stroke(), "undo available")
	assert_true(terrain.undo_stroke(), "undo 1")
	assert_true(terrain.undo_stroke(), "undo 2")
	assert_eq(_mismatches(_heights(terrain), h0), 0, "both undone: the generated surface exactly")
	assert_false(terrain.undo_stroke(), "nothing more to undo")
	assert_true(terrain.redo_stroke() and terrain.redo_stroke(), "redo both")
	assert_eq(_mismatches(_heights(terrain), h2), 0, "redone exactly")


func test_invalid_strokes_are_rejected_and_change_nothing() -> void:
	var terrain := _terrain()
	var h0 := _heights(terrain)
	assert_false(terrain.apply_stroke({"type": "raise", "center": [10, 10], "radius": -1.0}), "negative radius")
	assert_false(terrain.apply_stroke({"type": "raise", "center": [10, 10], "radius": NAN}), "NaN radius")
	assert_false(terrain.apply_stroke({"type": "teleport", "center": [10, 10], "radius": 2.0}), "unknown type")
	assert_false(terrain.apply_stroke({"type": "raise", "center": [10, 10], "radius": 2.0, "layer": "nope"}), "unknown layer")
	assert_false(terrain.apply_stroke({"type": "raise", "center": self, "radius": 2.0}), "an object is not a position")
	assert_eq(_mismatches(_heights(terrain), h0), 0, "nothing changed")
	assert_false(terrain.can_undo_stroke(), "nothing recorded")


func test_layers_toggle_without_losing_strokes() -> void:
	var terrain := _terrain()
	var h0 := _heights(terrain)
	var layers := terrain.get_layers()
	assert_eq(layers.size(), 5, "five default layers")
	assert_eq(layers.map(func(l: Dictionary) -> String: return l.id), ["generation", "biomes", "sculpt", "protection", "exclusions"], "default order")
	terrain.apply_stroke({"type": "raise", "center": [60, 40], "radius": 10.0})
	var raised := _heights(terrain)
	assert_true(terrain.set_layer_enabled("sculpt", false), "disable sculpt")
	assert_eq(_mismatches(_heights(terrain), h0), 0, "disabled layer: the pre-stroke surface exactly")
	assert_eq(terrain.get_layers()[2].strokes, 1, "the stroke is kept")
	assert_false(terrain.get_layers()[2].enabled, "reported disabled")
	terrain.set_layer_enabled("sculpt", true)
	assert_eq(_mismatches(_heights(terrain), raised), 0, "enabled again")
	assert_false(terrain.set_layer_enabled("missing", true), "unknown layer id")


func test_region_paint_and_exclusions() -> void:
	var terrain := _terrain()
	assert_eq(terrain.get_biome(Vector3(30, 0, 30)), &"meadow", "default biome")
	assert_true(terrain.apply_stroke({"type": "region", "biome": "sand", "center": [30, 30], "radius": 8.0}), "region painted")
	assert_eq(terrain.get_biome(Vector3(30, 0, 30)), &"sand", "painted region wins")
	assert_eq(terrain.get_biome(Vector3(100, 0, 80)), &"meadow", "elsewhere the default")
	assert_true(terrain.apply_stroke({"type": "exclude", "center": [90, 50], "radius": 6.0}), "exclusion painted")
	assert_near(terrain.get_exclusion(Vector3(90, 0, 50)), 1.0, 1e-6, "excluded at the centre")
	assert_eq(terrain.get_exclusion(Vector3(10, 0, 10)), 0.0, "not elsewhere")


func test_cooked_terrains_take_runtime_strokes() -> void:
	var terrain := Terrain3D.new()
	terrain.asset = load("res://fixtures/generated/small.terrain.bin")
	add_child(terrain)
	terrain.wait_for_generation()
	var before := terrain.get_height(Vector3(50, 0, 50))
	assert_true(terrain.apply_stroke({"type": "lower", "center": [50, 50], "radius": 5.0, "amount": 2.0, "falloff": 1.0}), "crater")
	assert_near(terrain.get_height(Vector3(50, 0, 50)), before - 2.0, 1e-4, "lowered")
	assert_true(terrain.undo_stroke(), "undo")
	assert_eq(terrain.get_height(Vector3(50, 0, 50)), before, "restored")


func test_strokes_in_the_recipe_replay_on_generation() -> void:
	var terrain := _terrain()
	terrain.apply_stroke({"type": "flatten", "center": [70, 50], "radius": 6.0, "target_height": 12.0, "falloff": 1.0})
	var edited := _heights(terrain)
	var with_strokes := Terrain3D.new()
	with_strokes.recipe = RECIPE.replace('"seed": 5,', '"seed": 5, "edits": [{"type": "flatten", "center": [70, 50], "radius": 6, "target_height": 12, "falloff": 1}],')
	add_child(with_strokes)
	assert_true(with_strokes.wait_for_generation(), "generated: %s" % with_strokes.get_last_error())
	assert_eq(_mismatches(_heights(with_strokes), edited), 0, "a full generation equals the incremental edit")
	assert_true(with_strokes.undo_stroke() == false, "recipe strokes are not runtime history")


func test_resizing_an_asset_with_edits_asks_keep_or_clear() -> void:
	var asset := TerrainAsset.new()
	assert_true(asset.set_source_json('{"size": [64, 64], "resolution": [32, 32], "seed": 2, "edits": [{"type": "raise", "center": [10, 10], "radius": 4}]}'), "source")
	assert_true(asset.has_strokes(), "has strokes")
	assert_true(asset.resize(Vector2(128, 128), Vector2i(64, 64), true), "radial edits are kept")
	assert_eq((JSON.parse_string(asset.get_source_json())["edits"] as Array).size(), 1, "the stroke is still there")
	assert_false(asset.resize(Vector2(-5, 128), Vector2i(64, 64), true), "a negative size is refused")
	assert_true(asset.get_source_json().contains("128"), "and the asset is unchanged")
	var protected := TerrainAsset.new()
	protected.set_source_json('{"size": [16, 16], "resolution": [4, 4], "seed": 2, "edits": [{"type": "protect", "center": [8, 8], "radius": 2, "falloff": 1, "grid": [4, 4], "heights": [1, 1, 1, 1, 1]}]}')
	assert_false(protected.resize(Vector2(16, 16), Vector2i(8, 8), true), "protection refuses a new grid")
	var res: Array = JSON.parse_string(protected.get_source_json())["resolution"]
	assert_eq(int(res[0]), 4, "unchanged after the refusal")
	assert_true(protected.resize(Vector2(16, 16), Vector2i(8, 8), false), "clearing is allowed")
	assert_false(protected.has_strokes(), "the strokes are gone")


func test_regenerating_keeps_runtime_strokes() -> void:
	var terrain := _terrain()
	var before := terrain.get_height(Vector3(80, 0, 40))
	terrain.apply_stroke({"type": "raise", "center": [80, 40], "radius": 6.0, "amount": 5.0, "falloff": 1.0})
	var raised := terrain.get_height(Vector3(80, 0, 40))
	assert_near(raised, before + 5.0, 1e-4, "raised")
	assert_true(terrain.generate(), "regenerate")
	assert_true(terrain.wait_for_generation(), "regenerated")
	assert_eq(terrain.get_height(Vector3(80, 0, 40)), raised, "the stroke survives regeneration")
	assert_eq(terrain.get_layers()[2].strokes, 1, "and is still listed")
	terrain.recipe = RECIPE.replace('"seed": 5', '"seed": 6')
	terrain.wait_for_generation()
	assert_eq(terrain.get_layers()[2].strokes, 0, "a new recipe starts from its own strokes")


func test_strokes_save_into_the_asset() -> void:
	var asset := TerrainAsset.new()
	asset.set_source_json('{"format_version": 1, "id": "asset://terrain/save-test", "recipe": ' + RECIPE + '}')
	var terrain := Terrain3D.new()
	terrain.asset = asset
	add_child(terrain)
	terrain.wait_for_generation()
	assert_false(terrain.save_strokes_to_asset(), "nothing edited yet")
	terrain.apply_stroke({"type": "smooth", "center": [40, 40], "radius": 5.0})
	terrain.apply_stroke({"type": "region", "biome": "sand", "center": [60, 40], "radius": 5.0})
	assert_true(terrain.save_strokes_to_asset(), "written into the asset")
	assert_true(asset.has_strokes(), "the asset holds the strokes")
	var path := "user://saved_strokes.terrain.json"
	assert_eq(ResourceSaver.save(asset, path), OK, "saves")
	var loaded: TerrainAsset = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	var doc: Dictionary = JSON.parse_string(loaded.get_source_json())
	assert_eq((doc["recipe"]["edits"] as Array).size(), 1, "the sculpt stroke was saved")
	assert_eq((doc["recipe"]["regions"] as Array).size(), 1, "the region was saved")
	var again := Terrain3D.new()
	again.asset = loaded
	add_child(again)
	again.wait_for_generation()
	assert_eq(_mismatches(_heights(again), _heights(terrain)), 0, "the saved asset regenerates the edited surface")
	assert_eq(again.get_biome(Vector3(60, 0, 40)), &"sand", "and its regions")
	DirAccess.remove_absolute(ProjectSettings.globalize_path(path))


func test_a_disabled_generation_layer_freezes_the_base() -> void:
	var terrain := _terrain()
	terrain.apply_stroke({"type": "raise", "center": [30, 30], "radius": 5.0})
	var before := _heights(terrain)
	assert_true(terrain.set_layer_enabled("generation", false), "generation layer off")
	assert_eq(_mismatches(_heights(terrain), before), 0, "disabling it changes nothing now")
	var messages: Array = []
	terrain.generation_finished.connect(func(ok: bool, msg: String) -> void: messages.append(msg))
	assert_true(terrain.generate(), "generate")
	assert_false(terrain.is_generating(), "nothing runs")
	await get_tree().process_frame
	assert_true(String(messages[-1]).contains("frozen"), "says the base is frozen: %s" % [messages])
	terrain.apply_stroke({"type": "lower", "center": [50, 30], "radius": 5.0})
	assert_true(terrain.set_layer_enabled("generation", true), "on again")
	assert_true(terrain.generate() and terrain.wait_for_generation(), "regenerates")
	assert_eq(terrain.get_layers()[2].strokes, 2, "both strokes kept")


func test_edits_are_refused_while_a_draft_is_shown() -> void:
	var terrain := _terrain()
	var source := _heights(terrain)
	var draft := RECIPE.replace('"seed": 5', '"seed": 6')
	assert_true(terrain.generate_draft(draft), "the draft starts")
	assert_true(terrain.wait_for_generation(), "and finishes")
	assert_true(terrain.is_showing_draft(), "the surface is the draft")
	var drafted := _heights(terrain)
	assert_true(_mismatches(drafted, source) > 0, "another surface")
	var stroke := {"type": "raise", "center": Vector2(40, 30), "radius": 6.0, "amount": 3.0}
	assert_false(terrain.apply_stroke(stroke), "a stroke on the draft is refused")
	assert_false(terrain.can_undo_stroke(), "nothing recorded")
	assert_eq(_mismatches(_heights(terrain), drafted), 0, "the draft is unchanged")
	assert_eq(terrain.recipe, RECIPE, "and so is the source")
	assert_true(terrain.generate(), "back to the source")
	terrain.wait_for_generation()
	assert_false(terrain.is_showing_draft(), "the source's surface")
	assert_eq(_mismatches(_heights(terrain), source), 0, "as before the draft")
	assert_true(terrain.apply_stroke(stroke), "edits work again")
	terrain.queue_free()


func test_a_cancelled_return_from_a_draft_still_returns_to_the_source() -> void:
	# Large enough (1025² samples) that a cancel right after generate() stops the job.
	var big := '{"size": [1024, 1024], "resolution": [1024, 1024], "seed": 5, "chunk_cells": 64, "landforms": {"hills": {"base_height": 2, "height_variation": 40, "feature_size": 200, "octaves": 8}}, "default_landform": "hills"}'
	var terrain := recipe_terrain(big)
	terrain.use_generation_cache = false  # so the return to the source really runs
	var source := _heights(terrain)
	# The draft adds a stroke the source does not have.
	var draft := big.replace('"seed": 5,', '"seed": 5, "edits": [{"type": "raise", "center": [64, 48], "radius": 20, "amount": 9}],')
	assert_true(terrain.generate_draft(draft), "the draft starts")
	terrain.wait_for_generation()
	assert_true(_mismatches(_heights(terrain), source) > 0, "the draft's stroke shows")
	assert_true(terrain.generate(), "back to the source…")
	terrain.cancel_generation()
	terrain.wait_for_generation()
	assert_true(terrain.is_showing_draft(), "cancelled: the draft stays on screen")
	assert_true(terrain.generate(), "…and again")
	terrain.wait_for_generation()
	assert_false(terrain.is_showing_draft(), "the source's surface")
	assert_eq(_mismatches(_heights(terrain), source), 0, "without the draft's stroke")
	terrain.queue_free()

extends "res://lib/case.gd"
## Terrain3D.overlay: the editor overlays (exclusion mask, elevation, slope, biome) are shader
## parameters of the shared material — no regeneration, no mesh rebuild — and the exclusion
## overlay's texture follows exclusion strokes, undo included.

const RECIPE := '{"size": [64, 64], "resolution": [64, 64], "seed": 3, "chunk_cells": 16, "landforms": {"hills": {"base_height": 5, "height_variation": 30, "feature_size": 40, "octaves": 3}}, "default_landform": "hills"}'


func _terrain() -> Terrain3D:
	return recipe_terrain(RECIPE)


func _exclusion_at(t: Terrain3D, x: int, z: int) -> float:
	var img: Image = t._test_overlay_exclusion_image()
	return img.get_pixel(x, z).r if img else -1.0


func test_the_enum_and_its_default() -> void:
	assert_eq(ClassDB.class_get_enum_constants("Terrain3D", "Overlay"), PackedStringArray(["OVERLAY_NONE", "OVERLAY_EXCLUSION", "OVERLAY_ELEVATION", "OVERLAY_SLOPE", "OVERLAY_BIOME"]), "Terrain3D.Overlay")
	var t := _terrain()
	assert_eq(t.overlay, Terrain3D.OVERLAY_NONE, "no overlay by default")
	assert_eq(t._test_shader_parameter("overlay_mode"), 0, "the shader draws none")
	t.queue_free()


func test_modes_set_only_shader_parameters() -> void:
	var t := _terrain()
	var before: Dictionary = t._test_counters()
	var heights := t.get_heights(PackedVector3Array([Vector3(10, 0, 10), Vector3(40, 0, 50)]))
	for mode in [Terrain3D.OVERLAY_ELEVATION, Terrain3D.OVERLAY_SLOPE, Terrain3D.OVERLAY_BIOME]:
		t.overlay = mode
		assert_eq(t._test_shader_parameter("overlay_mode"), mode, "overlay %d reaches the shader" % mode)
	t.overlay = Terrain3D.OVERLAY_ELEVATION
	var contour: float = t._test_shader_parameter("overlay_contour")
	var lo: float = t._test_shader_parameter("min_height")
	var hi: float = t._test_shader_parameter("max_height")
	assert_true(hi > lo, "the height range is set: %f..%f" % [lo, hi])
	assert_true(contour >= (hi - lo) / 10.0 - 1e-4 and contour <= (hi - lo) / 4.0, "about ten contour lines: every %f m over %f m" % [contour, hi - lo])
	var after: Dictionary = t._test_counters()
	assert_eq(after["resource_builds"], before["resource_builds"], "no chunk rebuild")
	assert_eq(t.get_heights(PackedVector3Array([Vector3(10, 0, 10), Vector3(40, 0, 50)])), heights, "no regeneration")
	t.set("overlay", 99)
	assert_eq(t.overlay, Terrain3D.OVERLAY_ELEVATION, "an out-of-range value is refused and the overlay kept")
	t.overlay = Terrain3D.OVERLAY_NONE
	assert_eq(t._test_shader_parameter("overlay_mode"), 0, "and switched off")
	t.queue_free()


func test_the_exclusion_overlay_follows_strokes_and_undo() -> void:
	var t := _terrain()
	t.overlay = Terrain3D.OVERLAY_EXCLUSION
	assert_eq(_exclusion_at(t, 32, 32), 0.0, "nothing excluded yet")
	assert_true(t._test_shader_parameter("overlay_exclusion") is RID, "the shader gets the texture's RID")
	assert_true(t.apply_stroke({"type": "exclude", "center": [32, 32], "radius": 6, "strength": 1.0, "falloff": 0.2}), "exclude")
	assert_true(_exclusion_at(t, 32, 32) > 0.9, "the overlay shows the stroke: %f" % _exclusion_at(t, 32, 32))
	assert_eq(_exclusion_at(t, 5, 5), 0.0, "and nothing elsewhere")
	assert_near(_exclusion_at(t, 32, 32), t.get_exclusion(t.global_position + Vector3(32, 0, 32)), 1.0 / 255.0, "as get_exclusion reads it")
	t.undo_stroke()
	assert_eq(_exclusion_at(t, 32, 32), 0.0, "undo clears it")
	t.queue_free()

extends "res://lib/case.gd"
## Flow after sculpting: a height edit marks the drainage flow stale; refresh_flow() routes it
## on the edited ground and reclassifies exactly like regenerating the recipe with the stroke.

const GRAPH := '"graph": {"format_version": 1, "output": "out", "nodes": [{"id": "hills", "type": "noise_terrain", "position": [0, 0], "params": {"height_variation": 120, "feature_size": 200, "base_height": 40}}, {"id": "flow", "type": "drainage", "position": [100, 0], "inputs": {"field": "hills"}}, {"id": "rules", "type": "biome_rules", "position": [200, 0], "inputs": {"field": "hills", "drainage": "flow:drainage"}}, {"id": "out", "type": "terrain_output", "position": [300, 0], "inputs": {"heightfield": "rules"}}]}'
const HEAD := '"size": [640, 640], "resolution": [64, 64], "chunk_cells": 16, "seed": 11, "biomes": {"dry": {"color": [0.6, 0.5, 0.3, 1]}, "fen": {"color": [0.2, 0.5, 0.3, 1]}}, "default_biome": "dry", "rules": [{"id": "wet", "biome": "fen", "moisture": [0.75, 1.0], "priority": 5}]'
const STROKE := '{"type": "raise", "center": [320, 320], "radius": 140, "amount": 60}'

var _layers: Array[int] = []


func _terrain(edits: String) -> Terrain3D:
	var terrain := Terrain3D.new()
	terrain.recipe = "{%s, %s, \"edits\": [%s]}" % [HEAD, GRAPH, edits]
	add_child(terrain)
	terrain.wait_for_generation()
	return terrain


## Biome and role of every sample.
func _surface(terrain: Terrain3D) -> PackedStringArray:
	var out := PackedStringArray()
	for z in 65:
		for x in 65:
			var p := Vector3(x * 10.0, 0.0, z * 10.0)
			out.append("%s/%s" % [terrain.get_biome(p), terrain.get_surface_role(p)])
	return out


func _differences(a: PackedStringArray, b: PackedStringArray) -> int:
	var n := 0
	for i in a.size():
		if a[i] != b[i]:
			n += 1
	return n


func test_refresh_flow_after_a_stroke_equals_regenerating_with_it() -> void:
	var terrain := _terrain("")
	var original := _surface(terrain)
	assert_false(terrain.is_flow_stale(), "fresh terrain: flow current")
	assert_false(terrain.refresh_flow(), "nothing to refresh")
	assert_true(terrain.apply_stroke(JSON.parse_string(STROKE)), "stroke applied")
	assert_true(terrain.is_flow_stale(), "a height edit makes the flow stale")
	var stale := _surface(terrain)
	terrain.terrain_changed.connect(func(layers: int, _c: Rect2i, _k: Rect2i, _u: bool) -> void: _layers.append(layers))
	assert_true(terrain.refresh_flow(), "the raise moves the flow and the surface")
	assert_false(terrain.is_flow_stale(), "current again")
	assert_eq(_layers.size(), 1, "one terrain_changed")
	assert_true(_layers[0] & Terrain3D.LAYER_SURFACE != 0, "flagged as a surface change: %d" % _layers[0])
	assert_eq(_layers[0] & Terrain3D.LAYER_HEIGHT, 0, "no height changed")
	var refreshed := _surface(terrain)
	assert_true(_differences(stale, refreshed) > 0, "the refresh reclassified samples")
	var regenerated := _terrain(STROKE)
	var full := _surface(regenerated)
	assert_eq(_differences(refreshed, full), 0, "refreshed = regenerated with the stroke")
	assert_true(_differences(stale, full) > 0, "before the refresh the flow was the old one")
	# Undo: the flow follows the restored heights after the next refresh.
	assert_true(terrain.undo_stroke(), "undo")
	assert_true(terrain.is_flow_stale(), "undo changed heights")
	assert_true(terrain.refresh_flow(), "refresh after undo")
	assert_eq(_differences(_surface(terrain), original), 0, "back to the original surface")


func test_terrains_without_connected_drainage_never_go_stale() -> void:
	var terrain := Terrain3D.new()
	terrain.recipe = "{%s}" % HEAD
	add_child(terrain)
	terrain.wait_for_generation()
	assert_true(terrain.apply_stroke(JSON.parse_string(STROKE)), "stroke applied")
	assert_false(terrain.is_flow_stale(), "no drainage connected: nothing to route")
	assert_false(terrain.refresh_flow(), "nothing to refresh")

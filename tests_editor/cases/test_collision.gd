@tool
extends "res://lib/editor_case.gd"
## COLLISION_AUTO in the editor: every chunk's shape on maps up to 2 km at 1 m ("Snap Object to
## Floor" and placement tools cast physics rays), where a running game keeps only
## the ground near moving bodies above 600,000 triangles (tests/runtime/test_near_collision.gd).

const RECIPE := '{"size": [600, 600], "resolution": [600, 600], "seed": 11, "chunk_cells": 50, "landforms": {"hills": {"base_height": 4, "height_variation": 30, "feature_size": 96, "octaves": 4}}, "default_landform": "hills"}'


func test_auto_keeps_every_chunk_in_the_editor() -> void:
	var t := await open_terrain("res://scenes/flat.tscn")
	var terrain := Terrain3D.new()
	terrain.recipe = RECIPE
	t.get_parent().add_child(terrain)
	terrain.wait_for_generation()
	await frames(3)
	assert_eq(terrain.get_collision_mode_in_use(), Terrain3D.COLLISION_FULL, "auto on 601² samples in the editor")
	var info := terrain.get_collision_info()
	assert_eq(info["chunks"], 144, "every chunk has its shape: %s" % info)
	assert_eq(info["total_chunks"], 144, "12 × 12 chunks: %s" % info)
	var space := terrain.get_world_3d().direct_space_state
	var hit := space.intersect_ray(PhysicsRayQueryParameters3D.create(Vector3(550, 300, 40), Vector3(550, -300, 40)))
	assert_true(not hit.is_empty(), "a physics ray far from every body meets the ground")
	if not hit.is_empty():
		var y: float = hit["position"].y
		assert_true(absf(y - terrain.get_height(Vector3(550, 0, 40))) < 0.01, "where the surface is: %s" % y)
	terrain.queue_free()
	await frames(2)

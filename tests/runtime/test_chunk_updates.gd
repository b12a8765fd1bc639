extends "res://lib/case.gd"
## Height edits update chunk meshes and collision in place (changed vertex rows, skirts and
## walls; collision heights), proportional to the edit: the result must equal a full rebuild.
## Mesh bytes are checked against the server's own encoding (the headless renderer keeps no
## vertex data to read back); collision through physics rays before and after a regeneration
## (which rebuilds every chunk from the same replayed strokes).

## 64 × 48 cells in 16-cell chunks (4 × 3 chunks; every chunk has a wall or a neighbour).
const RECIPE := '{"size": [128, 96], "resolution": [64, 48], "seed": 5, "chunk_cells": 16, "landforms": {"hills": {"base_height": 2, "height_variation": 24, "feature_size": 48, "octaves": 4}}, "default_landform": "hills"}'


func _terrain() -> Terrain3D:
	var terrain := Terrain3D.new()
	terrain.recipe = RECIPE
	# In-place vertex writes and level errors are the mesh path's.
	terrain.render_path = Terrain3D.RENDER_MESH
	add_child(terrain)
	terrain.wait_for_generation()
	return terrain


## Edits of every kind that moves heights: patches inside a chunk, across chunk corners, on the
## terrain's border, one digging below the lowest point (the walls follow), brush strokes, undo
## and redo.
func _edit(terrain: Terrain3D) -> void:
	var rng := RandomNumberGenerator.new()
	rng.seed = 19
	for i in 6:
		var rect := Rect2i(rng.randi_range(0, 55), rng.randi_range(0, 40), rng.randi_range(2, 9), rng.randi_range(2, 8))
		var values := terrain.get_height_rect(rect)
		for k in values.size():
			values[k] += rng.randf_range(-3.0, 6.0)
		assert_true(terrain.set_height_rect(rect, values), "patch %s" % rect)
	var corner := Rect2i(14, 14, 5, 5)
	var dig := terrain.get_height_rect(corner)
	for k in dig.size():
		dig[k] -= 40.0
	assert_true(terrain.set_height_rect(corner, dig), "a pit below the lowest point, over a chunk corner")
	var edge := Rect2i(0, 30, 3, 10)
	var raise := terrain.get_height_rect(edge)
	for k in raise.size():
		raise[k] += 12.0
	assert_true(terrain.set_height_rect(edge, raise), "a patch on the border (walls and skirts)")
	assert_true(terrain.apply_stroke({"type": "raise", "center": [64, 48], "radius": 14.0, "amount": 5.0}), "raise")
	assert_true(terrain.apply_stroke({"type": "smooth", "center": [32, 64], "radius": 9.0}), "smooth")
	assert_true(terrain.apply_stroke({"type": "lower", "center": [100, 30], "radius": 6.0, "amount": 3.0}), "lower")
	assert_true(terrain.undo_stroke(), "undo lower")
	assert_true(terrain.undo_stroke() and terrain.redo_stroke(), "undo and redo smooth")


## Vertical and slanted physics rays over the whole terrain: hit positions and normals. The
## points avoid chunk borders (every 32 m), where two chunks' shapes share the hit and the
## reported one depends on the physics broadphase.
func _rays(terrain: Terrain3D) -> Array:
	var space := terrain.get_world_3d().direct_space_state
	var out := []
	for z in range(0, 19):
		for x in range(0, 25):
			var p := Vector3(1.3 + 5.0 * x, 0.0, 0.7 + 5.0 * z)
			for slant: Vector3 in [Vector3.ZERO, Vector3(7, 0, 3)]:
				var from := Vector3(p.x, 120, p.z) - slant * 4.0
				var hit := space.intersect_ray(PhysicsRayQueryParameters3D.create(from, Vector3(p.x, -80, p.z) + slant * 4.0))
				out.append([hit.get("position"), hit.get("normal")] if not hit.is_empty() else [])
	return out


func test_vertex_writes_match_the_servers_encoding() -> void:
	var terrain := _terrain()
	_edit(terrain)
	# Rows inside one chunk row, across a chunk border, and the last rows; up, down, far down.
	for case in [[3, 6, 2.5], [14, 19, -7.0], [0, 49, 30.0], [40, 49, -60.0]]:
		var got := terrain._test_vertex_upload_mismatches(case[0], case[1], case[2])
		assert_eq(got, 0, "in-place writes of rows %d..%d (moved by %.1f) equal the server's encoding" % case)


func test_collision_and_lods_after_edits_equal_a_full_rebuild() -> void:
	var terrain := _terrain()
	_edit(terrain)
	assert_true(terrain._test_pending_lod_refreshes() > 0, "edited chunks wait for their level errors")
	for i in 10:
		await get_tree().process_frame
	assert_eq(terrain._test_pending_lod_refreshes(), 0, "level errors refreshed in frames without edits")
	await get_tree().physics_frame
	await get_tree().physics_frame
	var heights := terrain.get_height_rect(Rect2i(0, 0, 65, 49))
	var incremental := _rays(terrain)
	var misses := 0
	for i in range(0, incremental.size(), 2):
		if incremental[i].is_empty():
			misses += 1
	assert_eq(misses, 0, "every vertical ray hits the edited collision")
	assert_true(terrain.generate() and terrain.wait_for_generation(), "regenerate (a full rebuild)")
	assert_eq(terrain.get_height_rect(Rect2i(0, 0, 65, 49)), heights, "the same surface")
	await get_tree().physics_frame
	await get_tree().physics_frame
	var full := _rays(terrain)
	var differ := 0
	for i in full.size():
		if full[i] != incremental[i]:
			differ += 1
	assert_eq(differ, 0, "physics rays after in-place edits equal those after a full rebuild (of %d)" % full.size())

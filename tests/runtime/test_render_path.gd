extends "res://lib/case.gd"
## Render paths: GPU patches or chunk meshes, chosen by `render_path` (auto: patches, meshes as
## the fallback when chunk_cells is not a multiple of 4), with the reason reported; the GPU path
## keeps queries, collision and edits exactly as the mesh path.

const RECIPE := '{"size": [256, 256], "resolution": [128, 128], "seed": 7, "chunk_cells": 16, "landforms": {"hills": {"base_height": 2, "height_variation": 30, "feature_size": 64, "octaves": 4}}, "default_landform": "hills"}'


func _terrain(path: int) -> Terrain3D:
	var terrain := Terrain3D.new()
	terrain.recipe = RECIPE
	terrain.render_path = path
	add_child(terrain)
	terrain.wait_for_generation()
	return terrain


func _physics_y(terrain: Terrain3D, x: float, z: float) -> float:
	var space := terrain.get_world_3d().direct_space_state
	var hit := space.intersect_ray(PhysicsRayQueryParameters3D.create(Vector3(x, 300, z), Vector3(x, -300, z)))
	return hit["position"].y if not hit.is_empty() else NAN


func test_auto_draws_with_patches_and_falls_back_to_meshes() -> void:
	var terrain := _terrain(Terrain3D.RENDER_AUTO)
	assert_eq(terrain.get_render_path_in_use(), Terrain3D.RENDER_GPU, "auto draws patches")
	assert_eq(terrain.get_render_path_reason(), "GPU patches: render_path is AUTO")
	assert_eq(terrain.get_chunk_count(), 64, "64 chunks shown")
	assert_eq(terrain.get_chunk_instance_count(), 0, "no chunk meshes")
	terrain.queue_free()
	# 6-cell chunks get only steps 1 and 2 on patches: the mesh path draws them.
	var odd := Terrain3D.new()
	odd.recipe = RECIPE.replace('"chunk_cells": 16', '"chunk_cells": 6')
	add_child(odd)
	odd.wait_for_generation()
	assert_eq(odd.get_render_path_in_use(), Terrain3D.RENDER_MESH, "fallback")
	assert_true(odd.get_render_path_reason().contains("multiple of 4"), odd.get_render_path_reason())
	assert_eq(odd.get_chunk_instance_count(), odd.get_chunk_count(), "one mesh instance per chunk")
	assert_true(odd.get_patch_info().is_empty(), "no patch info on the mesh path")
	odd.queue_free()


func test_the_gpu_path_draws_patches_and_keeps_queries_and_collision() -> void:
	var mesh := _terrain(Terrain3D.RENDER_MESH)
	var gpu := _terrain(Terrain3D.RENDER_GPU)
	assert_eq(gpu.get_render_path_in_use(), Terrain3D.RENDER_GPU, "GPU path in use")
	assert_eq(gpu.get_render_path_reason(), "GPU patches: render_path is GPU")
	assert_eq(gpu.get_chunk_instance_count(), 0, "no chunk meshes on the GPU path")
	var info := gpu.get_patch_info()
	# 16-cell chunks: steps 1, 2, 4, 8, 16.
	assert_eq(info["levels"], 5, "one patch level per step: %s" % info)
	# One texture of 2 bytes per sample (16-bit heights with the hole flags; normals are derived
	# in the shader): 129² samples in 32-texel tiles, 5 × 5 of them.
	assert_eq(info["texture_bytes"], 160 * 160 * 2, "texture bytes %s" % info)
	await get_tree().physics_frame
	await get_tree().physics_frame
	for p in [Vector3(10, 0, 10), Vector3(100.5, 0, 37.25), Vector3(250, 0, 200)]:
		assert_eq(gpu.get_height(p), mesh.get_height(p), "same height at %s" % p)
		assert_eq(gpu.get_normal(p), mesh.get_normal(p), "same normal at %s" % p)
		assert_near(_physics_y(gpu, p.x, p.z), gpu.get_height(p), 0.01, "collision at %s" % p)
	mesh.queue_free()
	await get_tree().physics_frame
	# Edits on the GPU path: queries and collision follow, the textures are marked for upload.
	var before := gpu.get_height(Vector3(128, 0, 128))
	var uploads: int = gpu.get_patch_info()["uploads"]
	assert_true(gpu.apply_stroke({"type": "raise", "center": [128, 128], "radius": 10.0, "amount": 5.0}), "raise")
	assert_true(gpu.get_height(Vector3(128, 0, 128)) > before + 1.0, "the height rose")
	await get_tree().physics_frame
	await get_tree().physics_frame
	await get_tree().process_frame
	assert_near(_physics_y(gpu, 128, 128), gpu.get_height(Vector3(128, 0, 128)), 0.01, "collision followed")
	assert_true(gpu.apply_stroke({"type": "hole", "center": [40, 40], "radius": 3.0}), "hole")
	await get_tree().physics_frame
	await get_tree().physics_frame
	assert_true(is_nan(_physics_y(gpu, 40.5, 40.5)), "a physics ray passes through the hole")
	assert_true(gpu.undo_stroke(), "undo the hole")
	await get_tree().physics_frame
	await get_tree().physics_frame
	assert_false(is_nan(_physics_y(gpu, 40.5, 40.5)), "and collides again after undo")
	gpu.queue_free()


func test_switching_paths_rebuilds_the_drawn_surface() -> void:
	var terrain := _terrain(Terrain3D.RENDER_MESH)
	assert_eq(terrain.get_chunk_instance_count(), 64)
	terrain.render_path = Terrain3D.RENDER_GPU
	assert_eq(terrain.get_render_path_in_use(), Terrain3D.RENDER_GPU, "switched to GPU")
	assert_eq(terrain.get_chunk_instance_count(), 0, "meshes gone")
	assert_eq(terrain.get_collision_info()["chunks"], 64, "collision kept")
	terrain.render_path = Terrain3D.RENDER_MESH
	assert_eq(terrain.get_render_path_in_use(), Terrain3D.RENDER_MESH, "back to meshes")
	assert_eq(terrain.get_chunk_instance_count(), 64, "meshes rebuilt")
	terrain.queue_free()


func test_the_height_texture_follows_edits_and_re_encodes_when_they_leave_its_range() -> void:
	var gpu := _terrain(Terrain3D.RENDER_GPU)
	await get_tree().process_frame
	var info := gpu.get_patch_info()
	var code: Vector2 = info["height_code"]
	var top := code.x + 32767.0 * code.y
	# The code covers the ground with a margin, in 15 bits.
	var lowest := INF
	var highest := -INF
	for h in gpu.get_height_rect(Rect2i(0, 0, 129, 129)):
		lowest = minf(lowest, h)
		highest = maxf(highest, h)
	assert_true(code.x < lowest and top > highest, "code %s covers %s..%s" % [code, lowest, highest])
	assert_near(code.y, (highest - lowest) * 1.2 / 32767.0, 1e-4, "metres per unit")
	var tiles: int = info["tile_uploads"]
	# A small raise inside the range: the tiles under it, the same code.
	assert_true(gpu.apply_stroke({"type": "raise", "center": [100, 100], "radius": 4.0, "amount": 0.5}), "raise")
	await get_tree().process_frame
	info = gpu.get_patch_info()
	assert_eq(info["height_code"], code, "the code stays")
	var small: int = info["tile_uploads"] - tiles
	assert_true(small >= 1 and small <= 4, "%d tiles re-uploaded" % small)
	# A raise far above the range: a new code, every tile re-encoded once.
	assert_true(gpu.apply_stroke({"type": "raise", "center": [60, 60], "radius": 12.0, "amount": 400.0}), "tall raise")
	await get_tree().process_frame
	info = gpu.get_patch_info()
	var peak := gpu.get_height(Vector3(60, 0, 60))
	var grown: Vector2 = info["height_code"]
	assert_true(peak > highest + 100.0, "the peak rose: %s" % peak)
	assert_true(grown.x + 32767.0 * grown.y > peak, "the new code %s holds the peak %s" % [grown, peak])
	assert_eq(info["tile_uploads"] - tiles - small, 25, "every tile re-encoded")
	# And back: undo leaves the grown code (still covering the ground) and re-uploads the tiles
	# under the stroke only.
	assert_true(gpu.undo_stroke(), "undo")
	await get_tree().process_frame
	info = gpu.get_patch_info()
	assert_eq(info["height_code"], grown, "a covering code is kept")
	assert_true(info["tile_uploads"] - tiles - small - 25 <= 4, "undo re-uploads the stroke's tiles")
	# Ground spanning kilometres: 16-bit steps would be coarse for 2 m spacing (over 4 cm), so
	# the texture becomes 32-bit (the f32 heights), code (0, 0).
	assert_true(gpu.apply_stroke({"type": "raise", "center": [200, 200], "radius": 12.0, "amount": 3000.0}), "very tall raise")
	await get_tree().process_frame
	info = gpu.get_patch_info()
	assert_eq(info["height_code"], Vector2.ZERO, "32-bit texels: %s" % info)
	assert_eq(info["texture_bytes"], 160 * 160 * 4, "4 bytes per texel")
	assert_true(info["tile_uploads"] - tiles - small - 25 >= 25, "the remade texture counts its 25 tiles: %s" % info)
	assert_true(gpu.get_height(Vector3(200, 0, 200)) > 3000.0, "the raise happened")
	# The drawn surface is exercised by the render checks; here the queries stay exact.
	assert_true(gpu.undo_stroke(), "undo the very tall raise")
	await get_tree().process_frame
	assert_eq(gpu.get_patch_info()["height_code"], Vector2.ZERO, "a full encoding is kept once chosen")
	gpu.queue_free()


func test_chunks_the_camera_does_not_see_are_drawn_too() -> void:
	# Shadow maps, reflections and the editor's other 3D views draw the same instances: a chunk
	# outside the camera's view must still be drawn (a ridge behind the camera casts its shadow
	# into the view), at the level its distance gives.
	var gpu := _terrain(Terrain3D.RENDER_GPU)
	var camera := Camera3D.new()
	add_child(camera)
	camera.make_current()
	# Beyond the terrain's -X edge, looking away from it: nothing of it is in view.
	camera.position = Vector3(-50, 40, 128)
	camera.look_at(Vector3(-500, 40, 128))
	for i in 3:
		await get_tree().process_frame
	var info := gpu.get_patch_info()
	assert_eq(info["drawn"], gpu.get_chunk_count(), "every chunk drawn: %s" % info)
	var per_level: PackedInt32Array = info["per_level"]
	assert_true(per_level[0] < gpu.get_chunk_count(), "far chunks are coarser: %s" % info)
	camera.queue_free()
	gpu.queue_free()


func test_painting_surfaces_and_exclusion_uploads_no_height_tiles() -> void:
	# The height texture holds heights and hole flags only: painting a surface role or
	# exclusion must not re-upload its tiles (nor rebuild collision); a raise does.
	var gpu := _terrain(Terrain3D.RENDER_GPU)
	for i in 2:
		await get_tree().process_frame
	var before: int = gpu.get_patch_info()["tile_uploads"]
	var counters: Dictionary = gpu._test_counters()
	assert_true(gpu.paint_surface(Vector3(60, 0, 40), 8.0, Terrain3D.SURFACE_ROCK, 1.0), "surface painted")
	assert_true(gpu.apply_stroke({"type": "exclude", "center": [90, 50], "radius": 6.0}), "exclusion painted")
	for i in 2:
		await get_tree().process_frame
	assert_eq(gpu.get_patch_info()["tile_uploads"], before, "no height tiles uploaded for paint")
	assert_eq(gpu._test_counters()["chunk_updates"], counters["chunk_updates"], "no chunk updated for paint")
	assert_true(gpu.apply_stroke({"type": "raise", "center": [60, 40], "radius": 8.0, "amount": 3.0}), "raise")
	for i in 2:
		await get_tree().process_frame
	assert_true(gpu.get_patch_info()["tile_uploads"] > before, "a raise uploads its tiles")
	gpu.queue_free()


func _mean_level(info: Dictionary) -> float:
	var per_level: PackedInt32Array = info["per_level"]
	var sum := 0.0
	var n := 0
	for k in per_level.size():
		sum += k * per_level[k]
		n += per_level[k]
	return sum / maxi(n, 1)


func test_levels_follow_the_node_scale_and_the_camera_aspect() -> void:
	# Errors are measured in terrain-local heights: a terrain stretched 3× in Y shows them 3×
	# larger on screen, so it gets finer levels; a camera whose fov spans the viewport's width
	# (keep_aspect = KEEP_WIDTH) sees more pixels per unit, so finer levels too.
	var gpu := _terrain(Terrain3D.RENDER_GPU)
	var camera := Camera3D.new()
	add_child(camera)
	camera.make_current()
	camera.position = Vector3(128, 80, -120)
	camera.look_at(Vector3(128, 0, 128))
	for i in 3:
		await get_tree().process_frame
	var plain := _mean_level(gpu.get_patch_info())
	camera.keep_aspect = Camera3D.KEEP_WIDTH
	for i in 3:
		await get_tree().process_frame
	var wide := _mean_level(gpu.get_patch_info())
	camera.keep_aspect = Camera3D.KEEP_HEIGHT
	# The camera keeps its terrain-local position (3× as high): only the scale differs.
	gpu.scale = Vector3(1, 3, 1)
	camera.position = Vector3(128, 240, -120)
	camera.look_at(Vector3(128, 0, 128))
	for i in 3:
		await get_tree().process_frame
	var tall := _mean_level(gpu.get_patch_info())
	assert_true(plain > 0.5, "the view picks coarse levels somewhere: %s" % plain)
	if get_viewport().get_visible_rect().size.x > get_viewport().get_visible_rect().size.y:
		assert_true(wide < plain, "KEEP_WIDTH on a wide viewport: finer (%s < %s)" % [wide, plain])
	assert_true(tall < plain, "3× in Y: finer (%s < %s)" % [tall, plain])
	camera.queue_free()
	gpu.queue_free()

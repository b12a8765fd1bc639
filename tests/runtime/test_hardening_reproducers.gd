extends "res://lib/case.gd"
## The hardening reproducers of issue #11 run in a Godot process: each gets a located error or
## a correct result, the process survives (the suite finishing is the proof), and nothing the
## user holds is lost.

const SMALL := '{"size": [32, 32], "resolution": [16, 16], "seed": 3}'


## A chain of `n` `height_offset` nodes after a `flat_terrain`, listed output-first when
## `output_first`.
func _chain(n: int, offset: float, output_first: bool) -> String:
	var nodes: Array = [{"id": "n0", "type": "flat_terrain"}]
	for i in range(1, n + 1):
		nodes.append({"id": "n%d" % i, "type": "height_offset", "params": {"offset": offset}, "inputs": {"field": "n%d" % (i - 1)}})
	nodes.append({"id": "out", "type": "terrain_output", "inputs": {"heightfield": "n%d" % n}})
	if output_first:
		nodes.reverse()
	var doc := {"size": [16, 16], "resolution": [8, 8], "seed": 1, "graph": {"format_version": 1, "output": "out", "nodes": nodes}}
	return JSON.stringify(doc)


func test_a_ten_thousand_node_chain_generates_through_terrain3d() -> void:
	var terrain := Terrain3D.new()
	add_child(terrain)
	terrain.recipe = _chain(10000, 0.001, false)
	terrain.wait_for_generation()
	assert_eq(terrain.get_last_error(), "", "the chain generates")
	assert_near(terrain.get_height(Vector3(4, 0, 4)), 10.0, 1e-2, "every offset applied")


func test_a_forty_thousand_node_chain_listed_output_first_parses() -> void:
	var text := _chain(40000, 0.0, true)
	var asset := TerrainAsset.new()
	assert_true(asset.set_source_json(text), "set_source_json takes it")
	var terrain := Terrain3D.new()
	add_child(terrain)
	terrain.recipe = text
	terrain.wait_for_generation()
	assert_eq(terrain.get_last_error(), "", "Terrain3D.recipe generates it")


func test_a_wrongly_typed_non_ascii_seed_is_a_located_error() -> void:
	var asset := TerrainAsset.new()
	assert_true(asset.set_source_json(SMALL), "a valid document first")
	var before := asset.get_source_json()
	assert_false(asset.set_source_json('{"size": [32, 32], "resolution": [16, 16], "seed": "%s"}' % "ä".repeat(22)), "refused, never a caught panic turned into success")
	assert_eq(asset.get_source_json(), before, "the previous document stays")
	var terrain := Terrain3D.new()
	add_child(terrain)
	terrain.recipe = '{"size": [32, 32], "resolution": [16, 16], "seed": "%s"}' % "ä".repeat(22)
	assert_true(terrain.get_last_error().contains("seed"), "Terrain3D reports it located at the seed: %s" % terrain.get_last_error().left(160))


func test_absurd_stroke_amounts_are_refused_and_the_asset_still_regenerates() -> void:
	var terrain := Terrain3D.new()
	terrain.recipe = SMALL
	add_child(terrain)
	terrain.wait_for_generation()
	var before := terrain.get_height(Vector3(10, 0, 10))
	for i in 3:
		assert_false(terrain.apply_stroke({"type": "raise", "center": [10, 10], "radius": 4.0, "amount": 3e38}), "amount 3e38 is out of range (%d)" % i)
	assert_near(terrain.get_height(Vector3(10, 0, 10)), before, 0.0, "nothing changed")
	assert_true(terrain.generate(), "regenerating starts")
	terrain.wait_for_generation()
	assert_eq(terrain.get_last_error(), "", "the recipe still regenerates")


func test_a_device_mask_is_refused_without_reading() -> void:
	var terrain := Terrain3D.new()
	terrain.recipe = SMALL
	add_child(terrain)
	terrain.wait_for_generation()
	var start := Time.get_ticks_msec()
	assert_false(terrain.apply_stroke({"type": "raise", "center": [10, 10], "radius": 4.0, "amount": 1.0, "mask": "/dev/zero"}), "/dev/zero is refused")
	assert_true(Time.get_ticks_msec() - start < 5000, "at once")
	assert_false(terrain.apply_stroke({"type": "raise", "center": [10, 10], "radius": 4.0, "amount": 1.0, "mask": "../../outside.png"}), "a path leaving the project is refused")


func test_erosion_on_a_small_grid_stays_within_its_input() -> void:
	var terrain := Terrain3D.new()
	add_child(terrain)
	terrain.recipe = '{"size":[64,64],"resolution":[32,32],"seed":1,"graph":{"format_version":1,"output":"out","nodes":[{"id":"a","type":"noise_terrain"},{"id":"e","type":"erosion","inputs":{"field":"a"}},{"id":"out","type":"terrain_output","inputs":{"heightfield":"e"}}]}}'
	terrain.wait_for_generation()
	assert_eq(terrain.get_last_error(), "", "generates")
	var at := PackedVector3Array()
	for z in 33:
		for x in 33:
			at.append(Vector3(x * 2.0, 0, z * 2.0))
	var heights := terrain.get_heights(at)
	var low := INF
	var high := -INF
	for h in heights:
		low = minf(low, h)
		high = maxf(high, h)
	assert_true(low > -100.0 and high < 200.0, "heights stay near the 0..40 m input: %s..%s" % [low, high])


func test_the_saver_updates_a_symlinked_asset_and_never_follows_a_planted_temporary() -> void:
	var dir := OS.get_user_data_dir().path_join("saver_links")
	DirAccess.make_dir_recursive_absolute(dir)
	for f in ["real.terrain.json", "link.terrain.json", "victim.txt"]:
		DirAccess.remove_absolute(dir.path_join(f))
	var real := dir.path_join("real.terrain.json")
	var link := dir.path_join("link.terrain.json")
	var victim := dir.path_join("victim.txt")
	FileAccess.open(real, FileAccess.WRITE).store_string(SMALL)
	FileAccess.open(victim, FileAccess.WRITE).store_string("keep me")
	assert_eq(DirAccess.open(dir).create_link(real, link), OK, "a symlinked asset")
	# A planted link at the old fixed temporary name must not be followed.
	DirAccess.open(dir).create_link(victim, link + ".tmp")
	var asset := TerrainAsset.new()
	assert_true(asset.set_source_json('{"size": [32, 32], "resolution": [16, 16], "seed": 9}'), "a document")
	assert_eq(ResourceSaver.save(asset, link), OK, "saving through the link")
	assert_true(DirAccess.open(dir).is_link("link.terrain.json"), "the link stays a link")
	assert_true(FileAccess.get_file_as_string(real).contains("9"), "its target got the new text")
	assert_eq(FileAccess.get_file_as_string(victim), "keep me", "the planted temporary's target is untouched")
	DirAccess.remove_absolute(link + ".tmp")
	# A read-only target is refused and kept.
	var ro := dir.path_join("readonly.terrain.json")
	DirAccess.remove_absolute(ro)
	FileAccess.open(ro, FileAccess.WRITE).store_string(SMALL)
	FileAccess.set_unix_permissions(ro, FileAccess.UNIX_READ_OWNER | FileAccess.UNIX_READ_GROUP | FileAccess.UNIX_READ_OTHER)
	assert_true(ResourceSaver.save(asset, ro) != OK, "a read-only target is refused")
	assert_eq(FileAccess.get_file_as_string(ro), SMALL, "and keeps its text")
	FileAccess.set_unix_permissions(ro, FileAccess.UNIX_READ_OWNER | FileAccess.UNIX_WRITE_OWNER)

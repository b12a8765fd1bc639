extends "res://lib/case.gd"
## Cooked payloads (`*.terrain.bin`): load without evaluating any node; corrupt or truncated
## payloads are errors and never replaced by silent regeneration.

const Util = preload("res://runtime/terrain_util.gd")
const COOKED := "res://fixtures/generated/small.terrain.bin"


func test_cooked_payload_loads_without_generating() -> void:
	var asset: Resource = load(COOKED)
	assert_true(asset is TerrainAsset, "the payload loads as a TerrainAsset")
	assert_true(asset.is_cooked(), "it is cooked")
	assert_eq(asset.get_source_json(), "", "it carries no recipe")
	var cooked := Terrain3D.new()
	cooked.asset = asset
	add_child(cooked)
	assert_true(cooked.wait_for_generation(), "the cooked terrain is ready")
	var generated := Util.make_terrain(self)
	var rng := RandomNumberGenerator.new()
	rng.seed = 21
	for i in 100:
		var p := Vector3(rng.randf_range(0, 128), 0, rng.randf_range(0, 96))
		assert_eq(cooked.get_height(p), generated.get_height(p), "cooked equals generated at %s" % p)
	assert_eq(cooked.get_chunk_count(), 12, "chunks built from the payload")
	for t in [cooked, generated]:
		assert_eq(t.get_biome(Vector3(100, 0, 70)), &"sand", "the painted region survives cooking")
		assert_eq(t.get_biome(Vector3(30, 0, 30)), &"meadow", "the default elsewhere")
		assert_near(t.get_exclusion(Vector3(20, 0, 80)), 1.0, 1e-6, "the exclusion mask survives cooking")
		assert_eq(t.get_exclusion(Vector3(60, 0, 40)), 0.0, "no exclusion elsewhere")


func _write(path: String, bytes: PackedByteArray) -> void:
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_buffer(bytes)
	f.close()


func test_corrupt_and_truncated_payloads_are_errors_and_keep_the_surface() -> void:
	var terrain := Util.make_terrain(self)
	var before := terrain.get_height(Vector3(30, 0, 30))
	var bytes := FileAccess.get_file_as_bytes(COOKED)
	assert_true(bytes.size() > 1000, "fixture exists")
	var corrupt := bytes.duplicate()
	corrupt[corrupt.size() - 50] = corrupt[corrupt.size() - 50] ^ 0x10
	_write("user://corrupt.terrain.bin", corrupt)
	_write("user://truncated.terrain.bin", bytes.slice(0, bytes.size() / 2))
	for path in ["user://corrupt.terrain.bin", "user://truncated.terrain.bin", "user://missing.terrain.bin"]:
		var asset: Resource = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
		assert_true(asset == null, "%s does not load" % path)
		terrain.asset = asset
		assert_false(terrain.is_generating(), "nothing generates in place of %s" % path)
		assert_near(terrain.get_height(Vector3(30, 0, 30)), before, 0.0, "the previous surface stays")
	DirAccess.remove_absolute(OS.get_user_data_dir().path_join("corrupt.terrain.bin"))
	DirAccess.remove_absolute(OS.get_user_data_dir().path_join("truncated.terrain.bin"))

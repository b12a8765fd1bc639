extends "res://lib/case.gd"
## A cooked payload stores its recipe's biome rules, biome layers, climate and sea level
## (`meta.biome_rules`): sculpting a cooked terrain re-resolves biomes, and refilters the
## placements that read them, exactly as sculpting the recipe does.

const SOURCE := "res://fixtures/biomes_cook.terrain.json"
const COOKED := "res://fixtures/generated/biomes_cook.terrain.bin"


func _load(path: String) -> Terrain3D:
	var terrain := Terrain3D.new()
	terrain.terrain_id = "Hills"
	terrain.asset = load(path)
	add_child(terrain)
	terrain.wait_for_generation()
	return terrain


func _biomes(terrain: Terrain3D) -> Array:
	var out := []
	for z in range(2, 96, 4):
		for x in range(2, 96, 4):
			out.append(terrain.get_biome(terrain.to_global(Vector3(x, 0, z))))
	return out


func _keys(terrain: Terrain3D) -> Array:
	var out := []
	for p in terrain.get_scatter_placements():
		out.append(p.key)
	return out


func test_sculpting_a_cooked_terrain_re_resolves_biomes_like_its_recipe() -> void:
	var ct := _load(COOKED)
	var st := _load(SOURCE)
	assert_true(ct.asset.is_cooked(), "the payload loads cooked")
	var before := _biomes(st)
	assert_eq(_biomes(ct), before, "the same biomes before")
	assert_true(before.has(&"meadow") and before.has(&"alpine"), "both biomes present")
	assert_eq(_keys(ct), _keys(st), "the same placements before")
	# Raise the lowest sampled meadow ground well above the alpine line.
	var at := Vector3(-1, 0, -1)
	var lowest := INF
	for z in range(16, 80, 8):
		for x in range(16, 80, 8):
			var h := st.get_height(st.to_global(Vector3(x, 0, z)))
			if h < lowest:
				lowest = h
				at = Vector3(x, 0, z)
	assert_eq(st.get_biome(st.to_global(at)), &"meadow", "the low ground is meadow")
	var stroke := {"type": "raise", "center": [at.x, at.z], "radius": 12, "amount": 14, "strength": 1}
	for t: Terrain3D in [ct, st]:
		assert_true(t.apply_stroke(stroke), "raised")
	assert_eq(st.get_biome(st.to_global(at)), &"alpine", "the raised ground turned alpine")
	assert_eq(_biomes(ct), _biomes(st), "the cooked terrain re-resolves biomes like the recipe")
	assert_eq(_keys(ct), _keys(st), "and refilters the same placements")
	assert_true(ct.undo_stroke(), "undone")
	assert_eq(_biomes(ct), before, "undo restores the cooked biomes")

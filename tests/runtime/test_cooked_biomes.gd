extends "res://lib/case.gd"
## A cooked payload stores its recipe's biome rules, biome layers, climate and sea level
## (`meta.biome_rules`): sculpting a cooked terrain re-resolves biomes, and refilters the
## placements that read them, exactly as sculpting the recipe does.

const SOURCE := "res://fixtures/biomes_cook.terrain.json"
const COOKED := "res://fixtures/generated/biomes_cook.terrain.bin"
## The same recipe with a painted user channel (`cut`, which its tufts' `channel_cutoff` reads)
## and painted sand.
const PAINTED_SOURCE := "res://fixtures/painted_cook.terrain.json"
const PAINTED_COOKED := "res://fixtures/generated/painted_cook.terrain.bin"


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
	var before_keys := _keys(ct)
	assert_eq(before_keys, _keys(st), "the same placements before")
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
	var rocks := func(keys: Array) -> int: return keys.filter(func(k: String) -> bool: return k.contains(":rock:")).size()
	assert_true(rocks.call(_keys(ct)) > rocks.call(before_keys), "alpine rocks grow on the raised ground (the payload keeps the spaced sites)")
	assert_true(ct.undo_stroke(), "undone")
	assert_eq(_biomes(ct), before, "undo restores the cooked biomes")


## The payload keeps the painted layers: user channels (what `channel_cutoff` reads) and
## surface paint, and runtime paint goes on top of them.
func test_a_cooked_terrain_keeps_its_painted_layers() -> void:
	var cut := TerrainUserChannel.new()
	cut.channel_name = "cut"
	var ct := _load(PAINTED_COOKED)
	var st := _load(PAINTED_SOURCE)
	var at := func(t: Terrain3D, x: float, z: float) -> Vector3: return t.to_global(Vector3(x, 0, z))
	for t: Terrain3D in [ct, st]:
		t.user_channel_types = [cut]
		assert_eq(t.get_user_channel(0, at.call(t, 30, 30)), 1.0, "the cut channel is painted")
		assert_eq(t.get_user_channel(0, at.call(t, 80, 20)), 0.0, "and not elsewhere")
		assert_eq(t.get_surface(at.call(t, 66, 66), true), 5, "painted sand")
	var inside := Rect2(26, 26, 8, 8)
	assert_eq(ct.get_foliage_instances("tufts", inside).size(), 0, "channel_cutoff cuts the cooked tufts")
	var around := Rect2(8, 8, 48, 48)
	var tufts := ct.get_foliage_instances("tufts", around)
	assert_true(tufts.size() > 500, "tufts around the cut: %d" % tufts.size())
	assert_eq(tufts, st.get_foliage_instances("tufts", around), "the same tufts as the recipe")
	# Runtime paint goes over the payload's layers, and undo comes back to them.
	assert_true(ct.set_user_channel(0, at.call(ct, 30, 30), 3.0, 0.0), "painted back")
	assert_eq(ct.get_user_channel(0, at.call(ct, 30, 30)), 0.0, "cleared at the centre")
	assert_true(ct.get_foliage_instances("tufts", Rect2(28, 28, 4, 4)).size() > 0, "tufts back where cleared")
	assert_true(ct.undo_stroke(), "undone")
	assert_eq(ct.get_user_channel(0, at.call(ct, 30, 30)), 1.0, "the payload's paint again")


func test_a_cooked_terrain_keeps_its_painted_water() -> void:
	var ct := _load(PAINTED_COOKED)
	var st := _load(PAINTED_SOURCE)
	var at := func(t: Terrain3D, x: float, z: float) -> Vector3: return t.to_global(Vector3(x, 0, z))
	var wet := 0
	for k in 40:
		var x := 62.0 + k * 0.5
		var z := 22.0 + k * 0.3
		var d: float = ct.get_water_depth(at.call(ct, x, z))
		assert_eq(d, st.get_water_depth(at.call(st, x, z)), "the recipe's depth at %s, %s" % [x, z])
		assert_eq(ct.get_height(at.call(ct, x, z)), st.get_height(at.call(st, x, z)), "and bed")
		if d > 0.0:
			wet += 1
	assert_true(wet > 15, "painted water in the payload: %d wet points" % wet)
	var p: Vector3 = at.call(ct, 72, 28)
	var s: WaterSample = TerrainWater.sample(p)
	assert_true(s != null and s.kind == WaterSample.KIND_PAINTED, "TerrainWater.sample finds it on the cooked terrain")
	assert_eq(ct.get_surface(p, true), Terrain3D.get_surface_names().find("underwater"), "the bed classifies underwater")
	# Painting over it works as on the recipe; undo comes back to the payload's water.
	var before: float = ct.get_water_depth(p)
	for t: Terrain3D in [ct, st]:
		assert_true(t.paint_water(at.call(t, 74, 30), 4.0, 4.0), "deeper")
	assert_near(ct.get_water_depth(p), st.get_water_depth(at.call(st, 72, 28)), 1e-4, "the same depth as the recipe")
	assert_near(ct.get_height(p), st.get_height(at.call(st, 72, 28)), 1e-4, "and bed")
	assert_true(ct.get_water_depth(p) > before, "deeper than before")
	assert_true(ct.undo_stroke(), "undone")
	assert_near(ct.get_water_depth(p), before, 1e-5, "the payload's water again")

extends "res://lib/case.gd"
## A cooked payload (format 5) draws what its recipe draws: with no `rule_settings` wired by
## hand, TerrainScatter's MultiMesh instance counts per chunk — placement rules (grass, rocks)
## and foliage types (tufts, with painted density) — equal the uncooked terrain's.

const SOURCE := "res://fixtures/scatter_cook.terrain.json"
const COOKED := "res://fixtures/generated/scatter_cook.terrain.bin"
const CENTRE := Vector3(64, 10, 64)


func _show(path: String) -> Array:
	var terrain := Terrain3D.new()
	terrain.terrain_id = "Meadow"
	terrain.asset = load(path)
	add_child(terrain)
	terrain.wait_for_generation()
	var scatter := TerrainScatter.new()
	scatter.build_radius = 1000.0
	terrain.add_child(scatter)
	scatter.update_for_viewer(CENTRE, -1)
	return [terrain, scatter]


func _keys(terrain: Terrain3D) -> Array:
	var out := []
	for p in terrain.get_scatter_placements():
		out.append(p.key)
	return out


func test_cooked_terrain_draws_the_same_placements_and_foliage_as_its_recipe() -> void:
	var cooked := _show(COOKED)
	var source := _show(SOURCE)
	var ct: Terrain3D = cooked[0]
	var cs: TerrainScatter = cooked[1]
	var st: Terrain3D = source[0]
	var ss: TerrainScatter = source[1]
	assert_true(ct.asset.is_cooked(), "the payload loads cooked")
	assert_false(st.asset.is_cooked(), "the recipe does not")
	assert_eq(ct.get_scatter_rules(), PackedStringArray(["grass", "rock"]), "rule ids")
	assert_eq(ct.get_foliage_types(), PackedStringArray(["tufts"]), "the payload's foliage types")
	assert_eq(_keys(ct), _keys(st), "the same placements")
	var totals := {"grass": 0, "rock": 0, "tufts": 0}
	for z in 4:
		for x in 4:
			var c := Vector2i(x, z)
			for kind in totals:
				var want := ss.get_chunk_instance_count(c, kind)
				assert_eq(cs.get_chunk_instance_count(c, kind), want, "chunk %s %s" % [c, kind])
				totals[kind] += maxi(want, 0)
	assert_true(totals.grass > 2000, "grass drawn: %s" % totals)
	assert_true(totals.rock > 20, "rocks drawn: %s" % totals)
	assert_true(totals.tufts > 15000, "foliage drawn: %s" % totals)
	assert_eq(cs.get_instance_counts(), ss.get_instance_counts(), "drawn and placed")
	# The painted density travels with the payload.
	var painted := ct.to_global(Vector3(40, 0, 40))
	for t in [ct, st]:
		assert_eq(t.get_foliage_density("tufts", painted), 0.0, "painted out at the centre")
		assert_eq(t.get_foliage_density("tufts", t.to_global(Vector3(100, 0, 20))), 1.0, "unpainted elsewhere")
	var rect := Rect2(24, 24, 32, 32)
	var here := ct.get_foliage_instances("tufts", rect)
	assert_eq(here, st.get_foliage_instances("tufts", rect), "the same instances, position for position")
	for p in here:
		assert_true(Vector2(p.x, p.z).distance_to(Vector2(40, 40)) > 3.0, "none in the painted core: %s" % p)


func test_cooked_foliage_keeps_its_painted_density_after_a_runtime_edit() -> void:
	var cooked := _show(COOKED)
	var ct: Terrain3D = cooked[0]
	var cs: TerrainScatter = cooked[1]
	var rect := Rect2(24, 24, 32, 32)
	var before := ct.get_foliage_instances("tufts", rect)
	# The first runtime edit makes an edit session from the cooked surface, far from the paint.
	assert_true(ct.apply_stroke({"type": "raise", "center": [110, 110], "radius": 4, "amount": 0.5}), "sculpted")
	cs.update_for_viewer(CENTRE, -1)
	assert_eq(ct.get_foliage_density("tufts", ct.to_global(Vector3(40, 0, 40))), 0.0, "still painted out")
	assert_eq(ct.get_foliage_instances("tufts", rect), before, "the same instances around the paint")


func test_set_foliage_density_on_a_cooked_terrain_paints_like_the_recipe() -> void:
	var cooked := _show(COOKED)
	var source := _show(SOURCE)
	var ct: Terrain3D = cooked[0]
	var st: Terrain3D = source[0]
	var rect := Rect2(80, 8, 32, 32)
	var before := ct.get_foliage_instances("tufts", rect)
	assert_eq(before, st.get_foliage_instances("tufts", rect), "the same instances before")
	assert_true(before.size() > 100, "tufts under the brush: %d" % before.size())
	for t: Terrain3D in [ct, st]:
		assert_true(t.set_foliage_density("tufts", t.to_global(Vector3(96, 0, 24)), 10.0, 0.2), "painted")
	var after := ct.get_foliage_instances("tufts", rect)
	assert_true(after.size() < before.size() - 100, "fewer tufts under the brush: %d of %d" % [after.size(), before.size()])
	assert_eq(after, st.get_foliage_instances("tufts", rect), "the same instances as the recipe after painting")
	assert_eq(ct.get_foliage_density("tufts", ct.to_global(Vector3(96, 0, 24))), st.get_foliage_density("tufts", st.to_global(Vector3(96, 0, 24))), "the same density")
	assert_true(ct.undo_stroke(), "undone")
	assert_eq(ct.get_foliage_instances("tufts", rect), before, "undo brings the tufts back")
	assert_false(ct.set_foliage_density("moss", ct.to_global(Vector3(96, 0, 24)), 10.0, 0.2), "a type the payload's palette lacks is refused")


func _rock(terrain: Terrain3D) -> Dictionary:
	for p in terrain.get_scatter_placements():
		if p.rule == "rock" and p.position.x > 20 and p.position.x < 108 and p.position.z > 20 and p.position.z < 108:
			return p
	return {}


func _placement(terrain: Terrain3D, key: String) -> Dictionary:
	for p in terrain.get_scatter_placements():
		if p.key == key:
			return p
	return {}


func test_sculpting_a_cooked_terrain_refilters_its_placements_like_the_recipe() -> void:
	var cooked := _show(COOKED)
	var source := _show(SOURCE)
	var ct: Terrain3D = cooked[0]
	var st: Terrain3D = source[0]
	var rock := _rock(ct)
	assert_false(rock.is_empty(), "a rock away from the border")
	var y0: float = rock.position.y
	var stroke := {"type": "raise", "center": [rock.position.x, rock.position.z], "radius": 6, "amount": 2.0}
	for t: Terrain3D in [ct, st]:
		assert_true(t.apply_stroke(stroke), "raised")
	var moved := _placement(ct, rock.key)
	assert_false(moved.is_empty(), "the rock is kept")
	var ground := ct.get_height(ct.to_global(moved.position))
	assert_true(moved.position.y > y0 + 0.5, "the rock rose with the ground: %s -> %s" % [y0, moved.position.y])
	assert_near(moved.position.y, ground, 0.01, "on the new surface")
	assert_eq(moved.position, _placement(st, rock.key).position, "where the recipe's rock went")
	assert_eq(_keys(ct), _keys(st), "the same placements after the stroke")
	assert_true(ct.undo_stroke(), "undone")
	assert_eq(_placement(ct, rock.key).position, rock.position, "undo puts the rock back")
	assert_true(st.undo_stroke(), "undone on the recipe")
	assert_eq(_keys(ct), _keys(st), "the same placements after undo")

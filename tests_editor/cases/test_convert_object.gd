@tool
extends "res://lib/editor_case.gd"
## The dock's **Convert** tool (O) on `objects.tscn` (gentle 64 m inline recipe, a palette with
## `rock` prefabs and `tuft` meshes, a TerrainScatter): a click converts the nearest placement
## into an owned scene object at its transform and records its key in
## `Terrain3D.scatter_exclusions`; the scatter stops drawing it; Ctrl+Z / Ctrl+Y step through
## both as one action; a click with no placement near converts nothing.

var t: Node3D
var plugin: EditorPlugin


func _setup() -> void:
	t = await select_terrain("res://scenes/objects.tscn", 60.0)
	plugin = ridgeline()


func _scatter() -> Node:
	return t.get_node("Scatter")


func _rock_count(chunk: Vector2i) -> int:
	var s := _scatter()
	s.call("update_for_viewer", t.to_global(Vector3(32, 5, 32)), -1)
	return s.call("get_chunk_instance_count", chunk, "rock")


func _rock_table() -> String:
	var s := _scatter()
	var grid: Vector2i = s.call("get_chunk_grid")
	var out := "grid %s built %d:" % [grid, s.call("get_built_chunk_count")]
	for z in grid.y:
		for x in grid.x:
			out += " %s=%d/%d" % [Vector2i(x, z), s.call("get_chunk_instance_count", Vector2i(x, z), "rock"), s.call("get_chunk_instance_count", Vector2i(x, z), "tuft")]
	return out


func _converted() -> Array:
	var out := []
	for c in t.get_children():
		if String(c.name).begins_with("rock_") or String(c.name).begins_with("tuft_"):
			out.append(c)
	return out


func test_a_o_selects_convert() -> void:
	await _setup()
	plugin.call("set_tool", "raise")
	await key(KEY_O)
	assert_eq(plugin.call("get_tool"), "convert_object", "O selects Convert")


func test_b_click_converts_the_nearest_placement_in_one_undo_step() -> void:
	await _setup()
	plugin.call("set_tool", "convert_object")
	plugin.call("set_brush", {"size": 3.0})
	var rock := {}
	for p in t.call("get_scatter_placements"):
		var pos: Vector3 = p["position"]
		if p["rule"] == "rock" and pos.x > 12 and pos.x < 52 and pos.z > 12 and pos.z < 52:
			rock = p
			break
	assert_true(not rock.is_empty(), "a rock placement away from the edges")
	if rock.is_empty():
		return
	var pos: Vector3 = rock["position"]
	_scatter().call("update_for_viewer", t.to_global(Vector3(32, 5, 32)), -1)
	var chunk: Vector2i = _scatter().call("get_chunk_of", pos)
	var before := _rock_count(chunk)
	assert_true(before > 0, "rocks drawn in its chunk %s: %d (%s)" % [chunk, before, _rock_table()])
	assert_eq(_converted().size(), 0, "nothing converted yet")

	# A click 0.6 m off the rock still picks it (radius 1.5 m).
	await drag([screen_of(t.to_global(pos + Vector3(0.6, 0, 0)))])
	var made := _converted()
	assert_eq(made.size(), 1, "one object made: %s" % plugin.call("get_message"))
	if made.size() != 1:
		return
	var obj: Node3D = made[0]
	assert_true(obj is StaticBody3D, "the rule's scene instanced (its root is a StaticBody3D)")
	assert_eq(obj.scene_file_path, "res://fixtures/rock.tscn", "as an instance of the prefab")
	assert_eq(obj.owner, EditorInterface.get_edited_scene_root(), "owned by the scene: it is saved")
	assert_true(obj.position.distance_to(pos) < 1e-4, "at the placement: %s vs %s" % [obj.position, pos])
	var yaw := deg_to_rad(float(rock["yaw"]))
	var want := Basis(Vector3.UP, yaw).scaled(Vector3.ONE * float(rock["scale"]))
	assert_true(obj.basis.is_equal_approx(want), "with its yaw and scale")
	var keys: PackedStringArray = t.get("scatter_exclusions")
	assert_true(keys.has(rock["key"]), "the key is excluded: %s" % keys)
	assert_eq(_rock_count(chunk), before - 1, "the scatter no longer draws it")

	await undo()
	assert_eq(_converted().size(), 0, "Ctrl+Z removes the object")
	assert_true(not (t.get("scatter_exclusions") as PackedStringArray).has(rock["key"]), "and the exclusion")
	assert_eq(_rock_count(chunk), before, "the placement is drawn again")

	await redo()
	assert_eq(_converted().size(), 1, "Ctrl+Y converts it again")
	assert_true((t.get("scatter_exclusions") as PackedStringArray).has(rock["key"]), "excluded again")
	await undo()


func test_c_a_click_far_from_every_placement_converts_nothing() -> void:
	await _setup()
	plugin.call("set_tool", "convert_object")
	plugin.call("set_brush", {"size": 1.0})
	var spots: Array = t.call("get_scatter_placements")
	var empty := Vector3(-1, 0, -1)
	for z in range(8, 56, 2):
		for x in range(8, 56, 2):
			var here := Vector3(x, 0, z)
			var clear := true
			for p in spots:
				var q: Vector3 = p["position"]
				if Vector2(q.x - here.x, q.z - here.z).length() < 2.0:
					clear = false
					break
			if clear:
				empty = here
				break
		if empty.x >= 0:
			break
	assert_true(empty.x >= 0, "an empty spot")
	var keys_before: PackedStringArray = t.get("scatter_exclusions")
	await drag([screen_of(at(t, empty.x, empty.z))])
	assert_eq(_converted().size(), 0, "nothing converted")
	assert_eq(t.get("scatter_exclusions"), keys_before, "no key added")
	assert_true(String(plugin.call("get_message")).contains("No scatter placement"), "the dock says why: %s" % plugin.call("get_message"))

extends "res://lib/case.gd"
## Hostile GDScript input: values that would make a naive converter recurse forever or overflow
## the stack are refused with `false` (and a located error), and the terrain keeps working.

const RECIPE := '{"size": [32, 32], "resolution": [16, 16], "seed": 3}'


func _terrain() -> Terrain3D:
	var terrain := Terrain3D.new()
	terrain.recipe = RECIPE
	add_child(terrain)
	terrain.wait_for_generation()
	return terrain


func _still_works(terrain: Terrain3D, what: String) -> void:
	var before := terrain.get_height(Vector3(10, 0, 10))
	assert_true(terrain.apply_stroke({"type": "raise", "center": [10, 10], "radius": 3.0, "amount": 1.0, "falloff": 1.0}), "a valid stroke still applies after %s" % what)
	assert_near(terrain.get_height(Vector3(10, 0, 10)), before + 1.0, 1e-4, "and changes the surface after %s" % what)


func test_a_self_containing_array_is_refused() -> void:
	var terrain := _terrain()
	var a := []
	a.append(a)
	assert_false(terrain.apply_stroke({"type": "raise", "points": a, "radius": 5.0}), "an Array that contains itself")
	assert_false(terrain.can_undo_stroke(), "nothing was recorded")
	a.clear()
	_still_works(terrain, "a self-containing Array")


func test_a_self_containing_dictionary_is_refused() -> void:
	var terrain := _terrain()
	var d := {"type": "raise", "center": [4, 4], "radius": 2.0}
	d["self"] = d
	assert_false(terrain.apply_stroke(d), "a Dictionary that contains itself")
	d.erase("self")
	_still_works(terrain, "a self-containing Dictionary")


func test_deeply_nested_arrays_are_refused() -> void:
	var terrain := _terrain()
	var deep := []
	for i in 15000:
		deep = [deep]
	assert_false(terrain.apply_stroke({"type": "raise", "points": deep, "radius": 5.0}), "15,000 nested Arrays")
	_still_works(terrain, "15,000 nested Arrays")


func test_shared_but_acyclic_values_are_accepted() -> void:
	var terrain := _terrain()
	var p := [12, 12]
	assert_true(terrain.apply_stroke({"type": "smooth", "points": [p, p, [14, 12]], "radius": 3.0}), "the same point Array used twice is not a cycle")

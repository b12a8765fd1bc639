extends "res://lib/case.gd"
## When an edit fails part-way (a panic inside it, a lock poisoned by a panic elsewhere, a
## sample the surface refuses), the edit session is dropped with an error instead of being used
## half-applied: that edit and the following ones fail until generate() rebuilds the session, and
## the surface stays as the last completed edit left it.

const RECIPE := '{"size": [64, 64], "resolution": [32, 32], "seed": 8, "chunk_cells": 16}'


func _terrain() -> Terrain3D:
	return recipe_terrain(RECIPE)


func _heights(terrain: Terrain3D) -> PackedFloat32Array:
	var out := PackedFloat32Array()
	for z in 33:
		for x in 33:
			out.append(terrain.get_sample_height(x, z))
	return out


func _raise(terrain: Terrain3D, x: float) -> bool:
	return terrain.apply_stroke({"type": "raise", "center": [x, 30], "radius": 5.0, "amount": 2.0, "falloff": 1.0})


func _check_recovery(mode: int, failing_edit_fails: bool) -> void:
	var terrain := _terrain()
	var generated := _heights(terrain)
	assert_true(_raise(terrain, 20), "a first edit works (mode %d)" % mode)
	var edited := _heights(terrain)
	assert_true(terrain._test_break_edit_session(mode), "the fault is armed (mode %d)" % mode)
	if failing_edit_fails:
		assert_false(_raise(terrain, 40), "the broken edit fails (mode %d)" % mode)
	assert_eq(_heights(terrain), edited, "the surface stays as the last completed edit left it (mode %d)" % mode)
	assert_false(_raise(terrain, 44), "later edits are refused (mode %d)" % mode)
	assert_false(terrain.undo_stroke(), "and undo too (mode %d)" % mode)
	assert_false(terrain.can_undo_stroke(), "the history is gone (mode %d)" % mode)
	assert_eq(_heights(terrain), edited, "still unchanged (mode %d)" % mode)
	assert_true(terrain.generate() and terrain.wait_for_generation(), "generate() rebuilds (mode %d)" % mode)
	assert_eq(_heights(terrain), generated, "from the recipe, without the lost runtime stroke (mode %d)" % mode)
	assert_true(_raise(terrain, 40), "edits work again (mode %d)" % mode)
	assert_true(terrain.undo_stroke(), "with undo (mode %d)" % mode)
	assert_eq(_heights(terrain), generated, "undone exactly (mode %d)" % mode)


func test_a_panic_inside_an_edit_drops_the_session() -> void:
	_check_recovery(0, true)


func test_a_poisoned_session_lock_drops_the_session() -> void:
	_check_recovery(1, false)


func test_a_refused_sample_write_drops_the_session() -> void:
	_check_recovery(2, true)

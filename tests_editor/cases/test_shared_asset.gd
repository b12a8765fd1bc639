@tool
extends "res://lib/editor_case.gd"
## Two placements of one asset (`shared.tscn`): every stroke lands in the shared asset, and a
## stroke on one placement never drops the other's.

var a: Node3D
var b: Node3D


func _setup() -> void:
	if a == null:
		a = await open_terrain("res://scenes/shared.tscn")
		b = EditorInterface.get_edited_scene_root().get_node("Copy")
		b.call("wait_for_generation")
		await frames(2)


func _raise(t: Node3D, x: float, z: float) -> bool:
	return t.call("apply_stroke", {"type": "raise", "center": [x, z], "radius": 6.0, "amount": 3.0, "falloff": 1.0})


## Lets the deferred `changed` reach the other placement and its regeneration finish.
func _settle() -> void:
	await frames(3)
	for t in [a, b]:
		t.call("wait_for_generation")
	await frames(2)


## Raise strokes in the shared asset's document.
func _strokes() -> int:
	return String(a.asset.get_source_json()).count("\"raise\"")


func test_strokes_on_both_placements_are_kept() -> void:
	await _setup()
	var before := _strokes()
	assert_true(_raise(a, 30, 30), "a stroke on the first placement")
	await _settle()
	assert_true(_raise(b, 90, 90), "a stroke on the second placement, after the first")
	await _settle()
	assert_eq(_strokes(), before + 2, "the shared asset holds both strokes")
	for t in [a, b]:
		assert_true(float(t.call("get_height", t.global_position + Vector3(30, 0, 30))) > 11.0, "%s shows the first stroke" % t.name)
		assert_true(float(t.call("get_height", t.global_position + Vector3(90, 0, 90))) > 11.0, "%s shows the second stroke" % t.name)


func test_an_edit_on_a_stale_placement_is_refused_not_lost() -> void:
	await _setup()
	var before := _strokes()
	assert_true(_raise(a, 60, 30), "a stroke on the first placement")
	# At once, before the deferred `changed` reached the second placement: its session is
	# stale, so the edit is refused (with an error) and the second placement regenerates.
	assert_true(not _raise(b, 60, 90), "an edit on the stale placement is refused")
	await _settle()
	assert_eq(_strokes(), before + 1, "the first placement's stroke stays in the asset")
	assert_true(float(b.call("get_height", b.global_position + Vector3(60, 0, 30))) > 11.0, "the second placement caught up")
	assert_true(_raise(b, 60, 90), "after catching up, the second placement edits")
	await _settle()
	assert_eq(_strokes(), before + 2, "both strokes in the asset")

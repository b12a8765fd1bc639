@tool
extends "res://lib/editor_case.gd"
## A cooked terrain (`.terrain.bin`, made by the xtask from flat.terrain.json) cannot be edited
## in the editor: a click says why in the dock and changes nothing.


func test_cooked_terrain_refuses_with_a_message() -> void:
	var t := await open_terrain("res://scenes/cooked.tscn")
	var plugin := ridgeline()
	await top_down(t)
	plugin.call("set_tool", "raise")
	var before := heights(t)
	await drag(line(screen_of(at(t, 40, 64)), screen_of(at(t, 80, 64)), 4))
	assert_true(heights(t) == before, "the cooked surface is unchanged")
	assert_true(String(plugin.call("get_message")).contains("Read-only"), "the dock says it is read-only: %s" % plugin.call("get_message"))
	assert_true(not plugin.call("is_stroking"), "no stroke started")

@tool
extends "res://lib/editor_case.gd"
## A click on the terrain (tool None) selects it (through TerrainGizmoPlugin's collision
## triangles; without a gizmo Godot's viewport picking ignores the server-drawn chunks).


func test_click_selects_the_terrain() -> void:
	var t := await open_terrain("res://scenes/flat.tscn")
	await top_down(t)
	EditorInterface.get_selection().clear()
	await frames(3)
	assert_true(EditorInterface.get_selection().get_selected_nodes().is_empty(), "nothing selected")
	var p := screen_of(at(t, 64, 64))
	button(p, MOUSE_BUTTON_LEFT, true)
	button(p, MOUSE_BUTTON_LEFT, false)
	await frames(3)
	assert_eq(EditorInterface.get_selection().get_selected_nodes(), [t], "a click on the surface selects the Terrain3D")

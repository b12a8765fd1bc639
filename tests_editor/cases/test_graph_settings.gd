@tool
extends "res://lib/graph_case.gd"
## The Terrain Graph's recipe settings panel on `graph.tscn` (an asset-backed terrain, flat at
## 10 m, 128 m, 64 cells, one biome): the panel over the canvas opens and closes; rows edit the
## draft's size, resolution, seed and biomes (each one **Undo graph** step, refused edits say
## where and change nothing); Generate shows the edited settings unapplied; Apply writes them with
## the graph as one scene undo step; a grid change under strokes asks keep or clear. Rows are
## the real Tree's items; buttons are clicked through the Tree's `button_clicked` signal.


func settings() -> Dictionary:
	return JSON.parse_string(plugin.call("get_graph_settings"))


func row(path: Array) -> TreeItem:
	return plugin.call("get_graph_settings_row", JSON.stringify(path))


func message() -> String:
	return String(plugin.call("get_graph_message"))


## Types `text` into the value cell of the row at `path`, as the Tree's editor would.
func type_into(path: Array, text: String, column := 1) -> void:
	var item := row(path)
	assert_true(item != null, "row %s is shown" % [path])
	if item == null:
		return
	item.set_text(column, text)
	plugin.call("settings_row_changed", item, column)
	await frames(2)


func click_button(path: Array, id: int) -> void:
	var tree: Tree = ws().find_child("RecipeSettingsTree", true, false)
	var item := row(path)
	assert_true(item != null, "row %s is shown" % [path])
	tree.button_clicked.emit(item, 0, id, MOUSE_BUTTON_LEFT)
	await frames(2)


func test_panel_opens_over_the_canvas_and_edits_the_draft() -> void:
	await _setup()
	var panel: Control = ws().find_child("RecipeSettings", true, false)
	var tree: Tree = ws().find_child("RecipeSettingsTree", true, false)
	var area: Control = ws().find_child("CanvasArea", true, false)
	assert_true(panel != null and tree != null, "the panel exists")
	assert_eq(panel.get_parent(), area, "over the canvas")
	var toggle: Button = ws().find_child("RecipeSettingsToggle", true, false)
	assert_true(not tree.visible, "collapsed at first")
	toggle.button_pressed = true
	await frames(2)
	assert_true(tree.visible, "the header opens it")
	assert_true(panel.size.y > 150.0, "open, it runs down the canvas (%s)" % panel.size)
	# Every setting has a row with the recipe's value.
	for key in ["size", "resolution", "seed", "chunk_cells", "default_landform", "landforms", "default_biome", "biomes", "layers", "rules"]:
		assert_true(row([key]) != null, "a row for %s" % key)
	assert_eq(row(["size"]).get_text(1), "128, 128", "size")
	assert_eq(row(["chunk_cells"]).get_text(1), "32", "chunk size")
	assert_true(row(["seed"]).get_tooltip_text(1).length() > 10, "rows have tooltips")
	var undo_before: int = plugin.call("get_graph_undo_count")
	# A value edit is a draft edit: one graph step, the asset unchanged.
	await type_into(["seed"], "42")
	assert_eq(int(settings()["seed"]), 42, "the seed changed: %s" % message())
	assert_eq(int(plugin.call("get_graph_undo_count")), undo_before + 1, "one Undo graph step")
	assert_eq(_asset().get_source_json(), source_before, "not applied")
	# A refused edit says where and changes nothing; the row shows the old value again.
	await type_into(["resolution"], "0, 64")
	assert_true(message().contains("recipe.resolution"), "located: %s" % message())
	assert_eq(settings()["resolution"], [64.0, 64.0], "unchanged")
	assert_eq(row(["resolution"]).get_text(1), "64, 64", "the row restored")
	await type_into(["size"], "many")
	assert_true(message().contains("not a number"), "says why: %s" % message())
	# Collections: add a biome (a copy under a fresh name), rename it, colour it, make it the default.
	await click_button(["biomes"], 0)
	assert_true(settings()["biomes"].has("meadow_2"), "added: %s" % [settings()["biomes"].keys()])
	assert_true(row(["biomes", "meadow_2"]) != null, "and shown")
	await type_into(["biomes", "meadow_2"], "dunes", 0)
	assert_true(settings()["biomes"].has("dunes") and not settings()["biomes"].has("meadow_2"), "renamed")
	await type_into(["biomes", "dunes", "color"], "0.85, 0.75, 0.5, 1")
	assert_eq(settings()["biomes"]["dunes"]["color"], [0.85, 0.75, 0.5, 1.0], "coloured")
	assert_true(row(["biomes", "dunes", "color"]).get_custom_bg_color(1).is_equal_approx(Color(0.85, 0.75, 0.5)), "the row shows the colour")
	var def := row(["default_biome"])
	assert_eq(def.get_cell_mode(1), TreeItem.CELL_MODE_RANGE, "the default biome is a choice")
	var names := def.get_text(1).split(",")
	def.set_range(1, names.find("dunes"))
	plugin.call("settings_row_changed", def, 1)
	await frames(2)
	assert_eq(settings()["default_biome"], "dunes", "picked from the choice")
	# A rule for the new biome, then remove it again.
	await click_button(["rules"], 0)
	assert_eq(settings()["rules"].size(), 1, "a rule added")
	assert_eq(settings()["rules"][0]["biome"], "dunes", "for the default biome")
	await click_button(["rules", 0], 1)
	assert_eq(settings()["rules"].size(), 0, "removed")
	# Undo graph walks the settings back.
	for i in 6:
		await press("UndoGraph")
	assert_eq(settings()["default_biome"], "meadow", "undone: %s" % message())
	assert_true(not settings()["biomes"].has("dunes"), "the biome undone")
	await press("UndoGraph")
	assert_eq(int(settings()["seed"]), 1, "the seed undone")
	assert_eq(row(["seed"]).get_text(1), "1", "and the row shows it")
	await press("RedoGraph")
	assert_eq(int(settings()["seed"]), 42, "redone")
	toggle.button_pressed = false
	await frames(1)
	assert_true(not tree.visible, "the header closes it")
	await press("Reload")
	assert_eq(int(settings()["seed"]), 1, "Reload takes the source's settings")


func test_generate_and_apply_the_settings_with_the_graph() -> void:
	await _setup()
	t.call("wait_for_generation")
	assert_eq(t.call("get_size"), Vector2(128, 128), "the source's size")
	await type_into(["size"], "192, 160")
	await press("Generate")
	t.call("wait_for_generation")
	await frames(2)
	assert_eq(t.call("get_size"), Vector2(192, 160), "Generate shows the edited size: %s" % message())
	assert_eq(_asset().get_source_json(), source_before, "unapplied")
	await press("Discard")
	t.call("wait_for_generation")
	await frames(2)
	assert_eq(t.call("get_size"), Vector2(128, 128), "Discard preview: the source again")
	await press("Apply")
	t.call("wait_for_generation")
	await frames(2)
	var src := String(_asset().get_source_json())
	assert_true(src.contains("192") and src.contains("160"), "Apply writes the size into the asset")
	assert_true(src.contains("flat_terrain"), "with the graph, one recipe")
	assert_eq(t.call("get_size"), Vector2(192, 160), "and the terrain shows it")
	await undo()
	await frames(2)
	t.call("wait_for_generation")
	await frames(2)
	assert_eq(_asset().get_source_json(), source_before, "Ctrl+Z restores the asset")
	await press("Reload")


func _dock_status() -> String:
	for l in EditorInterface.get_base_control().find_children("Status", "Label", true, false):
		if String(l.text).begins_with("Editing"):
			return l.text
	return "<no dock status>"


func _layer(recipe: Dictionary, id: String) -> Dictionary:
	for l in recipe.get("layers", []):
		if l.get("id", "") == id:
			return l
	return {}


# Named to run before any test here that edits through the dock (whose connection to the asset
# would mark it unsaved anyway).
func test_a_saved_apply_undone_is_unsaved_again() -> void:
	await _setup()
	t.call("wait_for_generation")
	await press("Reload")
	await type_into(["seed"], "42")
	await press("Apply")
	t.call("wait_for_generation")
	await frames(2)
	assert_eq(int(JSON.parse_string(_asset().get_source_json())["recipe"]["seed"]), 42, "applied")
	EditorInterface.save_scene()
	await frames(2)
	assert_true(not _dock_status().contains("(unsaved)"), "saved: %s" % _dock_status())
	await undo()
	await frames(3)
	assert_eq(_asset().get_source_json(), source_before, "Ctrl+Z restores the asset")
	assert_true(_dock_status().contains("(unsaved)"), "and marks it unsaved, as the file holds the undone Apply: %s" % _dock_status())
	var line := String((ws().find_child("Status", true, false) as Label).text)
	assert_true(line.contains("not applied"), "the workspace's draft (seed 42) is unapplied again: %s" % line)
	EditorInterface.save_scene()
	await frames(2)
	assert_eq(FileAccess.get_file_as_string(_asset().resource_path), source_before, "saving writes the undone asset")
	await press("Reload")


func test_apply_keeps_the_layers_edited_in_the_dock_meanwhile() -> void:
	await _setup()
	t.call("wait_for_generation")
	await press("Reload")
	await type_into(["seed"], "42")
	assert_true(plugin.call("set_layer_enabled", "sculpt", false), "the dock turns a layer off: %s" % plugin.call("get_message"))
	await frames(2)
	assert_eq(_layer(settings(), "sculpt").get("enabled", true), false, "the panel follows the dock's layers at once")
	assert_eq(int(settings()["seed"]), 42, "and keeps its own edit")
	await press("UndoGraph")
	assert_eq(int(settings()["seed"]), 1, "Undo graph takes the seed edit back")
	assert_eq(_layer(settings(), "sculpt").get("enabled", true), false, "but not the dock's layer edit")
	await press("RedoGraph")
	await press("Apply")
	t.call("wait_for_generation")
	await frames(2)
	var recipe: Dictionary = JSON.parse_string(_asset().get_source_json())["recipe"]
	assert_eq(int(recipe["seed"]), 42, "the panel's edit is applied")
	assert_eq(_layer(recipe, "sculpt").get("enabled", true), false, "and the dock's layer edit is kept")
	assert_eq(_layer(settings(), "sculpt").get("enabled", true), false, "the panel shows the layers written")
	await undo()
	await frames(2)
	assert_true(plugin.call("set_layer_enabled", "sculpt", true), "the layer on again")
	_asset().call("set_source_json", source_before)
	await frames(2)
	t.call("wait_for_generation")
	await press("Reload")


func test_a_grid_change_under_strokes_asks_keep_or_clear() -> void:
	await _setup()
	t.call("wait_for_generation")
	assert_true(t.call("apply_stroke", {"type": "raise", "center": [40, 40], "radius": 8.0, "amount": 2.0, "falloff": 1.0}), "a stroke")
	var with_stroke := String(_asset().get_source_json())
	assert_true(with_stroke.contains("raise"), "in the asset")
	await press("Reload")
	await type_into(["resolution"], "32, 32")
	await press("Apply")
	var dialog: ConfirmationDialog = ws().find_child("RegridConfirm", true, false)
	assert_true(dialog.visible, "asks keep or clear")
	assert_true(dialog.dialog_text.contains("1 strokes"), "names the strokes: %s" % dialog.dialog_text)
	assert_eq(String(_asset().get_source_json()), with_stroke, "nothing applied before the answer")
	dialog.confirmed.emit()
	dialog.hide()
	await frames(2)
	t.call("wait_for_generation")
	var kept := String(_asset().get_source_json())
	assert_true(kept.contains("raise") and kept.contains("32"), "kept the stroke on the new grid")
	await undo()
	await frames(2)
	assert_eq(String(_asset().get_source_json()), with_stroke, "undone")
	await press("Apply")
	assert_true(dialog.visible, "asks again")
	dialog.custom_action.emit("clear_strokes")
	await frames(2)
	t.call("wait_for_generation")
	var cleared := String(_asset().get_source_json())
	assert_true(not cleared.contains("raise") and cleared.contains("32"), "cleared the stroke")
	await undo()
	await frames(2)
	assert_eq(String(_asset().get_source_json()), with_stroke, "undone")
	_asset().call("set_source_json", source_before)
	await frames(2)
	t.call("wait_for_generation")
	await press("Reload")


func test_renaming_a_landform_follows_into_the_graph() -> void:
	await _setup()
	await click_button(["landforms"], 0)
	var names: Array = settings()["landforms"].keys()
	assert_eq(names.size(), 1, "a landform added: %s" % [names])
	var old: String = names[0]
	var graph := {"format_version": 1, "output": "out", "nodes": [
		{"id": "shape", "type": "landform", "params": {"landform": old}},
		{"id": "out", "type": "terrain_output", "position": [300, 0], "inputs": {"heightfield": "shape"}}]}
	assert_true(plugin.call("set_graph_draft", JSON.stringify(graph)), "a graph naming it: %s" % message())
	await frames(2)
	var steps: int = plugin.call("get_graph_undo_count")
	await type_into(["landforms", old], "downs", 0)
	assert_true(settings()["landforms"].has("downs"), "renamed: %s" % message())
	var draft: Dictionary = JSON.parse_string(plugin.call("get_graph_draft"))
	assert_eq(draft["nodes"][0]["params"]["landform"], "downs", "the Landform node follows")
	assert_eq(int(plugin.call("get_graph_undo_count")), steps + 1, "one Undo graph step")
	assert_true(plugin.call("get_graph_problems").is_empty(), "no dangling name: %s" % [plugin.call("get_graph_problems")])
	await press("UndoGraph")
	draft = JSON.parse_string(plugin.call("get_graph_draft"))
	assert_eq(draft["nodes"][0]["params"]["landform"], old, "undo brings the node's name back")
	assert_true(settings()["landforms"].has(old), "and the landform's")
	await press("Reload")

@tool
extends "res://lib/editor_case.gd"
## **Create terrain asset…** on a Terrain3D without a source: the dialog writes a new
## `.terrain.json` with the chosen size, resolution, seed and chunk size and assigns it as one
## undo step; taken paths and invalid values write nothing.

const PATH := "res://terrains/created/hills.terrain.json"


func test_create_terrain_asset_assigns_it_with_undo() -> void:
	var t := await open_terrain("res://scenes/nosource.tscn")
	var plugin := ridgeline()
	var base := EditorInterface.get_base_control()
	var buttons := base.find_children("CreateTerrainAsset", "Button", true, false)
	assert_true(buttons.size() == 1 and (buttons[0] as Button).is_visible_in_tree(), "the dock offers Create terrain asset…")
	if buttons.size() != 1:
		return
	(buttons[0] as Button).pressed.emit()
	await frames(2)
	var dialogs := base.find_children("RidgelineCreateTerrainAsset", "ConfirmationDialog", true, false)
	assert_true(dialogs.size() == 1 and dialogs[0].visible, "the dialog opens")
	if dialogs.size() != 1:
		return
	var d: ConfirmationDialog = dialogs[0]
	var edit: LineEdit = d.find_children("*", "LineEdit", true, false)[0]
	assert_eq(edit.text, "res://terrains/terrain.terrain.json", "a free path is proposed")
	edit.text = PATH
	var spins := d.find_children("*", "SpinBox", true, false)
	assert_eq(spins.size(), 6, "size ×2, cells ×2, seed, chunk cells")
	for i in 6:
		(spins[i] as SpinBox).value = [256, 128, 128, 64, 7, 32][i]
	d.confirmed.emit()
	d.hide()
	await frames(2)
	t.call("wait_for_generation")
	await frames(3)
	var asset: Resource = t.get("asset")
	assert_true(asset != null and asset.resource_path == PATH, "the new asset is assigned")
	assert_eq(t.call("get_size"), Vector2(256, 128), "the terrain generates with the chosen size")
	assert_true(FileAccess.file_exists(PATH), "the asset is written")
	var text := FileAccess.get_file_as_string(PATH)
	assert_true(text.contains("\"seed\": 7") and text.contains("\"chunk_cells\": 32"), "seed and chunk size are written: " + text)
	assert_true(not (buttons[0] as Button).is_visible_in_tree(), "the button hides once the terrain has a source")
	await undo()
	assert_true(t.get("asset") == null, "Ctrl+Z: no source again")
	await redo()
	asset = t.get("asset")
	assert_true(asset != null and asset.resource_path == PATH, "Ctrl+Y assigns it again")
	await undo()
	assert_true(not plugin.call("create_terrain_asset", PATH, {}), "a taken path is refused")
	assert_true(String(plugin.call("get_message")).contains("already exists"), "and the dock says why")
	var bad := "res://terrains/created/bad.terrain.json"
	assert_true(not plugin.call("create_terrain_asset", bad, {"resolution": Vector2i(0, 8)}), "an invalid resolution is refused")
	assert_true(String(plugin.call("get_message")).contains("resolution"), "with the located error")
	assert_true(not FileAccess.file_exists(bad), "nothing is written")
	# A mistyped value or a misspelled key is not silently replaced by the default.
	assert_true(not plugin.call("create_terrain_asset", bad, {"size": Vector2i(256, 256)}), "size as a Vector2i is refused")
	assert_true(String(plugin.call("get_message")).contains("options.size: must be a Vector2"), "named: %s" % plugin.call("get_message"))
	assert_true(not plugin.call("create_terrain_asset", bad, {"sede": 3}), "an unknown key is refused")
	assert_true(String(plugin.call("get_message")).contains("options.sede: unknown option"), "named: %s" % plugin.call("get_message"))
	assert_true(not FileAccess.file_exists(bad), "nothing is written for either")
	assert_true(t.get("asset") == null, "and nothing assigned")

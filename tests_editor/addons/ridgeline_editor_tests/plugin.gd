@tool
extends EditorPlugin
## Test runner inside the editor: with `-- --ridgeline-editor-tests [--filter=TEXT]` it runs every
## `test_*` method of `res://cases/test_*.gd` (files extend `res://lib/editor_case.gd`), prints
## `PASS name` / `FAIL name: …` and `N passed, N failed`, and quits (1 on any failure). Without
## the flag it does nothing, so opening the project normally is harmless.

var _passed := 0
var _failed := 0


func _enter_tree() -> void:
	if "--ridgeline-editor-tests" in OS.get_cmdline_user_args():
		_run.call_deferred()
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--ridgeline-editor-shot="):
			_shot.call_deferred(a.trim_prefix("--ridgeline-editor-shot="))


func _filter() -> String:
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--filter="):
			return a.trim_prefix("--filter=")
	return ""


func _run() -> void:
	var fs := EditorInterface.get_resource_filesystem()
	for i in 1200:
		if not fs.is_scanning():
			break
		await get_tree().process_frame
	for i in 5:
		await get_tree().process_frame
	var filter := _filter()
	var files := DirAccess.get_files_at("res://cases")
	files.sort()
	for f in files:
		if not (f.begins_with("test_") and f.ends_with(".gd")):
			continue
		var script: GDScript = load("res://cases/" + f)
		if script == null or not script.can_instantiate():
			print("FAIL %s: does not load" % f)
			_failed += 1
			continue
		var case: Node = script.new()
		add_child(case)
		for m in case.get_method_list():
			var name: String = m["name"]
			if not name.begins_with("test_"):
				continue
			var full := f.get_basename() + "." + name
			if filter != "" and not full.contains(filter):
				continue
			case._begin_test()
			await case.call(name)
			var failures: PackedStringArray = case.get_failures()
			if failures.is_empty():
				print("PASS " + full)
				_passed += 1
			else:
				print("FAIL %s: %s" % [full, "; ".join(failures)])
				_failed += 1
		await case.cleanup()
		case.queue_free()
	print("%d passed, %d failed" % [_passed, _failed])
	get_tree().quit(1 if _failed > 0 else 0)


## Screenshots for docs/editor.md (run under Xvfb by `cargo xtask editor-shot`): the demo
## terrain selected, the Terrain dock in front, a sculpted ridge and the brush ring over it.
func _shot(out_dir: String) -> void:
	var fs := EditorInterface.get_resource_filesystem()
	for i in 1200:
		if not fs.is_scanning():
			break
		await get_tree().process_frame
	var case: Node = load("res://lib/editor_case.gd").new()
	add_child(case)
	var t: Node3D = await case.open_terrain("res://scenes/demo.tscn")
	var plugin: EditorPlugin = case.ridgeline()
	var size: Vector2 = t.call("get_size")
	var centre := t.global_position + Vector3(size.x / 2.0, 0.0, size.y / 2.0)
	centre.y = t.call("get_height", centre)
	var eye := centre + Vector3(0.0, size.x * 0.35, size.y * 0.55)
	case.camera().global_transform = Transform3D(Basis.looking_at(centre - eye), eye)
	await case.frames(10)
	plugin.call("set_tool", "raise")
	plugin.call("set_brush", {"size": size.x / 12.0, "strength": 0.8, "falloff": 0.5, "spacing": 0.2})
	var a: Vector2 = case.screen_of(centre + Vector3(-size.x * 0.15, 0, size.y * 0.05))
	var b: Vector2 = case.screen_of(centre + Vector3(size.x * 0.15, 0, -size.y * 0.05))
	for i in 3:
		await case.drag(case.line(a, b, 20))
	var hover: Vector2 = case.screen_of(centre + Vector3(0, 0, size.y * 0.12))
	case.motion(hover, Vector2.ZERO, 0)
	DirAccess.make_dir_recursive_absolute(out_dir)
	await _save_shot(out_dir, "dock.png", 2.0)
	# F frames the whole terrain; Biome paint with the recipe's biomes as swatches (tools.png).
	await case.key(KEY_F)
	await case.frames(10)
	plugin.call("set_tool", "biome_paint")
	case.motion(case.screen_of(centre), Vector2.ZERO, 0)
	await _save_shot(out_dir, "tools.png", 2.0)
	await _shot_overlays(case, plugin, t, centre, size, out_dir)
	# The Terrain Graph workspace on the same terrain (docs/images/graph-editor.png).
	for i in 3:
		await case.undo()
	t.call("wait_for_generation")
	plugin.call("set_tool", "none")
	if plugin.call("open_terrain_graph", t):
		var ws: Control = plugin.call("get_terrain_graph")
		ws.custom_minimum_size = Vector2(0, 520)
		await case.frames(10)
		# The canvas alone (graph.png), then the recipe settings panel open over it with its
		# biomes unfolded (graph-settings.png).
		var canvas: GraphEdit = ws.find_child("Canvas", true, false)
		canvas.zoom = 0.7
		canvas.scroll_offset = Vector2(-40, -150)
		await _save_shot(out_dir, "graph.png", 2.0)
		var toggle: Button = ws.find_child("RecipeSettingsToggle", true, false)
		toggle.button_pressed = true
		await case.frames(2)
		var rows := [["biomes"]]
		for biome in JSON.parse_string(plugin.call("get_graph_settings"))["biomes"].keys():
			rows.append(["biomes", biome])
		for path in rows:
			var row: TreeItem = plugin.call("get_graph_settings_row", JSON.stringify(path))
			if row != null:
				row.collapsed = false
		canvas.zoom = 0.8
		canvas.scroll_offset = Vector2(-40, -60)
		await _save_shot(out_dir, "graph-settings.png", 2.0)
		toggle.button_pressed = false
		# A long point list shown a page at a time (graph-points.png): the draft only, then the
		# terrain's own graph again.
		var source_graph: String = plugin.call("get_graph_draft")
		var pts := []
		for i in 120:
			var angle := TAU * i / 120.0
			pts.append([512.0 + cos(angle) * (300.0 + 40.0 * sin(angle * 7.0)), 512.0 + sin(angle) * 300.0])
		plugin.call("set_graph_draft", JSON.stringify({"format_version": 1, "output": "out", "nodes": [
			{"id": "flat", "type": "flat_terrain", "position": [0, 0]},
			{"id": "coast", "type": "polygon_mask", "position": [320, 0], "inputs": {"field": "flat"}, "params": {"points": pts}},
			{"id": "out", "type": "terrain_output", "position": [900, 0], "inputs": {"heightfield": "flat"}}]}))
		await case.frames(3)
		(plugin.call("get_graph_card", "coast").find_child("ShowPoints", true, false) as Button).pressed.emit()
		await case.frames(3)
		(plugin.call("get_graph_card", "coast").find_child("NextPoints", true, false) as Button).pressed.emit()
		await case.frames(3)
		canvas.zoom = 0.8
		canvas.scroll_offset = Vector2(-40, -20)
		await _save_shot(out_dir, "graph-points.png", 2.0)
		plugin.call("set_graph_draft", source_graph)
		await case.frames(3)
		# The Presets tab with its thumbnails (docs/images/presets-tab.png).
		var tabs: TabContainer = ws.find_child("Presets", true, false).get_parent()
		tabs.current_tab = 1
		ws.custom_minimum_size = Vector2(0, 520)
		await case.frames(10)
		await _save_shot(out_dir, "presets.png", 1.0)
		tabs.current_tab = 0
		# Fold the panel away again: the next shots are of the viewport.
		plugin.hide_bottom_panel()
		await case.frames(5)
	await _shot_foliage(case, plugin, t, out_dir)
	await _shot_import(case, plugin, t, out_dir)
	case.queue_free()
	get_tree().quit(0)


## Waits `settle` seconds for the editor to draw, then saves the window as `name` in `out_dir`.
func _save_shot(out_dir: String, name: String, settle: float) -> void:
	await get_tree().create_timer(settle).timeout
	var img := get_viewport().get_texture().get_image()
	img.save_png(out_dir.path_join(name))
	print("editor shot: ", out_dir.path_join(name), " ", img.get_size())


## The Foliage tool clearing a patch of the demo's grass (foliage.png): a temporary
## TerrainScatter draws the palette's foliage; one stroke at density 0, then undone.
func _shot_foliage(case: Node, plugin: EditorPlugin, t: Node3D, out_dir: String) -> void:
	plugin.call("set_tool", "none")
	var types: PackedStringArray = t.call("get_foliage_types")
	if types.is_empty():
		push_error("foliage shot: the demo palette has no foliage types")
		return
	var size: Vector2 = t.call("get_size")
	var pts: PackedVector3Array = t.call("get_foliage_instances", types[0], Rect2(Vector2.ZERO, size))
	if pts.is_empty():
		push_error("foliage shot: no %s instances" % types[0])
		return
	var sc: Node3D = ClassDB.instantiate("TerrainScatter")
	sc.name = "ShotScatter"
	t.add_child(sc)
	var spot := t.to_global(pts[pts.size() / 2])
	var eye := spot + Vector3(0, 6, 11)
	case.camera().global_transform = Transform3D(Basis.looking_at(spot - eye), eye)
	sc.call("update_for_viewer", eye, -1)
	plugin.call("set_tool", "foliage_paint")
	plugin.call("set_brush", {"size": 12.0, "density": 0.0, "falloff": 0.8, "strength": 1.0})
	await case.drag([case.screen_of(spot)])
	sc.call("update_for_viewer", eye, -1)
	case.motion(case.screen_of(spot), Vector2.ZERO, 0)
	await _save_shot(out_dir, "foliage.png", 2.0)
	await case.undo()
	plugin.call("set_tool", "none")
	sc.queue_free()
	await case.frames(2)


## The four overlays of the framed demo as a 2 × 2 grid of 3D-viewport images (overlays.png):
## exclusions (after an Exclude stroke), elevation, slope, biome. The stroke is undone after.
func _shot_overlays(case: Node, plugin: EditorPlugin, t: Node3D, centre: Vector3, size: Vector2, out_dir: String) -> void:
	plugin.call("set_tool", "exclude")
	plugin.call("set_brush", {"size": size.x / 8.0, "strength": 1.0, "falloff": 0.3, "spacing": 0.2})
	var a: Vector2 = case.screen_of(centre + Vector3(-size.x * 0.2, 0, size.y * 0.1))
	var b: Vector2 = case.screen_of(centre + Vector3(size.x * 0.2, 0, -size.y * 0.1))
	await case.drag(case.line(a, b, 20))
	plugin.call("set_tool", "none")
	var vp := EditorInterface.get_editor_viewport_3d(0)
	var tiles: Array[Image] = []
	for mode in [1, 2, 3, 4]:
		t.set("overlay", mode)
		await get_tree().create_timer(1.0).timeout
		var tile := vp.get_texture().get_image()
		tile.resize(800, int(800.0 * tile.get_height() / tile.get_width()))
		tiles.append(tile)
	t.set("overlay", 0)
	await case.undo()
	var w := tiles[0].get_width()
	var h := tiles[0].get_height()
	var grid := Image.create(w * 2, h * 2, false, tiles[0].get_format())
	for i in 4:
		grid.blit_rect(tiles[i], Rect2i(0, 0, w, h), Vector2i((i % 2) * w, (i / 2) * h))
	grid.save_png(out_dir.path_join("overlays.png"))
	print("editor shot: ", out_dir.path_join("overlays.png"), " ", grid.get_size())


## The import dialog over a real DEM (30 × 32 km, 3 arc-seconds), then the imported terrain.
func _shot_import(case: Node, plugin: EditorPlugin, t: Node3D, out_dir: String) -> void:
	plugin.call("set_tool", "none")
	var dem := "res://terrains/jacksboro_fault_dem.png"
	plugin.call("_on_import_file_selected", dem)
	var dialog: ConfirmationDialog = null
	for c in EditorInterface.get_base_control().get_children():
		if c is ConfirmationDialog and c.title == "Import heightmap" and c.visible:
			dialog = c
	if dialog == null:
		push_error("editor shot: no import dialog")
		return
	var spins := dialog.find_children("*", "SpinBox", true, false)
	spins[0].value = 29897.0
	spins[1].value = 31782.0
	await get_tree().create_timer(1.0).timeout
	# The dialog is a window of its own: capture the whole (virtual) screen.
	var screen := DisplayServer.screen_get_image(DisplayServer.window_get_current_screen())
	if screen == null or screen.is_empty():
		screen = get_viewport().get_texture().get_image()
	screen.save_png(out_dir.path_join("import.png"))
	dialog.hide()
	plugin.call("_on_import_confirmed")
	t.call("wait_for_generation")
	var size: Vector2 = t.call("get_size")
	var centre := t.global_position + Vector3(size.x / 2.0, 0.0, size.y / 2.0)
	centre.y = t.call("get_height", centre)
	# Within the editor camera's default 4 km far plane: a 5 km stretch of the 30 km map.
	var eye := centre + Vector3(-900.0, 1900.0, 2500.0)
	case.camera().global_transform = Transform3D(Basis.looking_at(centre - eye), eye)
	await get_tree().create_timer(2.0).timeout
	get_viewport().get_texture().get_image().save_png(out_dir.path_join("imported.png"))
	print("editor shot: ", out_dir.path_join("import.png"))

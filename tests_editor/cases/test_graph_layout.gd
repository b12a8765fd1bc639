@tool
extends "res://lib/graph_case.gd"
## The graphs Ridgeline ships — the built-in presets, the starter graph, the examples in
## `docs/examples` and the demo's terrain (copied by the xtask into `res://shipped/`) — open in
## the Terrain Graph with no card covering another: their saved positions leave room for the
## cards as the workspace draws them.


func _shipped() -> Dictionary:
	var out := {}
	for f in DirAccess.get_files_at("res://shipped"):
		var d: Variant = JSON.parse_string(FileAccess.get_file_as_string("res://shipped/" + f))
		assert_true(d is Dictionary, "%s parses" % f)
		if d is Dictionary:
			var recipe: Dictionary = d.get("recipe", d)
			out[f] = recipe.get("graph", {})
	return out


## Pairs of cards whose rectangles (graph units: position offset and size) overlap.
func _overlaps() -> Array:
	var g: Dictionary = JSON.parse_string(plugin.call("get_graph_draft"))
	var rects := {}
	for n in g["nodes"]:
		var c: GraphNode = plugin.call("get_graph_card", n["id"])
		if c != null:
			rects[n["id"]] = Rect2(c.position_offset, c.size)
	var out := []
	var ids := rects.keys()
	for i in ids.size():
		for j in range(i + 1, ids.size()):
			var a: Rect2 = rects[ids[i]]
			var b: Rect2 = rects[ids[j]]
			if a.intersects(b):
				out.append("%s %s / %s %s" % [ids[i], a, ids[j], b])
	return out


func test_shipped_graphs_open_without_overlapping_cards() -> void:
	await _setup()
	var graphs := _shipped()
	assert_true(graphs.size() >= 15, "the presets, examples and demo terrain are there (%d)" % graphs.size())
	for name in graphs:
		assert_true(plugin.call("set_graph_draft", JSON.stringify(graphs[name])), "%s loads: %s" % [name, plugin.call("get_graph_message")])
		await frames(2)
		assert_eq(plugin.call("get_graph_card_count"), graphs[name]["nodes"].size(), "%s: one card per node" % name)
		var bad := _overlaps()
		assert_true(bad.is_empty(), "%s: cards overlap: %s" % [name, "; ".join(bad)])
	await press("StarterGraph")
	var bad := _overlaps()
	assert_true(bad.is_empty(), "starter graph: cards overlap: %s" % "; ".join(bad))


func test_long_point_lists_fold_until_shown() -> void:
	await _setup()
	var g := {"format_version": 1, "output": "out", "nodes": [
		{"id": "flat", "type": "flat_terrain", "position": [0, 0]},
		{"id": "poly", "type": "polygon_mask", "position": [300, 0], "inputs": {"field": "flat"},
			"params": {"points": [[1, 1], [20, 2], [30, 20], [25, 40], [10, 35], [2, 20]]}},
		{"id": "out", "type": "terrain_output", "position": [700, 0], "inputs": {"heightfield": "flat"}}]}
	assert_true(plugin.call("set_graph_draft", JSON.stringify(g)), "loaded")
	await frames(2)
	var c: GraphNode = plugin.call("get_graph_card", "poly")
	var show: Button = c.find_child("ShowPoints", true, false)
	assert_true(show != null, "a six-point list is folded to one button")
	if show == null:
		return
	assert_eq(show.text, "Show 6 points", "the button counts the points")
	assert_true(c.find_child("point_0", true, false) == null, "no point rows while folded")
	var folded: float = c.size.y
	var steps: int = plugin.call("get_graph_undo_count")
	show.pressed.emit()
	await frames(3)
	c = plugin.call("get_graph_card", "poly")
	assert_true(c.find_child("point_5", true, false) != null, "Show: every point is a row")
	assert_true(c.find_child("HidePoints", true, false) != null, "with a button to fold it again")
	await frames(1)
	assert_true(c.size.y > folded + 100.0, "the card grows (%s → %s)" % [folded, c.size.y])
	assert_eq(plugin.call("get_graph_undo_count"), steps, "showing points is not a graph edit")
	# An edit that rebuilds the card keeps the list open.
	(c.find_child("AddPoint", true, false) as Button).pressed.emit()
	await frames(3)
	c = plugin.call("get_graph_card", "poly")
	assert_true(c.find_child("point_6", true, false) != null, "the added point is shown")
	(c.find_child("HidePoints", true, false) as Button).pressed.emit()
	await frames(3)
	c = plugin.call("get_graph_card", "poly")
	assert_true(c.find_child("point_0", true, false) == null, "Hide folds the list")
	show = c.find_child("ShowPoints", true, false)
	assert_true(show != null and show.text == "Show 7 points", "folded with the new count")


func test_arrange_lays_out_overlapping_cards_as_one_undo_step() -> void:
	await _setup()
	# Three cards piled on one spot: Arrange (GraphEdit's toolbar button) spreads them.
	var g := {"format_version": 1, "output": "out", "nodes": [
		{"id": "flat", "type": "flat_terrain", "position": [0, 0]},
		{"id": "hills", "type": "noise_terrain", "position": [10, 10]},
		{"id": "blend", "type": "height_blend", "position": [20, 20], "inputs": {"a": "flat", "b": "hills"}},
		{"id": "out", "type": "terrain_output", "position": [30, 30], "inputs": {"heightfield": "blend"}}]}
	assert_true(plugin.call("set_graph_draft", JSON.stringify(g)), "loaded")
	await frames(2)
	assert_true(not _overlaps().is_empty(), "the cards start piled up")
	var steps: int = plugin.call("get_graph_undo_count")
	var canvas: GraphEdit = ws().find_child("Canvas", true, false)
	assert_true(canvas.show_arrange_button, "the canvas toolbar has Arrange")
	canvas.arrange_nodes()
	await frames(2)
	assert_eq(_overlaps(), [], "arranged: no card covers another")
	assert_eq(plugin.call("get_graph_undo_count"), steps + 1, "one graph step")
	var draft: Dictionary = JSON.parse_string(plugin.call("get_graph_draft"))
	var at := {}
	for n in draft["nodes"]:
		at[n["id"]] = Vector2(n["position"][0], n["position"][1])
	assert_true(at["out"].x > at["blend"].x and at["blend"].x > at["hills"].x, "sources left, output right: %s" % at)
	await press("UndoGraph")
	draft = JSON.parse_string(plugin.call("get_graph_draft"))
	assert_eq(draft["nodes"][3]["position"], [30.0, 30.0], "Undo graph puts them back")


func test_a_water_body_card_shows_the_rows_its_kind_reads() -> void:
	await _setup()
	var g := {"format_version": 1, "output": "out", "nodes": [
		{"id": "flat", "type": "flat_terrain", "position": [0, 0]},
		{"id": "water", "type": "water_body", "position": [300, 0], "inputs": {"field": "flat"}},
		{"id": "out", "type": "terrain_output", "position": [800, 0], "inputs": {"heightfield": "water", "water": "water:water"}}]}
	assert_true(plugin.call("set_graph_draft", JSON.stringify(g)), "loaded")
	await frames(2)
	var c: GraphNode = plugin.call("get_graph_card", "water")
	# A lake (the default kind): centre, radius, boundary, flow direction; no river rows.
	for row in ["kind", "level", "center", "radius", "boundary", "flow_speed", "flow_direction", "shallow_color"]:
		assert_true(_has(row), "a lake shows %s" % row)
	for row in ["river_path", "river_width", "river_depth", "river_surface_mode", "river_path_interpolation"]:
		assert_true(not _has(row), "a lake hides %s" % row)
	var lake_height: float = c.size.y
	# Choosing river in the kind menu (as a click would) swaps the rows.
	var kind: OptionButton = c.find_child("param_kind", true, false).get_child(1)
	kind.select(2)
	kind.item_selected.emit(2)
	await frames(3)
	c = plugin.call("get_graph_card", "water")
	assert_eq(node_kind(), "river", "the draft has the new kind")
	for row in ["river_path", "river_width", "river_depth", "river_surface_mode", "level", "flow_speed"]:
		assert_true(_has(row), "a river shows %s" % row)
	for row in ["center", "radius", "boundary", "flow_direction"]:
		assert_true(not _has(row), "a river hides %s" % row)
	await press("UndoGraph")
	c = plugin.call("get_graph_card", "water")
	assert_true(_has("center") and not _has("river_width"), "Undo graph: the lake's rows again")
	assert_true(c.size.y < lake_height + 1.0, "the lake card is as short as before")


func _has(row: String) -> bool:
	var c: GraphNode = plugin.call("get_graph_card", "water")
	return c != null and c.find_child("param_" + row, true, false) != null


func node_kind() -> String:
	var draft: Dictionary = JSON.parse_string(plugin.call("get_graph_draft"))
	for n in draft["nodes"]:
		if n["id"] == "water":
			return String(n.get("params", {}).get("kind", "lake"))
	return ""


func test_a_long_point_list_is_shown_a_page_at_a_time() -> void:
	await _setup()
	var pts := []
	for i in 120:
		pts.append([float(i), float(i % 7)])
	var g := {"format_version": 1, "output": "out", "nodes": [
		{"id": "flat", "type": "flat_terrain", "position": [0, 0]},
		{"id": "poly", "type": "polygon_mask", "position": [300, 0], "inputs": {"field": "flat"},
			"params": {"points": pts}},
		{"id": "out", "type": "terrain_output", "position": [700, 0], "inputs": {"heightfield": "flat"}}]}
	assert_true(plugin.call("set_graph_draft", JSON.stringify(g)), "loaded")
	await frames(2)
	var steps: int = plugin.call("get_graph_undo_count")
	var c: GraphNode = plugin.call("get_graph_card", "poly")
	(c.find_child("ShowPoints", true, false) as Button).pressed.emit()
	await frames(3)
	c = plugin.call("get_graph_card", "poly")
	var range_label: Label = c.find_child("PointRange", true, false)
	assert_true(range_label != null and range_label.text == "1–50 of 120", "the first page: %s" % (range_label.text if range_label else "no page bar"))
	assert_true(c.find_child("point_49", true, false) != null and c.find_child("point_50", true, false) == null, "fifty rows, not 120")
	assert_true((c.find_child("PreviousPoints", true, false) as Button).disabled, "no page before the first")
	(c.find_child("NextPoints", true, false) as Button).pressed.emit()
	await frames(3)
	c = plugin.call("get_graph_card", "poly")
	assert_eq((c.find_child("PointRange", true, false) as Label).text, "51–100 of 120", "Next shows the second page")
	assert_true(c.find_child("point_50", true, false) != null and c.find_child("point_0", true, false) == null, "rows 51–100")
	# A row's spin edits the point it shows, not the one with its position on the page.
	var spin: EditorSpinSlider = c.find_child("point_60", true, false).get_child(0)
	spin.value = 600.0
	await frames(2)
	var draft: Dictionary = JSON.parse_string(plugin.call("get_graph_draft"))
	var poly: Dictionary = draft["nodes"].filter(func(n): return n["id"] == "poly")[0]
	assert_eq(poly["params"]["points"][60][0], 600.0, "point 60 edited")
	assert_eq(poly["params"]["points"][10][0], 10.0, "point 10 untouched")
	steps += 1
	c = plugin.call("get_graph_card", "poly")
	(c.find_child("LastPoints", true, false) as Button).pressed.emit()
	await frames(3)
	c = plugin.call("get_graph_card", "poly")
	assert_eq((c.find_child("PointRange", true, false) as Label).text, "101–120 of 120", "Last shows the rest")
	assert_true((c.find_child("NextPoints", true, false) as Button).disabled, "no page after the last")
	assert_eq(plugin.call("get_graph_undo_count"), steps, "turning pages is not a graph edit")
	# Back to the first page, then + point: the list follows the new point to the last page.
	(c.find_child("FirstPoints", true, false) as Button).pressed.emit()
	await frames(3)
	c = plugin.call("get_graph_card", "poly")
	(c.find_child("AddPoint", true, false) as Button).pressed.emit()
	await frames(3)
	c = plugin.call("get_graph_card", "poly")
	assert_true(c.find_child("point_120", true, false) != null, "the added point is in view")
	assert_eq((c.find_child("PointRange", true, false) as Label).text, "101–121 of 121", "on the last page")
	# Moving the first point of a page up follows it to the page before.
	(c.find_child("point_100", true, false).find_child("move_up", true, false) as Button).pressed.emit()
	await frames(3)
	c = plugin.call("get_graph_card", "poly")
	assert_eq((c.find_child("PointRange", true, false) as Label).text, "51–100 of 121", "the moved point's page")
	draft = JSON.parse_string(plugin.call("get_graph_draft"))
	poly = draft["nodes"].filter(func(n): return n["id"] == "poly")[0]
	assert_eq(poly["params"]["points"][99][0], 100.0, "point 100 moved up")


func test_the_fifth_point_keeps_a_shown_list_shown_and_a_new_node_starts_folded() -> void:
	await _setup()
	var g := {"format_version": 1, "output": "out", "nodes": [
		{"id": "flat", "type": "flat_terrain", "position": [0, 0]},
		{"id": "poly", "type": "polygon_mask", "position": [300, 0], "inputs": {"field": "flat"},
			"params": {"points": [[1, 1], [20, 2], [30, 20], [2, 20]]}},
		{"id": "out", "type": "terrain_output", "position": [700, 0], "inputs": {"heightfield": "flat"}}]}
	assert_true(plugin.call("set_graph_draft", JSON.stringify(g)), "loaded")
	await frames(2)
	var c: GraphNode = plugin.call("get_graph_card", "poly")
	assert_true(c.find_child("point_3", true, false) != null, "four points are shown without opening")
	(c.find_child("AddPoint", true, false) as Button).pressed.emit()
	await frames(3)
	c = plugin.call("get_graph_card", "poly")
	assert_true(c.find_child("point_4", true, false) != null, "the fifth point is in view, not folded away")
	assert_true(c.find_child("HidePoints", true, false) != null, "and the list can be folded now")
	# A graph without the node, then one whose polygon has the same id: it starts folded.
	g["nodes"].remove_at(1)
	assert_true(plugin.call("set_graph_draft", JSON.stringify(g)), "the polygon is gone")
	await frames(2)
	g["nodes"].append({"id": "poly", "type": "polygon_mask", "position": [300, 0], "inputs": {"field": "flat"},
		"params": {"points": [[1, 1], [20, 2], [30, 20], [25, 40], [10, 35], [2, 20]]}})
	assert_true(plugin.call("set_graph_draft", JSON.stringify(g)), "a new polygon with the old id")
	await frames(2)
	c = plugin.call("get_graph_card", "poly")
	assert_true(c.find_child("ShowPoints", true, false) != null, "folded: the old node's open list is forgotten")

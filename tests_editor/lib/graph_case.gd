@tool
extends "res://lib/editor_case.gd"
## The Terrain Graph cases' shared setup on `graph.tscn` (an asset-backed terrain, flat at 10 m,
## 128 m, 64 cells): open the scene once, select the terrain, open the workspace pinned to it;
## the workspace's controls by name.

var t: Node3D
var plugin: EditorPlugin
var source_before: String


func _setup() -> void:
	if t == null:
		t = await open_terrain("res://scenes/graph.tscn")
		plugin = ridgeline()
		source_before = _asset().get_source_json()
	EditorInterface.edit_node(t)
	await frames(2)
	assert_true(plugin.call("open_terrain_graph", t), "opens: %s" % plugin.call("get_graph_message"))
	await frames(2)


func _asset() -> Resource:
	return t.get("asset")


func ws() -> Control:
	return plugin.call("get_terrain_graph")


func press(name: String) -> void:
	var b: Button = ws().find_child(name, true, false)
	assert_true(b != null, "button %s exists" % name)
	b.pressed.emit()
	await frames(2)

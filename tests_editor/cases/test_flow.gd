@tool
extends "res://lib/editor_case.gd"
## Flow after sculpting in the editor: when a stroke ends (and after Ctrl+Z / Ctrl+Y) the
## editor routes the drainage flow on the edited ground, so the surface it shows is what
## regenerating the terrain with the stroke gives (`flow.tscn`: hills drained into Biome Rules).

var t: Node3D
var plugin: EditorPlugin


func _surface() -> PackedStringArray:
	var out := PackedStringArray()
	for z in 65:
		for x in 65:
			var p := t.global_position + Vector3(x * 10.0, 0.0, z * 10.0)
			out.append("%s/%s" % [t.call("get_biome", p), t.call("get_surface_role", p)])
	return out


func test_a_stroke_routes_the_flow_when_it_ends() -> void:
	t = await open_terrain("res://scenes/flow.tscn")
	plugin = ridgeline()
	await top_down(t, 500.0)
	EditorInterface.edit_node(t)
	await frames(2)
	plugin.call("set_tool", "raise")
	plugin.call("set_brush", {"size": 200.0, "strength": 1.0, "falloff": 0.5, "spacing": 0.25})
	var before := _surface()
	var h0: float = t.call("get_height", at(t, 320, 320))
	await drag(line(screen_of(at(t, 260, 320)), screen_of(at(t, 380, 320)), 8))
	assert_true(float(t.call("get_height", at(t, 320, 320))) > h0 + 1.0, "the drag raised the ground")
	assert_true(not t.call("is_flow_stale"), "the editor routed the flow when the stroke ended")
	assert_true(not t.call("refresh_flow"), "nothing left to refresh")
	var after := _surface()
	assert_true(after != before, "the surface changed")
	await undo()
	assert_true(not t.call("is_flow_stale"), "Ctrl+Z routed the flow again")
	assert_true(_surface() == before, "Ctrl+Z restores the surface with its flow")
	await redo()
	assert_true(not t.call("is_flow_stale"), "Ctrl+Y routed the flow again")
	assert_true(_surface() == after, "Ctrl+Y brings the edited surface back")
	# Regenerating replays the stroke and routes the flow on the sculpted ground: the same.
	t.call("generate")
	t.call("wait_for_generation")
	await frames(2)
	assert_true(_surface() == after, "the edited surface equals the regenerated one")

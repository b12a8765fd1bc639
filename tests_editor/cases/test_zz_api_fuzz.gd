@tool
extends "res://lib/graph_case.gd"
## The editor plugin's public methods (found through ClassDB; the `_on_*` and other `_`-prefixed
## methods are signal handlers the plugin binds itself), each called with one hostile argument
## at a time among plausible ones (the values of `tests/lib/hostile_values.gd`, shared with the
## runtime API fuzz), on `graph.tscn` with the Terrain Graph open: no call panics (the engine's
## error log is read through a Logger), none crashes or hangs the editor, and afterwards the
## plugin still selects a tool and sculpts the terrain with a drag. Runs last (`zz`): it leaves
## the editor's state churned.

const HostileValues := preload("res://lib/hostile_values.gd")
const PanicLog := preload("res://lib/panic_log.gd")


func test_public_plugin_methods_survive_hostile_arguments() -> void:
	await _setup()
	var values := HostileValues.new()
	var log := PanicLog.new()
	OS.add_logger(log)
	var calls := 0
	var methods := 0
	for m in ClassDB.class_get_method_list(plugin.get_class(), true):
		var name: String = m["name"]
		if name.begins_with("_"):
			continue
		methods += 1
		for args in values.argument_lists(m, false):
			var before := log.panics.size()
			plugin.callv(name, args)
			calls += 1
			if log.panics.size() != before:
				fail("%s%s panicked: %s" % [name, str(args).left(120) if args.size() < 4 else "(…)", log.panics[-1]])
		# Deferred work (canvas refreshes, generation) runs between methods.
		await frames(1)
	OS.remove_logger(log)
	values.release()
	HostileValues.remove_tree("user://api_fuzz")
	print("editor api fuzz: %d methods, %d calls, %d errors logged, %d panics" % [methods, calls, log.errors, log.panics.size()])
	assert_true(methods >= 30, "the plugin's public methods were found (%d)" % methods)
	assert_true(calls > 150, "hostile calls made: %d" % calls)
	# The editor still sculpts: select the terrain again, Raise, drag across its middle.
	var terrain: Node3D = EditorInterface.get_edited_scene_root().find_child("Terrain3D", true, false)
	assert_true(terrain != null, "the scene still holds the terrain")
	if terrain == null:
		return
	t.call("wait_for_generation")
	EditorInterface.edit_node(terrain)
	await frames(2)
	await top_down(terrain)
	assert_true(plugin.call("set_tool", "raise"), "Raise is selected")
	plugin.call("set_brush", {"size": 16.0, "strength": 1.0, "falloff": 0.5, "spacing": 0.25, "slope_min": 0.0, "slope_max": 90.0})
	var size: Vector2 = terrain.call("get_size")
	var centre := at(terrain, size.x / 2.0, size.y / 2.0)
	var before: float = centre.y
	await drag(line(screen_of(centre + Vector3(-4, 0, 0)), screen_of(centre + Vector3(4, 0, 0)), 6))
	var after: float = terrain.call("get_height", centre)
	assert_true(after > before + 0.01, "a drag still raises the terrain (%s → %s): %s" % [before, after, plugin.call("get_message")])

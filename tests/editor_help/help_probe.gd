@tool
extends EditorPlugin
## Prints Godot's editor help page (what Search Help and Ctrl+click show) of every class named in
## the environment variable RIDGELINE_HELP_CLASSES (comma-separated), between
## `HELP-BEGIN <class>` and `HELP-END <class>` lines, then quits the editor. `cargo xtask test`
## copies this plugin into a throw-away project (it is never enabled in tests/ itself) and checks
## the pages against the classes' `--doctool` skeleton.


func _enter_tree() -> void:
	_run.call_deferred()


func _find(node: Node, cls: String) -> Array:
	var out := []
	if node.get_class() == cls or (cls == "RichTextLabel" and node is RichTextLabel):
		out.append(node)
	for child in node.get_children(true):
		out.append_array(_find(child, cls))
	return out


func _run() -> void:
	# Let the editor finish its start-up (documentation of extensions is merged deferred).
	for i in 30:
		await get_tree().process_frame
	var classes := OS.get_environment("RIDGELINE_HELP_CLASSES").split(",", false)
	var script_editor := EditorInterface.get_script_editor()
	for cls in classes:
		script_editor.goto_help("class_name:" + cls)
		for i in 3:
			await get_tree().process_frame
		var text := ""
		for help in _find(script_editor, "EditorHelp"):
			if not help.is_visible_in_tree():
				continue
			for label in _find(help, "RichTextLabel"):
				var page: String = label.get_parsed_text()
				# The first line reads "Class:", spaces, the name (Godot may use no-break spaces).
				if page.begins_with("Class:") and page.get_slice("\n", 0).ends_with(cls):
					text = page
		print("HELP-BEGIN %s" % cls)
		print(text)
		print("HELP-END %s" % cls)
	get_tree().quit(0)

extends SceneTree
## Ridgeline's headless GDScript test runner.
##
## Finds every [code]test_*.gd[/code] file under [code]res://[/code] (except addons), runs each
## [code]test_*[/code] method, prints one PASS/FAIL line per test and ends with
## [code]N passed, N failed[/code]. A file that does not load (parse error) counts as a failure.
## Exit code: 0 when everything passed, 1 otherwise.
## Optional user argument: [code]-- --filter=substring[/code] runs only matching tests.

var passed := 0
var failed := 0
var filter := ""


func _initialize() -> void:
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--filter="):
			filter = arg.trim_prefix("--filter=")
	_run.call_deferred()


func _run() -> void:
	var files := _collect("res://")
	files.sort()
	for path in files:
		await _run_file(path)
	print("%d passed, %d failed" % [passed, failed])
	quit(1 if failed > 0 else 0)


func _collect(dir_path: String) -> PackedStringArray:
	var out: PackedStringArray = []
	var dir := DirAccess.open(dir_path)
	if dir == null:
		return out
	for sub in dir.get_directories():
		if sub.begins_with(".") or sub == "addons":
			continue
		out.append_array(_collect(dir_path.path_join(sub)))
	for file in dir.get_files():
		if file.begins_with("test_") and file.ends_with(".gd"):
			out.append(dir_path.path_join(file))
	return out


func _record(ok: bool, name: String, detail: String = "") -> void:
	if ok:
		passed += 1
		print("PASS %s" % name)
	else:
		failed += 1
		print("FAIL %s: %s" % [name, detail])


func _run_file(path: String) -> void:
	var script: Variant = load(path)
	if script == null or not (script is GDScript) or not script.can_instantiate():
		_record(false, path, "the test file does not load (parse error?)")
		return
	var names: PackedStringArray = []
	for method in script.get_script_method_list():
		var method_name: String = method["name"]
		if method_name.begins_with("test_") and not names.has(method_name):
			names.append(method_name)
	names.sort()
	if names.is_empty():
		_record(false, path, "no test_* functions")
		return
	for method_name in names:
		var full := "%s::%s" % [path.get_file(), method_name]
		if filter != "" and not full.contains(filter):
			continue
		var case: Node = script.new()
		root.add_child(case)
		case.call("_begin_test")
		await case.call(method_name)
		var failures: PackedStringArray = case.call("get_failures")
		_record(failures.is_empty(), full, "; ".join(failures))
		root.remove_child(case)
		case.free()
		# Let queued frees and deferred calls of the test settle before the next one.
		await process_frame

@tool
extends Logger
## The engine's error log, read while API fuzz tests run: counts errors and keeps those that
## report a caught Rust panic (gdext logs them with "panicked"). Register with
## `OS.add_logger`, remove with `OS.remove_logger`. (Copied into the editor test project.)

var panics: PackedStringArray = []
var errors := 0
var _mutex := Mutex.new()


func _log_error(function: String, file: String, line: int, code: String, rationale: String,
		_editor_notify: bool, _error_type: int, _script_backtraces: Array[ScriptBacktrace]) -> void:
	var text := "%s %s %s:%d %s" % [code, rationale, file, line, function]
	_mutex.lock()
	errors += 1
	if text.contains("panicked") or text.contains("panic "):
		panics.append(text.left(400))
	_mutex.unlock()

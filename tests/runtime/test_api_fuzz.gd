extends "res://lib/case.gd"
## Every method of every Ridgeline class, called from GDScript with hostile arguments of its
## declared types (NaN, infinities, huge and negative numbers and sizes, empty / huge /
## malformed strings, self-containing and deeply nested containers, null and wrong-class
## objects): no call panics (a caught panic is logged as "panicked"; the logger below fails the
## test on one), no call crashes or hangs the process, hostile numbers never reach a terrain's
## heights (no infinity, nothing beyond ±1e7 m), and a fresh terrain still generates, answers and
## takes a stroke afterwards. Test hooks (`_test_*`) are left out: some break things on purpose.

const RECIPE := '{"size": [32, 32], "resolution": [16, 16], "seed": 3}'
const HostileValues := preload("res://lib/hostile_values.gd")
const PanicLog := preload("res://lib/panic_log.gd")

var _log := PanicLog.new()
var _values := HostileValues.new()


func _exit_tree() -> void:
	_values.release()


func _terrain() -> Terrain3D:
	return recipe_terrain(RECIPE)


## A fresh receiver of `cls` (Nodes in the tree; a terrain generated).
func _receiver(cls: String) -> Object:
	if cls == "Terrain3D":
		return _terrain()
	var o: Object = ClassDB.instantiate(cls)
	if o is Node:
		add_child(o)
	return o


func _release(o: Object) -> void:
	if o is Node and is_instance_valid(o):
		if o is Terrain3D:
			o.cancel_generation()
			o.wait_for_generation()
		o.free()


## Heights hostile values must never reach: infinities or beyond ±1e7 m (NaN marks holes).
func _heights_sane(t: Terrain3D) -> String:
	var cells := t.get_cell_counts()
	if cells.x <= 0 or cells.y <= 0:
		return ""
	var h := t.get_height_rect(Rect2i(0, 0, cells.x + 1, cells.y + 1))
	for v in h:
		if is_inf(v) or (not is_nan(v) and absf(v) > 1e7):
			return "height %s" % v
	return ""


func _fuzz_class(cls: String, all_hostile: bool) -> int:
	var calls := 0
	for m in ClassDB.class_get_method_list(cls, true):
		var name: String = m["name"]
		if name.begins_with("_test_"):
			continue
		var static_method: bool = m["flags"] & METHOD_FLAG_STATIC
		for args in _values.argument_lists(m, all_hostile):
			var before := _log.panics.size()
			if static_method:
				Callable(ClassDB, "class_call_static").callv([cls, name] + args)
			else:
				var o := _receiver(cls)
				o.callv(name, args)
				if o is Terrain3D:
					o.wait_for_generation()
					var bad := _heights_sane(o)
					assert_true(bad == "", "%s.%s%s leaves a hostile %s in the heights" % [cls, name, _show(args), bad])
				_release(o)
			calls += 1
			if _log.panics.size() != before:
				fail("%s.%s%s panicked: %s" % [cls, name, _show(args), _log.panics[-1]])
	return calls


func _show(args: Array) -> String:
	var parts: PackedStringArray = []
	for a in args:
		var s := str(a) if typeof(a) != TYPE_ARRAY and typeof(a) != TYPE_DICTIONARY else type_string(typeof(a))
		parts.append(s.left(40))
	return "(%s)" % ", ".join(parts)


func test_every_method_survives_hostile_arguments() -> void:
	_fuzz_all(true, 900)


func test_one_hostile_argument_among_sane_ones() -> void:
	# Each argument in turn, so the checks behind a refused first argument are reached too.
	_fuzz_all(false, 1000)


func _fuzz_all(all_hostile: bool, expected_calls: int) -> void:
	_log.panics.clear()
	_log.errors = 0
	OS.add_logger(_log)
	var calls := 0
	var classes := 0
	for cls in ClassDB.get_class_list():
		if ClassDB.class_get_api_type(cls) != ClassDB.API_EXTENSION or not ClassDB.can_instantiate(cls):
			continue
		if ClassDB.is_parent_class(cls, "ResourceFormatLoader") or ClassDB.is_parent_class(cls, "ResourceFormatSaver"):
			continue
		classes += 1
		calls += _fuzz_class(cls, all_hostile)
	OS.remove_logger(_log)
	assert_true(classes >= 15, "the extension's classes were found (%d)" % classes)
	assert_true(calls > expected_calls, "hostile calls made: %d (%d engine errors logged)" % [calls, _log.errors])
	print("api fuzz (%s): %d classes, %d calls, %d errors logged, %d panics" % [
		"all arguments hostile" if all_hostile else "one hostile argument", classes, calls, _log.errors, _log.panics.size()])
	# Nothing was written into the project or beside it (an empty path, control characters and
	# `..` above res:// / user:// are refused).
	for d in ["res://", "res://..", "res://../..", "res://a/..", "user://.."]:
		assert_false(FileAccess.file_exists(d.path_join("layers.json")), "no layer files in %s" % d)
	HostileValues.remove_tree("user://api_fuzz")
	# A fresh terrain still works.
	var t := _terrain()
	var before := t.get_height(Vector3(10, 0, 10))
	assert_true(is_finite(before), "a fresh terrain answers")
	assert_true(t.apply_stroke({"type": "raise", "center": [10, 10], "radius": 3.0, "amount": 1.0, "falloff": 1.0}), "and takes a stroke")
	assert_near(t.get_height(Vector3(10, 0, 10)), before + 1.0, 1e-4, "that changes it")
	_release(t)


extends "res://lib/case.gd"
## Every method of every Ridgeline class, called from GDScript with hostile arguments of its
## declared types (NaN, infinities, huge and negative numbers and sizes, empty / huge /
## malformed strings, self-containing and deeply nested containers, null and wrong-class
## objects): no call panics (a caught panic is logged as "panicked"; the logger below fails the
## test on one), no call crashes or hangs the process, hostile numbers never reach a terrain's
## heights (no infinity, nothing beyond ±1e7 m), and a fresh terrain still generates, answers and
## takes a stroke afterwards. Test hooks (`_test_*`) are left out: some break things on purpose.

const RECIPE := '{"size": [32, 32], "resolution": [16, 16], "seed": 3}'
## Folder arguments (export_layers writes into folders it creates): refused ones, and hostile
## names kept inside user://.
const FOLDERS := ["", "ä\u0001/x", "res://a/../../outside", "user://../escape", "user://api_fuzz/{\"size\": [1e308]}", "user://api_fuzz/ä ß/x"]

## The engine's error log, read while the calls run.
class PanicLog extends Logger:
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


var _log := PanicLog.new()
var _deep_array: Array = []
var _deep_dict: Dictionary = {}
var _cyclic_array: Array = []
var _cyclic_dict: Dictionary = {}
var _objects: Array = []


func _ready() -> void:
	for i in 15000:
		_deep_array = [_deep_array]
	for i in 15000:
		_deep_dict = {"type": "raise", "points": _deep_dict}
	_cyclic_array.append(_cyclic_array)
	_cyclic_dict["self"] = _cyclic_dict


func _exit_tree() -> void:
	# Break the cycles so nothing leaks at exit.
	_cyclic_array.clear()
	_cyclic_dict.clear()
	for o in _objects:
		if o is Node and is_instance_valid(o):
			o.free()
	_objects.clear()


## Hostile values of one argument type; `cls` is the class an Object argument names.
func _values(type: int, cls: String) -> Array:
	match type:
		TYPE_BOOL:
			return [true, false]
		TYPE_INT:
			return [-1, 0, 1 << 62, -9223372036854775807 - 1, 2147483648, 7]
		TYPE_FLOAT:
			return [NAN, INF, -INF, 1e30, -1e30, -0.0, 5e-324]
		TYPE_STRING, TYPE_STRING_NAME:
			return ["", "{\"size\": [1e308, -1], \"resolution\": [4294967296, 1]}", "{", "ä\u0001/../..", "x".repeat(5000), "[[[[[[[[[[" .repeat(2000)]
		TYPE_NODE_PATH:
			return [NodePath(""), NodePath("../../../../nope"), NodePath("/root")]
		TYPE_VECTOR2:
			return [Vector2(NAN, NAN), Vector2(INF, -INF), Vector2(1e30, 1e30), Vector2(-5, -5), Vector2.ZERO]
		TYPE_VECTOR2I:
			return [Vector2i(-1, -1), Vector2i(1 << 30, 1 << 30), Vector2i(2147483647, 2147483647), Vector2i.ZERO, Vector2i(-2147483648, 3)]
		TYPE_VECTOR3:
			return [Vector3(NAN, NAN, NAN), Vector3(INF, -INF, INF), Vector3(1e30, -1e30, 1e30), Vector3.ZERO, Vector3(8, 1e-40, 8)]
		TYPE_RECT2:
			return [Rect2(NAN, NAN, NAN, NAN), Rect2(-INF, -INF, INF, INF), Rect2(0, 0, -5, -5), Rect2(0, 0, 1e30, 1e30)]
		TYPE_RECT2I:
			return [Rect2i(-1, -1, -5, -5), Rect2i(0, 0, 1 << 30, 1 << 30), Rect2i(2147483647, 2147483647, 2147483647, 2147483647), Rect2i(0, 0, 0, 0), Rect2i(-2147483648, 0, 2, 2)]
		TYPE_COLOR:
			return [Color(NAN, NAN, NAN, NAN), Color(INF, -INF, INF, INF), Color(-1, 2, 1e30, 0)]
		TYPE_RID:
			return [RID()]
		TYPE_DICTIONARY:
			return [{}, _cyclic_dict, _deep_dict, {"type": NAN, "center": [NAN, INF], "radius": 1e30, "amount": INF},
				{"type": "raise", "center": [8, 8], "radius": 1e30, "amount": 1e30, "falloff": -INF},
				{"type": "set_height", "points": [[1e30, NAN], [INF, 0]], "radius": 3.0, "height": 1e30}]
		TYPE_ARRAY:
			return [[], _cyclic_array, _deep_array, [NAN, INF, {}, null], [{"type": "raise", "center": [8, 8], "radius": INF, "amount": 1e30}]]
		TYPE_PACKED_BYTE_ARRAY:
			return [PackedByteArray(), _filled_bytes(100003)]
		TYPE_PACKED_INT32_ARRAY:
			return [PackedInt32Array(), PackedInt32Array([-1, 2147483647])]
		TYPE_PACKED_FLOAT32_ARRAY:
			return [PackedFloat32Array(), _filled_floats(100003, NAN), _filled_floats(289, INF), _filled_floats(289, 1e30)]
		TYPE_PACKED_STRING_ARRAY:
			return [PackedStringArray(), PackedStringArray(["", "x".repeat(5000), "ä\u0001"])]
		TYPE_PACKED_VECTOR3_ARRAY:
			var nan := PackedVector3Array()
			nan.resize(1000)
			nan.fill(Vector3(NAN, INF, -INF))
			return [PackedVector3Array(), nan]
		TYPE_PACKED_COLOR_ARRAY:
			return [PackedColorArray(), PackedColorArray([Color(NAN, INF, -1, 2)])]
		TYPE_OBJECT:
			return _objects_for(cls)
		TYPE_NIL:
			return [null, NAN, _cyclic_array]
	return [null]


func _filled_bytes(n: int) -> PackedByteArray:
	var a := PackedByteArray()
	a.resize(n)
	a.fill(255)
	return a


func _filled_floats(n: int, v: float) -> PackedFloat32Array:
	var a := PackedFloat32Array()
	a.resize(n)
	a.fill(v)
	return a


## Null, an empty instance of the named class, and an object of the wrong class.
func _objects_for(cls: String) -> Array:
	var out: Array = [null]
	if cls != "" and ClassDB.can_instantiate(cls) and not ClassDB.is_parent_class(cls, "Node"):
		out.append(ClassDB.instantiate(cls))
	out.append(TerrainMaterialSet.new() if cls != "TerrainMaterialSet" else TerrainAsset.new())
	return out


func _terrain() -> Terrain3D:
	var t := Terrain3D.new()
	t.recipe = RECIPE
	add_child(t)
	t.wait_for_generation()
	return t


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


## A plausible value of one argument type: the other arguments of a one-hostile-argument call.
func _sane(type: int, cls: String, method: String) -> Variant:
	match type:
		TYPE_BOOL:
			return true
		TYPE_INT:
			return 1
		TYPE_FLOAT:
			return 1.0
		TYPE_STRING, TYPE_STRING_NAME:
			if method.begins_with("export") or method.begins_with("import"):
				return "user://api_fuzz/sane"
			return "generation"
		TYPE_NODE_PATH:
			return NodePath("..")
		TYPE_VECTOR2:
			return Vector2(8, 8)
		TYPE_VECTOR2I:
			return Vector2i(2, 2)
		TYPE_VECTOR3:
			return Vector3(8, 0, 8)
		TYPE_RECT2:
			return Rect2(0, 0, 16, 16)
		TYPE_RECT2I:
			return Rect2i(0, 0, 4, 4)
		TYPE_COLOR:
			return Color(0.5, 0.5, 0.5, 1.0)
		TYPE_DICTIONARY:
			return {"type": "raise", "center": [8, 8], "radius": 3.0, "amount": 1.0}
		TYPE_ARRAY:
			return [{"type": "raise", "center": [8, 8], "radius": 3.0, "amount": 1.0}]
		TYPE_PACKED_BYTE_ARRAY:
			var b := PackedByteArray()
			b.resize(16)
			b.fill(1)
			return b
		TYPE_PACKED_INT32_ARRAY:
			return PackedInt32Array([1])
		TYPE_PACKED_FLOAT32_ARRAY:
			return _filled_floats(16, 1.0)
		TYPE_PACKED_STRING_ARRAY:
			return PackedStringArray(["generation"])
		TYPE_PACKED_VECTOR3_ARRAY:
			return PackedVector3Array([Vector3(8, 0, 8)])
		TYPE_PACKED_COLOR_ARRAY:
			return PackedColorArray([Color.WHITE])
		TYPE_OBJECT:
			if cls != "" and ClassDB.can_instantiate(cls) and not ClassDB.is_parent_class(cls, "Node"):
				return ClassDB.instantiate(cls)
			return null
		TYPE_NIL:
			return 1.0
		TYPE_RID:
			return RID()
	return null


## The argument lists to try on `m`: with `all_hostile`, round k gives every argument its k-th
## hostile value; otherwise one argument at a time takes each hostile value, the others sane.
func _argument_lists(m: Dictionary, all_hostile: bool) -> Array:
	var name: String = m["name"]
	var choices: Array = []
	var sane: Array = []
	for a in m["args"]:
		var vs := _values(a["type"], a["class_name"])
		if a["type"] == TYPE_STRING and (name.begins_with("export") or name.begins_with("import")):
			vs = FOLDERS
		choices.append(vs)
		sane.append(_sane(a["type"], a["class_name"], name))
	var lists: Array = []
	if all_hostile:
		var rounds := 1
		for vs in choices:
			rounds = maxi(rounds, vs.size())
		for k in rounds:
			var args: Array = []
			for vs in choices:
				args.append(vs[k % vs.size()])
			lists.append(args)
	else:
		for i in choices.size():
			for v in choices[i]:
				var args := sane.duplicate()
				args[i] = v
				lists.append(args)
	return lists


func _fuzz_class(cls: String, all_hostile: bool) -> int:
	var calls := 0
	for m in ClassDB.class_get_method_list(cls, true):
		var name: String = m["name"]
		if name.begins_with("_test_"):
			continue
		var static_method: bool = m["flags"] & METHOD_FLAG_STATIC
		for args in _argument_lists(m, all_hostile):
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
	_remove_tree("user://api_fuzz")
	# A fresh terrain still works.
	var t := _terrain()
	var before := t.get_height(Vector3(10, 0, 10))
	assert_true(is_finite(before), "a fresh terrain answers")
	assert_true(t.apply_stroke({"type": "raise", "center": [10, 10], "radius": 3.0, "amount": 1.0, "falloff": 1.0}), "and takes a stroke")
	assert_near(t.get_height(Vector3(10, 0, 10)), before + 1.0, 1e-4, "that changes it")
	_release(t)


func _remove_tree(path: String) -> void:
	var dir := DirAccess.open(path)
	if dir == null:
		return
	for f in dir.get_files():
		dir.remove(f)
	for d in dir.get_directories():
		_remove_tree(path.path_join(d))
	DirAccess.remove_absolute(path)

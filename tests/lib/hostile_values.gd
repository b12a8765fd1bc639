@tool
extends RefCounted
## Hostile and plausible argument values by Variant type, for the API fuzz tests of the runtime
## (`tests/runtime/test_api_fuzz.gd`) and of the editor plugin
## (`tests_editor/cases/test_zz_api_fuzz.gd`; `cargo xtask test` copies this file into the
## editor test project). Call [method release] when done: it breaks the self-containing
## containers so nothing leaks at exit.

## Folder and file arguments (export writes into folders it creates): refused ones, and hostile
## names kept inside user://.
const FOLDERS := ["", "ä\u0001/x", "res://a/../../outside", "user://../escape", "user://api_fuzz/{\"size\": [1e308]}", "user://api_fuzz/ä ß/x"]

var _deep_array: Array = []
var _deep_dict: Dictionary = {}
var _cyclic_array: Array = []
var _cyclic_dict: Dictionary = {}


func _init() -> void:
	for i in 15000:
		_deep_array = [_deep_array]
	for i in 15000:
		_deep_dict = {"type": "raise", "points": _deep_dict}
	_cyclic_array.append(_cyclic_array)
	_cyclic_dict["self"] = _cyclic_dict


## Breaks the cycles (call before the test ends).
func release() -> void:
	_cyclic_array.clear()
	_cyclic_dict.clear()


## Whether `method` takes folder or file paths (its String arguments get [constant FOLDERS]).
static func takes_paths(method: String) -> bool:
	for w in ["export", "import", "create_terrain_asset", "layer_files"]:
		if method.contains(w):
			return true
	return false


## Hostile values of one argument type; `cls` is the class an Object argument names.
func values(type: int, cls: String) -> Array:
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
			return [PackedByteArray(), filled_bytes(100003)]
		TYPE_PACKED_INT32_ARRAY:
			return [PackedInt32Array(), PackedInt32Array([-1, 2147483647])]
		TYPE_PACKED_FLOAT32_ARRAY:
			return [PackedFloat32Array(), filled_floats(100003, NAN), filled_floats(289, INF), filled_floats(289, 1e30)]
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
			return objects_for(cls)
		TYPE_NIL:
			return [null, NAN, _cyclic_array]
	return [null]


static func filled_bytes(n: int) -> PackedByteArray:
	var a := PackedByteArray()
	a.resize(n)
	a.fill(255)
	return a


static func filled_floats(n: int, v: float) -> PackedFloat32Array:
	var a := PackedFloat32Array()
	a.resize(n)
	a.fill(v)
	return a


## Null, an empty instance of the named class, and an object of the wrong class.
func objects_for(cls: String) -> Array:
	var out: Array = [null]
	if cls != "" and ClassDB.can_instantiate(cls) and not ClassDB.is_parent_class(cls, "Node"):
		out.append(ClassDB.instantiate(cls))
	out.append(TerrainMaterialSet.new() if cls != "TerrainMaterialSet" else TerrainAsset.new())
	return out


## A plausible value of one argument type: the other arguments of a one-hostile-argument call.
func sane(type: int, cls: String, method: String) -> Variant:
	match type:
		TYPE_BOOL:
			return true
		TYPE_INT:
			return 1
		TYPE_FLOAT:
			return 1.0
		TYPE_STRING, TYPE_STRING_NAME:
			if method == "create_terrain_asset":
				return "res://api_fuzz_sane.terrain.json"
			if takes_paths(method):
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
			return filled_floats(16, 1.0)
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


## The element class of a typed object-array argument, or "".
func _object_element(arg: Dictionary) -> String:
	if arg["type"] != TYPE_ARRAY or arg.get("hint", 0) != PROPERTY_HINT_ARRAY_TYPE:
		return ""
	var cls: String = arg.get("hint_string", "")
	return cls if ClassDB.class_exists(cls) else ""


## The argument lists to try on `m`: with `all_hostile`, round k gives every argument its k-th
## hostile value; otherwise one argument at a time takes each hostile value, the others sane.
func argument_lists(m: Dictionary, all_hostile: bool) -> Array:
	var name: String = m["name"]
	var choices: Array = []
	var sane: Array = []
	for a in m["args"]:
		var vs := values(a["type"], a["class_name"])
		var ok: Variant = sane(a["type"], a["class_name"], name)
		if a["type"] == TYPE_STRING and takes_paths(name):
			vs = FOLDERS
		var element := _object_element(a)
		if element != "":
			# A typed object array (Array[TerrainUserChannel]): empty slots, as the inspector's
			# Add Element and resize() make them, and more entries than any setter keeps.
			vs = [Array([], TYPE_OBJECT, element, null), Array([null], TYPE_OBJECT, element, null),
				Array([null, null, null, null, null, null], TYPE_OBJECT, element, null)]
			ok = Array([], TYPE_OBJECT, element, null)
		choices.append(vs)
		sane.append(ok)
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


## Deletes the folder `path` with everything in it (the fuzz tests' `user://api_fuzz`).
static func remove_tree(path: String) -> void:
	var dir := DirAccess.open(path)
	if dir == null:
		return
	for f in dir.get_files():
		dir.remove(f)
	for d in dir.get_directories():
		remove_tree(path.path_join(d))
	DirAccess.remove_absolute(path)

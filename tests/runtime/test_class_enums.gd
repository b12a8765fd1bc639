extends "res://lib/case.gd"
## Values that are enums in Rust are Godot class enums: named constants, typed properties.


func _property(cls: String, name: String) -> Dictionary:
	for p in ClassDB.class_get_property_list(cls, true):
		if p.name == name:
			return p
	return {}


func test_enums_are_registered_with_their_constants() -> void:
	assert_true(ClassDB.class_has_enum("WaterSample", "Kind"), "WaterSample.Kind")
	assert_eq(ClassDB.class_get_enum_constants("WaterSample", "Kind"), PackedStringArray(["KIND_LAKE", "KIND_OCEAN", "KIND_RIVER", "KIND_PAINTED"]), "its constants")
	assert_eq(ClassDB.class_get_enum_constants("WaterEvent", "Phase"), PackedStringArray(["PHASE_ENTER", "PHASE_STAY", "PHASE_EXIT"]), "WaterEvent.Phase")
	assert_eq(ClassDB.class_get_enum_constants("Terrain3D", "LayerKind"), PackedStringArray(["LAYER_GENERATION", "LAYER_BIOMES", "LAYER_SCULPT", "LAYER_PROTECTION", "LAYER_EXCLUSIONS"]), "Terrain3D.LayerKind")
	assert_eq(WaterSample.Kind.KIND_RIVER, 2, "enum access")
	assert_eq(WaterSample.KIND_RIVER, WaterSample.Kind.KIND_RIVER, "and class constant access")
	assert_eq(ClassDB.class_get_integer_constant_enum("WaterEvent", "PHASE_EXIT"), &"Phase", "the constant belongs to its enum")


func test_enum_properties_are_typed() -> void:
	for check in [["WaterSample", "kind", "WaterSample.Kind"], ["WaterEvent", "phase", "WaterEvent.Phase"]]:
		var p := _property(check[0], check[1])
		assert_eq(p.get("type"), TYPE_INT, "%s.%s is an int" % [check[0], check[1]])
		assert_eq(String(p.get("class_name", "")), check[2], "typed as %s" % check[2])
		assert_true(int(p.get("usage", 0)) & PROPERTY_USAGE_CLASS_IS_ENUM != 0, "flagged as an enum")
	var phase: WaterEvent.Phase = WaterEvent.PHASE_EXIT
	var event := WaterEvent.new()
	event.phase = phase
	assert_eq(event.phase, WaterEvent.PHASE_EXIT, "a typed enum variable round-trips")


func test_layers_report_their_kind_as_the_enum() -> void:
	var terrain := Terrain3D.new()
	terrain.recipe = '{"size": [16, 16], "resolution": [8, 8], "seed": 1}'
	add_child(terrain)
	terrain.wait_for_generation()
	var kinds := terrain.get_layers().map(func(l: Dictionary) -> int: return l.kind)
	assert_eq(kinds, [Terrain3D.LAYER_GENERATION, Terrain3D.LAYER_BIOMES, Terrain3D.LAYER_SCULPT, Terrain3D.LAYER_PROTECTION, Terrain3D.LAYER_EXCLUSIONS], "default layer kinds")

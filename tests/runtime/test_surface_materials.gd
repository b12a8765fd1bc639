extends "res://lib/case.gd"
## Surface materials: TerrainTextureLayer and TerrainMaterialSet resources, Terrain3D.look and
## material_set. Material, look and blending changes update the material only: no
## regeneration, no mesh or collision rebuild.

const Util := preload("res://runtime/terrain_util.gd")
const ROLES := ["ground", "grass", "rock", "cliff", "sediment", "sand", "snow", "wet_ground", "underwater"]


func _texture(size: int, color: Color) -> ImageTexture:
	var img := Image.create(size, size, false, Image.FORMAT_RGBA8)
	img.fill(color)
	return ImageTexture.create_from_image(img)


func _layer(name: String, color: Color, size: int = 64) -> TerrainTextureLayer:
	var l := TerrainTextureLayer.new()
	l.name = name
	l.albedo = _texture(size, color)
	l.height = _texture(size, Color(0.5, 0.5, 0.5))
	l.tiling_m = 3.0
	return l


func _make_set() -> TerrainMaterialSet:
	var s := TerrainMaterialSet.new()
	var layers: Array[TerrainTextureLayer] = []
	for i in ROLES.size():
		layers.append(_layer(ROLES[i], Color.from_hsv(i / 9.0, 0.6, 0.7)))
	s.layers = layers
	for i in ROLES.size():
		s.set_role_layer(ROLES[i], i)
	return s


func _settle() -> void:
	# Resource `changed` signals reach the terrain deferred.
	await get_tree().process_frame
	await get_tree().process_frame


func test_layer_defaults_and_validation() -> void:
	var l := TerrainTextureLayer.new()
	assert_near(l.tiling_m, 4.0, 1e-6, "default tiling")
	assert_near(l.roughness, 0.9, 1e-6, "default roughness")
	l.tiling_m = -1.0
	assert_near(l.tiling_m, 4.0, 1e-6, "a negative tiling is refused")
	l.blend_contrast = 3.0
	assert_near(l.blend_contrast, 1.0, 1e-6, "contrast clamped")
	var changed := [0]
	l.changed.connect(func() -> void: changed[0] += 1)
	l.triplanar = true
	assert_eq(changed[0], 1, "setters emit changed")


func test_material_set_binds_roles() -> void:
	var s := _make_set()
	for i in ROLES.size():
		assert_eq(s.get_role_layer(ROLES[i]), i, ROLES[i])
	s.set_role_layer("snow", -1)
	assert_eq(s.snow, -1, "unbound")
	assert_eq(s.get_role_layer("lava"), -1, "unknown role answers -1")
	# Indices no set can hold are refused (the old binding kept), by property and by name.
	var changed := [0]
	s.changed.connect(func() -> void: changed[0] += 1)
	s.ground = 32
	s.rock = -2
	s.set_role_layer("grass", 1000)
	assert_eq([s.ground, s.rock, s.grass], [0, 2, 1], "out-of-range indices refused")
	assert_eq(changed[0], 0, "and no changed signal")
	s.ground = 31
	assert_eq([s.ground, changed[0]], [31, 1], "31 is a layer index")


func test_material_set_document_loads() -> void:
	var dir := "user://material_set_test"
	DirAccess.make_dir_recursive_absolute(dir)
	var a := _layer("soil", Color(0.4, 0.3, 0.2))
	var b := _layer("rock", Color(0.5, 0.5, 0.5))
	assert_eq(ResourceSaver.save(a, dir + "/soil.tres"), OK, "save soil")
	assert_eq(ResourceSaver.save(b, dir + "/rock.tres"), OK, "save rock")
	var doc := {"format_version": 1, "name": "test", "roles": {"ground": dir + "/soil.tres", "rock": dir + "/rock.tres", "cliff": "rock.tres"}}
	var f := FileAccess.open(dir + "/test.material_set.json", FileAccess.WRITE)
	f.store_string(JSON.stringify(doc))
	f.close()
	var s: TerrainMaterialSet = ResourceLoader.load(dir + "/test.material_set.json", "", ResourceLoader.CACHE_MODE_IGNORE)
	assert_true(s != null, "the document loads as a TerrainMaterialSet")
	if s == null:
		return
	assert_eq(s.layers.size(), 2, "one layer per distinct path (relative paths resolve next to the document)")
	assert_eq(s.ground, 0, "ground → first layer")
	assert_eq(s.rock, 1, "rock → second")
	assert_eq(s.cliff, 1, "cliff shares rock's layer")
	assert_eq(s.grass, -1, "unbound roles stay -1")
	assert_eq(s.layers[1].name, "rock", "layer resources loaded")


func test_bad_material_set_document_is_refused() -> void:
	var path := "user://bad.material_set.json"
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_string('{"format_version": 1, "roles": {"lava": "x.tres"}}')
	f.close()
	var s = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	# Another loader (Godot's JSON) may take the file; it never loads as a material set.
	assert_false(s is TerrainMaterialSet, "an unknown role refuses the document")


func test_material_changes_never_regenerate() -> void:
	var terrain := Util.make_terrain(self)
	await _settle() # the first generation's deferred signals
	var generated := [0]
	terrain.generation_finished.connect(func(_ok: bool, _m: String) -> void: generated[0] += 1)
	var before: Dictionary = terrain._test_counters()
	assert_eq(before.resource_builds, 1, "built once")
	var h := terrain.get_height(Vector3(5, 0, 5))
	var s := _make_set()
	terrain.material_set = s
	var c: Dictionary = terrain._test_counters()
	assert_eq(c.array_packs, before.array_packs + 1, "arrays packed once for the set")
	assert_eq(c.array_size, 64, "array size clamped to the largest source texture")
	# Layer settings: uniforms only; textures: one repack.
	s.layers[2].tiling_m = 9.0
	s.layers[2].triplanar = true
	await _settle()
	c = terrain._test_counters()
	assert_eq(c.array_packs, before.array_packs + 1, "a tiling change does not repack")
	s.layers[1].albedo = _texture(32, Color.RED)
	await _settle()
	c = terrain._test_counters()
	assert_eq(c.array_packs, before.array_packs + 2, "a texture change repacks")
	s.set_role_layer("grass", 3)
	await _settle()
	terrain.look = Terrain3D.LOOK_FACETED
	terrain.surface_blending = false
	terrain.look = Terrain3D.LOOK_REALISTIC
	terrain.material_set = null
	c = terrain._test_counters()
	assert_eq(c.resource_builds, 1, "no mesh or collision rebuild")
	assert_eq(c.chunk_updates, 0, "no chunk rebuilt")
	assert_eq(generated[0], 0, "no regeneration")
	assert_near(terrain.get_height(Vector3(5, 0, 5)), h, 0.0, "heights unchanged")
	assert_true(c.control_builds >= 2, "the control texture follows the layer table")
	terrain.queue_free()


func test_look_is_a_typed_enum_property() -> void:
	var terrain := Terrain3D.new()
	assert_eq(terrain.look, Terrain3D.LOOK_REALISTIC, "realistic by default")
	terrain.look = Terrain3D.LOOK_FACETED
	assert_eq(terrain.look, Terrain3D.LOOK_FACETED, "faceted")
	assert_eq(ClassDB.class_get_enum_constants("Terrain3D", "Look"), PackedStringArray(["LOOK_REALISTIC", "LOOK_FACETED"]), "Terrain3D.Look")
	terrain.free()


func test_surface_roles_are_reported() -> void:
	var terrain := Util.make_terrain(self)
	var roles := terrain.get_sample_roles()
	var cells := terrain.get_cell_counts()
	assert_eq(roles.size(), (cells.x + 1) * (cells.y + 1), "one role per sample")
	assert_true(ROLES.has(String(terrain.get_surface_role(Vector3(3, 0, 3)))), "a role name inside")
	assert_eq(terrain.get_surface_role(Vector3(-50, 0, -50)), &"", "empty outside")
	terrain.queue_free()


func test_biome_texture_scale_reaches_the_shader() -> void:
	var terrain := Terrain3D.new()
	terrain.recipe = '{"size": [32, 32], "resolution": [16, 16], "seed": 3, "default_biome": "moor", "biomes": {"moor": {"color": [0.5, 0.5, 0.4, 1], "texture_scale": 2.5}, "fen": {"color": [0.3, 0.4, 0.3, 1]}}, "regions": [{"type": "region", "biome": "fen", "center": [8, 8], "radius": 4}]}'
	add_child(terrain)
	terrain.wait_for_generation()
	terrain.material_set = _make_set()
	var scales: PackedFloat32Array = terrain._test_shader_parameter("biome_texture_scale")
	var names := ["fen", "moor"] # the biome table is in name order
	assert_eq(terrain.get_biome(Vector3(8, 0, 8)), &"fen", "painted region")
	assert_near(scales[names.find("moor")], 2.5, 1e-6, "moor's texture_scale")
	assert_near(scales[names.find("fen")], 1.0, 1e-6, "fen's default")
	assert_eq(terrain._test_shader_parameter("biome_count"), 2, "two biomes")
	terrain.queue_free()


func test_border_walls_draw_the_cliff_layer() -> void:
	var terrain := Util.make_terrain(self)
	terrain.look = Terrain3D.LOOK_FACETED
	assert_eq(terrain._test_shader_parameter("wall_layer"), ROLES.find("cliff"), "the faceted role palette's cliff")
	terrain.look = Terrain3D.LOOK_REALISTIC
	var s := _make_set()
	terrain.material_set = s
	assert_eq(terrain._test_shader_parameter("wall_layer"), ROLES.find("cliff"), "the cliff role's layer")
	s.set_role_layer("cliff", ROLES.find("rock"))
	await _settle()
	assert_eq(terrain._test_shader_parameter("wall_layer"), ROLES.find("rock"), "follows the set")
	terrain.queue_free()

extends "res://lib/case.gd"
## The underwater view of TerrainWaterSurface: its `underwater` switch and the internal pass it
## draws (a full-screen quad named `Underwater` whose shader reads the water level texture). What
## the pass looks like is judged by the render check `render::water_underwater_tint`
## (`cargo xtask water-views`).


func _water_node(terrain: Terrain3D) -> TerrainWaterSurface:
	for child in terrain.get_children(true):
		if child is TerrainWaterSurface:
			return child
	return null


func _pass(node: TerrainWaterSurface) -> Array[MeshInstance3D]:
	var out: Array[MeshInstance3D] = []
	for child in node.get_children(true):
		if child is MeshInstance3D:
			out.append(child)
	return out


func _material(pass_node: MeshInstance3D) -> ShaderMaterial:
	return pass_node.mesh.surface_get_material(0) as ShaderMaterial


func _lakes(water: TerrainWaterSurface = null) -> Terrain3D:
	var terrain := Terrain3D.new()
	terrain.use_generation_cache = false
	if water:
		terrain.add_child(water)
	terrain.asset = load("res://fixtures/lakes.terrain.json")
	add_child(terrain)
	terrain.wait_for_generation()
	return terrain


func test_the_view_is_on_by_default_and_uploads_the_water_levels() -> void:
	var terrain := _lakes()
	var node := _water_node(terrain)
	assert_true(node != null, "the terrain shows its water")
	assert_true(node.underwater, "underwater is on by default")
	var passes := _pass(node)
	assert_eq(passes.size(), 1, "one internal pass")
	if passes.size() != 1:
		terrain.queue_free()
		return
	var pass_node := passes[0]
	assert_eq(str(pass_node.name), "Underwater", "named")
	assert_true(pass_node.visible, "shown")
	assert_eq(pass_node.cast_shadow, GeometryInstance3D.SHADOW_CASTING_SETTING_OFF, "casts no shadow")
	var mat := _material(pass_node)
	assert_true(mat != null and mat.shader != null, "a shader material")
	var size: Vector2i = mat.get_shader_parameter("level_size")
	var origin: Vector2i = mat.get_shader_parameter("level_origin")
	var tex: Texture2D = mat.get_shader_parameter("level_texture")
	# Lakes fixture: 2 m samples, both pits (x 8..56 and 72..120, z 8..56) hold water.
	assert_true(size.x >= 50 and size.y >= 24, "the level grid spans both lakes: %s" % size)
	assert_true(origin.x >= 2 and origin.x <= 4 and origin.y >= 2 and origin.y <= 4, "it starts at the west pit's edge: %s" % origin)
	assert_true(tex != null and tex.get_width() == size.x and tex.get_height() == size.y, "the level texture matches the grid")
	assert_eq(mat.get_shader_parameter("level_spacing"), Vector2(2, 2), "sample spacing")
	var absorption: PackedFloat32Array = mat.get_shader_parameter("absorption_distances")
	assert_eq(absorption.size(), 32, "an absorption distance per appearance slot")
	assert_true(absorption[1] > 0.0 and absorption[2] > 0.0, "both bodies' absorption distances")
	var deep: PackedColorArray = mat.get_shader_parameter("deep_colors")
	var shallow: PackedColorArray = mat.get_shader_parameter("shallow_colors")
	assert_true(deep.size() == 32 and shallow.size() == 32, "the bodies' colours")
	node.underwater = false
	assert_false(node.underwater, "off")
	assert_false(pass_node.visible, "turning it off hides the pass")
	node.underwater = true
	assert_true(pass_node.visible, "and on again shows it")
	terrain.queue_free()


func test_the_levels_follow_edits_without_a_second_pass() -> void:
	var terrain := _lakes()
	var node := _water_node(terrain)
	var mat := _material(_pass(node)[0])
	var tex: Texture2D = mat.get_shader_parameter("level_texture")
	var levels := tex.get_image().get_data()
	node.underwater = false
	# Lower the bank between the lakes below the level: the water spreads, the levels follow
	# (recomputed over the changed chunks only while the water stays inside the rectangle).
	assert_true(terrain.apply_stroke({"type": "lower", "center": Vector2(64, 32), "radius": 14.0, "amount": 6.0, "falloff": 0.2}), "stroke")
	assert_eq(_pass(node).size(), 1, "still one pass")
	var after: Texture2D = mat.get_shader_parameter("level_texture")
	assert_true(after != null and after != tex, "a new level texture after the water changed")
	var changed := after.get_image().get_data()
	assert_true(changed != levels, "the levels changed with the water")
	terrain.undo_stroke()
	var undone: Texture2D = mat.get_shader_parameter("level_texture")
	assert_eq(undone.get_image().get_data(), levels, "undo restores the levels exactly")
	terrain.apply_stroke({"type": "lower", "center": Vector2(64, 32), "radius": 14.0, "amount": 6.0, "falloff": 0.2})
	assert_false(_pass(node)[0].visible, "the switch survives the rebuild")
	terrain.undo_stroke()
	assert_eq(_pass(node).size(), 1, "still one pass after undo")
	terrain.queue_free()


func test_a_designers_node_keeps_its_switch_and_layers() -> void:
	var water := TerrainWaterSurface.new()
	water.underwater = false
	water.layers = 4
	var terrain := _lakes(water)
	assert_eq(_water_node(terrain), water, "the designer's node is used")
	var passes := _pass(water)
	assert_eq(passes.size(), 1, "it draws the pass")
	if passes.size() == 1:
		assert_false(passes[0].visible, "switched off before the water came")
		assert_eq(passes[0].layers, 4, "on the node's render layers")
	terrain.queue_free()


func test_no_water_no_pass() -> void:
	var water := TerrainWaterSurface.new()
	var terrain := Terrain3D.new()
	terrain.add_child(water)
	terrain.asset = load("res://fixtures/small.terrain.json")
	add_child(terrain)
	terrain.wait_for_generation()
	assert_eq(water.get_surface_count(), 0, "a dry terrain")
	assert_eq(_pass(water).size(), 0, "no pass without water")
	assert_true(water.underwater, "the switch stays as set")
	terrain.queue_free()

extends SceneTree
func _initialize() -> void:
	_run.call_deferred()
func _run() -> void:
	var t := Terrain3D.new()
	var arr: Array[TerrainUserChannel] = [null, TerrainUserChannel.new()]
	print("A")
	t.user_channel_types = arr
	print("B ", t.user_channel_types.size())
	var ms := TerrainMaterialSet.new()
	var la: Array[TerrainTextureLayer] = [null, TerrainTextureLayer.new()]
	ms.layers = la
	print("C")
	t.material_set = ms
	t.recipe = JSON.stringify({"size": [64, 64], "resolution": [64, 64], "seed": 1})
	root.add_child(t)
	t.wait_for_generation()
	await physics_frame
	await physics_frame
	print("D ", t.get_height(Vector3(10, 0, 10)))
	quit()

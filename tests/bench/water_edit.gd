extends SceneTree
## stroke_water_demo: one 10 m `raise` stamp through apply_stroke on the demo's river valley
## (1 km, 513² samples, two generated lakes and a river), on water banks, in ms per stroke:
## the stroke re-resolves the water bodies on the edited ground and rebuilds the water surfaces
## of the chunks that changed before apply_stroke returns. The peer is the same stamps on the
## same terrain with its water nodes removed from the recipe (the cost of everything but the
## water), so ratio = peer / ours is the share of a stroke that is not water.
## Arguments after `--`: `--demo=<path to river_valley.terrain.json>` (required), `--quick`.


func _initialize() -> void:
	_run.call_deferred()


static func _median(v: Array) -> float:
	var s := v.duplicate()
	s.sort()
	return s[s.size() / 2]


func _run() -> void:
	var quick := false
	var demo := ""
	for a in OS.get_cmdline_user_args():
		if a == "--quick":
			quick = true
		elif a.begins_with("--demo="):
			demo = a.substr(7)
	var text := FileAccess.get_file_as_string(demo)
	var doc: Variant = JSON.parse_string(text)
	if not doc is Dictionary or not doc.has("recipe"):
		printerr("water edit bench: cannot read the demo terrain at '%s'" % demo)
		quit(1)
		return
	var recipe: Dictionary = _whole(doc["recipe"])
	var dry := recipe.duplicate(true)
	_drop_water(dry)

	var wet_terrain := _terrain(recipe)
	root.add_child(wet_terrain)
	wet_terrain.wait_for_generation()
	await process_frame
	var banks := _banks(wet_terrain)
	if banks.size() < 8:
		printerr("water edit bench: found only %d bank points" % banks.size())
		quit(1)
		return
	# The dry twin is added after the banks are found (TerrainWater.sample asks every terrain).
	var dry_terrain := _terrain(dry)
	root.add_child(dry_terrain)
	dry_terrain.wait_for_generation()
	await process_frame
	var n := 10 if quick else 30
	var shape_before := _water_shape(wet_terrain)
	var ours := _strokes(wet_terrain, banks, n)
	var peer := _strokes(dry_terrain, banks, n)
	# The strokes raise banks: the drawn water must have followed them.
	var shape_after := _water_shape(wet_terrain)
	if shape_before.is_empty() or shape_before == shape_after:
		printerr("water edit bench: the water surfaces did not change (%s)" % [shape_after])
		quit(1)
		return
	var o: float = _median(ours)
	var p: float = _median(peer)
	print("bench stroke_water_demo ours=%.3f peer=%.3f ratio=%.2f unit=ms" % [o, p, p / o])
	quit(0)


## JSON numbers parse as floats: whole ones go back to ints (the recipe wants whole numbers).
static func _whole(v: Variant) -> Variant:
	if v is float and v == floorf(v) and absf(v) < 1e15:
		return int(v)
	if v is Array:
		return v.map(_whole)
	if v is Dictionary:
		var out := {}
		for k: Variant in v:
			out[k] = _whole(v[k])
		return out
	return v


## Vertex count per surface of the terrain's water node.
static func _water_shape(terrain: Terrain3D) -> Array:
	for child in terrain.get_children(true):
		if child is TerrainWaterSurface:
			var mesh: RID = child.get_base()
			var out := []
			for i in RenderingServer.mesh_get_surface_count(mesh):
				out.append((RenderingServer.mesh_surface_get_arrays(mesh, i)[Mesh.ARRAY_VERTEX] as PackedVector3Array).size())
			out.sort()
			return out
	return []


static func _terrain(recipe: Dictionary) -> Terrain3D:
	var t := Terrain3D.new()
	t.recipe = JSON.stringify(recipe)
	return t


## Removes the water-making nodes (basin_water, water_body) and every `water` input: a
## consumer of a water body's field reads that body's own field input instead.
static func _drop_water(recipe: Dictionary) -> void:
	var nodes: Array = recipe["graph"]["nodes"]
	var through := {}
	for node: Dictionary in nodes:
		if node["type"] in ["basin_water", "water_body"]:
			through[node["id"]] = node.get("inputs", {}).get("field", "")
	var kept := []
	for node: Dictionary in nodes:
		if through.has(node["id"]):
			continue
		var inputs: Dictionary = node.get("inputs", {})
		inputs.erase("water")
		for k: String in inputs.keys():
			var src: String = inputs[k]
			while through.has(src):
				src = through[src]
			inputs[k] = src
		kept.append(node)
	recipe["graph"]["nodes"] = kept


## Points (terrain-local X/Z) on the water's edge: wet with a dry neighbour 6 m away.
static func _banks(terrain: Terrain3D) -> Array[Vector2]:
	var out: Array[Vector2] = []
	var step := 8.0
	var x := 20.0
	while x < 1004.0:
		var z := 20.0
		while z < 1004.0:
			var here := TerrainWater.sample(Vector3(x, 0.0, z))
			var there := TerrainWater.sample(Vector3(x + 6.0, 0.0, z))
			if here != null and there == null:
				out.append(Vector2(x, z))
			z += step
		x += step
	return out


static func _strokes(terrain: Terrain3D, banks: Array[Vector2], n: int) -> Array:
	var times := []
	for i in n:
		var c: Vector2 = banks[(i * 7919) % banks.size()]
		var stroke := {"type": "raise", "center": [c.x, c.y], "radius": 5.0, "amount": 0.3}
		var start := Time.get_ticks_usec()
		if not terrain.apply_stroke(stroke):
			printerr("water edit bench: stroke failed")
		times.append((Time.get_ticks_usec() - start) / 1000.0)
	return times

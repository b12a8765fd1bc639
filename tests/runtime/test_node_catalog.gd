extends "res://lib/case.gd"
## `TerrainNodes` lists the graph node types from the core's registry, for tools such as a graph
## editor: the same ids, pins and parameters that recipes are parsed with.


func test_every_node_type_is_listed_with_pins_and_parameters() -> void:
	var catalog := TerrainNodes.get_catalog()
	var ids := TerrainNodes.get_type_ids()
	assert_eq(catalog.get_typed_builtin(), TYPE_DICTIONARY, "a typed Array[Dictionary]")
	assert_true(catalog.size() >= 17, "at least the 17 node types of the registry: %d" % catalog.size())
	assert_eq(catalog.size(), ids.size(), "one entry per type id")
	for i in catalog.size():
		var entry: Dictionary = catalog[i]
		assert_eq(entry.get("id"), ids[i], "entry %d is in registry order" % i)
		for key in ["title", "category", "description", "icon", "inputs", "outputs", "params", "reads"]:
			assert_true(entry.has(key), "%s has %s" % [entry.get("id"), key])
		assert_true(String(entry.get("description", "")) != "", "%s is described" % entry.get("id"))


func test_an_entry_matches_what_recipes_accept() -> void:
	var erosion: Dictionary = {}
	for entry in TerrainNodes.get_catalog():
		if entry["id"] == "erosion":
			erosion = entry
	assert_false(erosion.is_empty(), "erosion is listed")
	assert_eq(erosion.get("category"), "simulation", "as a simulation node")
	var names: Array = []
	for p in erosion["params"]:
		names.append(p["name"])
	assert_true(names.has("iterations") and names.has("brush_radius"), "with its parameters: %s" % [names])
	var required: Array = []
	for pin in erosion["inputs"]:
		if pin["required"]:
			required.append(pin["name"])
	assert_eq(required, ["field"], "and one required input, field")
	# A type the catalogue does not list is refused by recipes.
	var asset := TerrainAsset.new()
	assert_false(asset.set_source_json('{"size": [16, 16], "resolution": [8, 8], "graph": {"format_version": 1, "output": "o", "nodes": [{"id": "o", "type": "no_such_node"}]}}'), "an unknown type is refused")

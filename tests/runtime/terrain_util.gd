extends RefCounted
## Helpers shared by runtime tests.


## A Terrain3D showing the small fixture, added under `parent` and generated.
static func make_terrain(parent: Node) -> Terrain3D:
	var terrain := Terrain3D.new()
	terrain.asset = load("res://fixtures/small.terrain.json")
	parent.add_child(terrain)
	terrain.wait_for_generation()
	return terrain


## Exact height on the grid's drawn triangle (diagonal from (x+1,z) to (x,z+1)), computed in
## GDScript from raw samples: an independent check of the extension's queries.
static func reference_height(terrain: Terrain3D, x: float, z: float) -> float:
	var size := terrain.get_size()
	var cells := terrain.get_cell_counts()
	var fx := x / (size.x / cells.x)
	var fz := z / (size.y / cells.y)
	var ix := mini(int(floor(fx)), cells.x - 1)
	var iz := mini(int(floor(fz)), cells.y - 1)
	var u := fx - ix
	var v := fz - iz
	var h00 := terrain.get_sample_height(ix, iz)
	var h10 := terrain.get_sample_height(ix + 1, iz)
	var h01 := terrain.get_sample_height(ix, iz + 1)
	var h11 := terrain.get_sample_height(ix + 1, iz + 1)
	if u + v <= 1.0:
		return h00 + u * (h10 - h00) + v * (h01 - h00)
	return h11 + (1.0 - u) * (h01 - h11) + (1.0 - v) * (h10 - h11)

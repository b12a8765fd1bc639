extends RefCounted
## The plain-Godot peer of the memory benchmarks: an `n × n` height grid as one
## HeightMapShape3D on a physics body and one full-detail ArrayMesh (positions, normals, UVs,
## indices; no LODs) — what a game would make from the same samples without Ridgeline.


## The peer for `heights` (row-major, `n × n`): `{"body": RID, "shape": HeightMapShape3D,
## "mesh": ArrayMesh}`. The body is in no space; free it with PhysicsServer3D.free_rid.
static func build(heights: PackedFloat32Array, n: int) -> Dictionary:
	var shape := HeightMapShape3D.new()
	shape.map_width = n
	shape.map_depth = n
	shape.map_data = heights
	var body := PhysicsServer3D.body_create()
	PhysicsServer3D.body_add_shape(body, shape.get_rid())
	var verts := PackedVector3Array()
	verts.resize(n * n)
	var normals := PackedVector3Array()
	normals.resize(n * n)
	var uvs := PackedVector2Array()
	uvs.resize(n * n)
	for z in n:
		for x in n:
			verts[z * n + x] = Vector3(x, heights[z * n + x], z)
			normals[z * n + x] = Vector3.UP
			uvs[z * n + x] = Vector2(x, z) / float(n - 1)
	var indices := PackedInt32Array()
	indices.resize((n - 1) * (n - 1) * 6)
	var k := 0
	for z in n - 1:
		for x in n - 1:
			var i := z * n + x
			indices[k] = i; indices[k + 1] = i + 1; indices[k + 2] = i + n
			indices[k + 3] = i + 1; indices[k + 4] = i + n + 1; indices[k + 5] = i + n
			k += 6
	var arrays := []
	arrays.resize(Mesh.ARRAY_MAX)
	arrays[Mesh.ARRAY_VERTEX] = verts
	arrays[Mesh.ARRAY_NORMAL] = normals
	arrays[Mesh.ARRAY_TEX_UV] = uvs
	arrays[Mesh.ARRAY_INDEX] = indices
	var mesh := ArrayMesh.new()
	mesh.add_surface_from_arrays(Mesh.PRIMITIVE_TRIANGLES, arrays)
	return {"body": body, "shape": shape, "mesh": mesh}

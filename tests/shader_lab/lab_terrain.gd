extends RefCounted
## Shader lab terrain: the samples of a generated Ridgeline terrain rebuilt as plain meshes with
## the terrain shaders of `shaders/` applied from GDScript, so the shaders can be developed and
## measured before the extension binds them. It also computes a stand-in role map (slope,
## height, water distance, concavity, noise — the core's surface roles will replace it), the
## control texture and the texture arrays from `demo_project/textures/generated/`, exactly as
## docs/materials.md specifies for the extension.

const ROLES := ["ground", "grass", "rock", "cliff", "sediment", "sand", "snow", "wet_ground", "underwater"]
## Demo layers in role order (layer id = role index in the demo material set).
const LAYERS := ["soil", "grass", "rock", "cliff", "sediment", "sand", "snow", "wet_ground", "riverbed"]
## Suggested tiling (metres) per layer, from the art manifest (`cargo xtask art`).
var tiling := [3.0, 3.0, 6.0, 16.0, 4.0, 4.0, 6.0, 3.0, 2.5]
const TRIPLANAR := [1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
const CONTRAST := [0.6, 0.8, 1.0, 1.0, 0.4, 0.4, 0.5, 0.5, 0.8]
const ANTI_TILING := [1.0, 1.0, 0.5, 0.04, 1.0, 0.15, 1.0, 1.0, 1.0]
const NORMAL_STRENGTH := [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
## Faceted palette per role (sRGB).
const PALETTE := [
	Color8(110, 88, 62), Color8(82, 118, 50), Color8(112, 108, 102), Color8(92, 86, 80),
	Color8(138, 124, 96), Color8(196, 176, 130), Color8(232, 236, 244), Color8(72, 60, 46),
	Color8(80, 96, 90),
]
const CHUNK := 64

var size := Vector2.ZERO
var cells := Vector2i.ZERO
var heights := PackedFloat32Array()
## Water surface height per sample (NAN where dry).
var water := PackedFloat32Array()
var normals := PackedVector3Array()
var roles := PackedByteArray()
var biomes := PackedByteArray()
var min_height := 0.0
var max_height := 0.0


func sample_count() -> int:
	return (cells.x + 1) * (cells.y + 1)


func index(x: int, z: int) -> int:
	return z * (cells.x + 1) + x


## Reads heights and water from a generated (visible) Terrain3D.
func read_terrain(terrain: Terrain3D) -> void:
	size = terrain.get_size()
	cells = terrain.get_cell_counts()
	var n := sample_count()
	heights.resize(n)
	water.resize(n)
	var dx := size.x / cells.x
	var dz := size.y / cells.y
	var xf := terrain.global_transform
	for z in cells.y + 1:
		for x in cells.x + 1:
			var i := index(x, z)
			heights[i] = terrain.get_sample_height(x, z)
			var s: WaterSample = TerrainWater.sample(xf * Vector3(x * dx, heights[i], z * dz))
			water[i] = s.surface.y if s != null and s.depth > 0.02 else NAN
	_finish_heights()


## A synthetic valley (no extension needed): ridges, a meandering river at a fixed level.
func synthetic(cells_per_side: int, side: float) -> void:
	size = Vector2(side, side)
	cells = Vector2i(cells_per_side, cells_per_side)
	var n := sample_count()
	heights.resize(n)
	water.resize(n)
	var noise := FastNoiseLite.new()
	noise.seed = 11
	noise.frequency = 1.0 / 260.0
	noise.fractal_octaves = 6
	var ridge := FastNoiseLite.new()
	ridge.seed = 5
	ridge.frequency = 1.0 / 380.0
	ridge.fractal_type = FastNoiseLite.FRACTAL_RIDGED
	ridge.fractal_octaves = 6
	var d := side / cells_per_side
	for z in cells.y + 1:
		for x in cells.x + 1:
			var px := x * d
			var pz := z * d
			var river := side * 0.5 + 0.08 * side * sin(pz / side * 7.0) + 0.025 * side * sin(pz / side * 19.0 + 1.3)
			var dist := absf(px - river)
			var hills := noise.get_noise_2d(px, pz) * 30.0
			var peaks := (ridge.get_noise_2d(px, pz) * 0.5 + 0.5) * 210.0
			var away := smoothstep(20.0, side * 0.32, dist)
			var h := 12.0 + (hills + 10.0) * smoothstep(10.0, 90.0, dist) + peaks * away * away
			if dist < 16.0:
				h -= (1.0 - (dist / 16.0) * (dist / 16.0)) * 4.5
			var i := index(x, z)
			heights[i] = h
			water[i] = 10.0 if h < 10.0 else NAN
	_finish_heights()


func _finish_heights() -> void:
	min_height = INF
	max_height = -INF
	for h in heights:
		min_height = minf(min_height, h)
		max_height = maxf(max_height, h)
	var n := sample_count()
	normals.resize(n)
	var dx := size.x / cells.x
	var dz := size.y / cells.y
	for z in cells.y + 1:
		for x in cells.x + 1:
			var x0 := maxi(x - 1, 0)
			var x1 := mini(x + 1, cells.x)
			var z0 := maxi(z - 1, 0)
			var z1 := mini(z + 1, cells.y)
			var gx := (heights[index(x1, z)] - heights[index(x0, z)]) / ((x1 - x0) * dx)
			var gz := (heights[index(x, z1)] - heights[index(x, z0)]) / ((z1 - z0) * dz)
			normals[index(x, z)] = Vector3(-gx, 1.0, -gz).normalized()


## Distance (terrain units) from every sample to the nearest wet sample (two-pass chamfer).
func _water_distance() -> PackedFloat32Array:
	var w := cells.x + 1
	var h := cells.y + 1
	var d := PackedFloat32Array()
	d.resize(w * h)
	var step := size.x / cells.x
	var diag := step * sqrt(2.0)
	for i in w * h:
		d[i] = 0.0 if not is_nan(water[i]) else 1e9
	for z in h:
		for x in w:
			var i := z * w + x
			var v := d[i]
			if x > 0:
				v = minf(v, d[i - 1] + step)
			if z > 0:
				v = minf(v, d[i - w] + step)
				if x > 0:
					v = minf(v, d[i - w - 1] + diag)
				if x < w - 1:
					v = minf(v, d[i - w + 1] + diag)
			d[i] = v
	for z in range(h - 1, -1, -1):
		for x in range(w - 1, -1, -1):
			var i := z * w + x
			var v := d[i]
			if x < w - 1:
				v = minf(v, d[i + 1] + step)
			if z < h - 1:
				v = minf(v, d[i + w] + step)
				if x < w - 1:
					v = minf(v, d[i + w + 1] + diag)
				if x > 0:
					v = minf(v, d[i + w - 1] + diag)
			d[i] = v
	return d


## Stand-in surface roles by slope, height, water distance, concavity and noise.
func classify() -> void:
	var n := sample_count()
	roles.resize(n)
	biomes.resize(n)
	var wd := _water_distance()
	var noise := FastNoiseLite.new()
	noise.seed = 3
	noise.frequency = 1.0 / 60.0
	noise.fractal_octaves = 3
	var relief := maxf(max_height - min_height, 1.0)
	var snow_line := min_height + 0.78 * relief
	var spacing := size.x / cells.x
	var r := maxi(2, int(6.0 / spacing))
	for z in cells.y + 1:
		for x in cells.x + 1:
			var i := index(x, z)
			var h := heights[i]
			var px := x * spacing
			var pz := z * spacing
			var m := noise.get_noise_2d(px, pz) * 0.5 + 0.5
			var slope := rad_to_deg(acos(clampf(normals[i].y, -1.0, 1.0)))
			# Concavity: mean of the ring at r samples minus the centre (positive in hollows).
			var ring := 0.0
			ring += heights[index(maxi(x - r, 0), z)] + heights[index(mini(x + r, cells.x), z)]
			ring += heights[index(x, maxi(z - r, 0))] + heights[index(x, mini(z + r, cells.y))]
			var concavity := ring * 0.25 - h
			var role := 0
			if not is_nan(water[i]) and water[i] - h > 0.05:
				role = 8
			elif wd[i] < 2.0 + 3.0 * m:
				role = 7
			elif slope > 50.0:
				role = 3
			elif slope > 34.0 + 6.0 * m:
				role = 2
			elif h > snow_line + (m - 0.5) * 0.12 * relief and slope < 34.0:
				role = 6
			elif wd[i] < 9.0 and slope < 14.0 and m > 0.55:
				role = 5
			elif concavity > 0.25 and slope < 14.0 and h < min_height + 0.35 * relief:
				role = 4
			elif slope < 27.0 and h < min_height + 0.6 * relief and m > 0.22:
				role = 1
			roles[i] = role
			biomes[i] = 1 if h > min_height + 0.55 * relief else 0


## The control texture (docs/materials.md): R base layer, G overlay layer, B overlay weight,
## A biome. The base layer is the sample's own role's layer; the overlay is the most common
## other layer among its 8 neighbours, weighted 0.5 × (their kernel weight) — a smoothed role
## map, so boundaries between materials follow smooth curves instead of the sample grid.
func control_image() -> Image:
	var w := cells.x + 1
	var h := cells.y + 1
	var data := PackedByteArray()
	data.resize(sample_count() * 4)
	var offsets := [Vector2i(-1, -1), Vector2i(0, -1), Vector2i(1, -1), Vector2i(-1, 0),
		Vector2i(1, 0), Vector2i(-1, 1), Vector2i(0, 1), Vector2i(1, 1)]
	var kernel := [1.0, 2.0, 1.0, 2.0, 2.0, 1.0, 2.0, 1.0] # of 12 around the centre
	for z in h:
		for x in w:
			var i := z * w + x
			var base := roles[i]
			var weights := {}
			for k in 8:
				var nx: int = clampi(x + offsets[k].x, 0, w - 1)
				var nz: int = clampi(z + offsets[k].y, 0, h - 1)
				var r := roles[nz * w + nx]
				if r != base:
					weights[r] = weights.get(r, 0.0) + kernel[k]
			var overlay := base
			var best := 0.0
			for r in weights:
				if weights[r] > best:
					best = weights[r]
					overlay = r
			data[i * 4] = base
			data[i * 4 + 1] = overlay
			data[i * 4 + 2] = int(round(best / 12.0 * 0.5 * 255.0))
			data[i * 4 + 3] = biomes[i]
	return Image.create_from_data(w, h, false, Image.FORMAT_RGBA8, data)


## Chunk meshes (CHUNK cells square), terrain-local positions, smooth normals, UV = XZ / size,
## each quad split along (x+1, z)–(x, z+1), clockwise from above.
func build_meshes() -> Array[ArrayMesh]:
	var out: Array[ArrayMesh] = []
	var dx := size.x / cells.x
	var dz := size.y / cells.y
	for cz in range(0, cells.y, CHUNK):
		for cx in range(0, cells.x, CHUNK):
			var w := mini(CHUNK, cells.x - cx)
			var d := mini(CHUNK, cells.y - cz)
			var verts := PackedVector3Array()
			var norms := PackedVector3Array()
			var uvs := PackedVector2Array()
			var idx := PackedInt32Array()
			for z in d + 1:
				for x in w + 1:
					var i := index(cx + x, cz + z)
					var p := Vector3((cx + x) * dx, heights[i], (cz + z) * dz)
					verts.append(p)
					norms.append(normals[i])
					uvs.append(Vector2(p.x / size.x, p.z / size.y))
			for z in d:
				for x in w:
					var a := z * (w + 1) + x
					var b := a + 1
					var c := a + w + 1
					var e := c + 1
					idx.append_array([a, b, c, b, e, c])
			var arrays := []
			arrays.resize(Mesh.ARRAY_MAX)
			arrays[Mesh.ARRAY_VERTEX] = verts
			arrays[Mesh.ARRAY_NORMAL] = norms
			arrays[Mesh.ARRAY_TEX_UV] = uvs
			arrays[Mesh.ARRAY_INDEX] = idx
			var mesh := ArrayMesh.new()
			mesh.add_surface_from_arrays(Mesh.PRIMITIVE_TRIANGLES, arrays)
			out.append(mesh)
	return out


## Water surface over every cell with a wet corner (dry corners take a wet neighbour's level);
## UV2.x = depth, as shaders/water.gdshader expects.
func water_mesh() -> ArrayMesh:
	var dx := size.x / cells.x
	var dz := size.y / cells.y
	var verts := PackedVector3Array()
	var uv2 := PackedVector2Array()
	var idx := PackedInt32Array()
	for z in cells.y:
		for x in cells.x:
			var corners := [index(x, z), index(x + 1, z), index(x, z + 1), index(x + 1, z + 1)]
			var level := NAN
			for i in corners:
				if not is_nan(water[i]):
					level = water[i] if is_nan(level) else maxf(level, water[i])
			if is_nan(level):
				continue
			var base := verts.size()
			var k := 0
			for i in corners:
				var s: float = water[i] if not is_nan(water[i]) else level
				verts.append(Vector3((x + (k & 1)) * dx, s, (z + (k >> 1)) * dz))
				uv2.append(Vector2(s - heights[i], 0.0))
				k += 1
			idx.append_array([base, base + 1, base + 2, base + 1, base + 3, base + 2])
	var mesh := ArrayMesh.new()
	if verts.is_empty():
		return mesh
	var arrays := []
	arrays.resize(Mesh.ARRAY_MAX)
	arrays[Mesh.ARRAY_VERTEX] = verts
	var up := PackedVector3Array()
	up.resize(verts.size())
	up.fill(Vector3.UP)
	arrays[Mesh.ARRAY_NORMAL] = up
	arrays[Mesh.ARRAY_TEX_UV2] = uv2
	arrays[Mesh.ARRAY_INDEX] = idx
	mesh.add_surface_from_arrays(Mesh.PRIMITIVE_TRIANGLES, arrays)
	return mesh


## Packs two maps into one RGBA8 image: RGB from `rgb_path`, A from `a_path` (grey).
static func pack(rgb_path: String, a_path: String, size_px: int) -> Image:
	var rgb := Image.load_from_file(rgb_path)
	var a := Image.load_from_file(a_path)
	if rgb == null or a == null:
		push_error("shader lab: cannot load %s or %s (run `cargo xtask art`)" % [rgb_path, a_path])
		return null
	rgb.convert(Image.FORMAT_RGB8)
	a.convert(Image.FORMAT_L8)
	if rgb.get_width() != size_px:
		rgb.resize(size_px, size_px, Image.INTERPOLATE_LANCZOS)
	if a.get_width() != size_px:
		a.resize(size_px, size_px, Image.INTERPOLATE_LANCZOS)
	var src := rgb.get_data()
	var alpha := a.get_data()
	var n := size_px * size_px
	var out := PackedByteArray()
	out.resize(n * 4)
	for i in n:
		var o := i * 4
		var s := i * 3
		out[o] = src[s]
		out[o + 1] = src[s + 1]
		out[o + 2] = src[s + 2]
		out[o + 3] = alpha[i]
	var img := Image.create_from_data(size_px, size_px, false, Image.FORMAT_RGBA8, out)
	img.generate_mipmaps()
	return img


## Reads the per-layer tiling from the art manifest in `dir` (lines `layer <name> tiling_m=<m>`).
func read_manifest(dir: String) -> void:
	var text := FileAccess.get_file_as_string(dir.path_join("manifest.txt"))
	for line in text.split("\n"):
		var parts := line.split(" ")
		if parts.size() == 3 and parts[0] == "layer" and parts[2].begins_with("tiling_m="):
			var i := LAYERS.find(parts[1])
			if i >= 0:
				tiling[i] = parts[2].trim_prefix("tiling_m=").to_float()


## [albedo_height, normal_roughness] arrays of the demo layers from `dir`.
static func texture_arrays(dir: String, size_px: int = 512) -> Array[Texture2DArray]:
	var ah: Array[Image] = []
	var nr: Array[Image] = []
	for name in LAYERS:
		ah.append(pack("%s/%s_albedo.png" % [dir, name], "%s/%s_height.png" % [dir, name], size_px))
		nr.append(pack("%s/%s_normal.png" % [dir, name], "%s/%s_roughness.png" % [dir, name], size_px))
	var a := Texture2DArray.new()
	a.create_from_images(ah)
	var b := Texture2DArray.new()
	b.create_from_images(nr)
	return [a, b]


static func _floats(values: Array, count: int = 32) -> PackedFloat32Array:
	var out := PackedFloat32Array()
	out.resize(count)
	for i in values.size():
		out[i] = values[i]
	return out


static func _colors(values: Array, count: int = 32) -> PackedColorArray:
	var out := PackedColorArray()
	out.resize(count)
	for i in values.size():
		out[i] = values[i]
	return out


## Biome tints used by the lab (valley untinted, alpine slightly cool).
const BIOME_TINTS := [Color(1, 1, 1), Color(0.94, 0.96, 1.0)]


## The control texture as the shaders read it: a texture array of square tiles (here one layer
## holding the whole map, so the tile edge is the map's longer side).
func control_texture() -> Texture2DArray:
	var tex := Texture2DArray.new()
	tex.create_from_images([control_image()])
	return tex


## The `control_layout` uniform for [method control_texture]'s single tile.
func control_layout() -> Vector4i:
	var w := cells.x + 1
	var h := cells.y + 1
	return Vector4i(maxi(w, h), 1, w, h)


func realistic_material(shader: Shader, arrays: Array[Texture2DArray], control: Texture2DArray) -> ShaderMaterial:
	var m := ShaderMaterial.new()
	m.shader = shader
	m.set_shader_parameter("layer_count", LAYERS.size())
	m.set_shader_parameter("control_map", control)
	m.set_shader_parameter("control_layout", control_layout())
	m.set_shader_parameter("albedo_height_array", arrays[0])
	m.set_shader_parameter("normal_roughness_array", arrays[1])
	m.set_shader_parameter("layer_tiling", _floats(tiling))
	m.set_shader_parameter("layer_triplanar", _floats(TRIPLANAR))
	m.set_shader_parameter("layer_blend_contrast", _floats(CONTRAST))
	m.set_shader_parameter("layer_anti_tiling", _floats(ANTI_TILING))
	m.set_shader_parameter("layer_normal_strength", _floats(NORMAL_STRENGTH))
	m.set_shader_parameter("biome_count", BIOME_TINTS.size())
	m.set_shader_parameter("biome_tint", _colors(BIOME_TINTS))
	m.set_shader_parameter("terrain_size", size)
	return m


func faceted_material(shader: Shader, control: Texture2DArray) -> ShaderMaterial:
	var m := ShaderMaterial.new()
	m.shader = shader
	m.set_shader_parameter("control_map", control)
	m.set_shader_parameter("control_layout", control_layout())
	m.set_shader_parameter("palette_count", PALETTE.size())
	m.set_shader_parameter("palette", _colors(PALETTE))
	m.set_shader_parameter("biome_count", BIOME_TINTS.size())
	m.set_shader_parameter("biome_tint", _colors(BIOME_TINTS))
	m.set_shader_parameter("terrain_size", size)
	return m


func tint_material(shader: Shader) -> ShaderMaterial:
	var m := ShaderMaterial.new()
	m.shader = shader
	m.set_shader_parameter("biome_color", Color(0.36, 0.5, 0.28))
	m.set_shader_parameter("min_height", min_height)
	m.set_shader_parameter("max_height", max_height)
	return m


## A shader from the repository's `shaders/` folder (outside the Godot project).
static func load_shader(name: String) -> Shader:
	var path := ProjectSettings.globalize_path("res://").path_join("../shaders").path_join(name)
	var code := FileAccess.get_file_as_string(path)
	if code.is_empty():
		push_error("shader lab: cannot read %s" % path)
		return null
	var s := Shader.new()
	s.code = code
	return s


## Role map as a colour image (faceted palette), for reviewing the classification.
func role_image() -> Image:
	var img := Image.create(cells.x + 1, cells.y + 1, false, Image.FORMAT_RGB8)
	for z in cells.y + 1:
		for x in cells.x + 1:
			img.set_pixel(x, z, PALETTE[roles[index(x, z)]])
	return img

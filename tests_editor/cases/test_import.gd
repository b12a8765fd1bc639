@tool
extends "res://lib/editor_case.gd"
## **Import heightmap…** in the Terrain dock: the file and options dialogs create a new asset
## whose graph reads the file and assign it as one undo step; a changed file regenerates the
## terrain; bad files, options and taken names change nothing.

var plugin: EditorPlugin
var t: Node3D
const DIR := "res://terrains/import"


func _setup() -> void:
	if t == null:
		plugin = ridgeline()
		t = await open_terrain("res://scenes/flat.tscn")
		DirAccess.make_dir_recursive_absolute(ProjectSettings.globalize_path(DIR))


## A 33 × 33 8-bit grey ramp along X: value = x / 32 · `top` (0..1).
func _ramp(path: String, top: float) -> void:
	var img := Image.create_empty(33, 33, false, Image.FORMAT_L8)
	for z in 33:
		for x in 33:
			var v := float(x) / 32.0 * top
			img.set_pixel(x, z, Color(v, v, v))
	assert_eq(img.save_png(path), OK, "writing %s" % path)


func _settle() -> void:
	t.call("wait_for_generation")
	await frames(2)


func _options_dialog() -> ConfirmationDialog:
	for c in EditorInterface.get_base_control().get_children():
		if c is ConfirmationDialog and c.title == "Import heightmap" and c.visible:
			return c
	return null


func test_a_raw_file_that_is_not_square_asks_for_its_width_and_depth() -> void:
	await _setup()
	# 40 × 20 little-endian 16-bit samples rising along X: 1600 bytes, not a square.
	var raw := DIR + "/wide.r16"
	var bytes := PackedByteArray()
	bytes.resize(40 * 20 * 2)
	for z in 20:
		for x in 40:
			bytes.encode_u16((z * 40 + x) * 2, x * 1000)
	var f := FileAccess.open(raw, FileAccess.WRITE)
	f.store_buffer(bytes)
	f.close()
	var old_asset: Resource = t.asset
	plugin.call("_on_import_file_selected", raw)
	var dialog := _options_dialog()
	assert_true(dialog != null, "the options dialog opens instead of an error: %s" % plugin.call("get_message"))
	if dialog == null:
		return
	var says := ""
	for l in dialog.find_children("*", "Label", true, false):
		says += String(l.text) + " | "
	assert_true(says.contains("not a square") and says.contains("Give the file's width and depth"), "it says what is missing: %s" % says)
	var spins := dialog.find_children("*", "SpinBox", true, false).filter(func(n: Node) -> bool: return n.visible)
	assert_eq(spins.size(), 6, "size, height range, and the raw width and depth")
	spins[4].value = 40
	spins[5].value = 20
	spins[2].value = 0.0
	spins[3].value = 65.535
	dialog.hide()
	plugin.call("_on_import_confirmed")
	var msg := String(plugin.call("get_message"))
	assert_true(msg.contains("40 × 20 samples"), "imported with the given width and depth: %s" % msg)
	await _settle()
	assert_true(t.asset != null and t.asset.resource_path == DIR + "/wide.terrain.json", "the terrain shows the new asset")
	assert_eq(t.call("get_size"), Vector2(39, 19), "one metre per sample by default")
	assert_true(absf(float(t.call("get_height", at(t, 10, 5))) - 10.0) < 0.01, "heights from the file: 1000 per metre along X")
	await undo()
	await _settle()
	assert_eq(t.asset, old_asset, "one undo step")


func test_import_through_the_dialogs_assigns_a_new_asset_with_undo() -> void:
	await _setup()
	var png := DIR + "/ramp.png"
	_ramp(png, 1.0)
	var old_asset: Resource = t.asset
	var before: float = t.call("get_height", at(t, 64, 64))
	# The file dialog's pick prefills the options from the file: 32 × 32 m (one per pixel),
	# the asset beside it; the test then sets the size and height range as a user would.
	plugin.call("_on_import_file_selected", png)
	var dialog := _options_dialog()
	assert_true(dialog != null, "the options dialog opens")
	if dialog == null:
		return
	var spins := dialog.find_children("*", "SpinBox", true, false).filter(func(n: Node) -> bool: return n.visible)
	assert_eq(spins.size(), 4, "size and height range fields (no raw width and depth for a PNG)")
	assert_eq(spins[0].value, 32.0, "size X prefilled from the file")
	var line: LineEdit = dialog.find_children("*", "LineEdit", true, false)[-1]
	assert_eq(line.text, DIR + "/ramp.terrain.json", "the asset beside the file")
	assert_eq(spins[3].max_value, 1.0e6, "heights up to an embedded 0..65535 range fit")
	spins[0].value = 128.0
	spins[1].value = 128.0
	spins[2].value = 0.0
	spins[3].value = 40.0
	dialog.hide()
	plugin.call("_on_import_confirmed")
	var msg := String(plugin.call("get_message"))
	assert_true(msg.begins_with("Imported res://terrains/import/ramp.png as res://terrains/import/ramp.terrain.json"), msg)
	await _settle()
	assert_true(t.asset != null and t.asset.resource_path == DIR + "/ramp.terrain.json", "the terrain shows the new asset")
	assert_true(FileAccess.file_exists(DIR + "/ramp.terrain.json"), "the asset is written")
	# Heights follow the ramp: 0 m at X = 0, 40 m at X = 128 (8-bit steps of 40/255 m).
	assert_true(absf(float(t.call("get_height", at(t, 0, 64))) - 0.0) < 0.2, "ramp foot")
	assert_true(absf(float(t.call("get_height", at(t, 128, 64))) - 40.0) < 0.2, "ramp top")
	assert_true(absf(float(t.call("get_height", at(t, 64, 64))) - 20.0) < 0.5, "ramp middle")
	var sources: PackedStringArray = t.call("get_source_files")
	assert_eq(sources, PackedStringArray([png]), "the terrain watches the heightmap")
	await undo()
	await _settle()
	assert_eq(t.asset, old_asset, "undo restores the previous asset")
	assert_eq(float(t.call("get_height", at(t, 64, 64))), before, "and its surface")
	await redo()
	await _settle()
	assert_true(t.asset != null and t.asset.resource_path == DIR + "/ramp.terrain.json", "redo assigns the import again")


func test_a_changed_heightmap_regenerates_the_terrain() -> void:
	await _setup()
	var png := DIR + "/watch.png"
	_ramp(png, 0.5)
	assert_true(plugin.call("import_heightmap", png, "", {"size": Vector2(128, 128), "height_range": Vector2(0, 40)}), plugin.call("get_message"))
	await _settle()
	var h0: float = t.call("get_height", at(t, 128, 64))
	assert_true(absf(h0 - 20.0) < 0.2, "half-height ramp, got %f" % h0)
	# Another tool re-exports the file: the editor notices within about a second.
	_ramp(png, 1.0)
	var waited := 0
	while waited < 400 and absf(float(t.call("get_height", at(t, 128, 64))) - 40.0) > 0.2:
		await frames(1)
		OS.delay_msec(10)
		waited += 1
		if t.call("is_generating"):
			t.call("wait_for_generation")
	assert_true(absf(float(t.call("get_height", at(t, 128, 64))) - 40.0) < 0.2, "the terrain regenerated from the changed file")
	await undo()
	await _settle()


func test_bad_imports_change_nothing() -> void:
	await _setup()
	var old_asset: Resource = t.asset
	var broken := DIR + "/broken.png"
	var f := FileAccess.open(broken, FileAccess.WRITE)
	f.store_buffer(PackedByteArray([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]))
	f.close()
	var cases := [
		[broken, "", {}, "res://terrains/import/broken.png: not a readable PNG"],
		[DIR + "/missing.png", "", {}, "missing.png"],
		[DIR + "/notes.txt", "", {}, "cannot tell the format"],
		[DIR + "/ramp.png", DIR + "/taken.terrain.json", {}, "already exists"],
		[DIR + "/ramp.png", "", {"size": Vector2(NAN, 4)}, "finite"],
		[DIR + "/ramp.png", "", {"size": "big"}, "must be a Vector2"],
		[DIR + "/ramp.png", "", {"colour": 1}, "unknown option"],
		[DIR + "/ramp.png", "/tmp/x.terrain.json", {}, "inside the project"],
	]
	_ramp(DIR + "/ramp.png", 1.0)
	FileAccess.open(DIR + "/taken.terrain.json", FileAccess.WRITE).store_string("{}")
	var files_before := _assets()
	for c in cases:
		var ok: bool = plugin.call("import_heightmap", c[0], c[1], c[2])
		var msg := String(plugin.call("get_message"))
		assert_true(not ok, "refused: %s" % [c])
		assert_true(msg.contains(c[3]) and msg.contains("nothing changed"), "message for %s: %s" % [c, msg])
	assert_eq(t.asset, old_asset, "the terrain keeps its asset")
	assert_eq(_assets(), files_before, "no asset written")
	assert_eq(FileAccess.get_file_as_string(DIR + "/taken.terrain.json"), "{}", "the taken asset is untouched")


func _assets() -> PackedStringArray:
	var out := PackedStringArray()
	for f in DirAccess.get_files_at(DIR):
		if f.ends_with(".terrain.json"):
			out.append(f)
	return out

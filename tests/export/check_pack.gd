extends SceneTree
## Checks an exported pack of this project (path after `--`): every terrain asset in it is a
## cooked payload that loads without evaluating any node. Prints PASS/FAIL and exits non-zero on
## failure. Run by `cargo xtask test` after `--export-pack`.


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var args := OS.get_cmdline_user_args()
	var failures: Array[String] = []
	if args.is_empty() or not ProjectSettings.load_resource_pack(args[0], true):
		failures.append("cannot open the exported pack %s" % [args])
	else:
		var raw := FileAccess.get_file_as_bytes("res://fixtures/lakes.terrain.json")
		if raw.slice(0, 8).get_string_from_ascii() != "RDGLTBIN":
			failures.append("the exported lakes.terrain.json is not a cooked payload")
		var asset: Resource = ResourceLoader.load("res://fixtures/lakes.terrain.json", "", ResourceLoader.CACHE_MODE_IGNORE)
		if not (asset is TerrainAsset) or not asset.is_cooked():
			failures.append("the exported asset does not load as a cooked TerrainAsset: %s" % asset)
		else:
			var terrain := Terrain3D.new()
			terrain.asset = asset
			var origin: Array = []
			terrain.generation_finished.connect(func(ok: bool, msg: String) -> void: origin.append(msg))
			root.add_child(terrain)
			if not terrain.wait_for_generation():
				failures.append("generation failed: %s" % terrain.get_last_error())
			for i in 3:
				await process_frame
			if origin != ["cooked payload"]:
				failures.append("expected the cooked payload to be used, got %s" % [origin])
			if is_nan(terrain.get_height(Vector3(60, 0, 30))):
				failures.append("the cooked terrain answers no height (size %s)" % terrain.get_size())
			terrain.free()
	for f in failures:
		printerr("FAIL export: ", f)
	print("PASS export::cooked_assets_in_an_exported_pack" if failures.is_empty() else "FAIL export::cooked_assets_in_an_exported_pack")
	quit(0 if failures.is_empty() else 1)

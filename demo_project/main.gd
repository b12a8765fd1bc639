extends Node3D
## Ridgeline demo scene.
##
## With the user argument [code]--screenshot=PATH[/code] (as `cargo xtask demo` passes when there
## is no display) it renders a few frames, saves the viewport to PATH as PNG and quits.

@onready var terrain: Node3D = $Terrain3D
@onready var info: Label = $HUD/Info


func _ready() -> void:
	info.text = "Ridgeline %s — Terrain3D loaded" % terrain.call("get_generator_version")
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--screenshot="):
			_save_screenshot.call_deferred(arg.trim_prefix("--screenshot="))


func _save_screenshot(path: String) -> void:
	for i in 10:
		await get_tree().process_frame
	await RenderingServer.frame_post_draw
	var image := get_viewport().get_texture().get_image()
	var err := image.save_png(path)
	if err != OK:
		push_error("could not save the screenshot to %s (error %d)" % [path, err])
	else:
		print("saved screenshot %s" % path)
	get_tree().quit(0 if err == OK else 1)

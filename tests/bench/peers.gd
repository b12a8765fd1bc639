extends SceneTree
## Godot-side benchmark peers for `cargo xtask bench`. Prints `peer <id> <value>` lines that the
## core benchmarks combine with their own measures, and full `bench …` lines for Godot-only
## measures. `-- --quick` uses fewer repetitions.


func _initialize() -> void:
	quit(0)

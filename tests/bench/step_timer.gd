extends Node
## A physics-step stopwatch for the water benchmark: two of these bracket the `_physics_process`
## callbacks of one step. The `start` one runs first (lowest `process_physics_priority`), the
## `end` one last (highest); `end` records the microseconds between them per step. Godot runs
## every node's `_physics_process` of a step in priority order before the physics server steps,
## so the window holds exactly the nodes' own per-step work (and their dispatch), not the solver.

## The stopwatch that runs first (set on the `end` one).
var start = null
## Microseconds of each measured step's window (on the `end` one).
var windows: Array[int] = []
## When false the `end` one records nothing.
var recording := false
## Start time of the current step's window (on the `start` one).
var t0 := 0


func _physics_process(_delta: float) -> void:
	var now := Time.get_ticks_usec()
	if start == null:
		t0 = now
	elif recording:
		windows.append(now - start.t0)

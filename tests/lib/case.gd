extends Node
## Base class of Ridgeline's GDScript tests.
##
## A test file extends this script and declares [code]func test_*()[/code] methods; they may
## [code]await[/code]. Each assertion that fails is recorded with its message, and a test that
## makes no assertion at all fails, so an empty test cannot pass by accident.

var _failures: PackedStringArray = []
var _assertions: int = 0


## Called by the runner before each test.
func _begin_test() -> void:
	_failures = []
	_assertions = 0


## Failure messages recorded since the test began.
func get_failures() -> PackedStringArray:
	var out := _failures.duplicate()
	if _assertions == 0 and out.is_empty():
		out.append("the test made no assertion")
	return out


## Records an unconditional failure.
func fail(message: String) -> void:
	_assertions += 1
	_failures.append(message)


## Asserts that [param condition] holds.
func assert_true(condition: bool, message: String = "expected true") -> void:
	_assertions += 1
	if not condition:
		_failures.append(message)


## Asserts that [param condition] does not hold.
func assert_false(condition: bool, message: String = "expected false") -> void:
	assert_true(not condition, message)


## Asserts [code]actual == expected[/code].
func assert_eq(actual: Variant, expected: Variant, message: String = "") -> void:
	_assertions += 1
	if typeof(actual) != typeof(expected) or actual != expected:
		_failures.append("%s: expected %s, got %s" % [message, var_to_str(expected), var_to_str(actual)])


## Asserts [code]|actual - expected| <= tolerance[/code].
func assert_near(actual: float, expected: float, tolerance: float, message: String = "") -> void:
	_assertions += 1
	if not (absf(actual - expected) <= tolerance):
		_failures.append("%s: expected %s ± %s, got %s" % [message, expected, tolerance, actual])


## A Terrain3D generating `recipe` (inline JSON), added as a child of the test and generated.
func recipe_terrain(recipe: String) -> Terrain3D:
	var terrain := Terrain3D.new()
	terrain.recipe = recipe
	add_child(terrain)
	terrain.wait_for_generation()
	return terrain

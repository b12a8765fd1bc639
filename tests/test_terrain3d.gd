extends "res://lib/case.gd"
## The extension loads and registers its node.


func test_class_is_registered() -> void:
	assert_true(ClassDB.class_exists("Terrain3D"), "Terrain3D is registered")
	assert_eq(ClassDB.get_parent_class("Terrain3D"), &"Node3D", "Terrain3D extends Node3D")


func test_instance_enters_tree_and_frees() -> void:
	var terrain: Node3D = ClassDB.instantiate("Terrain3D")
	assert_true(terrain != null, "Terrain3D can be instantiated")
	add_child(terrain)
	await get_tree().process_frame
	assert_true(terrain.is_inside_tree(), "Terrain3D is inside the tree")
	terrain.queue_free()
	await get_tree().process_frame
	assert_false(is_instance_valid(terrain), "Terrain3D was freed")

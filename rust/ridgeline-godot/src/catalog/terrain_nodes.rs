//! `TerrainNodes`: the graph node catalogue as GDScript values.

use godot::classes::Json;
use godot::prelude::*;

/// The catalogue of terrain graph node types, for tools such as a graph editor.
///
/// Every entry comes from the same registry that parses and validates recipes, so it never
/// drifts from what [Terrain3D] accepts. Call the static methods on the class:
/// [code]TerrainNodes.get_catalog()[/code].
#[derive(GodotClass)]
#[class(init, base = Object)]
pub struct TerrainNodes {
    base: Base<Object>,
}

#[godot_api]
impl TerrainNodes {
    /// Every node type as a Dictionary: [code]id[/code], [code]title[/code],
    /// [code]category[/code] (generator, mask, modifier, simulation, water, appearance,
    /// placement, output, notes), [code]description[/code], [code]icon[/code],
    /// [code]inputs[/code] (Array of [code]{name, kind, required}[/code]),
    /// [code]outputs[/code] (Array of [code]{name, kind}[/code]), [code]params[/code] (Array of
    /// Dictionaries with name, type, default, range, unit and doc) and [code]reads[/code]
    /// (recipe settings the node depends on). The same data as [code]ridgeline nodes --format
    /// json[/code].
    #[func]
    pub fn get_catalog() -> Array<VarDictionary> {
        let text = ridgeline_core::nodes::catalog().to_string();
        Json::parse_string(&text)
            .try_to::<VarArray>()
            .unwrap_or_default()
            .iter_shared()
            .filter_map(|entry| entry.try_to::<VarDictionary>().ok())
            .collect()
    }

    /// The stable type ids of every node type, in registry order (the [code]type[/code] of a
    /// graph node in a recipe).
    #[func]
    pub fn get_type_ids() -> PackedStringArray {
        ridgeline_core::nodes::REGISTRY
            .iter()
            .map(|s| GString::from(s.id))
            .collect()
    }
}

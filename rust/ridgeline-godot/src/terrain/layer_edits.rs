//! Adding, renaming and removing the recipe's layers from GDScript and the editor's Layers
//! panel. Each is one undo step of the terrain's history (and of the editor's, through the
//! plugin); none moves a sample.

use super::Terrain3D;
use super::layer_kind::LayerKind;
use godot::prelude::*;

#[godot_api(secondary)]
impl Terrain3D {
    /// Adds an enabled, empty layer of `kind` (any [enum LayerKind] but
    /// [constant LAYER_GENERATION]) named `name` after the existing layers of that kind, and
    /// returns its id (made from the name: `"Roads & paths"` → `roads_paths`, numbered when
    /// taken). Strokes choose it with their `layer` key. Undoable like a stroke. Returns an
    /// empty String with an error when the kind is the generation layer or unknown, or the name
    /// is empty, longer than 64 characters, has control characters or is taken.
    #[func]
    pub fn add_layer(&mut self, kind: LayerKind, name: GString) -> GString {
        let kind = kind.recipe_name();
        let name = name.to_string();
        let mut id = String::new();
        let ok = self.edit("add_layer", |s| {
            let (new_id, change) = s.add_layer(kind, &name).map_err(|e| e.to_string())?;
            id = new_id;
            Ok(change)
        });
        if ok {
            id.as_str().into()
        } else {
            GString::new()
        }
    }

    /// Renames the layer `layer_id` (its id stays, so strokes and biome rules keep pointing at
    /// it). Undoable like a stroke. Returns false with an error for an unknown layer or a name
    /// [method add_layer] would refuse.
    #[func]
    pub fn rename_layer(&mut self, layer_id: GString, name: GString) -> bool {
        let (id, name) = (layer_id.to_string(), name.to_string());
        self.edit("rename_layer", |s| {
            s.rename_layer(&id, &name).map_err(|e| e.to_string())
        })
    }

    /// Removes the layer `layer_id`, which must be one added with [method add_layer] and hold
    /// no strokes or biome rules (undo them, or disable the layer with
    /// [method set_layer_enabled] instead). Undoable like a stroke. Returns false with an error
    /// otherwise; nothing changes then.
    #[func]
    pub fn remove_layer(&mut self, layer_id: GString) -> bool {
        let id = layer_id.to_string();
        self.edit("remove_layer", |s| {
            s.remove_layer(&id).map_err(|e| e.to_string())
        })
    }
}

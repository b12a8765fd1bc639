//! `TerrainUserChannel`: what one of a terrain's four user channels means.

use crate::convert::class_enum::class_enum;
use godot::classes::{IResource, Resource};
use godot::prelude::*;

class_enum! {
    /// How a user channel's values behave ([member TerrainUserChannel.kind]).
    pub enum UserChannelKind for TerrainUserChannel as "Kind" {
        /// Values 0–1 that blend (a cut-grass state, wetness, snow cover), stored in 1/255 steps.
        Value = 0 as "KIND_VALUE",
        /// Crisp ids 0–255 (named areas), painted outright; [member TerrainUserChannel.legend_names]
        /// and [member TerrainUserChannel.legend_colors] name and colour them.
        Id = 1 as "KIND_ID",
    }
}

/// One of the four game-defined per-sample channels of a [Terrain3D]
/// ([member Terrain3D.user_channel_types]): a name, a kind and, for ids, a legend.
///
/// What a channel means is game data: Ridgeline stores it per grid sample, replays the writes
/// ([method Terrain3D.set_user_channel]) on regeneration, undoes them and saves them as strokes
/// ([method Terrain3D.get_runtime_strokes]). [member kind] decides how writes combine and what
/// [method Terrain3D.get_user_channel] answers: a [constant KIND_VALUE] channel blends values 0–1,
/// a [constant KIND_ID] channel paints whole ids 0–255.
#[derive(GodotClass)]
#[class(tool, base = Resource)]
pub struct TerrainUserChannel {
    /// The channel's name (game data: `"cut_grass"`, `"zone"`).
    #[export]
    #[var(set = set_channel_name)]
    channel_name: GString,
    /// [constant KIND_VALUE] (blends 0–1) or [constant KIND_ID] (crisp ids 0–255).
    #[export]
    #[var(set = set_kind)]
    kind: UserChannelKind,
    /// For [constant KIND_ID]: the name of id `i` at index `i` (editor and game lookups).
    #[export]
    #[var(set = set_legend_names)]
    legend_names: PackedStringArray,
    /// For [constant KIND_ID]: the editor colour of id `i` at index `i`.
    #[export]
    #[var(set = set_legend_colors)]
    legend_colors: PackedColorArray,
    base: Base<Resource>,
}

#[godot_api]
impl IResource for TerrainUserChannel {
    fn init(base: Base<Resource>) -> Self {
        Self {
            channel_name: GString::new(),
            kind: UserChannelKind::Value,
            legend_names: PackedStringArray::new(),
            legend_colors: PackedColorArray::new(),
            base,
        }
    }
}

#[godot_api]
impl TerrainUserChannel {
    /// Sets [member channel_name].
    #[func]
    pub fn set_channel_name(&mut self, v: GString) {
        self.channel_name = v;
        self.base_mut().emit_changed();
    }
    /// Sets [member kind]. Values already written stay as stored bytes; only how they are read
    /// and how later writes combine changes.
    #[func]
    pub fn set_kind(&mut self, v: UserChannelKind) {
        self.kind = v;
        self.base_mut().emit_changed();
    }
    /// Sets [member legend_names].
    #[func]
    pub fn set_legend_names(&mut self, v: PackedStringArray) {
        self.legend_names = v;
        self.base_mut().emit_changed();
    }
    /// Sets [member legend_colors].
    #[func]
    pub fn set_legend_colors(&mut self, v: PackedColorArray) {
        self.legend_colors = v;
        self.base_mut().emit_changed();
    }
    /// The legend name of id `id` (empty when the legend has none).
    #[func]
    pub fn get_legend_name(&self, id: i32) -> GString {
        usize::try_from(id)
            .ok()
            .and_then(|i| self.legend_names.as_slice().get(i).cloned())
            .unwrap_or_default()
    }
    /// The id named `name` in the legend, or -1 (also for a name past entry 255, which no id
    /// channel can hold).
    #[func]
    pub fn find_legend_id(&self, name: GString) -> i32 {
        self.legend_names
            .as_slice()
            .iter()
            .position(|n| *n == name)
            .filter(|&i| i <= 255)
            .map_or(-1, |i| i as i32)
    }
}

impl TerrainUserChannel {
    /// True for an id channel.
    pub fn is_id(&self) -> bool {
        self.kind == UserChannelKind::Id
    }

    /// The channel's name and kind as the core's foliage placement reads them (a foliage
    /// type's `channel_cutoff` names its channel).
    pub fn core_channel(&self) -> ridgeline_core::scatter::foliage_cutoff::UserChannel {
        ridgeline_core::scatter::foliage_cutoff::UserChannel {
            name: self.channel_name.to_string(),
            id: self.is_id(),
        }
    }
}

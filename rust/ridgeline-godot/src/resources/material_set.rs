//! `TerrainMaterialSet`: the nine surface roles bound to texture layers.

use super::texture_layer::TerrainTextureLayer;
use godot::classes::{IResource, Resource, ResourceLoader};
use godot::prelude::*;
use ridgeline_core::mesh::control_map::{LayerTable, ROLE_COUNT, UNBOUND};

/// Layers a set draws at most: the shader's per-layer uniform arrays hold 32 entries
/// (docs/materials.md).
pub const MAX_LAYERS: usize = 32;

/// The surface role names, in role-id order (the control texture's ids without a set).
pub const ROLE_NAMES: [&str; ROLE_COUNT] = [
    "ground",
    "grass",
    "rock",
    "cliff",
    "sediment",
    "sand",
    "snow",
    "wet_ground",
    "underwater",
];

/// Binds the nine surface roles a terrain classifies (ground, grass, rock, cliff, sediment,
/// sand, snow, wet_ground, underwater) to [TerrainTextureLayer]s, with per-biome overrides.
///
/// Assign it to [member Terrain3D.material_set]. [member layers] lists the layers (layer id =
/// index, at most 32); each role property holds the index of its layer, or -1 for none (those
/// surfaces show the biome tint over neutral grey, and the terrain reports the unbound role
/// once). [member biome_overrides] gives a biome one layer for all its roles; a biome's
/// `material` in the recipe wins over both.
///
/// A material-set document (`*.material_set.json`: `{"format_version": 1, "name": …, "roles":
/// {"ground": "res://materials/soil.tres", …}}`) loads as this resource with
/// [code]load()[/code]: every distinct layer path becomes one entry of [member layers], in role
/// order.
///
/// Changing a property emits [signal Resource.changed]; a [Terrain3D] using the set updates its
/// material only — heights and collision are never regenerated.
#[derive(GodotClass)]
#[class(tool, base = Resource)]
pub struct TerrainMaterialSet {
    /// The texture layers; a layer's id is its index (≤ 32 layers). An empty slot (the
    /// inspector's **Add Element** makes one) draws as a plain layer, with a warning, until a
    /// [TerrainTextureLayer] is assigned to it.
    #[export]
    #[var(set = set_layers)]
    layers: Array<Option<Gd<TerrainTextureLayer>>>,
    /// Layer index of the `ground` role (plain soil); -1 = unbound.
    #[export(range = (-1.0, 31.0, 1.0))]
    #[var(set = set_ground)]
    ground: i32,
    /// Layer index of the `grass` role (flat, moist soil); -1 = unbound.
    #[export(range = (-1.0, 31.0, 1.0))]
    #[var(set = set_grass)]
    grass: i32,
    /// Layer index of the `rock` role (steep or eroded ground); -1 = unbound.
    #[export(range = (-1.0, 31.0, 1.0))]
    #[var(set = set_rock)]
    rock: i32,
    /// Layer index of the `cliff` role (very steep faces); -1 = unbound.
    #[export(range = (-1.0, 31.0, 1.0))]
    #[var(set = set_cliff)]
    cliff: i32,
    /// Layer index of the `sediment` role (deposits, stream beds); -1 = unbound.
    #[export(range = (-1.0, 31.0, 1.0))]
    #[var(set = set_sediment)]
    sediment: i32,
    /// Layer index of the `sand` role (dry shores); -1 = unbound.
    #[export(range = (-1.0, 31.0, 1.0))]
    #[var(set = set_sand)]
    sand: i32,
    /// Layer index of the `snow` role (high ground where the biome allows snow); -1 = unbound.
    #[export(range = (-1.0, 31.0, 1.0))]
    #[var(set = set_snow)]
    snow: i32,
    /// Layer index of the `wet_ground` role (moist shores); -1 = unbound.
    #[export(range = (-1.0, 31.0, 1.0))]
    #[var(set = set_wet_ground)]
    wet_ground: i32,
    /// Layer index of the `underwater` role (submerged beds); -1 = unbound.
    #[export(range = (-1.0, 31.0, 1.0))]
    #[var(set = set_underwater)]
    underwater: i32,
    /// Biome name → a [TerrainTextureLayer] (or a layer index) shown for every role of that
    /// biome. Layers not in [member layers] are added to the arrays after them.
    #[export]
    #[var(set = set_biome_overrides)]
    biome_overrides: VarDictionary,
    /// Side in pixels of every layer in the texture arrays (256–4096; clamped to the largest
    /// source texture). Default 1024.
    #[export(range = (256.0, 4096.0, 1.0))]
    #[var(set = set_texture_size)]
    texture_size: i32,
    base: Base<Resource>,
}

#[godot_api]
impl IResource for TerrainMaterialSet {
    fn init(base: Base<Resource>) -> Self {
        Self {
            layers: Array::new(),
            ground: -1,
            grass: -1,
            rock: -1,
            cliff: -1,
            sediment: -1,
            sand: -1,
            snow: -1,
            wet_ground: -1,
            underwater: -1,
            biome_overrides: VarDictionary::new(),
            texture_size: 1024,
            base,
        }
    }
}

#[godot_api]
impl TerrainMaterialSet {
    /// Sets [member layers].
    #[func]
    pub fn set_layers(&mut self, v: Array<Option<Gd<TerrainTextureLayer>>>) {
        self.layers = v;
        self.base_mut().emit_changed();
    }
    /// Sets [member ground] (-1 or a layer index 0–31; other values are refused with an error).
    #[func]
    pub fn set_ground(&mut self, v: i32) {
        self.bind_role(0, v, "ground");
    }
    /// Sets [member grass] (-1 or a layer index 0–31; other values are refused with an error).
    #[func]
    pub fn set_grass(&mut self, v: i32) {
        self.bind_role(1, v, "grass");
    }
    /// Sets [member rock] (-1 or a layer index 0–31; other values are refused with an error).
    #[func]
    pub fn set_rock(&mut self, v: i32) {
        self.bind_role(2, v, "rock");
    }
    /// Sets [member cliff] (-1 or a layer index 0–31; other values are refused with an error).
    #[func]
    pub fn set_cliff(&mut self, v: i32) {
        self.bind_role(3, v, "cliff");
    }
    /// Sets [member sediment] (-1 or a layer index 0–31; other values are refused with an error).
    #[func]
    pub fn set_sediment(&mut self, v: i32) {
        self.bind_role(4, v, "sediment");
    }
    /// Sets [member sand] (-1 or a layer index 0–31; other values are refused with an error).
    #[func]
    pub fn set_sand(&mut self, v: i32) {
        self.bind_role(5, v, "sand");
    }
    /// Sets [member snow] (-1 or a layer index 0–31; other values are refused with an error).
    #[func]
    pub fn set_snow(&mut self, v: i32) {
        self.bind_role(6, v, "snow");
    }
    /// Sets [member wet_ground] (-1 or a layer index 0–31; other values are refused with an error).
    #[func]
    pub fn set_wet_ground(&mut self, v: i32) {
        self.bind_role(7, v, "wet_ground");
    }
    /// Sets [member underwater] (-1 or a layer index 0–31; other values are refused with an error).
    #[func]
    pub fn set_underwater(&mut self, v: i32) {
        self.bind_role(8, v, "underwater");
    }
    /// Sets [member biome_overrides].
    #[func]
    pub fn set_biome_overrides(&mut self, v: VarDictionary) {
        self.biome_overrides = v;
        self.base_mut().emit_changed();
    }
    /// Sets [member texture_size] (clamped to 256–4096).
    #[func]
    pub fn set_texture_size(&mut self, v: i32) {
        self.texture_size = crate::convert::property_check::clamp_reporting(
            "TerrainMaterialSet.texture_size",
            v,
            256,
            4096,
        );
        self.base_mut().emit_changed();
    }

    /// The layer index bound to the role named `role` (`"ground"` … `"underwater"`), -1 when
    /// unbound; an unknown role name is an error (answers -1).
    #[func]
    pub fn get_role_layer(&self, role: GString) -> i32 {
        let r = role.to_string();
        match ROLE_NAMES.iter().position(|n| *n == r) {
            Some(i) => self.roles()[i],
            None => {
                godot_error!(
                    "TerrainMaterialSet.get_role_layer: unknown role `{r}`; roles are {}",
                    ROLE_NAMES.join(", ")
                );
                -1
            }
        }
    }

    /// Binds the role named `role` to layer index `layer` (-1 = unbind, else 0–31); an unknown
    /// role name or another index is an error (nothing changes).
    #[func]
    pub fn set_role_layer(&mut self, role: GString, layer: i32) {
        let r = role.to_string();
        let Some(i) = ROLE_NAMES.iter().position(|n| *n == r) else {
            godot_error!(
                "TerrainMaterialSet.set_role_layer: unknown role `{r}`; roles are {}",
                ROLE_NAMES.join(", ")
            );
            return;
        };
        self.bind_role(i, layer, "set_role_layer");
    }
}

/// A material set resolved for one terrain: the layers in array order and the per-biome layer
/// table.
pub struct ResolvedSet {
    /// Layers in array order (the set's, then override layers not in it).
    pub layers: Vec<Gd<TerrainTextureLayer>>,
    /// Per biome (terrain biome index), the layer id of each role.
    pub table: LayerTable,
    /// Array side in pixels (before clamping to the sources).
    pub texture_size: i32,
    /// Problems to report once (unbound roles, bad indices, unloadable overrides).
    pub warnings: Vec<String>,
}

impl TerrainMaterialSet {
    /// The layers of [member layers] (empty slots left out).
    pub fn layer_list(&self) -> Vec<Gd<TerrainTextureLayer>> {
        self.layers.iter_shared().flatten().collect()
    }

    fn roles(&self) -> [i32; ROLE_COUNT] {
        [
            self.ground,
            self.grass,
            self.rock,
            self.cliff,
            self.sediment,
            self.sand,
            self.snow,
            self.wet_ground,
            self.underwater,
        ]
    }

    /// Binds role `i` to layer `layer` and emits `changed`, or refuses an index no set can
    /// have (an error naming `what`).
    fn bind_role(&mut self, i: usize, layer: i32, what: &str) {
        if !(-1..MAX_LAYERS as i32).contains(&layer) {
            godot_error!(
                "TerrainMaterialSet.{what}: layer index {layer} for `{}` is out of range (-1 = unbound, else 0–{}); keeping {}",
                ROLE_NAMES[i],
                MAX_LAYERS - 1,
                self.roles()[i]
            );
            return;
        }
        *self.role_mut(i) = layer;
        self.base_mut().emit_changed();
    }

    fn role_mut(&mut self, i: usize) -> &mut i32 {
        match i {
            0 => &mut self.ground,
            1 => &mut self.grass,
            2 => &mut self.rock,
            3 => &mut self.cliff,
            4 => &mut self.sediment,
            5 => &mut self.sand,
            6 => &mut self.snow,
            7 => &mut self.wet_ground,
            _ => &mut self.underwater,
        }
    }

    /// Builds a set from a parsed material-set document's role bindings (role index → layer).
    pub fn from_bindings(
        name: Option<&str>,
        bindings: &[Option<Gd<TerrainTextureLayer>>; ROLE_COUNT],
    ) -> Gd<Self> {
        let mut set = Self::new_gd();
        {
            let mut s = set.bind_mut();
            let mut layers: Vec<Gd<TerrainTextureLayer>> = Vec::new();
            for (role, layer) in bindings.iter().enumerate() {
                let Some(layer) = layer else { continue };
                let idx = match layers.iter().position(|l| l == layer) {
                    Some(i) => i,
                    None => {
                        layers.push(layer.clone());
                        layers.len() - 1
                    }
                };
                *s.role_mut(role) = idx as i32;
            }
            s.layers = layers.into_iter().map(Some).collect();
        }
        if let Some(n) = name {
            set.clone().upcast::<Resource>().set_name(n);
        }
        set
    }

    /// Resolves the set for a terrain whose biomes are `biomes` (name, recipe `material` path):
    /// recipe materials win over [member biome_overrides], which win over the role bindings.
    pub fn resolve(&self, biomes: &[(String, Option<String>)]) -> ResolvedSet {
        let mut warnings = Vec::new();
        let mut layers: Vec<Gd<TerrainTextureLayer>> = Vec::with_capacity(self.layers.len());
        for (i, slot) in self.layers.iter_shared().enumerate() {
            layers.push(slot.unwrap_or_else(|| {
                warnings.push(format!(
                    "TerrainMaterialSet.layers[{i}] is empty: drawn as a plain layer until a TerrainTextureLayer is assigned"
                ));
                TerrainTextureLayer::new_gd()
            }));
        }
        if layers.len() > MAX_LAYERS {
            warnings.push(format!(
                "TerrainMaterialSet.layers: at most {MAX_LAYERS} layers are drawn, got {}; the rest are ignored",
                layers.len()
            ));
            layers.truncate(MAX_LAYERS);
        }
        let count = layers.len() as i32;
        let mut base_row = [UNBOUND; ROLE_COUNT];
        let mut unbound = Vec::new();
        for (role, &idx) in self.roles().iter().enumerate() {
            if idx < 0 {
                unbound.push(ROLE_NAMES[role]);
            } else if idx >= count {
                warnings.push(format!(
                    "TerrainMaterialSet.{}: layer index {idx} is out of range (the set has {count} layers); unbound",
                    ROLE_NAMES[role]
                ));
            } else {
                base_row[role] = idx as u8;
            }
        }
        if !unbound.is_empty() {
            warnings.push(format!(
                "TerrainMaterialSet: no layer for {}: those surfaces use the biome tint",
                unbound.join(", ")
            ));
        }
        let index_of = |layer: Gd<TerrainTextureLayer>,
                        layers: &mut Vec<Gd<TerrainTextureLayer>>| {
            if let Some(i) = layers.iter().position(|l| *l == layer) {
                return Some(i as u8);
            }
            if layers.len() >= MAX_LAYERS {
                return None;
            }
            layers.push(layer);
            Some((layers.len() - 1) as u8)
        };
        let mut rows = Vec::with_capacity(biomes.len().max(1));
        for (name, recipe_material) in biomes {
            let mut row = base_row;
            let mut chosen: Option<u8> = None;
            if let Some(path) = recipe_material {
                match load_layer(path) {
                    Ok(layer) => chosen = index_of(layer, &mut layers),
                    Err(e) => warnings.push(format!("biome `{name}`: material {e}")),
                }
            } else if let Some(v) = self
                .biome_overrides
                .get(&GString::from(name.as_str()))
                .or_else(|| self.biome_overrides.get(&StringName::from(name.as_str())))
            {
                if let Ok(layer) = v.try_to::<Gd<TerrainTextureLayer>>() {
                    chosen = index_of(layer, &mut layers);
                } else if let Ok(i) = v.try_to::<i64>()
                    && (0..count as i64).contains(&i)
                {
                    chosen = Some(i as u8);
                } else {
                    warnings.push(format!(
                        "TerrainMaterialSet.biome_overrides[\"{name}\"]: must be a TerrainTextureLayer or a layer index below {count}, got {v}"
                    ));
                }
            }
            if let Some(id) = chosen {
                row = [id; ROLE_COUNT];
            }
            rows.push(row);
        }
        if rows.is_empty() {
            rows.push(base_row);
        }
        ResolvedSet {
            layers,
            table: LayerTable::new(rows),
            texture_size: self.texture_size,
            warnings,
        }
    }
}

/// Loads a [TerrainTextureLayer] from `path` (a recipe biome's `material`).
pub fn load_layer(path: &str) -> Result<Gd<TerrainTextureLayer>, String> {
    let res = ResourceLoader::singleton()
        .load(path)
        .ok_or_else(|| format!("`{path}` cannot be loaded"))?;
    res.try_cast::<TerrainTextureLayer>()
        .map_err(|r| format!("`{path}` is a {}, not a TerrainTextureLayer", r.get_class()))
}

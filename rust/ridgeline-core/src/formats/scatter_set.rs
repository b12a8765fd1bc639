//! Seed-002 scatter sets, both directions: a set keeps many copies of a few models (`items`)
//! as compact instance arrays `[item, x, y, z, pitch, yaw, roll, scale]` (angles in degrees,
//! YXZ order). On write positions round to 0.01, angles to 0.1 and scale to 0.001.
//!
//! - [`export`]: a palette's placements as sets — rules with `collision: "none"` become one
//!   `foliage` set (a MultiMesh without collision), the others one `props` set (`convex`
//!   collision from the prefab's shapes). Each rule is one item (source = its model or prefab,
//!   its scale range and spacing; `random_yaw` when its yaw range is a full turn).
//! - [`ScatterSet::parse`] reads a set with located errors; [`ScatterSet::to_scatter`] turns
//!   its instances into placements. An imported item's rule id is its source's file stem (made
//!   a valid id, `_2`, `_3`… when two items share one); an imported instance's identity is its
//!   index among its item's instances.

use crate::doc::reader::{ObjectReader, index, read_numbers, show, type_name};
use crate::error::{Diagnostics, Error, Result};
use crate::scatter::palette::Collision;
use crate::scatter::{Palette, Placement, Scatter};
use serde_json::{Map, Value, json};

/// What Godot builds for a set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetKind {
    /// Scenes with scripts and collision.
    Props,
    /// A MultiMesh without collision.
    Foliage,
}

impl SetKind {
    /// The seed's name.
    pub fn name(self) -> &'static str {
        match self {
            SetKind::Props => "props",
            SetKind::Foliage => "foliage",
        }
    }
}

/// Collision shape kinds a set may ask for.
pub const COLLISIONS: [&str; 5] = ["none", "box", "convex", "decomposition", "trimesh"];

/// One model a set places.
#[derive(Clone, Debug, PartialEq)]
pub struct SetItem {
    /// `res://` model or scene.
    pub source: String,
    /// Relative chance of being picked (≥ 0).
    pub weight: f64,
    /// Uniform scale range.
    pub scale: [f64; 2],
    /// Minimum distance to every other instance.
    pub spacing: f64,
    /// 0 upright … 1 follows the surface normal.
    pub align: f64,
    /// Random heading.
    pub random_yaw: bool,
    /// Largest random lean (degrees).
    pub tilt: f64,
    /// Units pushed into the surface.
    pub sink: f64,
    /// Material override.
    pub material: Option<String>,
    /// Whether the brush paints this item.
    pub enabled: bool,
}

/// One placed instance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SetInstance {
    /// Index into the set's items.
    pub item: usize,
    /// Position.
    pub position: [f64; 3],
    /// Pitch, yaw, roll in degrees (YXZ order).
    pub angles: [f64; 3],
    /// Uniform scale.
    pub scale: f64,
}

/// A scatter set.
#[derive(Clone, Debug, PartialEq)]
pub struct ScatterSet {
    /// Name shown in the editor.
    pub name: String,
    /// Props or foliage.
    pub kind: SetKind,
    /// Target surfaces (node ids), kept as written.
    pub targets: Option<Vec<Value>>,
    /// The models.
    pub items: Vec<SetItem>,
    /// Collision shape per instance.
    pub collision: String,
    /// Whether instances cast shadows.
    pub cast_shadows: bool,
    /// Hide beyond this distance (0 = never).
    pub visibility_range: f64,
    /// Cell size for culling (0 = one cell).
    pub chunk_size: f64,
    /// Draw scripted prop scenes as a MultiMesh too.
    pub static_props_multimesh: bool,
    /// Material override for the whole set.
    pub material: Option<String>,
    /// The instances.
    pub instances: Vec<SetInstance>,
}

fn round(v: f64, step: f64) -> f64 {
    let r = (v / step).round() * step;
    // Print 0.30000000000000004 as 0.3: the shortest decimal of the rounded value.
    let digits = (-step.log10()).round() as i32;
    let p = 10f64.powi(digits);
    let out = (r * p).round() / p;
    if out == 0.0 { 0.0 } else { out }
}

impl ScatterSet {
    /// The set as seed-002 JSON (every key but `targets` and `material` written; `enabled`
    /// only when false), rounded as the seed says.
    pub fn to_json(&self) -> Value {
        let items: Vec<Value> = self
            .items
            .iter()
            .map(|i| {
                let mut m = Map::new();
                m.insert("source".into(), json!(i.source));
                m.insert("weight".into(), json!(i.weight));
                m.insert("scale".into(), json!(i.scale));
                m.insert("spacing".into(), json!(i.spacing));
                m.insert("align".into(), json!(i.align));
                m.insert("random_yaw".into(), json!(i.random_yaw));
                m.insert("tilt".into(), json!(i.tilt));
                m.insert("sink".into(), json!(i.sink));
                if let Some(mat) = &i.material {
                    m.insert("material".into(), json!(mat));
                }
                if !i.enabled {
                    m.insert("enabled".into(), json!(false));
                }
                Value::Object(m)
            })
            .collect();
        let instances: Vec<Value> = self
            .instances
            .iter()
            .map(|s| {
                let [x, y, z] = s.position.map(|v| round(v, 0.01));
                let [p, yw, r] = s.angles.map(|v| round(v, 0.1));
                json!([s.item, x, y, z, p, yw, r, round(s.scale, 0.001)])
            })
            .collect();
        let mut m = Map::new();
        m.insert("name".into(), json!(self.name));
        m.insert("kind".into(), json!(self.kind.name()));
        if let Some(t) = &self.targets {
            m.insert("targets".into(), Value::Array(t.clone()));
        }
        m.insert("items".into(), Value::Array(items));
        m.insert("collision".into(), json!(self.collision));
        m.insert("cast_shadows".into(), json!(self.cast_shadows));
        m.insert("visibility_range".into(), json!(self.visibility_range));
        m.insert("chunk_size".into(), json!(self.chunk_size));
        m.insert(
            "static_props_multimesh".into(),
            json!(self.static_props_multimesh),
        );
        if let Some(mat) = &self.material {
            m.insert("material".into(), json!(mat));
        }
        m.insert("instances".into(), Value::Array(instances));
        Value::Object(m)
    }

    /// Reads a set at `path`, every problem located.
    pub fn parse(v: &Value, path: &str) -> Result<ScatterSet> {
        let mut d = Diagnostics::default();
        let mut r = ObjectReader::new(path, v, &mut d);
        let name = r.opt_str(&mut d, "name").unwrap_or_else(|| {
            if !r.has("name") {
                d.push(r.at("name"), "is required");
            }
            String::new()
        });
        let kind = match r.opt_str(&mut d, "kind").as_deref() {
            None | Some("props") => SetKind::Props,
            Some("foliage") => SetKind::Foliage,
            Some(other) => {
                d.push(
                    r.at("kind"),
                    format!("must be \"props\" or \"foliage\", got \"{other}\""),
                );
                SetKind::Props
            }
        };
        let targets = match r.raw("targets") {
            None => None,
            Some(Value::Array(a)) => Some(a.clone()),
            Some(other) => {
                d.push(
                    r.at("targets"),
                    format!("must be an array of node ids, got {}", type_name(other)),
                );
                None
            }
        };
        let mut items = Vec::new();
        match r.raw("items") {
            Some(Value::Array(a)) => {
                for (k, iv) in a.iter().enumerate() {
                    if let Some(item) = read_item(iv, &index(&r.at("items"), k), &mut d) {
                        items.push(item);
                    }
                }
            }
            Some(other) => d.push(
                r.at("items"),
                format!("must be an array of items, got {}", type_name(other)),
            ),
            None => d.push(r.at("items"), "is required (the models the set scatters)"),
        }
        let default_collision = match kind {
            SetKind::Foliage => "none",
            SetKind::Props => "convex",
        };
        let collision = match r.opt_str(&mut d, "collision") {
            None => default_collision.to_string(),
            Some(c) if COLLISIONS.contains(&c.as_str()) => c,
            Some(c) => {
                d.push(
                    r.at("collision"),
                    format!("must be one of {}, got \"{c}\"", COLLISIONS.join(", ")),
                );
                default_collision.to_string()
            }
        };
        let cast_shadows = r.bool(&mut d, "cast_shadows", true);
        let visibility_range = r.f64(
            &mut d,
            "visibility_range",
            0.0,
            crate::doc::reader::non_negative,
        );
        let chunk_size = r.f64(&mut d, "chunk_size", 0.0, crate::doc::reader::non_negative);
        let static_props_multimesh = r.bool(&mut d, "static_props_multimesh", false);
        let material = r.opt_str(&mut d, "material");
        let mut instances = Vec::new();
        let at = r.at("instances");
        match r.raw("instances") {
            None => {}
            Some(Value::Array(a)) => {
                for (k, iv) in a.iter().enumerate() {
                    let ip = index(&at, k);
                    let Some(n) = read_numbers::<8>(&ip, iv, &mut d) else {
                        continue;
                    };
                    if n[0] < 0.0 || n[0].fract() != 0.0 || n[0] as usize >= items.len() {
                        d.push(
                            index(&ip, 0),
                            format!("must index the set's {} items, got {}", items.len(), n[0]),
                        );
                        continue;
                    }
                    if n[7] <= 0.0 {
                        d.push(index(&ip, 7), format!("scale must be > 0, got {}", n[7]));
                        continue;
                    }
                    instances.push(SetInstance {
                        item: n[0] as usize,
                        position: [n[1], n[2], n[3]],
                        angles: [n[4], n[5], n[6]],
                        scale: n[7],
                    });
                }
            }
            Some(other) => d.push(
                &at,
                format!(
                    "must be an array of [item, x, y, z, pitch, yaw, roll, scale], got {}",
                    type_name(other)
                ),
            ),
        }
        r.finish(&mut d);
        d.into_result()?;
        Ok(ScatterSet {
            name,
            kind,
            targets,
            items,
            collision,
            cast_shadows,
            visibility_range,
            chunk_size,
            static_props_multimesh,
            material,
            instances,
        })
    }

    /// The set's instances as placements: rule ids from the item sources (see the module
    /// docs), identity = index among the item's instances, yaw kept (pitch and roll are not
    /// placement fields and are dropped).
    pub fn to_scatter(&self) -> Scatter {
        let rules = rule_ids(&self.items);
        let mut counts = vec![0u32; self.items.len()];
        let placements = self
            .instances
            .iter()
            .map(|s| {
                let k = counts[s.item];
                counts[s.item] += 1;
                Placement {
                    rule: s.item as u16,
                    cell: [k, 0],
                    position: s.position.map(|v| v as f32),
                    yaw: s.angles[1] as f32,
                    scale: s.scale as f32,
                }
            })
            .collect();
        Scatter {
            palette: self.name.clone(),
            rules,
            placements,
            stats: Vec::new(),
            truncated: 0,
        }
    }

    /// A format-3 palette describing the set's items (density 0: the instances are authored,
    /// not procedural). Foliage items become `model` rules without collision, props `prefab`
    /// rules with static collision.
    pub fn to_palette(&self) -> Value {
        let mut placements = Map::new();
        for (id, item) in rule_ids(&self.items).into_iter().zip(&self.items) {
            let mut m = Map::new();
            match self.kind {
                SetKind::Foliage => {
                    m.insert("model".into(), json!(item.source));
                    m.insert("collision".into(), json!("none"));
                }
                SetKind::Props => {
                    m.insert("prefab".into(), json!(item.source));
                }
            }
            m.insert("density".into(), json!(0));
            m.insert("spacing".into(), json!(item.spacing));
            m.insert("scale".into(), json!(item.scale));
            if !item.random_yaw {
                m.insert("yaw".into(), json!([0, 0]));
            }
            placements.insert(id, Value::Object(m));
        }
        json!({"format_version": 3, "name": self.name, "placements": placements})
    }
}

fn read_item(v: &Value, path: &str, d: &mut Diagnostics) -> Option<SetItem> {
    let start = d.0.len();
    let mut r = ObjectReader::new(path, v, d);
    let source = match r.opt_str(d, "source") {
        Some(s) if !s.is_empty() => s,
        _ => {
            d.push(r.at("source"), "is required (a res:// model or scene)");
            String::new()
        }
    };
    let weight = r.f64(d, "weight", 1.0, crate::doc::reader::non_negative);
    let scale = match r.raw("scale") {
        None => [0.8, 1.2],
        Some(sv) => match read_numbers::<2>(&r.at("scale"), sv, d) {
            Some([a, b]) if a > 0.0 && a <= b => [a, b],
            Some(_) => {
                d.push(
                    r.at("scale"),
                    format!("must be [min, max] with 0 < min ≤ max, got {}", show(sv)),
                );
                [0.8, 1.2]
            }
            None => [0.8, 1.2],
        },
    };
    let spacing = r.f64(d, "spacing", 48.0, crate::doc::reader::non_negative);
    let align = r.f64(d, "align", 0.0, crate::doc::reader::within(0.0, 1.0));
    let random_yaw = r.bool(d, "random_yaw", true);
    let tilt = r.f64(d, "tilt", 0.0, crate::doc::reader::within(0.0, 90.0));
    let sink = r.f64(d, "sink", 0.0, |_| None);
    let material = r.opt_str(d, "material");
    let enabled = r.bool(d, "enabled", true);
    r.finish(d);
    (d.0.len() == start).then_some(SetItem {
        source,
        weight,
        scale,
        spacing,
        align,
        random_yaw,
        tilt,
        sink,
        material,
        enabled,
    })
}

/// Rule ids for items: each source's file stem as a valid id, deduplicated.
fn rule_ids(items: &[SetItem]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in items {
        let file = item.source.rsplit(['/', '\\']).next().unwrap_or("");
        let stem = file.split('.').next().unwrap_or("");
        let mut id: String = stem
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if id.is_empty() {
            id = "item".into();
        }
        let base = id.clone();
        let mut n = 2;
        while out.contains(&id) {
            id = format!("{base}_{n}");
            n += 1;
        }
        out.push(id);
    }
    out
}

/// `scatter`'s placements as sets: a `foliage` set for `palette`'s rules without collision,
/// a `props` set for the others (sets with no rule are left out). Placements of rules the
/// palette lacks are an error.
pub fn export(scatter: &Scatter, palette: &Palette) -> Result<Vec<ScatterSet>> {
    let mut sets = Vec::new();
    for kind in [SetKind::Foliage, SetKind::Props] {
        let mut items = Vec::new();
        let mut item_of = vec![None; scatter.rules.len()];
        for (k, id) in scatter.rules.iter().enumerate() {
            let Some(rule) = palette.rule(id) else {
                return Err(Error::invalid(
                    "palette",
                    format!("has no rule `{id}`, which the placements use"),
                ));
            };
            let foliage = rule.collision == Collision::None;
            if foliage != (kind == SetKind::Foliage) {
                continue;
            }
            item_of[k] = Some(items.len());
            items.push(SetItem {
                source: rule.geometry.reference().to_string(),
                weight: 1.0,
                scale: rule.scale,
                spacing: rule.spacing,
                align: 0.0,
                random_yaw: rule.yaw[1] - rule.yaw[0] >= 360.0,
                tilt: 0.0,
                sink: 0.0,
                material: None,
                enabled: true,
            });
        }
        if items.is_empty() {
            continue;
        }
        let instances = scatter
            .placements
            .iter()
            .filter_map(|p| {
                let item = item_of.get(p.rule as usize).copied().flatten()?;
                Some(SetInstance {
                    item,
                    position: p.position.map(f64::from),
                    angles: [0.0, p.yaw as f64, 0.0],
                    scale: p.scale as f64,
                })
            })
            .collect();
        sets.push(ScatterSet {
            name: format!("{} ({})", palette.name, kind.name()),
            kind,
            targets: None,
            items,
            collision: match kind {
                SetKind::Foliage => "none",
                SetKind::Props => "convex",
            }
            .into(),
            cast_shadows: kind == SetKind::Props,
            visibility_range: 0.0,
            chunk_size: 2048.0,
            static_props_multimesh: false,
            material: None,
            instances,
        });
    }
    Ok(sets)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn palette() -> Palette {
        Palette::parse(
            &json!({"format_version": 3, "name": "Forest", "placements": {
                "grass": {"model": "res://grass.mesh", "collision": "none", "category": "grass", "density": 1},
                "pine": {"prefab": "res://trees/pine.tscn", "density": 0.02, "spacing": 8, "scale": [0.9, 1.3]}}}),
            "palette",
        )
        .unwrap()
    }

    fn scatter() -> Scatter {
        Scatter {
            palette: "Forest".into(),
            rules: vec!["grass".into(), "pine".into()],
            placements: (0..30u32)
                .map(|k| Placement {
                    rule: (k % 2) as u16,
                    cell: [k, 1],
                    position: [k as f32 * 1.234_567, 2.456_78, 100.0 - k as f32 * 0.777],
                    yaw: k as f32 * 11.111,
                    scale: 0.9 + k as f32 * 0.012_34,
                })
                .collect(),
            stats: Vec::new(),
            truncated: 0,
        }
    }

    #[test]
    fn round_trip_keeps_items_and_rounds_instances_as_the_seed_says() {
        let sets = export(&scatter(), &palette()).unwrap();
        assert_eq!(
            sets.iter().map(|s| s.kind).collect::<Vec<_>>(),
            [SetKind::Foliage, SetKind::Props]
        );
        let json = sets[1].to_json();
        assert_eq!(json["collision"], "convex");
        assert_eq!(json["items"][0]["source"], "res://trees/pine.tscn");
        assert!(json.get("targets").is_none() && json["items"][0].get("enabled").is_none());
        let first = &json["instances"][0];
        assert_eq!(first, &json!([0, 1.23, 2.46, 99.22, 0.0, 11.1, 0.0, 0.912]));
        let back = ScatterSet::parse(&json, "set").unwrap();
        assert_eq!(back.to_json(), json, "stable after one rounding");
        let s = back.to_scatter();
        assert_eq!(s.rules, ["pine"]);
        let all = scatter();
        let original: Vec<&Placement> = all.placements.iter().filter(|p| p.rule == 1).collect();
        assert_eq!(s.placements.len(), original.len());
        for (a, b) in s.placements.iter().zip(original) {
            for (x, y) in a.position.iter().zip(b.position) {
                assert!((x - y).abs() <= 0.005 + 1e-4);
            }
            assert!(
                (a.yaw - b.yaw).abs() <= 0.05 + 1e-4 && (a.scale - b.scale).abs() <= 0.0005 + 1e-6
            );
        }
        let p = Palette::parse(&back.to_palette(), "palette").unwrap();
        assert_eq!(p.rule("pine").unwrap().spacing, 8.0);
    }

    #[test]
    fn bad_sets_get_located_errors() {
        let e = ScatterSet::parse(
            &json!({"name": "x", "kind": "trees", "collision": "mesh",
                    "items": [{"source": "res://a.tscn", "scale": [2, 1]}, {"weight": -1}],
                    "instances": [[5, 0, 0, 0, 0, 0, 0, 1], [0, 1, 2], [0, 0, 0, 0, 0, 0, 0, 0]]}),
            "set",
        )
        .unwrap_err()
        .to_string();
        for needle in [
            "set.kind: must be \"props\" or \"foliage\"",
            "set.collision: must be one of none, box, convex, decomposition, trimesh",
            "set.items[0].scale: must be [min, max] with 0 < min ≤ max",
            "set.items[1].source: is required",
            "set.items[1].weight: must be ≥ 0",
            "set.instances[1]: must be an array of 8 numbers",
        ] {
            assert!(e.contains(needle), "missing {needle:?} in {e}");
        }
        let e = ScatterSet::parse(
            &json!({"name": "x", "items": [{"source": "res://a.tscn"}], "instances": [[3, 0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0, -1]]}),
            "set",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("set.instances[0][0]: must index the set's 1 items, got 3"),
            "{e}"
        );
        assert!(e.contains("set.instances[1][7]: scale must be > 0"), "{e}");
    }

    #[test]
    fn item_ids_come_from_sources_and_stay_unique() {
        let item = |s: &str| SetItem {
            source: s.into(),
            weight: 1.0,
            scale: [1.0, 1.0],
            spacing: 0.0,
            align: 0.0,
            random_yaw: true,
            tilt: 0.0,
            sink: 0.0,
            material: None,
            enabled: true,
        };
        assert_eq!(
            rule_ids(&[
                item("res://a/pine tree.tscn"),
                item("res://b/pine tree.glb"),
                item("")
            ]),
            ["pine_tree", "pine_tree_2", "item"]
        );
    }
}

//! A node type's registry entry: everything declarative about it.

use super::{NodeImpl, PinSpec};
use crate::doc::params::{ParamSpec, Params};
use crate::error::Diagnostics;
use serde_json::{Value, json};

/// Where a node type sits in the editor's palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// Makes a heightfield from nothing.
    Generator,
    /// Makes a 0..1 mask.
    Mask,
    /// Changes a heightfield.
    Modifier,
    /// Simulates a process (drainage, erosion).
    Simulation,
    /// Water bodies.
    Water,
    /// Looks (materials, biomes).
    Appearance,
    /// Placements (scatter).
    Placement,
    /// Publishes the result.
    Output,
    /// Canvas notes.
    Notes,
}

impl Category {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Category::Generator => "generator",
            Category::Mask => "mask",
            Category::Modifier => "modifier",
            Category::Simulation => "simulation",
            Category::Water => "water",
            Category::Appearance => "appearance",
            Category::Placement => "placement",
            Category::Output => "output",
            Category::Notes => "notes",
        }
    }
}

/// A part of the evaluation context a node may read. The grid and cancellation are always
/// available; everything else must be declared, and exactly what is declared enters the
/// node's cache key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Read {
    /// The world seed.
    Seed,
    /// The recipe's landforms (shapes, default landform, derived sea level).
    Landforms,
    /// Preview or Final.
    Quality,
    /// The node's own id (stable water body ids).
    NodeId,
    /// The file the node names (read by the pipeline; its content hash enters the key).
    File,
    /// The recipe's biome table, rules and biome layers (compiled).
    Biomes,
    /// The recipe's scatter palette (its canonical JSON enters the key).
    Palette,
}

impl Read {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Read::Seed => "seed",
            Read::Landforms => "landforms",
            Read::Quality => "quality",
            Read::NodeId => "node_id",
            Read::File => "file",
            Read::Biomes => "biomes",
            Read::Palette => "palette",
        }
    }
}

/// How a node's params are saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Canonical {
    /// Values at their defaults are omitted.
    OmitDefaults,
    /// The params object is kept as authored (keys sorted): water nodes, whose saved
    /// documents spell some defaults and must stay byte-stable.
    AsAuthored,
}

/// One node type.
#[derive(Clone, Copy)]
pub struct NodeSpec {
    /// Stable type id (saved in recipes).
    pub id: &'static str,
    /// Display title.
    pub title: &'static str,
    /// Palette category.
    pub category: Category,
    /// One-line description.
    pub description: &'static str,
    /// Editor icon name.
    pub icon: &'static str,
    /// Input pins, in order.
    pub inputs: &'static [PinSpec],
    /// Output pins, in order.
    pub outputs: &'static [PinSpec],
    /// Parameter specs (groups, read in order).
    pub params: &'static [&'static [ParamSpec]],
    /// Context parts it reads (and its cache key hashes).
    pub reads: &'static [Read],
    /// How its params are saved.
    pub canonical: Canonical,
    /// Builds the behaviour from read params; cross-parameter checks report at `path`.
    pub build: fn(&Params, &str, &mut Diagnostics) -> Box<dyn NodeImpl>,
}

impl std::fmt::Debug for NodeSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodeSpec").field("id", &self.id).finish()
    }
}

impl NodeSpec {
    /// Every parameter spec, in order.
    pub fn param_specs(&self) -> impl Iterator<Item = &'static ParamSpec> {
        self.params.iter().flat_map(|g| g.iter())
    }

    /// Whether the node reads `part` of the context.
    pub fn reads(&self, part: Read) -> bool {
        self.reads.contains(&part)
    }

    /// The entry as JSON (see [`super::catalog`]).
    pub fn to_json(&self) -> Value {
        let pins = |pins: &[PinSpec], inputs: bool| -> Value {
            Value::Array(
                pins.iter()
                    .map(|p| {
                        let mut v = json!({ "name": p.name, "kind": p.kind.name() });
                        if inputs {
                            v["required"] = Value::Bool(p.required);
                        }
                        v
                    })
                    .collect(),
            )
        };
        json!({
            "id": self.id,
            "title": self.title,
            "category": self.category.name(),
            "description": self.description,
            "icon": self.icon,
            "inputs": pins(self.inputs, true),
            "outputs": pins(self.outputs, false),
            "params": self.param_specs().map(ParamSpec::to_json).collect::<Vec<_>>(),
            "reads": self.reads.iter().map(|r| r.name()).collect::<Vec<_>>(),
        })
    }
}

impl NodeSpec {
    /// The node's pin and parameter tables in Markdown, as `docs/nodes.md` shows them (a test
    /// keeps the doc equal to this).
    pub fn docs_table(&self) -> String {
        let mut out = String::new();
        let pins = |pins: &[PinSpec], inputs: bool| -> String {
            if pins.is_empty() {
                return "none".into();
            }
            pins.iter()
                .map(|p| {
                    let opt = if inputs && !p.required {
                        ", optional"
                    } else {
                        ""
                    };
                    format!("`{}` ({}{opt})", p.name, p.kind.name())
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.push_str(&format!(
            "*{}* · icon `{}` · inputs: {} · outputs: {}\n",
            self.category.name(),
            self.icon,
            pins(self.inputs, true),
            pins(self.outputs, false)
        ));
        let specs: Vec<&ParamSpec> = self.param_specs().collect();
        if specs.is_empty() {
            out.push_str("\nNo parameters.\n");
            return out;
        }
        out.push_str("\n| param | type | default | range | unit | |\n|---|---|---|---|---|---|\n");
        for p in specs {
            let default = match p.default_json() {
                Value::Null => "—".to_string(),
                v => format!("`{v}`"),
            };
            let range = match p.range_text() {
                r if r.is_empty() => "—".to_string(),
                r => r,
            };
            let unit = if p.unit.is_empty() { "—" } else { p.unit };
            let mut doc = if p.required {
                format!("required; {}", p.doc)
            } else {
                p.doc.to_string()
            };
            if let Some((param, values)) = p.applies_when {
                doc.push_str(&format!(
                    " (read when `{param}` is {})",
                    values.join(" or ")
                ));
            }
            let doc = doc.replace('|', "\\|");
            out.push_str(&format!(
                "| `{}` | {} | {default} | {range} | {unit} | {doc} |\n",
                p.name,
                p.ty.name()
            ));
            if let crate::doc::params::ParamType::Records(fields) = p.ty {
                for f in fields {
                    let default = match f.default_json() {
                        Value::Null => "—".to_string(),
                        v => format!("`{v}`"),
                    };
                    let range = match f.range_text() {
                        r if r.is_empty() => "—".to_string(),
                        r => r,
                    };
                    let unit = if f.unit.is_empty() { "—" } else { f.unit };
                    out.push_str(&format!(
                        "| `{}[].{}` | {} | {default} | {range} | {unit} | {}{} |\n",
                        p.name,
                        f.name,
                        f.ty.name(),
                        if f.required { "required; " } else { "" },
                        f.doc
                    ));
                }
            }
        }
        out
    }
}

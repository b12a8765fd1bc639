//! Material sets: a document binding surface roles to materials, and which material a sample
//! shows.
//!
//! ```json
//! { "format_version": 1, "name": "Landscape surfaces",
//!   "roles": { "ground": "res://materials/soil.tres", "rock": "res://materials/rock.tres",
//!              "underwater": "res://materials/riverbed.tres" } }
//! ```
//!
//! `format_version` (1) and `roles` are required, `name` is optional; role keys are the nine
//! roles (`ground`, `grass`, `rock`, `cliff`, `sediment`, `sand`, `snow`, `wet_ground`,
//! `underwater`) and values non-empty material paths. Unknown keys, unknown roles and empty
//! paths are errors; unbound roles are not — they are reported, and their samples use the biome
//! tint.
//!
//! **Resolution** of a sample's material: the biome's explicit `material` override wins; else
//! the set's binding of the sample's role; else none (the biome tint alone). The biome colour
//! tints whichever material is chosen.

use super::BiomeSpec;
use super::classify::Classification;
use super::roles::Role;
use crate::error::{Diagnostic, Diagnostics, Error, Result};
use serde_json::{Map, Value};

/// The material-set format version this build reads and writes.
pub const FORMAT_VERSION: u64 = 1;

/// Role → material bindings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MaterialSet {
    /// Display name.
    pub name: Option<String>,
    bindings: [Option<String>; 9],
}

impl MaterialSet {
    /// An empty set.
    pub fn new(name: Option<String>) -> Self {
        Self {
            name,
            bindings: Default::default(),
        }
    }

    /// Binds `role` to `material`.
    pub fn bind(&mut self, role: Role, material: impl Into<String>) {
        self.bindings[role as usize] = Some(material.into());
    }

    /// The material bound to `role`.
    pub fn binding(&self, role: Role) -> Option<&str> {
        self.bindings[role as usize].as_deref()
    }

    /// Roles without a binding, in role order.
    pub fn missing_roles(&self) -> Vec<Role> {
        Role::ALL
            .into_iter()
            .filter(|&r| self.binding(r).is_none())
            .collect()
    }

    /// Parses a material-set document. Errors are located under `path`; the returned warnings
    /// name unbound roles.
    pub fn parse(text: &str, path: &str) -> Result<(Self, Vec<Diagnostic>)> {
        let v: Value = serde_json::from_str(text).map_err(|e| {
            Error::invalid(
                path,
                format!(
                    "is not valid JSON: {e} (line {}, column {})",
                    e.line(),
                    e.column()
                ),
            )
        })?;
        Self::from_value(&v, path)
    }

    /// Reads a parsed document (see [`MaterialSet::parse`]).
    pub fn from_value(v: &Value, path: &str) -> Result<(Self, Vec<Diagnostic>)> {
        let at = |key: &str| {
            if path.is_empty() {
                key.to_string()
            } else {
                format!("{path}.{key}")
            }
        };
        let mut d = Diagnostics::default();
        let Some(obj) = v.as_object() else {
            return Err(Error::invalid(path, "must be a JSON object"));
        };
        for key in obj.keys() {
            if !["format_version", "name", "roles"].contains(&key.as_str()) {
                d.push(
                    at(key),
                    "is not a material-set field (format_version, name, roles)",
                );
            }
        }
        match obj.get("format_version") {
            Some(f) if crate::doc::reader::whole_u64(f) == Some(FORMAT_VERSION) => {}
            Some(f) => d.push(
                at("format_version"),
                format!("must be {FORMAT_VERSION}, got {f}"),
            ),
            None => d.push(
                at("format_version"),
                format!("is required (use {FORMAT_VERSION})"),
            ),
        }
        let name = match obj.get("name") {
            None => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                d.push(at("name"), format!("must be a string, got {other}"));
                None
            }
        };
        let mut set = Self::new(name);
        match obj.get("roles") {
            Some(Value::Object(roles)) => {
                for (key, value) in roles {
                    let p = format!("{}.{key}", at("roles"));
                    let Some(role) = Role::parse(key) else {
                        let names: Vec<&str> = Role::ALL.iter().map(|r| r.name()).collect();
                        d.push(
                            p,
                            format!("unknown role `{key}`; roles are {}", names.join(", ")),
                        );
                        continue;
                    };
                    match value.as_str() {
                        Some(m) if !m.trim().is_empty() => set.bind(role, m),
                        _ => d.push(p, format!("must be a non-empty material path, got {value}")),
                    }
                }
            }
            Some(other) => d.push(
                at("roles"),
                format!("must be an object of role → material, got {other}"),
            ),
            None => d.push(at("roles"), "is required: bind at least one role"),
        }
        d.into_result()?;
        let missing = set.missing_roles();
        let warnings = if missing.is_empty() {
            Vec::new()
        } else {
            let names: Vec<&str> = missing.iter().map(|r| r.name()).collect();
            vec![Diagnostic::new(
                at("roles"),
                format!(
                    "no material for {}: those surfaces use the biome tint",
                    names.join(", ")
                ),
            )]
        };
        Ok((set, warnings))
    }

    /// Canonical JSON (roles in role order).
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("format_version".into(), Value::from(FORMAT_VERSION));
        if let Some(n) = &self.name {
            m.insert("name".into(), Value::from(n.clone()));
        }
        let mut roles = Map::new();
        for r in Role::ALL {
            if let Some(b) = self.binding(r) {
                roles.insert(r.name().into(), Value::from(b));
            }
        }
        m.insert("roles".into(), Value::Object(roles));
        Value::Object(m)
    }
}

/// Which material a sample shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaterialSource<'a> {
    /// The biome's explicit material.
    Override(&'a str),
    /// The set's binding of the sample's role.
    Role(&'a str),
    /// No material: the biome tint alone.
    Tint,
}

/// The material of a sample of `biome` with `role`.
pub fn resolve<'a>(
    biome: &'a BiomeSpec,
    role: Role,
    set: Option<&'a MaterialSet>,
) -> MaterialSource<'a> {
    if let Some(m) = &biome.material {
        return MaterialSource::Override(m);
    }
    match set.and_then(|s| s.binding(role)) {
        Some(m) => MaterialSource::Role(m),
        None => MaterialSource::Tint,
    }
}

/// A (biome, role) pair that shows only its tint, and how many samples have it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingBinding {
    /// Biome id.
    pub biome: u16,
    /// Role.
    pub role: Role,
    /// Samples with this biome and role.
    pub samples: usize,
}

/// Every (biome, role) resolved once: a palette of distinct materials and an index per pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaterialTable {
    /// Distinct materials, in first-use order over (biome, role).
    pub materials: Vec<String>,
    /// Per biome × 9 roles: 0 = tint, `k` = `materials[k − 1]`.
    lookup: Vec<u16>,
}

impl MaterialTable {
    /// Resolves every pair of `biomes` × roles against `set`.
    pub fn build(biomes: &[BiomeSpec], set: Option<&MaterialSet>) -> Self {
        let mut materials: Vec<String> = Vec::new();
        let mut lookup = Vec::with_capacity(biomes.len() * Role::ALL.len());
        for b in biomes {
            for r in Role::ALL {
                let id = match resolve(b, r, set) {
                    MaterialSource::Override(m) | MaterialSource::Role(m) => {
                        match materials.iter().position(|x| x == m) {
                            Some(k) => k + 1,
                            None => {
                                materials.push(m.to_string());
                                materials.len()
                            }
                        }
                    }
                    MaterialSource::Tint => 0,
                };
                lookup.push(id as u16);
            }
        }
        Self { materials, lookup }
    }

    /// The material index of (biome, role), `None` for tint only.
    pub fn material(&self, biome: u16, role: Role) -> Option<u16> {
        let k = *self
            .lookup
            .get(biome as usize * Role::ALL.len() + role as usize)?;
        (k != 0).then(|| k - 1)
    }

    /// Per sample: 0 = tint, `k` = `materials[k − 1]`.
    pub fn sample_materials(&self, cls: &Classification) -> Vec<u16> {
        self.sample_materials_of(cls.biome_ids(), &cls.role_ids())
    }

    /// [`MaterialTable::sample_materials`] from per-sample biome ids and role ids (as a
    /// prepared terrain or a payload holds them). A role id past the nine roles or a biome id
    /// past the table gives 0 (tint).
    pub fn sample_materials_of(&self, biome_ids: &[u16], role_ids: &[u8]) -> Vec<u16> {
        biome_ids
            .iter()
            .zip(role_ids)
            .map(|(&b, &r)| self.slot(b, r).map_or(0, |k| self.lookup[k]))
            .collect()
    }

    fn slot(&self, biome: u16, role: u8) -> Option<usize> {
        let k = biome as usize * Role::ALL.len() + role as usize;
        ((role as usize) < Role::ALL.len() && k < self.lookup.len()).then_some(k)
    }

    /// The (biome, role) pairs present on the terrain that have no material, with sample
    /// counts, in (biome, role) order.
    pub fn missing(&self, cls: &Classification) -> Vec<MissingBinding> {
        self.missing_of(cls.biome_ids(), &cls.role_ids())
    }

    /// [`MaterialTable::missing`] from per-sample biome ids and role ids.
    pub fn missing_of(&self, biome_ids: &[u16], role_ids: &[u8]) -> Vec<MissingBinding> {
        let mut counts = vec![0usize; self.lookup.len()];
        for (&b, &r) in biome_ids.iter().zip(role_ids) {
            if let Some(k) = self.slot(b, r) {
                counts[k] += 1;
            }
        }
        counts
            .iter()
            .enumerate()
            .filter(|&(k, &n)| n > 0 && self.lookup[k] == 0)
            .filter_map(|(k, &n)| {
                Some(MissingBinding {
                    biome: (k / Role::ALL.len()) as u16,
                    role: Role::from_id((k % Role::ALL.len()) as u8)?,
                    samples: n,
                })
            })
            .collect()
    }

    /// The missing bindings as diagnostics naming biomes (`material_set.roles.snow: …`).
    pub fn report(&self, biomes: &[BiomeSpec], cls: &Classification) -> Vec<Diagnostic> {
        self.report_of(biomes, cls.biome_ids(), &cls.role_ids())
    }

    /// [`MaterialTable::report`] from per-sample biome ids and role ids.
    pub fn report_of(
        &self,
        biomes: &[BiomeSpec],
        biome_ids: &[u16],
        role_ids: &[u8],
    ) -> Vec<Diagnostic> {
        self.missing_of(biome_ids, role_ids)
            .into_iter()
            .map(|m| {
                let name = biomes
                    .get(m.biome as usize)
                    .map_or("?", |b| b.name.as_str());
                Diagnostic::new(
                    format!("material_set.roles.{}", m.role.name()),
                    format!(
                        "biome `{name}` has {} `{}` samples and no material for them; they use the biome tint",
                        m.samples,
                        m.role.name()
                    ),
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;

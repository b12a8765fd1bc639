//! Reading a recipe object: [`Recipe::from_value`] validates every field with located
//! messages (`recipe.biomes["alpine"].color[2]: must be 0..=1, got 3`).

use super::*;

impl Recipe {
    /// Parses and validates a recipe object at `path`; problems go to `d`.
    pub fn from_value(value: &Value, path: &str, d: &mut Diagnostics) -> Option<Self> {
        let start = d.0.len();
        let mut r = ObjectReader::new(path, value, d);
        r.int(d, "format_version", FORMAT_VERSION, 1..=FORMAT_VERSION);
        let size = r.numbers::<2>(d, "size", [256.0, 256.0]);
        for (i, axis) in ["x", "z"].iter().enumerate() {
            if !(size[i] > 0.0 && size[i] <= MAX_SIZE) {
                d.push(
                    format!("{}[{i}]", r.at("size")),
                    format!(
                        "{axis} size must be > 0 and ≤ {MAX_SIZE} world units, got {}",
                        size[i]
                    ),
                );
            }
        }
        let mut resolution = [256u32; 2];
        if let Some(v) = r.raw("resolution")
            && let Some(res) = read_numbers::<2>(&r.at("resolution"), v, d)
        {
            {
                for (i, &cells) in res.iter().enumerate() {
                    if cells.fract() != 0.0 || !(1.0..=MAX_CELLS_PER_AXIS as f64).contains(&cells) {
                        d.push(
                            format!("{}[{i}]", r.at("resolution")),
                            format!(
                                "cells must be a whole number 1..={MAX_CELLS_PER_AXIS} (the documented limit), got {cells}"
                            ),
                        );
                    } else {
                        resolution[i] = cells as u32;
                    }
                }
            }
        }
        let seed = r.u64(d, "seed", 0);
        let chunk_cells = r.int(
            d,
            "chunk_cells",
            64,
            *CHUNK_CELLS_RANGE.start() as i64..=*CHUNK_CELLS_RANGE.end() as i64,
        ) as u32;
        // The grid generation derives must exist: the same check as `generate`, at parse.
        if d.0.len() == start
            && let Err(e) = Grid::new([size[0] as f32, size[1] as f32], resolution, chunk_cells)
        {
            for x in e.diagnostics() {
                let at = match x.path.as_str() {
                    "size.x" => index(&r.at("size"), 0),
                    "size.z" => index(&r.at("size"), 1),
                    "resolution.x" => index(&r.at("resolution"), 0),
                    "resolution.z" => index(&r.at("resolution"), 1),
                    other => r.at(other),
                };
                d.push(at, format!("{} as a 32-bit grid value", x.message));
            }
        }

        // Landforms.
        let mut landforms = BTreeMap::new();
        if let Some(v) = r.raw("landforms") {
            let lpath = r.at("landforms");
            match v.as_object() {
                Some(m) => {
                    for (name, lv) in m {
                        let p = entry(&lpath, name);
                        let mut lr = ObjectReader::new(&p, lv, d);
                        let shape = parse_shape(&mut lr, d);
                        lr.finish(d);
                        landforms.insert(name.clone(), shape);
                    }
                }
                None => d.push(
                    lpath,
                    format!("must be an object keyed by name, got {}", type_name(v)),
                ),
            }
        }
        let default_landform = r
            .opt_str(d, "default_landform")
            .unwrap_or_else(|| DEFAULT_NAME.to_string());
        if landforms.is_empty() {
            if default_landform != DEFAULT_NAME {
                d.push(
                    r.at("default_landform"),
                    format!("names `{default_landform}`, but the recipe defines no landforms"),
                );
            }
        } else if !landforms.contains_key(&default_landform) {
            d.push(
                r.at("default_landform"),
                format!(
                    "names `{default_landform}`, which `landforms` does not define; defined: {}",
                    landforms.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            );
        }

        // Biomes.
        let mut biomes = BTreeMap::new();
        if let Some(v) = r.raw("biomes") {
            let bpath = r.at("biomes");
            match v.as_object() {
                Some(m) => {
                    for (name, bv) in m {
                        let p = entry(&bpath, name);
                        biomes.insert(name.clone(), parse_biome(bv, &p, d));
                    }
                }
                None => d.push(
                    bpath,
                    format!("must be an object keyed by name, got {}", type_name(v)),
                ),
            }
        }
        let default_biome = r
            .opt_str(d, "default_biome")
            .unwrap_or_else(|| DEFAULT_NAME.to_string());
        let has_landform = |name: &str| {
            if landforms.is_empty() {
                name == DEFAULT_NAME
            } else {
                landforms.contains_key(name)
            }
        };
        for (name, b) in &biomes {
            if let Some(l) = &b.landform
                && !has_landform(l)
            {
                d.push(
                    member(&entry(&r.at("biomes"), name), "landform"),
                    format!("names landform `{l}`, which the recipe does not define"),
                );
            }
        }
        let has_biome = |name: &str| {
            if biomes.is_empty() {
                name == DEFAULT_NAME
            } else {
                biomes.contains_key(name)
            }
        };
        if !has_biome(&default_biome) {
            d.push(
                r.at("default_biome"),
                format!("names biome `{default_biome}`, which `biomes` does not define"),
            );
        }

        // Layers, rules, strokes.
        let layers = match r.raw("layers") {
            Some(v) => strokes::parse_layers(v, &r.at("layers"), d),
            None => Layer::defaults(),
        };
        let rules = match r.raw("rules") {
            Some(v) => strokes::parse_rules(v, &r.at("rules"), &has_biome, &layers, d),
            None => Vec::new(),
        };
        let stroke_list =
            |key: &'static str, r: &mut ObjectReader, d: &mut Diagnostics| match r.raw(key) {
                Some(v) => strokes::parse_strokes(v, &r.at(key), key, &has_biome, &layers, d),
                None => Vec::new(),
            };
        let regions = stroke_list("regions", &mut r, d);
        let edits = stroke_list("edits", &mut r, d);
        let exclusions = stroke_list("exclusions", &mut r, d);
        let foliage_paint = stroke_list("foliage_paint", &mut r, d);
        let palette = match r.raw("palette") {
            Some(v @ Value::Object(_)) => {
                let at = r.at("palette");
                let p = crate::scatter::Palette::read(v, &at, d);
                if let Some(p) = &p {
                    check_palette(p, &at, &has_biome, d);
                }
                p
            }
            Some(v) => {
                d.push(
                    r.at("palette"),
                    format!(
                        "must be a palette object (format_version 3), got {}",
                        type_name(v)
                    ),
                );
                None
            }
            None => None,
        };
        let preset_id = r.opt_str(d, "preset_id");
        let preset_version = r.raw("preset_version").and_then(|v| {
            reader::whole_u64(v).or_else(|| {
                d.push(
                    r.at("preset_version"),
                    reader::not_whole("a whole number", v),
                );
                None
            })
        });
        let preset = match (preset_id, preset_version) {
            (Some(id), Some(v)) => Some((id, v)),
            (None, None) => None,
            (Some(_), None) => {
                d.push(r.at("preset_version"), "is missing: preset_id and preset_version are always recorded together (a half-stamped preset is rejected)");
                None
            }
            (None, Some(_)) => {
                d.push(r.at("preset_id"), "is missing: preset_id and preset_version are always recorded together (a half-stamped preset is rejected)");
                None
            }
        };
        let graph = r
            .raw("graph")
            .and_then(|v| Graph::parse(v, &r.at("graph"), d));
        r.finish(d);

        let recipe = Recipe {
            size,
            resolution,
            seed,
            chunk_cells,
            default_landform,
            landforms,
            default_biome,
            biomes,
            rules,
            layers,
            regions,
            edits,
            exclusions,
            foliage_paint,
            palette,
            graph,
            preset,
            origin: Origin {
                source: String::new(),
                path: path.to_string(),
                dir: None,
            },
        };
        // Checks that need the whole recipe.
        if d.0.len() == start {
            for name in recipe.landform_names() {
                if let Some(shape) = recipe.landform(&name) {
                    check_domain(
                        &shape,
                        recipe.size_f32(),
                        &entry(&member(path, "landforms"), &name),
                        d,
                    );
                }
            }
            for (i, v) in recipe.foliage_paint.iter().enumerate() {
                let Some(f) = v.get("foliage").and_then(Value::as_str) else {
                    continue;
                };
                let known = recipe
                    .palette
                    .as_ref()
                    .is_some_and(|p| p.foliage_type(f).is_some());
                if !known {
                    d.push(
                        format!("{}.foliage", index(&member(path, "foliage_paint"), i)),
                        format!("names foliage type `{f}`, which the palette's `foliage` section does not define"),
                    );
                }
            }
            if let Some(p) = &recipe.palette {
                p.check_budgets(
                    recipe.size_f32(),
                    &crate::scatter::Budgets::default(),
                    &member(path, "palette"),
                    d,
                );
            }
            if let Some(g) = &recipe.graph {
                let ctx = CheckContext {
                    size: recipe.size_f32(),
                    landforms: recipe.landforms_view(),
                };
                g.check(&ctx, &member(path, "graph"), d);
            }
        }
        (d.0.len() == start).then_some(recipe)
    }
}

fn parse_biome(v: &Value, path: &str, d: &mut Diagnostics) -> Biome {
    let mut r = ObjectReader::new(path, v, d);
    for key in SHAPE_PARAMS.iter().map(|p| p.name) {
        if r.has(key) {
            let _ = r.raw(key);
            d.push(
                r.at(key),
                format!("`{key}` shapes the ground and belongs to a landform, not a biome; move it to an entry of `landforms` and name that landform in this biome's `landform`"),
            );
        }
    }
    let color = r.numbers::<4>(d, "color", [1.0, 1.0, 1.0, 1.0]);
    for (i, c) in color.iter().enumerate() {
        if !(0.0..=1.0).contains(c) {
            d.push(index(&r.at("color"), i), format!("must be 0..=1, got {c}"));
        }
    }
    let material = r.opt_str(d, "material");
    let texture_scale = r.f64(d, "texture_scale", 1.0, reader::positive);
    let landform = r.opt_str(d, "landform");
    let allow_snow = r.bool(d, "allow_snow", true);
    r.finish(d);
    Biome {
        color,
        material,
        texture_scale,
        landform,
        allow_snow,
    }
}

/// Palette checks against the recipe: every biome a rule names exists.
fn check_palette(
    p: &crate::scatter::Palette,
    path: &str,
    has_biome: &dyn Fn(&str) -> bool,
    d: &mut Diagnostics,
) {
    for rule in &p.rules {
        for (i, b) in rule.biomes.iter().flatten().enumerate() {
            if !has_biome(b) {
                d.push(
                    format!(
                        "{}.biomes[{i}]",
                        entry(&member(path, "placements"), &rule.id)
                    ),
                    format!("names biome \"{b}\", which the recipe's `biomes` does not define"),
                );
            }
        }
    }
    for t in &p.foliage {
        for (i, b) in t.biomes.iter().flatten().enumerate() {
            if !has_biome(b) {
                d.push(
                    format!("{}.biomes[{i}]", entry(&member(path, "foliage"), &t.id)),
                    format!("names biome \"{b}\", which the recipe's `biomes` does not define"),
                );
            }
        }
    }
}

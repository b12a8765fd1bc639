//! `ridgeline explain <recipe> --at X,Z`: why is this point this biome? Generates the terrain,
//! then prints the runtime's decision for the nearest sample (see
//! `ridgeline_core::biome::explain`). Progress goes to stderr; stdout is the report alone.

use crate::Format;
use crate::files::load;
use ridgeline_core::graph::eval::GraphCache;
use ridgeline_core::nodes::Quality;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Parses `X,Z` (terrain-local world units, finite).
pub fn parse_at(text: &str) -> Result<[f32; 2], String> {
    let bad = || format!("--at: expected X,Z (two finite numbers, terrain-local), got `{text}`");
    let (x, z) = text.split_once(',').ok_or_else(bad)?;
    let x: f32 = x.trim().parse().map_err(|_| bad())?;
    let z: f32 = z.trim().parse().map_err(|_| bad())?;
    if !(x.is_finite() && z.is_finite()) {
        return Err(bad());
    }
    Ok([x, z])
}

/// Runs the verb: the report as text or JSON on stdout.
pub fn run(file: &Path, at: &str, format: Format) -> Result<(), String> {
    let [x, z] = parse_at(at)?;
    let doc = load(file)?;
    let recipe = doc.recipe();
    eprintln!("generating {}", file.display());
    let progress = |f: f32, stage: &str| eprintln!("  {:>3.0}% {stage}", f * 100.0);
    let (e, _) = ridgeline_core::pipeline::explain(
        recipe,
        Quality::Final,
        &mut GraphCache::default(),
        &progress,
        &AtomicBool::new(false),
        Some(ridgeline_core::formats::file_mask_loader(
            file.parent().map(Path::to_path_buf).unwrap_or_default(),
        )),
        x,
        z,
    )
    .map_err(|e| e.to_string())?;
    match format {
        Format::Text => print!("{}", e.to_text()),
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&e.to_json()).unwrap_or_default()
        ),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_takes_two_finite_numbers() {
        assert_eq!(parse_at("10,110").unwrap(), [10.0, 110.0]);
        assert_eq!(parse_at(" 1.5 , -2 ").unwrap(), [1.5, -2.0]);
        for bad in ["10", "a,b", "1,2,3", "inf,0", "NaN,1", ""] {
            let e = parse_at(bad).unwrap_err();
            assert!(e.starts_with("--at: expected X,Z"), "{bad}: {e}");
        }
    }
}

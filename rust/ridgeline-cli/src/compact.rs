//! `ridgeline compact`: merges consecutive identical-setting stamps into one stroke entry.

use crate::files::{load, write_atomic};
use ridgeline_core::graph::eval::GraphCache;
use ridgeline_core::nodes::Quality;
use ridgeline_core::pipeline::compact::{compact, verify_equivalent};
use ridgeline_core::recipe::Document;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Runs the verb: prints what would change; with `write`, validates that the compacted recipe
/// generates the same heights, exclusion mask and regions, then rewrites the file (canonical
/// JSON, every unrelated field preserved). Returns the report printed to stdout.
pub fn run(file: &Path, write: bool) -> Result<String, String> {
    let doc = load(file)?;
    let c = compact(doc.recipe()).map_err(|e| e.to_string())?;
    let mut report = String::new();
    for (k, name) in ["edits", "exclusions", "regions"].iter().enumerate() {
        let (b, a) = (c.before[k], c.after[k]);
        if b != a {
            report.push_str(&format!("{name}: {b} entries → {a} (merged {})\n", b - a));
        }
    }
    if c.unchanged() {
        report.push_str("nothing to compact\n");
        return Ok(report);
    }
    if !write {
        report.push_str("run again with --write to validate and save\n");
        return Ok(report);
    }
    let base = ridgeline_core::pipeline::prepare_base(
        doc.recipe(),
        Quality::Final,
        &mut GraphCache::default(),
        &|_, _| {},
        &AtomicBool::new(false),
    )
    .map_err(|e| e.to_string())?;
    let masks = ridgeline_core::formats::file_mask_loader(
        file.parent().map(Path::to_path_buf).unwrap_or_default(),
    );
    verify_equivalent(doc.recipe(), &c.recipe, &base.field, Some(masks))
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let out = match doc {
        Document::Asset(mut a) => {
            a.recipe = c.recipe;
            Document::Asset(a)
        }
        Document::Recipe(_) => Document::Recipe(c.recipe),
    };
    write_atomic(file, out.to_canonical_json().as_bytes())?;
    report.push_str(&format!("validated and wrote {}\n", file.display()));
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r#"{"format_version": 1, "id": "asset://t", "recipe": {
        "size": [32, 32], "resolution": [32, 32], "seed": 3, "palette": {"format_version": 3, "name": "kept", "material_set": "res://m.tres"},
        "edits": [
          {"type": "raise", "radius": 3, "center": [5, 5]},
          {"type": "raise", "radius": 3, "center": [6, 5]},
          {"type": "smooth", "radius": 3, "center": [6, 5]}]}}"#;

    #[test]
    fn previews_then_writes_an_equivalent_compacted_file() {
        let dir = std::env::temp_dir().join(format!("ridgeline-compact-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("t.terrain.json");
        std::fs::write(&file, DOC).unwrap();
        let preview = run(&file, false).unwrap();
        assert!(
            preview.contains("edits: 3 entries → 2 (merged 1)"),
            "{preview}"
        );
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            DOC,
            "preview writes nothing"
        );
        let wrote = run(&file, true).unwrap();
        assert!(wrote.contains("validated and wrote"), "{wrote}");
        let text = std::fs::read_to_string(&file).unwrap();
        let doc = Document::parse(&text, "t").unwrap();
        assert_eq!(doc.recipe().edits.len(), 2);
        assert!(
            text.contains("\"name\": \"kept\"") && text.contains("res://m.tres"),
            "unrelated fields preserved"
        );
        assert!(run(&file, true).unwrap().contains("nothing to compact"));
        std::fs::write(&file, "{ broken").unwrap();
        assert!(run(&file, true).unwrap_err().contains("invalid JSON"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

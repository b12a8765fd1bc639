//! The layering check: for every workspace crate whose `lib.rs` crate docs hold a layer table
//!
//! ```text
//! //! ## Layers
//! //! | layer | modules |
//! //! |---|---|
//! //! | foundations | error, seed, grid |
//! //! | algorithms | query, mesh |
//! ```
//!
//! (rows bottom to top), every top-level module's files are scanned for `crate::<module>`
//! references (in `use` items and in paths). The check fails when a module refers to a module
//! of a higher layer, when modules refer to each other in a cycle (within a layer too), or when
//! a module declared in `lib.rs` is missing from the table. Test code may use any layer to
//! build its fixtures and is skipped: files named `tests.rs` or `*_tests.rs`, files under a
//! `tests/` folder, modules declared `#[cfg(test)]` in `lib.rs`, and everything after a
//! `#[cfg(test)]` line in a file (test modules go last). Crates without a table are skipped.

use anyhow::{Context, Result, bail};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One crate's table: module → layer index (0 = bottom).
#[derive(Debug, Default)]
struct Table {
    layer_of: BTreeMap<String, usize>,
    layers: Vec<String>,
}

/// Parses the `## Layers` table from `lib.rs` text; `None` when the crate has none.
fn parse_table(lib: &str) -> Option<Table> {
    let docs: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("//!"))
        .map(str::trim)
        .collect();
    let start = docs.iter().position(|l| *l == "## Layers")?;
    let mut table = Table::default();
    for line in &docs[start + 1..] {
        if line.starts_with("## ") {
            break;
        }
        if !line.starts_with('|') {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if cells.len() != 2 || cells[0] == "layer" || cells[0].starts_with("---") {
            continue;
        }
        let index = table.layers.len();
        table.layers.push(cells[0].to_string());
        for m in cells[1].split(',').map(str::trim).filter(|m| !m.is_empty()) {
            table.layer_of.insert(m.to_string(), index);
        }
    }
    Some(table)
}

/// Top-level modules declared in `lib.rs`: (name, declared under `#[cfg(test)]`).
fn declared_modules(lib: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut test_attr = false;
    for line in lib.lines().map(str::trim) {
        if line.starts_with("#[cfg(test)]") {
            test_attr = true;
            continue;
        }
        let decl = line
            .strip_prefix("pub mod ")
            .or_else(|| line.strip_prefix("pub(crate) mod "))
            .or_else(|| line.strip_prefix("mod "));
        if let Some(rest) = decl
            && let Some(name) = rest.strip_suffix(';')
        {
            out.push((name.trim().to_string(), test_attr));
        }
        if !line.starts_with("#[") {
            test_attr = false;
        }
    }
    out
}

/// The files of module `name` under `src` (`name.rs` and everything under `name/`).
fn module_files(src: &Path, name: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let single = src.join(format!("{name}.rs"));
    if single.is_file() {
        files.push(single);
    }
    let mut stack = vec![src.join(name)];
    while let Some(dir) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in read.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

fn is_test_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name == "tests.rs"
        || name.ends_with("_tests.rs")
        || path.components().any(|c| c.as_os_str() == "tests")
}

/// `crate::<module>` references in `text` (comments and everything after a `#[cfg(test)]`
/// line excluded), with their line numbers.
fn references(text: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    // `use crate::{a, b::c}` groups name several modules at once.
    let mut in_group = false;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim_start();
        if line.starts_with("#[cfg(test)]") {
            break;
        }
        let code = match line.find("//") {
            Some(0) => continue,
            Some(i) => &line[..i],
            None => line,
        };
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let after = &rest[i + "crate::".len()..];
            if let Some(group) = after.strip_prefix('{') {
                in_group = true;
                for item in group.split(',') {
                    let name: String = item
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        out.push((name, n + 1));
                    }
                }
                if group.contains('}') {
                    in_group = false;
                }
            } else {
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.push((name, n + 1));
                }
            }
            rest = after;
        }
        if in_group && !code.contains("crate::{") {
            // Continuation lines of a multi-line `use crate::{…}` group.
            for item in code.split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && !name.chars().next().is_some_and(char::is_uppercase) {
                    out.push((name, n + 1));
                }
            }
            if code.contains('}') {
                in_group = false;
            }
        }
    }
    out
}

/// Checks one crate rooted at `crate_dir`; returns the problems (empty when it passes) or
/// `None` when the crate has no layer table.
pub fn check_crate(crate_dir: &Path) -> Result<Option<Vec<String>>> {
    let src = crate_dir.join("src");
    let lib_path = src.join("lib.rs");
    let Ok(lib) = std::fs::read_to_string(&lib_path) else {
        return Ok(None);
    };
    let Some(table) = parse_table(&lib) else {
        return Ok(None);
    };
    let mut problems = Vec::new();
    let modules: Vec<String> = declared_modules(&lib)
        .into_iter()
        .filter(|(_, test)| !test)
        .map(|(m, _)| m)
        .collect();
    for m in &modules {
        if !table.layer_of.contains_key(m) {
            problems.push(format!(
                "{}: module `{m}` is not in the layer table",
                lib_path.display()
            ));
        }
    }
    // Module → modules it refers to (with one example location each).
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for m in &modules {
        let Some(&from_layer) = table.layer_of.get(m) else {
            continue;
        };
        for file in module_files(&src, m) {
            if is_test_file(&file) {
                continue;
            }
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            for (target, line) in references(&text) {
                if target == *m {
                    continue;
                }
                let Some(&to_layer) = table.layer_of.get(&target) else {
                    continue; // crate-root items (`crate::Result`) belong to no module
                };
                let at = format!("{}:{line}", file.display());
                if to_layer > from_layer {
                    problems.push(format!(
                        "{at}: `{m}` ({}) imports `crate::{target}` ({}), a higher layer",
                        table.layers[from_layer], table.layers[to_layer]
                    ));
                }
                edges
                    .entry(m.clone())
                    .or_default()
                    .entry(target)
                    .or_insert(at);
            }
        }
    }
    // Cycles (within a layer too), by iterative depth-first search.
    let nodes: Vec<&String> = modules.iter().collect();
    let mut state: BTreeMap<&str, u8> = BTreeMap::new();
    let mut reported: BTreeSet<Vec<String>> = BTreeSet::new();
    for root in &nodes {
        if state.get(root.as_str()).copied().unwrap_or(0) != 0 {
            continue;
        }
        let mut path: Vec<(&str, Vec<&str>, usize)> = vec![(
            root.as_str(),
            edges
                .get(root.as_str())
                .map(|e| e.keys().map(String::as_str).collect())
                .unwrap_or_default(),
            0,
        )];
        state.insert(root.as_str(), 1);
        while let Some((m, next, i)) = path.last_mut() {
            if let Some(&t) = next.get(*i) {
                *i += 1;
                match state.get(t).copied().unwrap_or(0) {
                    1 => {
                        let pos = path.iter().position(|(k, _, _)| *k == t).unwrap_or(0);
                        let mut cycle: Vec<String> =
                            path[pos..].iter().map(|(k, _, _)| k.to_string()).collect();
                        cycle.push(t.to_string());
                        let mut key = cycle[..cycle.len() - 1].to_vec();
                        key.sort();
                        if reported.insert(key) {
                            let at: Vec<String> = cycle
                                .windows(2)
                                .filter_map(|w| edges.get(&w[0]).and_then(|e| e.get(&w[1])))
                                .cloned()
                                .collect();
                            problems.push(format!(
                                "modules import each other in a cycle: {} (at {})",
                                cycle.join(" → "),
                                at.join(", ")
                            ));
                        }
                    }
                    0 => {
                        state.insert(t, 1);
                        let e = edges
                            .get(t)
                            .map(|e| e.keys().map(String::as_str).collect())
                            .unwrap_or_default();
                        path.push((t, e, 0));
                    }
                    _ => {}
                }
            } else {
                let m = *m;
                state.insert(m, 2);
                path.pop();
            }
        }
    }
    Ok(Some(problems))
}

/// Checks every crate under `rust/`; prints what it checked and every problem.
pub fn run(root: &Path) -> Result<bool> {
    let mut ok = true;
    let mut checked = 0;
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("rust"))
        .context("listing rust/")?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    dirs.sort();
    for dir in dirs {
        match check_crate(&dir)? {
            None => {}
            Some(problems) => {
                checked += 1;
                let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("?");
                if problems.is_empty() {
                    eprintln!("xtask: layering of {name}: ok");
                } else {
                    ok = false;
                    for p in problems {
                        eprintln!("xtask: layering of {name}: {p}");
                    }
                }
            }
        }
    }
    if checked == 0 {
        bail!("no crate has a `## Layers` table in its lib.rs docs");
    }
    Ok(ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, rel: &str, text: &str) {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    const LIB: &str = "//! Docs.\n//!\n//! ## Layers\n//! | layer | modules |\n//! |---|---|\n//! | base | a, b |\n//! | top | c |\n\npub mod a;\npub mod b;\npub mod c;\n#[cfg(test)]\nmod testutil;\n";

    fn fixture(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("xtask-layering-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        write(&dir, "src/lib.rs", LIB);
        write(&dir, "src/a.rs", "use crate::b::X;\n");
        write(
            &dir,
            "src/b.rs",
            "pub struct X;\n#[cfg(test)]\nmod t { use crate::c::Y; }\n",
        );
        write(
            &dir,
            "src/c/mod.rs",
            "use crate::{a, b::X};\npub struct Y;\n",
        );
        write(&dir, "src/c/tests.rs", "use crate::c::Y;\n");
        write(&dir, "src/testutil.rs", "use crate::c::Y;\n");
        dir
    }

    #[test]
    fn a_clean_crate_passes() {
        let dir = fixture("clean");
        assert_eq!(check_crate(&dir).unwrap(), Some(vec![]));
    }

    #[test]
    fn an_upward_import_fails_with_its_location() {
        let dir = fixture("up");
        write(
            &dir,
            "src/a.rs",
            "use crate::b::X;\nfn f() { crate::c::Y; }\n",
        );
        let p = check_crate(&dir).unwrap().unwrap();
        assert!(
            p[0].contains("a.rs:2: `a` (base) imports `crate::c` (top)"),
            "{p:?}"
        );
        // `c` imports `a` too, so this also closes a cycle.
        assert!(p[1].contains("cycle: a → c → a"), "{p:?}");
    }

    #[test]
    fn a_cycle_within_a_layer_fails() {
        let dir = fixture("cycle");
        write(&dir, "src/b.rs", "use crate::a;\npub struct X;\n");
        let p = check_crate(&dir).unwrap().unwrap();
        assert!(p.iter().any(|x| x.contains("cycle: a → b → a")), "{p:?}");
    }

    #[test]
    fn a_module_missing_from_the_table_fails_and_no_table_is_skipped() {
        let dir = fixture("missing");
        write(&dir, "src/lib.rs", &(LIB.to_string() + "pub mod d;\n"));
        write(&dir, "src/d.rs", "");
        let p = check_crate(&dir).unwrap().unwrap();
        assert!(
            p[0].contains("module `d` is not in the layer table"),
            "{p:?}"
        );
        write(&dir, "src/lib.rs", "pub mod a;\n");
        assert_eq!(check_crate(&dir).unwrap(), None);
    }

    #[test]
    fn multi_line_use_groups_are_read() {
        let refs = references("use crate::{\n    a::X,\n    c,\n};\n");
        let names: Vec<_> = refs.into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, vec!["a", "c"]);
    }
}

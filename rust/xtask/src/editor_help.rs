//! The editor-help check of `cargo xtask test`: every class the extension registers, and each of
//! its properties, methods, signals and constants, has a non-empty description in Godot's editor
//! help.
//!
//! Two Godot runs:
//! 1. `godot --doctool DIR --gdextension-docs` dumps the skeleton of every extension class
//!    straight from ClassDB: the list of public members that must be documented. (It never holds
//!    the descriptions themselves: Godot writes those templates for hand-written XML and does
//!    not read the documentation an extension registers at run time.)
//! 2. A throw-away editor project with the help probe plugin (`tests/editor_help/`) prints the
//!    help page of each class exactly as Search Help and Ctrl+click show it.
//!
//! A member whose entry on its page is empty or reads "There is currently no description…" is
//! a failure, as is a class without a brief and a longer description.

use crate::{godot, proc, project, repo_root, target_dir};
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What Godot prints in place of a missing description.
const MISSING: &str = "There is currently no description";

/// A public member of a class, as the doctool skeleton lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Member {
    /// A property with its accessor names.
    Property {
        name: String,
        getter: String,
        setter: String,
    },
    /// A method (not `_`-prefixed).
    Method(String),
    /// A signal.
    Signal(String),
    /// An integer constant (possibly of an enum).
    Constant(String),
}

impl Member {
    fn describe(&self) -> String {
        match self {
            Member::Property { name, .. } => format!("property `{name}`"),
            Member::Method(n) => format!("method `{n}`"),
            Member::Signal(n) => format!("signal `{n}`"),
            Member::Constant(n) => format!("constant `{n}`"),
        }
    }
}

/// Runs both Godot passes and returns, per class, the problems found (empty = documented).
pub fn check(godot: &godot::Godot) -> Result<BTreeMap<String, Vec<String>>> {
    let work = target_dir().join("editor-help");
    let _ = std::fs::remove_dir_all(&work);
    let doc_dir = work.join("doctool");
    std::fs::create_dir_all(&doc_dir)?;
    let mut cmd = godot.command();
    cmd.arg("--headless")
        .arg("--path")
        .arg(repo_root().join("tests"))
        .arg("--doctool")
        .arg(&doc_dir)
        .arg("--gdextension-docs");
    let out = proc::run_captured(&mut cmd, Duration::from_secs(300), "  doctool| ", true)?;
    if !out.success() {
        bail!("the doctool dump failed:\n{}", out.text);
    }
    let skeletons = read_skeletons(&doc_dir.join("doc_classes"))?;
    if skeletons.is_empty() {
        bail!("the doctool dump lists no extension class");
    }
    let project = make_probe_project(&work.join("project"))?;
    project::import(godot, &project)?;
    let classes: Vec<&str> = skeletons.keys().map(String::as_str).collect();
    let mut cmd = godot.command();
    cmd.env("RIDGELINE_HELP_CLASSES", classes.join(","))
        .arg("--headless")
        .arg("--editor")
        .arg("--path")
        .arg(&project);
    let out = proc::run_captured(&mut cmd, Duration::from_secs(300), "  help| ", true)?;
    let pages = read_pages(&out.text);
    let mut report = BTreeMap::new();
    for (class, members) in &skeletons {
        let problems = match pages.get(class) {
            Some(page) if !page.trim().is_empty() => check_page(page, members),
            _ => vec!["the editor shows no help page for it".to_string()],
        };
        report.insert(class.clone(), problems);
    }
    Ok(report)
}

/// Classes and their public members from the doctool's XML files.
fn read_skeletons(dir: &Path) -> Result<BTreeMap<String, Vec<Member>>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "xml") {
            let xml = std::fs::read_to_string(&path)?;
            if let Some((class, members)) = parse_skeleton(&xml) {
                out.insert(class, members);
            }
        }
    }
    Ok(out)
}

/// The value of attribute `name` in the tag starting at `tag`.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let end = tag.find('>').unwrap_or(tag.len());
    let tag = &tag[..end];
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let len = tag[start..].find('"')?;
    Some(tag[start..start + len].to_string())
}

/// One class skeleton: its name and members.
pub fn parse_skeleton(xml: &str) -> Option<(String, Vec<Member>)> {
    let class = attribute(&xml[xml.find("<class ")?..], "name")?;
    let mut members = Vec::new();
    for (i, _) in xml.match_indices('<') {
        let tag = &xml[i..];
        let Some(name) = attribute(tag, "name") else {
            continue;
        };
        if tag.starts_with("<method ") && !name.starts_with('_') {
            members.push(Member::Method(name));
        } else if tag.starts_with("<member ") {
            members.push(Member::Property {
                getter: attribute(tag, "getter").unwrap_or_default(),
                setter: attribute(tag, "setter").unwrap_or_default(),
                name,
            });
        } else if tag.starts_with("<signal ") {
            members.push(Member::Signal(name));
        } else if tag.starts_with("<constant ") {
            members.push(Member::Constant(name));
        }
    }
    Some((class, members))
}

/// The help pages printed by the probe, by class.
fn read_pages(output: &str) -> BTreeMap<String, String> {
    let mut pages = BTreeMap::new();
    let mut current: Option<(String, String)> = None;
    for line in output.lines() {
        let line = line.strip_prefix("  help| ").unwrap_or(line);
        if let Some(class) = line.strip_prefix("HELP-BEGIN ") {
            current = Some((class.trim().to_string(), String::new()));
        } else if line.starts_with("HELP-END ") {
            if let Some((class, text)) = current.take() {
                pages.insert(class, text);
            }
        } else if let Some((_, text)) = current.as_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    pages
}

const HEADINGS: &[&str] = &[
    "Description",
    "Tutorials",
    "Properties",
    "Methods",
    "Theme Properties",
    "Signals",
    "Enumerations",
    "Constants",
    "Annotations",
    "Property Descriptions",
    "Constructor Descriptions",
    "Method Descriptions",
    "Operator Descriptions",
    "Theme Property Descriptions",
];

/// One `●` entry of a page: its section, first line and description.
struct Entry {
    section: String,
    head: String,
    text: String,
}

/// Checks one page against its skeleton; returns the problems.
pub fn check_page(page: &str, members: &[Member]) -> Vec<String> {
    // Godot lays pages out with no-break spaces; normalise them.
    let page = page.replace('\u{a0}', " ");
    let mut problems = Vec::new();
    let mut section = String::new();
    let mut brief = String::new();
    let mut description = String::new();
    let mut entries: Vec<Entry> = Vec::new();
    for raw in page.lines().skip(2) {
        let line = raw.trim();
        if HEADINGS.contains(&line) {
            section = line.to_string();
            continue;
        }
        if line.is_empty() {
            continue;
        }
        if let Some(head) = line.strip_prefix('●') {
            entries.push(Entry {
                section: section.clone(),
                head: head.trim().to_string(),
                text: String::new(),
            });
        } else if let Some(e) = entries.last_mut().filter(|e| e.section == section) {
            e.text.push_str(line);
            e.text.push(' ');
        } else if section.is_empty() {
            brief.push_str(line);
        } else if section == "Description" {
            description.push_str(line);
        }
    }
    let missing = |t: &str| t.trim().is_empty() || t.contains(MISSING);
    if missing(&brief) {
        problems.push("the class has no brief description".to_string());
    }
    if missing(&description) {
        problems.push(
            "the class has no description beyond its brief (write a second paragraph)".to_string(),
        );
    }
    for m in members {
        let found = entries.iter().find(|e| match m {
            Member::Property {
                name,
                getter,
                setter,
            } => {
                e.section == "Property Descriptions"
                    && ((!getter.is_empty() && e.head.contains(&format!("{getter}(")))
                        || (!setter.is_empty() && e.head.contains(&format!("{setter}(")))
                        || e.head.ends_with(name.as_str()))
            }
            Member::Method(name) => {
                e.section == "Method Descriptions" && e.head.contains(&format!(" {name}("))
            }
            Member::Signal(name) => {
                e.section == "Signals" && e.head.starts_with(&format!("{name}("))
            }
            Member::Constant(name) => {
                (e.section == "Enumerations" || e.section == "Constants")
                    && (e.head.starts_with(&format!("{name} ")) || e.head == *name)
            }
        });
        match found {
            None => problems.push(format!("{} is not on the page", m.describe())),
            Some(e) if missing(&e.text) => {
                problems.push(format!("{} has no description", m.describe()))
            }
            Some(_) => {}
        }
    }
    problems
}

/// A project with the addon and the help probe plugin enabled.
fn make_probe_project(dir: &Path) -> Result<PathBuf> {
    let probe = dir.join("addons/help_probe");
    std::fs::create_dir_all(&probe)?;
    for file in ["plugin.cfg", "help_probe.gd"] {
        std::fs::copy(
            repo_root().join("tests/editor_help").join(file),
            probe.join(file),
        )?;
    }
    link_addon(
        &repo_root().join("addons/ridgeline"),
        &dir.join("addons/ridgeline"),
    )?;
    std::fs::write(
        dir.join("project.godot"),
        "; Throw-away project of `cargo xtask test`'s editor-help check.\nconfig_version=5\n\n\
         [application]\n\nconfig/name=\"Ridgeline editor help check\"\n\
         config/features=PackedStringArray(\"4.5\")\n\n[editor_plugins]\n\n\
         enabled=PackedStringArray(\"res://addons/help_probe/plugin.cfg\")\n",
    )?;
    Ok(dir.to_path_buf())
}

#[cfg(unix)]
fn link_addon(target: &Path, link: &Path) -> Result<()> {
    let _ = std::fs::remove_file(link);
    std::os::unix::fs::symlink(target, link)?;
    Ok(())
}

#[cfg(not(unix))]
fn link_addon(target: &Path, link: &Path) -> Result<()> {
    // No symlinks without privileges: copy the addon (a few files and the library).
    for entry in walk(target)? {
        let rel = entry.strip_prefix(target)?;
        let dest = link.join(rel);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(&entry, &dest)?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn walk(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            out.extend(walk(&path)?);
        } else {
            out.push(path);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SKELETON: &str = r#"<?xml version="1.0" encoding="UTF-8" ?>
<class name="WaterSample" inherits="RefCounted">
	<members>
		<member name="kind" type="int" setter="set_kind" getter="get_kind" enum="WaterSample.Kind">
		</member>
	</members>
	<methods>
		<method name="update"><return type="Array" /></method>
		<method name="_private"><return type="void" /></method>
	</methods>
	<signals><signal name="changed_kind"></signal></signals>
	<constants>
		<constant name="KIND_LAKE" value="0" enum="Kind"></constant>
	</constants>
</class>"#;

    fn page(kind_doc: &str, method_doc: &str) -> String {
        format!(
            "Class:\u{a0} WaterSample\nInherits:\u{a0} RefCounted\n\n\tOne sample.\n\nDescription\n\n\
             \tMore about it.\n\nSignals\n\n\t● changed_kind()\n\tEmitted.\n\nEnumerations\n\n\
             enum Kind:\n\n\t● KIND_LAKE\u{a0}=\u{a0}0\n\tA lake.\n\nProperty Descriptions\n\n\
             ● WaterSample.Kindkindset_kind(value) setterget_kind() getter\n\n\t{kind_doc}\n\n\
             Method Descriptions\n\n● Array update()\n\n\t{method_doc}\n"
        )
    }

    #[test]
    fn reads_the_public_members_of_a_skeleton() {
        let (class, members) = parse_skeleton(SKELETON).unwrap();
        assert_eq!(class, "WaterSample");
        assert_eq!(
            members,
            vec![
                Member::Property {
                    name: "kind".into(),
                    getter: "get_kind".into(),
                    setter: "set_kind".into()
                },
                Member::Method("update".into()),
                Member::Signal("changed_kind".into()),
                Member::Constant("KIND_LAKE".into()),
            ]
        );
    }

    #[test]
    fn a_documented_page_passes_and_missing_descriptions_fail() {
        let (_, members) = parse_skeleton(SKELETON).unwrap();
        assert_eq!(
            check_page(&page("The kind.", "Updates."), &members),
            Vec::<String>::new()
        );
        let problems = check_page(
            &page("", "There is currently no description for this method."),
            &members,
        );
        assert_eq!(
            problems,
            vec![
                "property `kind` has no description".to_string(),
                "method `update` has no description".to_string()
            ]
        );
        let bare = "Class:\u{a0} X\nInherits:\u{a0} Object\n\n\tOnly a brief.\n";
        assert_eq!(
            check_page(bare, &[]),
            vec!["the class has no description beyond its brief (write a second paragraph)"]
        );
    }
}

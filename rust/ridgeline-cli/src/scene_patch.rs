//! Small text patches of Godot scene files (`.tscn`): find `Terrain3D` nodes and replace one
//! node's inline `recipe` string, leaving every other byte of the file unchanged.

/// One `Terrain3D` node of a scene.
#[derive(Debug)]
pub struct TerrainNode {
    /// Node path from the scene root (`.` for the root itself, `Terrain`, `World/Terrain`).
    pub path: String,
    /// Byte index just past the node's header line (where a new property goes).
    header_end: usize,
    /// Byte span of the `recipe` value (quotes included), when the node has one.
    recipe_span: Option<(usize, usize)>,
    /// The decoded inline recipe text.
    pub recipe: Option<String>,
    /// The `asset = …` value, when the node uses a terrain asset.
    pub asset: Option<String>,
}

fn attribute(header: &str, key: &str) -> Option<String> {
    let at = header.find(&format!(" {key}=\""))? + key.len() + 3;
    let rest = &header[at..];
    Some(rest[..rest.find('"')?].to_string())
}

/// Decodes a Godot string literal's body (escapes `\"`, `\\`, `\n`, `\t`, `\r`, `\uXXXX`).
fn decode(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => out.push_str(&format!("\\u{hex}")),
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// Encodes text as a Godot string literal, as Godot writes scenes (only `\` and `"` escaped;
/// line breaks stay literal).
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// End (exclusive) of the string literal starting at `start` (an opening quote), or `None`
/// when it never closes.
fn string_end(text: &str, start: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// Every `Terrain3D` node of a scene's text.
pub fn terrain_nodes(text: &str) -> Result<Vec<TerrainNode>, String> {
    let mut nodes = Vec::new();
    let mut pos = 0;
    let mut current: Option<TerrainNode> = None;
    while pos < text.len() {
        let line_end = text[pos..].find('\n').map_or(text.len(), |i| pos + i + 1);
        let line = &text[pos..line_end];
        if line.starts_with('[') {
            if let Some(n) = current.take() {
                nodes.push(n);
            }
            if line.starts_with("[node ") && line.contains(" type=\"Terrain3D\"") {
                let name = attribute(line, "name").unwrap_or_default();
                let path = match attribute(line, "parent") {
                    None => ".".to_string(),
                    Some(p) if p == "." => name,
                    Some(p) => format!("{p}/{name}"),
                };
                current = Some(TerrainNode {
                    path,
                    header_end: line_end,
                    recipe_span: None,
                    recipe: None,
                    asset: None,
                });
            }
            pos = line_end;
            continue;
        }
        if let Some(node) = current.as_mut() {
            if let Some(rest) = line.strip_prefix("recipe = ") {
                let start = pos + "recipe = ".len();
                if !rest.starts_with('"') {
                    return Err(format!("{}: recipe is not a string literal", node.path));
                }
                let end = string_end(text, start)
                    .ok_or_else(|| format!("{}: the recipe string never closes", node.path))?;
                node.recipe = Some(decode(&text[start + 1..end - 1]));
                node.recipe_span = Some((start, end));
                pos = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
                continue;
            }
            if let Some(rest) = line.strip_prefix("asset = ") {
                node.asset = Some(rest.trim().to_string());
            }
        }
        // Skip over multi-line string values of other properties.
        if let Some(eq) = line.find(" = \"") {
            let start = pos + eq + 3;
            if let Some(end) = string_end(text, start)
                && end > line_end
            {
                pos = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
                continue;
            }
        }
        pos = line_end;
    }
    if let Some(n) = current.take() {
        nodes.push(n);
    }
    Ok(nodes)
}

/// The scene text with `node`'s inline recipe set to `recipe` (replaced in place, or added
/// right after the node's header); nothing else changes.
pub fn with_recipe(text: &str, node: &TerrainNode, recipe: &str) -> String {
    let literal = encode(recipe);
    match node.recipe_span {
        Some((start, end)) => format!("{}{literal}{}", &text[..start], &text[end..]),
        None => format!(
            "{}recipe = {literal}\n{}",
            &text[..node.header_end],
            &text[node.header_end..]
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENE: &str = "[gd_scene load_steps=2 format=3 uid=\"uid://x\"]\n\n[ext_resource type=\"TerrainAsset\" path=\"res://t.terrain.json\" id=\"1_a\"]\n\n[node name=\"World\" type=\"Node3D\"]\n\n[node name=\"Terrain\" type=\"Terrain3D\" parent=\".\"]\nrecipe = \"{\\\"seed\\\": 1,\n \\\"size\\\": [64, 64]}\"\nvisible = true\n\n[node name=\"Far\" type=\"Terrain3D\" parent=\"Props/Group\"]\nasset = ExtResource(\"1_a\")\n\n[node name=\"Label\" type=\"Label3D\" parent=\".\"]\ntext = \"a \\\"quoted\\\"\n[node name=\\\"fake\\\" type=\\\"Terrain3D\\\"]\"\n";

    #[test]
    fn terrain_nodes_are_found_with_paths_recipes_and_assets() {
        let nodes = terrain_nodes(SCENE).unwrap();
        assert_eq!(nodes.len(), 2, "{nodes:?}");
        assert_eq!(nodes[0].path, "Terrain");
        assert_eq!(
            nodes[0].recipe.as_deref(),
            Some("{\"seed\": 1,\n \"size\": [64, 64]}")
        );
        assert_eq!(nodes[1].path, "Props/Group/Far");
        assert_eq!(nodes[1].asset.as_deref(), Some("ExtResource(\"1_a\")"));
    }

    #[test]
    fn replacing_a_recipe_changes_only_its_value() {
        let nodes = terrain_nodes(SCENE).unwrap();
        let patched = with_recipe(SCENE, &nodes[0], "{\"seed\": 2}");
        assert_eq!(
            patched,
            SCENE.replace(
                "recipe = \"{\\\"seed\\\": 1,\n \\\"size\\\": [64, 64]}\"",
                "recipe = \"{\\\"seed\\\": 2}\""
            )
        );
        let again = terrain_nodes(&patched).unwrap();
        assert_eq!(again[0].recipe.as_deref(), Some("{\"seed\": 2}"));
    }

    #[test]
    fn a_node_without_a_recipe_gets_one_after_its_header() {
        let scene =
            "[gd_scene format=3]\n\n[node name=\"T\" type=\"Terrain3D\"]\nvisible = false\n";
        let nodes = terrain_nodes(scene).unwrap();
        assert_eq!(nodes[0].path, ".");
        let patched = with_recipe(scene, &nodes[0], "{\"a\": \"b\\\\c\"}");
        assert_eq!(
            patched,
            "[gd_scene format=3]\n\n[node name=\"T\" type=\"Terrain3D\"]\nrecipe = \"{\\\"a\\\": \\\"b\\\\\\\\c\\\"}\"\nvisible = false\n"
        );
        assert_eq!(
            terrain_nodes(&patched).unwrap()[0].recipe.as_deref(),
            Some("{\"a\": \"b\\\\c\"}")
        );
    }

    #[test]
    fn an_unclosed_recipe_is_an_error() {
        let scene = "[node name=\"T\" type=\"Terrain3D\"]\nrecipe = \"{\n";
        assert!(terrain_nodes(scene).unwrap_err().contains("never closes"));
    }
}

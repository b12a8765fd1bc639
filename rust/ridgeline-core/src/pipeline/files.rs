//! Files the graph names (heightmaps), read once per run before evaluation by the one rule for
//! referenced files: resolved from the recipe's asset folder ([`Recipe::source_dir`]) with
//! [`fsio::resolve_reference`], read with [`fsio::read_bounded`] (regular files only, size
//! bounded), and hashed ([`crate::seed::content_hash`]) for the node's cache key and the
//! development cache key. Only nodes the output depends on are read. Problems are located at
//! the node's `file` parameter and name the file.

use crate::error::{Error, Result};
use crate::fsio;
use crate::graph::Graph;
use crate::nodes::{NodeFile, NodeFiles};
use crate::recipe::Recipe;
use std::sync::Arc;

/// Reads every file a node the output of `graph` depends on names. Errors are located as
/// `graph.nodes["id"].params.file: …` (the caller adds the recipe's location).
pub fn read_node_files(recipe: &Recipe, graph: &Graph) -> Result<NodeFiles> {
    let mut files = NodeFiles::new();
    for i in reachable(graph) {
        let gn = &graph.nodes[i];
        let Some(request) = gn.node.file_request() else {
            continue;
        };
        let at = format!("graph.nodes[\"{}\"].params.file", gn.id);
        let reference = &request.reference;
        let Some(dir) = recipe.source_dir() else {
            return Err(Error::invalid(
                at,
                format!(
                    "\"{reference}\" cannot be resolved: the recipe was not loaded from a file (save the asset first; files resolve from its folder)"
                ),
            ));
        };
        let root = fsio::project_root(dir);
        let path = fsio::resolve_reference(dir, &root, reference)
            .map_err(|e| Error::invalid(&at, relocated(e)))?;
        let bytes = fsio::read_bounded(&path, request.kind).map_err(|e| {
            Error::invalid(
                &at,
                match e {
                    Error::Io { source, .. } => {
                        format!("\"{reference}\" ({}): {source}", path.display())
                    }
                    other => format!("\"{reference}\": {other}"),
                },
            )
        })?;
        let hash = crate::seed::content_hash(&bytes);
        files.insert(
            gn.id.clone(),
            NodeFile {
                reference: reference.clone(),
                path: path.display().to_string(),
                bytes: Arc::new(bytes),
                hash,
            },
        );
    }
    Ok(files)
}

/// A file the recipe's graph names, resolved but not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferencedFile {
    /// The node that reads it.
    pub node: String,
    /// The reference as written.
    pub reference: String,
    /// Where it resolves.
    pub path: std::path::PathBuf,
}

/// The files the output of the recipe's graph depends on, resolved from the recipe's folder
/// (empty for the conventional pipeline or a recipe not loaded from a file). References that do
/// not resolve are left out: generation reports them. For watching sources (the editor
/// regenerates when one changes) and for exporters that carry a source's extra data along.
pub fn referenced_files(recipe: &Recipe) -> Vec<ReferencedFile> {
    let (Some(graph), Some(dir)) = (recipe.graph.as_ref(), recipe.source_dir()) else {
        return Vec::new();
    };
    let root = fsio::project_root(dir);
    reachable(graph)
        .into_iter()
        .filter_map(|i| {
            let gn = &graph.nodes[i];
            let request = gn.node.file_request()?;
            let path = fsio::resolve_reference(dir, &root, &request.reference).ok()?;
            Some(ReferencedFile {
                node: gn.id.clone(),
                reference: request.reference,
                path,
            })
        })
        .collect()
}

/// `resolve_reference`'s message, which is located at the reference itself.
fn relocated(e: Error) -> String {
    match e.diagnostics().first() {
        Some(d) => format!("\"{}\" {}", d.path, d.message),
        None => e.to_string(),
    }
}

/// Indices of the nodes the output depends on (the output included).
fn reachable(graph: &Graph) -> Vec<usize> {
    let mut seen = vec![false; graph.nodes.len()];
    let mut stack: Vec<usize> = graph.find(&graph.output).into_iter().collect();
    let mut out = Vec::new();
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        out.push(i);
        for src in graph.nodes[i].inputs.values() {
            if let Some(j) = graph.find(&src.node) {
                stack.push(j);
            }
        }
    }
    out.sort_unstable();
    out
}

/// Feeds the files' identities (node id, content hash, length) into a cache key.
pub fn hash_files(files: &NodeFiles, h: &mut crate::seed::StableHasher) {
    for (id, f) in files {
        h.str(id).u64(f.hash).u64(f.bytes.len() as u64);
    }
}

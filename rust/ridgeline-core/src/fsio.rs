//! File I/O rules shared by the core, the CLI and the Godot crate: atomic writes, bounded reads
//! of regular files only, and the one rule for files a terrain refers to (brush masks, later
//! heightmaps). A foundation module: it imports nothing above [`crate::error`].
//!
//! - [`write_atomic`] writes a unique temporary created exclusively (`O_EXCL`, never through a
//!   link) in the target's directory, `fsync`s it, renames it over the target and `fsync`s the
//!   directory. The target's permissions are kept; a symlinked target has its *destination*
//!   updated (the link stays a link); a read-only target is refused. A failure at any step leaves
//!   the previous file untouched and no temporary behind.
//! - [`read_bounded`] opens regular files only (a FIFO, a device or a directory is refused before
//!   anything blocks) and refuses files larger than their [`FileKind`]'s limit before reading.
//! - [`resolve_reference`] maps a reference written in an asset to a file inside its project
//!   (rules in `docs/limits.md` and `docs/editing.md`).

use crate::error::{Error, Result};
use std::fs::{File, Metadata};
use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};

/// What a file is, for its size limit and messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A terrain asset or bare recipe (`*.terrain.json`).
    Document,
    /// A cooked payload (`*.terrain.bin`, development cache entries).
    Payload,
    /// A brush mask PNG referenced by a stroke.
    Mask,
    /// A heightmap image (PNG, raw R16/R32) referenced by a recipe or imported.
    Heightmap,
    /// A terrain JSON interchange document (reference document 002).
    TerrainJson,
}

/// 1 MiB.
const MIB: u64 = 1 << 20;

impl FileKind {
    /// Largest file of this kind that is read, in bytes (the table in `docs/limits.md`).
    pub const fn limit(self) -> u64 {
        match self {
            FileKind::Document => 256 * MIB,
            // 8193² samples × 16 bytes (heights, water owner and surface, exclusion, regions)
            // plus the hole bits and metadata: a little over 1 GiB.
            FileKind::Payload => 1152 * MIB,
            FileKind::Mask => 16 * MIB,
            FileKind::Heightmap => 512 * MIB,
            // 8193² heights and splat weights in base64 plus holes.
            FileKind::TerrainJson => 1536 * MIB,
        }
    }

    /// A name for messages.
    pub const fn name(self) -> &'static str {
        match self {
            FileKind::Document => "terrain document",
            FileKind::Payload => "cooked payload",
            FileKind::Mask => "brush mask",
            FileKind::Heightmap => "heightmap",
            FileKind::TerrainJson => "terrain JSON document",
        }
    }
}

fn io_error(path: &Path, kind: io::ErrorKind, message: impl Into<String>) -> Error {
    Error::Io {
        path: path.display().to_string(),
        source: io::Error::new(kind, message.into()),
    }
}

fn wrap(path: &Path, what: &str, e: io::Error) -> Error {
    Error::Io {
        path: path.display().to_string(),
        source: io::Error::new(e.kind(), format!("{what} ({e})")),
    }
}

/// Most links followed when resolving a symlinked target.
const MAX_LINKS: usize = 40;

/// The file a write to `path` must replace: `path` itself, or the final destination when `path`
/// is a (chain of) symbolic link(s). A dangling link resolves to the file it names.
fn write_destination(path: &Path) -> Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&current)
                    .map_err(|e| wrap(&current, "cannot read the link", e))?;
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(io_error(
        path,
        io::ErrorKind::InvalidInput,
        format!("more than {MAX_LINKS} symbolic links to follow"),
    ))
}

/// Writes `bytes` to `path` atomically: readers see the old file or the new one, never a mix,
/// and a failure leaves the old file as it was.
///
/// The temporary is a fresh, uniquely named file created exclusively in the destination's
/// directory (a link planted under any name is never followed). It is flushed to disk before the
/// rename, and the directory after. An existing target keeps its permissions (and, where the
/// process may, its owner); a symlinked target has its destination replaced, so the link stays;
/// a read-only target (no write permission bit, e.g. mode 0444) or a target that is not a
/// regular file is refused with an error naming it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |file| file.write_all(bytes))
}

/// [`write_atomic`] with the content produced by `write` (which may stream it); an error from
/// `write` aborts the save and leaves the old file as it was.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<()> {
    let dest = write_destination(path)?;
    let existing = match std::fs::metadata(&dest) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(wrap(&dest, "cannot inspect the file", e)),
    };
    if let Some(m) = &existing {
        if !m.is_file() {
            return Err(io_error(
                &dest,
                io::ErrorKind::InvalidInput,
                "is not a regular file; nothing was written",
            ));
        }
        if m.permissions().readonly() {
            return Err(io_error(
                &dest,
                io::ErrorKind::PermissionDenied,
                "the file is read-only; make it writable to save over it (nothing was written)",
            ));
        }
    }
    let dir = match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // A new file gets the usual mode (0666 less the umask), like `std::fs::write`.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder
        .tempfile_in(&dir)
        .map_err(|e| wrap(&dest, "cannot create a temporary file beside it", e))?;
    write(tmp.as_file_mut()).map_err(|e| wrap(&dest, "cannot write", e))?;
    if let Some(m) = &existing {
        keep_metadata(tmp.as_file(), m)
            .map_err(|e| wrap(&dest, "cannot keep its permissions", e))?;
    }
    tmp.as_file()
        .sync_all()
        .map_err(|e| wrap(&dest, "cannot flush to disk", e))?;
    // On failure the temporary is removed when the returned handle drops.
    tmp.persist(&dest)
        .map_err(|e| wrap(&dest, "cannot replace the file", e.error))?;
    sync_dir(&dir);
    Ok(())
}

/// Gives the temporary the target's permissions (and owner, best effort).
fn keep_metadata(file: &File, target: &Metadata) -> io::Result<()> {
    file.set_permissions(target.permissions())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // Only a privileged process may give a file away; anyone else keeps their own.
        let _ = std::os::unix::fs::fchown(file, Some(target.uid()), Some(target.gid()));
    }
    Ok(())
}

/// Flushes a directory entry change to disk (best effort: not every platform can).
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// Opens `path` for reading without blocking on a FIFO or device (those are refused afterwards).
fn open_for_read(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options.open(path)
}

/// Reads a whole regular file of `kind`, refusing anything else before it can block or exhaust
/// memory: the file type and size are checked first (a FIFO, device, socket or directory is
/// refused; so is a file over [`FileKind::limit`]), then checked again on the opened handle, and
/// the read itself stops at the limit.
pub fn read_bounded(path: &Path, kind: FileKind) -> Result<Vec<u8>> {
    read_limited(path, kind, kind.limit())
}

/// [`read_bounded`] with an explicit byte limit.
pub fn read_limited(path: &Path, kind: FileKind, limit: u64) -> Result<Vec<u8>> {
    let check = |m: &Metadata| -> Result<()> {
        if !m.is_file() {
            return Err(io_error(
                path,
                io::ErrorKind::InvalidInput,
                format!(
                    "is not a regular file (a directory, FIFO, socket or device cannot be a {})",
                    kind.name()
                ),
            ));
        }
        if m.len() > limit {
            return Err(io_error(
                path,
                io::ErrorKind::InvalidData,
                format!(
                    "{} bytes is larger than a {} may be ({limit} bytes)",
                    m.len(),
                    kind.name()
                ),
            ));
        }
        Ok(())
    };
    let meta = std::fs::metadata(path).map_err(|e| wrap(path, "cannot read", e))?;
    check(&meta)?;
    let file = open_for_read(path).map_err(|e| wrap(path, "cannot read", e))?;
    // The file may have been swapped between the two looks: check the handle itself.
    let meta = file.metadata().map_err(|e| wrap(path, "cannot read", e))?;
    check(&meta)?;
    let mut out = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1)
        .read_to_end(&mut out)
        .map_err(|e| wrap(path, "cannot read", e))?;
    if out.len() as u64 > limit {
        return Err(io_error(
            path,
            io::ErrorKind::InvalidData,
            format!(
                "grew past the {} limit of {limit} bytes while being read",
                kind.name()
            ),
        ));
    }
    Ok(out)
}

/// [`read_bounded`] as UTF-8 text.
pub fn read_text_bounded(path: &Path, kind: FileKind) -> Result<String> {
    let bytes = read_bounded(path, kind)?;
    String::from_utf8(bytes).map_err(|e| {
        io_error(
            path,
            io::ErrorKind::InvalidData,
            format!(
                "is not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// The project a terrain asset in `asset_dir` belongs to: the nearest ancestor directory
/// (`asset_dir` included) that holds a `project.godot` file, else `asset_dir` itself.
pub fn project_root(asset_dir: &Path) -> PathBuf {
    let start = absolute(asset_dir);
    start
        .ancestors()
        .find(|d| d.join("project.godot").is_file())
        .map(Path::to_path_buf)
        .unwrap_or(start)
}

fn absolute(p: &Path) -> PathBuf {
    std::fs::canonicalize(p)
        .or_else(|_| std::path::absolute(p))
        .unwrap_or_else(|_| p.to_path_buf())
}

/// Lexically normalises `p` (removes `.`, applies `..`); `None` when `..` climbs above its root
/// (for a relative `p`: above the folder it is relative to).
pub fn normalise(p: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    Some(out)
}

/// Resolves `reference` (as written in an asset in `asset_dir`) to a file inside
/// `project_root`, by one rule:
///
/// - `res://path` is relative to the project root; any other reference is relative to the
///   asset's directory;
/// - absolute paths (`/…`, `C:\…`, `\\server\…`) and other schemes (`user://`, `http://`) are
///   refused;
/// - the result, with `..` applied and symbolic links followed, must stay inside the project
///   root.
///
/// Errors name the reference. The file's existence and type are checked when it is read
/// ([`read_bounded`]).
pub fn resolve_reference(
    asset_dir: &Path,
    project_root: &Path,
    reference: &str,
) -> Result<PathBuf> {
    let refuse = |why: String| Error::invalid(reference, why);
    if reference.is_empty() {
        return Err(refuse(
            "is empty; name a file relative to the asset's folder".into(),
        ));
    }
    if reference.contains('\0') {
        return Err(refuse("contains a NUL character".into()));
    }
    let root = absolute(project_root);
    let (base, rest) = match reference.strip_prefix("res://") {
        Some(rest) => (root.clone(), rest),
        None => (absolute(asset_dir), reference),
    };
    let looks_absolute = rest.starts_with('/')
        || rest.starts_with('\\')
        || Path::new(rest).is_absolute()
        || Path::new(rest).has_root()
        || (rest.as_bytes().first().is_some_and(u8::is_ascii_alphabetic)
            && rest.as_bytes().get(1) == Some(&b':'));
    if rest.contains("://") {
        return Err(refuse(
            "only paths relative to the asset's folder or `res://…` paths may be referenced".into(),
        ));
    }
    if looks_absolute {
        return Err(refuse(
            "absolute paths are not allowed; write the path relative to the asset's folder or as res://…"
                .into(),
        ));
    }
    let outside = || {
        refuse(format!(
            "points outside the project ({}); referenced files must be inside it",
            root.display()
        ))
    };
    let joined = normalise(&base.join(rest)).ok_or_else(outside)?;
    if !joined.starts_with(&root) {
        return Err(outside());
    }
    // Links inside the project must not lead out of it either.
    if let Ok(real) = std::fs::canonicalize(&joined)
        && !real.starts_with(&root)
    {
        return Err(outside());
    }
    Ok(joined)
}

#[cfg(test)]
mod tests;

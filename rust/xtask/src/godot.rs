//! Finding, provisioning and running Godot: the one place that knows how "the Godot command" is
//! built. Order: `$GODOT`, then a `godot` ≥ 4.5 on `PATH`, then a previously provisioned root in
//! the cache directory, then (as root on Debian/Ubuntu) a fresh provision with `mmdebstrap`.

use anyhow::{Context, Result, bail};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Minimum Godot version the extension supports (`compatibility_minimum` in the .gdextension).
const MIN_VERSION: (u32, u32) = (4, 5);

/// Packages installed into the provisioned Debian root.
const ROOT_PACKAGES: &str = "godot,libgl1-mesa-dri,libegl1,libglx-mesa0,mesa-vulkan-drivers";

/// How to start Godot on this machine.
#[derive(Clone, Debug)]
pub struct Godot {
    /// Program to execute (the Godot binary, or the root's dynamic loader).
    program: PathBuf,
    /// Arguments placed before Godot's own arguments (loader flags and the Godot binary).
    prefix: Vec<OsString>,
    /// The provisioned root, when Godot runs from one (needed for Mesa drivers under Xvfb).
    root: Option<PathBuf>,
    /// Version string as printed by `godot --version`.
    pub version: String,
    /// Where this Godot came from, for messages.
    pub origin: String,
}

impl Godot {
    /// A command that runs Godot with no arguments yet.
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(&self.program);
        cmd.args(&self.prefix);
        cmd.arg("--audio-driver").arg("Dummy");
        cmd
    }

    /// A command that runs Godot with a virtual display (Xvfb) and the OpenGL 3 renderer, for
    /// screenshots on machines without a display. Requires `xvfb-run` on the host.
    pub fn render_command(&self, width: u32, height: u32) -> Result<Command> {
        let mut cmd = xvfb(width, height)?;
        if let Some(root) = &self.root {
            cmd.arg(format!(
                "LIBGL_DRIVERS_PATH={}",
                root.join("usr/lib/x86_64-linux-gnu/dri").display()
            ));
            cmd.arg(format!(
                "__EGL_VENDOR_LIBRARY_DIRS={}",
                root.join("usr/share/glvnd/egl_vendor.d").display()
            ));
        }
        cmd.arg(&self.program);
        cmd.args(&self.prefix);
        cmd.arg("--audio-driver").arg("Dummy");
        cmd.arg("--rendering-driver").arg("opengl3");
        Ok(cmd)
    }

    /// [`Self::render_command`] on Forward+ (Vulkan): with a provisioned root, on its lavapipe
    /// (Mesa's software Vulkan, `mesa-vulkan-drivers`); otherwise on the host's Vulkan driver.
    pub fn render_command_forward_plus(&self, width: u32, height: u32) -> Result<Command> {
        let mut cmd = xvfb(width, height)?;
        if let Some(root) = &self.root {
            cmd.arg(format!(
                "VK_ICD_FILENAMES={}",
                root.join("usr/share/vulkan/icd.d/lvp_icd.json").display()
            ));
        }
        cmd.arg(&self.program);
        cmd.args(&self.prefix);
        cmd.arg("--audio-driver").arg("Dummy");
        cmd.arg("--rendering-driver").arg("vulkan");
        cmd.arg("--rendering-method").arg("forward_plus");
        Ok(cmd)
    }
}

/// `xvfb-run -a -s "-screen 0 W×H×24" env`: the start of a command on a virtual display (the
/// caller adds environment variables, then the program).
fn xvfb(width: u32, height: u32) -> Result<Command> {
    let xvfb = which("xvfb-run").context(
        "xvfb-run is needed to render without a display; install it with `apt-get install -y xvfb xauth`",
    )?;
    let mut cmd = Command::new(xvfb);
    cmd.arg("-a")
        .arg("-s")
        .arg(format!("-screen 0 {width}x{height}x24"));
    cmd.arg("env");
    Ok(cmd)
}

/// The cache directory: `$RIDGELINE_CACHE_DIR`, else `$XDG_CACHE_HOME/ridgeline`, else
/// `~/.cache/ridgeline`.
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("RIDGELINE_CACHE_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(dir).join("ridgeline");
    }
    let home = std::env::var_os("HOME").unwrap_or_else(|| OsString::from("/tmp"));
    PathBuf::from(home).join(".cache").join("ridgeline")
}

/// Finds Godot, provisioning it if allowed and needed. Prints what it is doing.
pub fn locate_or_provision() -> Result<Godot> {
    if let Some(path) = std::env::var_os("GODOT") {
        let path = PathBuf::from(path);
        let godot = plain(&path, "$GODOT")
            .with_context(|| format!("$GODOT is set to {} but it does not run", path.display()))?;
        check_version(&godot)?;
        return Ok(godot);
    }
    if let Some(path) = which("godot")
        && let Ok(godot) = plain(&path, "PATH")
    {
        if version_ok(&godot.version) {
            return Ok(godot);
        }
        eprintln!(
            "xtask: ignoring {} (version {}; need ≥ {}.{})",
            path.display(),
            godot.version,
            MIN_VERSION.0,
            MIN_VERSION.1
        );
    }
    let root = cache_dir().join("godot-root");
    if root.join(".ridgeline-ok").exists() {
        let godot = from_root(&root)?;
        return Ok(godot);
    }
    provision(&root)?;
    from_root(&root)
}

fn plain(path: &Path, origin: &str) -> Result<Godot> {
    let mut godot = Godot {
        program: path.to_path_buf(),
        prefix: Vec::new(),
        root: None,
        version: String::new(),
        origin: format!("{} ({origin})", path.display()),
    };
    godot.version = read_version(&godot)?;
    Ok(godot)
}

fn from_root(root: &Path) -> Result<Godot> {
    let loader = root.join("lib64/ld-linux-x86-64.so.2");
    let libs = [
        "usr/lib/x86_64-linux-gnu",
        "usr/lib/x86_64-linux-gnu/pulseaudio",
        "lib/x86_64-linux-gnu",
    ]
    .iter()
    .map(|p| root.join(p).display().to_string())
    .collect::<Vec<_>>()
    .join(":");
    let mut godot = Godot {
        program: loader,
        prefix: vec![
            OsString::from("--library-path"),
            OsString::from(libs),
            root.join("usr/bin/godot").into_os_string(),
        ],
        root: Some(root.to_path_buf()),
        version: String::new(),
        origin: format!("provisioned root {}", root.display()),
    };
    godot.version = read_version(&godot).with_context(|| {
        format!(
            "the provisioned Godot in {} does not run; delete that folder and run `cargo xtask setup` again",
            root.display()
        )
    })?;
    check_version(&godot)?;
    Ok(godot)
}

fn read_version(godot: &Godot) -> Result<String> {
    let out = Command::new(&godot.program)
        .args(&godot.prefix)
        .arg("--version")
        .output()
        .context("could not start Godot")?;
    if !out.status.success() {
        bail!(
            "`godot --version` failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().last().unwrap_or("").trim().to_string();
    Ok(line)
}

/// Parses "4.6.3.stable.debian…" into (4, 6).
fn parse_version(v: &str) -> Option<(u32, u32)> {
    let mut parts = v.split('.');
    let major = parts.next()?.trim().parse().ok()?;
    let minor = parts.next()?.trim().parse().ok()?;
    Some((major, minor))
}

fn version_ok(v: &str) -> bool {
    parse_version(v).is_some_and(|ver| ver >= MIN_VERSION)
}

fn check_version(godot: &Godot) -> Result<()> {
    if !version_ok(&godot.version) {
        bail!(
            "{} is Godot {}, but Ridgeline needs Godot ≥ {}.{}",
            godot.origin,
            godot.version,
            MIN_VERSION.0,
            MIN_VERSION.1
        );
    }
    Ok(())
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

fn is_debian_like() -> bool {
    std::fs::read_to_string("/etc/os-release")
        .map(|s| s.contains("debian") || s.contains("ubuntu"))
        .unwrap_or(false)
}

fn how_to_install() -> String {
    format!(
        "Install Godot ≥ {}.{} (https://godotengine.org/download) and set GODOT=/path/to/godot, \
         or put `godot` on PATH. Automatic provisioning needs root on Debian or Ubuntu.",
        MIN_VERSION.0, MIN_VERSION.1
    )
}

/// Installs a host package with apt-get when it is missing (root only).
pub fn ensure_host_tool(tool: &str, packages: &[&str]) -> Result<()> {
    if which(tool).is_some() {
        return Ok(());
    }
    if !(is_root() && is_debian_like()) {
        bail!(
            "`{tool}` is missing; install the packages {} with your package manager",
            packages.join(", ")
        );
    }
    eprintln!(
        "xtask: installing {} with apt-get (needed for `{tool}`)",
        packages.join(" ")
    );
    run_quiet(
        Command::new("apt-get").args(["update", "-qq"]),
        "apt-get update",
    )?;
    run_quiet(
        Command::new("apt-get")
            .args(["install", "-y", "-qq", "--no-install-recommends"])
            .args(packages)
            .env("DEBIAN_FRONTEND", "noninteractive"),
        "apt-get install",
    )?;
    if which(tool).is_none() {
        bail!(
            "installed {} but `{tool}` is still not on PATH",
            packages.join(" ")
        );
    }
    Ok(())
}

fn provision(root: &Path) -> Result<()> {
    if !(is_root() && is_debian_like()) {
        bail!(
            "No usable Godot found (checked $GODOT and PATH). {}",
            how_to_install()
        );
    }
    eprintln!(
        "xtask: no Godot ≥ {}.{} found on PATH or in $GODOT; provisioning Godot from Debian sid into {}",
        MIN_VERSION.0,
        MIN_VERSION.1,
        root.display()
    );
    eprintln!("xtask: (about a minute; set GODOT=/path/to/godot to use your own instead)");
    ensure_host_tool("mmdebstrap", &["mmdebstrap"])?;
    let parent = root.parent().context("cache dir has no parent")?;
    std::fs::create_dir_all(parent)
        .with_context(|| format!("cannot create cache directory {}", parent.display()))?;
    let partial = parent.join("godot-root.partial");
    if partial.exists() {
        std::fs::remove_dir_all(&partial)
            .with_context(|| format!("cannot remove stale {}", partial.display()))?;
    }
    let status = Command::new("mmdebstrap")
        .args([
            "--variant=apt",
            "--quiet",
            "--aptopt=Acquire::Check-Valid-Until \"false\"",
            &format!("--include={ROOT_PACKAGES}"),
            "sid",
        ])
        .arg(&partial)
        .status()
        .context("could not run mmdebstrap")?;
    if !status.success() {
        let _ = std::fs::remove_dir_all(&partial);
        bail!("mmdebstrap failed ({status}). {}", how_to_install());
    }
    if root.exists() {
        std::fs::remove_dir_all(root)
            .with_context(|| format!("cannot replace {}", root.display()))?;
    }
    std::fs::rename(&partial, root)
        .with_context(|| format!("cannot move the new root to {}", root.display()))?;
    let godot = from_root(root)?;
    std::fs::write(root.join(".ridgeline-ok"), &godot.version)?;
    eprintln!("xtask: provisioned Godot {}", godot.version);
    Ok(())
}

fn run_quiet(cmd: &mut Command, what: &str) -> Result<()> {
    let out = cmd
        .output()
        .with_context(|| format!("could not run {what}"))?;
    if !out.status.success() {
        bail!(
            "{what} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}

/// Looks a program up on PATH.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_godot_versions() {
        assert_eq!(parse_version("4.6.3.stable.debian4.6.3+ds-3"), Some((4, 6)));
        assert_eq!(parse_version("4.5.stable.official.abc"), Some((4, 5)));
        assert_eq!(parse_version("garbage"), None);
        assert!(version_ok("4.5.1.stable"));
        assert!(!version_ok("4.4.1.stable"));
        assert!(!version_ok("3.6.stable"));
    }
}

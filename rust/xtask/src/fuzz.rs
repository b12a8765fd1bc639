//! `cargo xtask fuzz [--cases N] [--target NAME] [--seed SEED]`: longer fuzzing passes over the
//! parsers (the fuzz targets in `rust/ridgeline-core/tests/fuzz/`). `cargo test` runs the same
//! targets with a small, fixed set of cases; this verb runs N fresh cases per target.

use crate::{cargo, proc};
use anyhow::{Result, bail};

/// The fuzz targets (test names in `tests/fuzz/main.rs`).
pub const TARGETS: &[&str] = &[
    "recipe_documents",
    "strokes",
    "payloads",
    "png_masks",
    "terrain_json",
];

/// Runs the verb.
pub fn run(args: &[String]) -> Result<()> {
    let mut cases: u64 = 20_000;
    let mut target: Option<String> = None;
    let mut seed: Option<u64> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (key, inline) = match a.split_once('=') {
            Some((k, v)) => (k, Some(v.to_string())),
            None => (a.as_str(), None),
        };
        let mut value = || inline.clone().or_else(|| it.next().cloned());
        match key {
            "--cases" => {
                cases = match value().and_then(|v| v.parse().ok()) {
                    Some(n) if n > 0 => n,
                    _ => bail!("--cases needs a whole number > 0"),
                }
            }
            "--target" => {
                let t = value().unwrap_or_default();
                if !TARGETS.contains(&t.as_str()) {
                    bail!("--target must be one of {}, got `{t}`", TARGETS.join(", "));
                }
                target = Some(t);
            }
            "--seed" => {
                seed = match value().and_then(|v| v.parse().ok()) {
                    Some(s) => Some(s),
                    None => bail!("--seed needs a case seed (a whole number)"),
                }
            }
            other => bail!("unknown option `{other}` (use --cases N, --target NAME, --seed SEED)"),
        }
    }
    if seed.is_some() && target.is_none() {
        bail!("--seed replays one case of one target: add --target NAME");
    }
    let mut cmd = cargo();
    cmd.args([
        "test",
        "--release",
        "-p",
        "ridgeline-core",
        "--test",
        "fuzz",
        "--",
        "--nocapture",
    ]);
    match &target {
        Some(t) => {
            cmd.args(["--exact", t]);
        }
        None => {
            cmd.args(TARGETS);
        }
    }
    match seed {
        Some(s) => {
            cmd.env("RIDGELINE_FUZZ_SEED", s.to_string())
                .env("RIDGELINE_FUZZ_CASES", "1");
        }
        None => {
            cmd.env("RIDGELINE_FUZZ_CASES", cases.to_string());
        }
    }
    eprintln!(
        "xtask: fuzzing {} ({} case{} per target)",
        target.as_deref().unwrap_or("every target"),
        if seed.is_some() { 1 } else { cases },
        if seed.is_some() || cases == 1 {
            ""
        } else {
            "s"
        }
    );
    proc::run(&mut cmd, "cargo test --test fuzz")
}

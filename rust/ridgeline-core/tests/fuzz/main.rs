//! Fuzzing on stable Rust: one target per parser (recipe documents, strokes, cooked payloads,
//! PNG brush masks, seed-002 terrain JSON). Each case mutates a valid seed input
//! ([`mutate::Mutator`]) and asserts that the parser does not panic, that a refusal is located
//! (every diagnostic names where), and that an accepted input validates and round-trips.
//!
//! `cargo test` runs a bounded pass (a few seconds); `cargo xtask fuzz [--cases N] [--target
//! NAME]` runs longer ones (`RIDGELINE_FUZZ_CASES` sets the cases per target). A failure prints
//! the case seed; `RIDGELINE_FUZZ_SEED=<seed>` with `RIDGELINE_FUZZ_CASES=1` replays exactly that
//! case (`cargo xtask fuzz --target NAME --seed SEED`).

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

mod mutate;
mod targets;

use mutate::Mutator;
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, RngSeed};

/// Cases per target: `RIDGELINE_FUZZ_CASES`, else a bounded default for `cargo test`.
fn cases(default: u32) -> u32 {
    std::env::var("RIDGELINE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The bounded pass is deterministic (a fixed RNG seed, so `cargo test` never flakes); longer
/// passes (`RIDGELINE_FUZZ_CASES` set) explore new cases each run unless
/// `RIDGELINE_FUZZ_RNG_SEED` fixes them.
fn rng_seed() -> RngSeed {
    match std::env::var("RIDGELINE_FUZZ_RNG_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        Some(s) => RngSeed::Fixed(s),
        None if std::env::var_os("RIDGELINE_FUZZ_CASES").is_some() => RngSeed::Random,
        None => RngSeed::Fixed(0x5eed_0011),
    }
}

fn config(default: u32) -> Config {
    Config {
        cases: cases(default),
        rng_seed: rng_seed(),
        // Case seeds are printed on failure; nothing is written into the source tree.
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        max_shrink_iters: 64,
        ..Config::default()
    }
}

/// Runs `target` on one case; with `RIDGELINE_FUZZ_SEED` set, on that case instead (run it
/// with `RIDGELINE_FUZZ_CASES=1` to replay a failure exactly once).
fn run_case(name: &str, seed: u64, target: fn(&mut Mutator)) {
    let seed = std::env::var("RIDGELINE_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(seed);
    let outcome = std::panic::catch_unwind(|| target(&mut Mutator::new(seed)));
    if let Err(panic) = outcome {
        let msg = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        panic!(
            "fuzz target `{name}` failed on case seed {seed} (replay with RIDGELINE_FUZZ_SEED={seed}): {msg}"
        );
    }
}

proptest! {
    #![proptest_config(config(400))]
    #[test]
    fn recipe_documents(seed in any::<u64>()) {
        run_case("recipe_documents", seed, targets::recipe_document);
    }
}

proptest! {
    #![proptest_config(config(250))]
    #[test]
    fn strokes(seed in any::<u64>()) {
        run_case("strokes", seed, targets::stroke);
    }
}

proptest! {
    #![proptest_config(config(300))]
    #[test]
    fn payloads(seed in any::<u64>()) {
        run_case("payloads", seed, targets::payload);
    }
}

proptest! {
    #![proptest_config(config(400))]
    #[test]
    fn png_masks(seed in any::<u64>()) {
        run_case("png_masks", seed, targets::png_mask);
    }
}

proptest! {
    #![proptest_config(config(400))]
    #[test]
    fn terrain_json(seed in any::<u64>()) {
        run_case("terrain_json", seed, targets::terrain_json);
    }
}

/// The mutations themselves are deterministic: a case seed names one input exactly.
#[test]
fn mutations_are_reproducible() {
    let seed = br#"{"a": [1, 2.5, "x"], "b": {"c": -3}}"#;
    for s in 0..200u64 {
        let a = Mutator::new(s).mutate(seed, &[], true);
        let b = Mutator::new(s).mutate(seed, &[], true);
        assert_eq!(a, b);
    }
}

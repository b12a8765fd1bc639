//! `ridgeline`: inspect, explain, generate, cook and compact Ridgeline terrain documents, and list the
//! node types, from the command line. Progress and diagnostics go to stderr; stdout stays
//! parseable.
//!
//! Exit codes: 0 success, 1 invalid input (the message says what and where), 2 usage error or
//! an internal error (a panic: a bug, reported as `error: internal error: …`, never an abort).

mod compact;
mod cook;
mod explain;
mod files;
mod generate;
mod inspect;
mod nodes;
mod seeds;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// Ridgeline terrain command-line tool.
#[derive(Parser)]
#[command(name = "ridgeline", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Output format of reporting verbs.
#[derive(Clone, Copy, ValueEnum, Default, PartialEq, Eq)]
pub enum Format {
    /// Human-readable text.
    #[default]
    Text,
    /// One JSON document.
    Json,
}

/// Generation quality.
#[derive(Clone, Copy, ValueEnum, Default)]
pub enum QualityArg {
    /// Fast, approximate (fewer erosion droplets, no thermal pass).
    Preview,
    /// The authored result.
    #[default]
    Final,
}

#[derive(Subcommand)]
enum Command {
    /// Describe a recipe or terrain asset without generating it.
    Inspect {
        /// A `*.terrain.json` asset or a bare recipe JSON.
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Generate a terrain and explain why the sample nearest to terrain-local X,Z has its
    /// biome: position, cell, sea level, biome, source (rule, painted region or default),
    /// the rule context, then the winning rule's conditions or every active rule's bands
    /// (INSIDE/OUTSIDE) and first rejecting condition.
    Explain {
        /// A `*.terrain.json` asset or a bare recipe JSON.
        file: PathBuf,
        /// Terrain-local position `X,Z` (world units).
        #[arg(long, allow_hyphen_values = true)]
        at: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Print every seed channel's sub-seed for a world seed.
    Seeds {
        /// The world seed.
        seed: u64,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Generate a terrain and write heightmap.png, heights.f32, preview.png and report.json.
    Generate {
        /// A `*.terrain.json` asset or a bare recipe JSON.
        file: PathBuf,
        /// Output directory (created if missing).
        #[arg(long)]
        out: PathBuf,
        /// Generation quality.
        #[arg(long, value_enum, default_value_t)]
        quality: QualityArg,
    },
    /// Generate a terrain (Final) and write its cooked payload (`*.terrain.bin`) for shipping.
    Cook {
        /// A `*.terrain.json` asset or a bare recipe JSON.
        file: PathBuf,
        /// The payload to write (`*.terrain.bin`).
        #[arg(long)]
        out: PathBuf,
    },
    /// Merge consecutive stamps with identical settings into one stroke entry. Prints what
    /// would change; `--write` validates that the result generates the same terrain and saves.
    Compact {
        /// A `*.terrain.json` asset or a bare recipe JSON.
        file: PathBuf,
        /// Validate and rewrite the file.
        #[arg(long)]
        write: bool,
    },
    /// List every node type: id, category, pins and parameters (type, default, range, unit,
    /// doc). `--format json` prints the catalogue the editor's graph workspace uses.
    Nodes {
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Print the generator version.
    Version,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // No input may panic the CLI; should a bug do it anyway, say so plainly and exit with 2.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("error: internal error (a bug in ridgeline; please report it): {info}");
    }));
    guarded(move || run(cli))
}

/// Runs `f`; a panic inside becomes exit code 2 (the hook has printed the internal error).
fn guarded(f: impl FnOnce() -> ExitCode + std::panic::UnwindSafe) -> ExitCode {
    std::panic::catch_unwind(f).unwrap_or(ExitCode::from(2))
}

fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Inspect { file, format } => inspect::run(&file, format),
        Command::Explain { file, at, format } => explain::run(&file, &at, format),
        Command::Seeds { seed, format } => {
            seeds::run(seed, format);
            Ok(())
        }
        Command::Generate { file, out, quality } => generate::run(&file, &out, quality),
        Command::Cook { file, out } => cook::run(&file, &out),
        Command::Compact { file, write } => compact::run(&file, write).map(|r| print!("{r}")),
        Command::Nodes { format } => {
            print!("{}", nodes::render(format));
            Ok(())
        }
        Command::Version => {
            println!("{}", ridgeline_core::GENERATOR_VERSION);
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            for line in message.lines() {
                eprintln!("error: {line}");
            }
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_residual_panic_is_exit_code_2_not_an_abort() {
        assert_eq!(guarded(|| ExitCode::from(1)), ExitCode::from(1));
        assert_eq!(guarded(|| panic!("a bug")), ExitCode::from(2));
    }
}

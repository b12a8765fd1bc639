//! `ridgeline`: inspect, explain, generate, cook, compact, import and export Ridgeline terrain
//! documents, layer files and scatter sets, list the node types and landscape presets, and apply presets, from the command line. Progress and diagnostics go to stderr; stdout stays
//! parseable.
//!
//! Exit codes: 0 success, 1 invalid input (the message says what and where), 2 usage error or
//! an internal error (a panic: a bug, reported as `error: internal error: …`, never an abort).

mod apply_preset;
mod compact;
mod cook;
mod explain;
mod export;
mod files;
mod generate;
mod import;
mod inspect;
mod layers;
mod nodes;
mod presets;
mod scatter;
mod scene_patch;
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
    /// List the landscape presets: the eight built-ins and the project's `*.preset.json`
    /// files, with name, description, biomes and rules. An empty project still succeeds.
    Presets {
        /// The Godot project folder.
        project: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Merge a landscape preset into a terrain asset (`--asset`) or a scene's inline Terrain3D
    /// recipe (the main scene or `--scene`; `--entity` when it has several). Strokes are kept.
    ApplyPreset {
        /// The Godot project folder.
        project: PathBuf,
        /// Preset id: `builtin://terrain/<name>` or `res://….preset.json`.
        #[arg(long)]
        preset: String,
        /// The Terrain3D node path in the scene (`Terrain`, `World/Terrain`).
        #[arg(long)]
        entity: Option<String>,
        /// A terrain asset file to update instead of a scene.
        #[arg(long, conflicts_with_all = ["scene", "entity"])]
        asset: Option<PathBuf>,
        /// The scene to patch (default: the project's main scene).
        #[arg(long)]
        scene: Option<PathBuf>,
        /// When the preset changes the grid: keep the strokes (world units).
        #[arg(long, conflicts_with = "clear_strokes")]
        keep_strokes: bool,
        /// When the preset changes the grid: remove every stroke.
        #[arg(long)]
        clear_strokes: bool,
    },
    /// Create a terrain asset whose graph reads a heightmap (16/8-bit PNG, R16, R32 or terrain
    /// JSON); the path stored is relative to the asset. The file must be inside the asset's
    /// project.
    Import {
        /// The heightmap (`.png`, `.r16`/`.raw`, `.r32`, `.json`).
        file: PathBuf,
        /// The asset to write (`<name>.terrain.json`).
        #[arg(long)]
        out: PathBuf,
        /// World size `X,Z` (default: 1 m per pixel; terrain JSON: its cell size).
        #[arg(long, value_parser = parse_pair::<f64>)]
        size: Option<[f64; 2]>,
        /// Heights `MIN,MAX` of the smallest and largest sample (PNG, R16; default: the range a
        /// Ridgeline PNG embeds, else 0,100).
        #[arg(long, value_parser = parse_pair::<f64>, allow_hyphen_values = true)]
        height_range: Option<[f64; 2]>,
        /// Raw files: samples `WIDTH,DEPTH` (default: a square file's side).
        #[arg(long, value_parser = parse_pair::<usize>)]
        raw_size: Option<[usize; 2]>,
    },
    /// Write the prepared surface (Final, strokes replayed) of a recipe or a cooked payload as a
    /// 16-bit PNG, R16, R32 or seed-002 terrain JSON.
    Export {
        /// A `*.terrain.json` asset, a bare recipe JSON, or a cooked `*.terrain.bin`.
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum)]
        format: export::ExportFormat,
        /// The file to write.
        #[arg(long)]
        out: PathBuf,
        /// Heights `MIN,MAX` mapped to 0 and 65535 (png16, r16; default: the surface's range).
        #[arg(long, value_parser = parse_pair::<f64>, allow_hyphen_values = true)]
        height_range: Option<[f64; 2]>,
    },
    /// An asset's layers as PNG layer files (heightmap, surface, splat, user channels, water,
    /// foliage density; seed 004's layout), and back as strokes.
    Layers {
        #[command(subcommand)]
        action: LayersAction,
    },
    /// Scatter placements as seed-002 scatter sets, and back.
    Scatter {
        #[command(subcommand)]
        action: ScatterAction,
    },
    /// Print the generator version.
    Version,
}

/// `ridgeline layers …`.
#[derive(Subcommand)]
enum LayersAction {
    /// Generate the asset (Final, strokes replayed) and write its layer files into a folder:
    /// only files whose bytes differ from the folder's are written, each atomically.
    Export {
        /// A `*.terrain.json` asset or a bare recipe JSON.
        file: PathBuf,
        /// The layer folder (created if missing).
        #[arg(long)]
        dir: PathBuf,
        /// Comma-separated layers: heightmap, surface, splat, user, water, foliage (default:
        /// all).
        #[arg(long)]
        layers: Option<String>,
    },
    /// Read a layer folder and add the strokes that make the asset's layers match it (one
    /// patch stroke per changed layer), then save the asset (in place, or `-o`). A bad file is
    /// a located error and nothing is written.
    Import {
        /// A `*.terrain.json` asset or a bare recipe JSON.
        file: PathBuf,
        /// The layer folder.
        #[arg(long)]
        dir: PathBuf,
        /// Write the updated asset here instead of in place.
        #[arg(short, long)]
        out: Option<PathBuf>,
    },
}

/// `ridgeline scatter …`.
#[derive(Subcommand)]
enum ScatterAction {
    /// Generate a recipe (Final, strokes replayed) and write its placements as a JSON array of
    /// seed-002 scatter sets (a foliage set for rules without collision, a props set for the
    /// others).
    Export {
        /// A `*.terrain.json` asset or a bare recipe JSON with a `palette`.
        file: PathBuf,
        /// The sets file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Read a seed-002 scatter set (or an array of sets) and write its instances as
    /// placements with stable keys, plus a format-3 palette per set describing its items.
    Import {
        /// The sets file.
        file: PathBuf,
        /// The placements file to write.
        #[arg(long)]
        out: PathBuf,
    },
}

/// Parses `A,B`.
fn parse_pair<T: std::str::FromStr + Copy>(s: &str) -> Result<[T; 2], String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("expected two values `A,B`, got `{s}`"))?;
    let p = |v: &str| {
        v.trim()
            .parse::<T>()
            .map_err(|_| format!("`{}` is not a valid number", v.trim()))
    };
    Ok([p(a)?, p(b)?])
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
        Command::Presets { project, format } => {
            presets::run(&project, format).map(|t| print!("{t}"))
        }
        Command::ApplyPreset {
            project,
            preset,
            entity,
            asset,
            scene,
            keep_strokes,
            clear_strokes,
        } => {
            let grid = if keep_strokes {
                ridgeline_core::recipe::preset::GridChange::KeepStrokes
            } else if clear_strokes {
                ridgeline_core::recipe::preset::GridChange::ClearStrokes
            } else {
                ridgeline_core::recipe::preset::GridChange::Ask
            };
            let target = apply_preset::Target {
                asset,
                scene,
                entity,
            };
            apply_preset::run(&project, &preset, &target, grid).map(|t| print!("{t}"))
        }
        Command::Import {
            file,
            out,
            size,
            height_range,
            raw_size,
        } => import::run(&import::Args {
            file: &file,
            out: &out,
            size,
            height_range,
            raw_size,
        }),
        Command::Export {
            file,
            format,
            out,
            height_range,
        } => export::run(&file, format, &out, height_range),
        Command::Layers { action } => match action {
            LayersAction::Export { file, dir, layers } => {
                layers::run_export(&file, &dir, layers.as_deref())
            }
            LayersAction::Import { file, dir, out } => {
                layers::run_import(&file, &dir, out.as_deref())
            }
        },
        Command::Scatter { action } => match action {
            ScatterAction::Export { file, out } => scatter::run_export(&file, &out),
            ScatterAction::Import { file, out } => scatter::run_import(&file, &out),
        },
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

//! `ridgeline`: inspect, generate, convert and cook Ridgeline terrain documents from the command
//! line. Progress and diagnostics go to stderr; stdout stays parseable.
//!
//! Exit codes: 0 success, 1 invalid input (the message says what and where), 2 usage error.

use clap::{Parser, Subcommand};

/// Ridgeline terrain command-line tool.
#[derive(Parser)]
#[command(name = "ridgeline", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the generator version.
    Version,
}

fn main() {
    let cli = Cli::parse();
    match cli.command {
        Command::Version => println!("{}", ridgeline_core::GENERATOR_VERSION),
    }
}

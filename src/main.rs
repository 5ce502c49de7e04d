//! The `loopgate` binary: parse, run, exit. Everything else lives in the library so tests can call it.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = loopgate::cli::Cli::parse();
    ExitCode::from(loopgate::run(cli))
}

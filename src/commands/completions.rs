//! `loopgate completions SHELL`: the completion script for bash, zsh, fish, elvish or PowerShell, generated
//! from the same clap definitions as the help, so it never lags behind a new flag.

use clap::CommandFactory;

use crate::cli::Cli;
use crate::error::Error;
use crate::exit_codes;

/// Prints the completion script for `shell` on stdout.
pub(crate) fn run(shell: clap_complete::Shell) -> Result<u8, Error> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "loopgate", &mut out);
    crate::say(String::from_utf8_lossy(&out).trim_end());
    Ok(exit_codes::OK)
}

//! The `loopgate` binary: parse, run, exit. Everything else lives in the library so tests can call it.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    reset_sigpipe();
    let cli = loopgate::cli::Cli::parse();
    ExitCode::from(loopgate::run(cli))
}

/// Restores the default SIGPIPE action so `loopgate history | head` ends quietly instead of panicking on a
/// write to a closed pipe (Rust ignores SIGPIPE by default).
fn reset_sigpipe() {
    // SAFETY: setting a signal disposition to its default at startup, before any threads exist.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

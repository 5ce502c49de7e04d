//! The `loopgate` binary: parse, run, exit. Everything else lives in the library so tests can call it.

use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = loopgate::cli::Cli::from_env();
    if let Some(dir) = cli.project_dir.as_ref().filter(|d| !d.is_empty()) {
        // `--project-dir` means exactly what `$CLAUDE_PROJECT_DIR` means to every command (the user-level slash
        // commands pass it, as the plugin's do through `hooks/loopgate.sh`).
        // SAFETY: no other thread exists yet, so nothing reads the environment concurrently.
        unsafe { std::env::set_var("CLAUDE_PROJECT_DIR", dir) };
    }
    ExitCode::from(loopgate::run(cli))
}

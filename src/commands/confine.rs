//! `loopgate confine [--loop-home DIR] [--protect PATH]… -- CMD ARGS…` (or `--shell SH -c SCRIPT`): enters the
//! confinement of `confine` for the loop's control plane, then becomes the command (`exec`), so the exit code,
//! signals and process group are the command's own. A command that cannot be found exits 127 and one that
//! cannot be executed 126, as a shell's would.
//!
//! `-c SCRIPT` is the form the PreToolUse rewrite uses (`confine::rewrite`): the script runs in the calling
//! shell's kind of shell. When descriptor 3 is open, the caller wants to follow a `cd`: then loopgate stays as
//! the confined shell's parent, the shell writes its last directory to a file in a directory loopgate made for it
//! (only when the script succeeded, as Claude Code's own `&& pwd -P` does), and loopgate passes that text on to
//! descriptor 3 once the shell has exited. Descriptor 3 itself is never inherited (close-on-exec): a background
//! job the script leaves running must not keep the caller waiting for the end of it.

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::Path;

use crate::cli::ConfineArgs;
use crate::plane::Plane;

/// Shells the `-c` form runs the script in by name; any other `--shell` runs `sh`.
const SHELLS: &[&str] = &["bash", "zsh", "sh", "dash", "ksh", "mksh", "ash"];

/// The script the shell runs: the original comes as `$1` (and the file for the last directory as `$2`), removed
/// from the positional parameters before the original runs.
const REPORTING: &str = "__lg_c=$1; __lg_f=$2; shift 2; eval \"$__lg_c\" && pwd -P >| \"$__lg_f\"";
const PLAIN: &str = "__lg_c=$1; shift; eval \"$__lg_c\"";
/// The descriptor the caller reads the last directory from.
const REPORT_FD: libc::c_int = 3;

pub(crate) fn run(args: ConfineArgs) -> u8 {
    let home = args.loop_home.unwrap_or_else(crate::project::loopgate_home);
    let plane = Plane::new(&home, &args.protect);
    let (program, rest) = match args.script {
        Some(script) if descriptor_open(REPORT_FD) => {
            return run_reporting(&plane, shell(args.shell.as_deref()), script);
        }
        Some(script) => {
            let shell = shell(args.shell.as_deref());
            (shell.clone(), vec!["-c".into(), PLAIN.into(), shell, script.into()])
        }
        None => {
            let mut command = args.command.into_iter();
            let Some(program) = command.next() else {
                eprintln!("loopgate: failed to confine: no command given after `--`");
                return crate::exit_codes::USAGE;
            };
            (program, command.collect())
        }
    };
    let err = crate::confine::exec(&plane, &program, &rest);
    failed_to_run(&program, &err)
}

/// The `-c` form with the last directory reported on [`REPORT_FD`] (see the module docs).
fn run_reporting(plane: &Plane, shell: OsString, script: String) -> u8 {
    // SAFETY: F_SETFD on a descriptor we checked is open; only its close-on-exec flag changes.
    unsafe { libc::fcntl(REPORT_FD, libc::F_SETFD, libc::FD_CLOEXEC) };
    // Made before the domain is prepared, so the domain grants it even where its parent is closed to new entries.
    let dir = std::env::temp_dir().join(format!(
        "loopgate-cwd-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos())
    ));
    let file = dir.join("cwd");
    let made = std::fs::create_dir(&dir).is_ok();
    let report: OsString = if made { file.clone().into() } else { "/dev/null".into() };
    let rest: Vec<OsString> = vec!["-c".into(), REPORTING.into(), shell.clone(), script.into(), report];
    let (mut command, _) = crate::confine::command(plane, &shell, &rest);
    let status = command.status();
    if made {
        if let Ok(text) = std::fs::read(&file) {
            write_all(REPORT_FD, text.strip_suffix(b"\n").unwrap_or(&text));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    match status {
        Ok(status) => exit_code(status),
        Err(err) => failed_to_run(&shell, &err),
    }
}

/// The exit code a shell would report for `status`: the code, or 128+N for death by signal N.
fn exit_code(status: std::process::ExitStatus) -> u8 {
    use std::os::unix::process::ExitStatusExt;
    let code = status.code().or_else(|| status.signal().map(|n| 128 + n)).unwrap_or(1);
    u8::try_from(code & 0xff).unwrap_or(1)
}

fn failed_to_run(program: &OsStr, err: &io::Error) -> u8 {
    eprintln!("loopgate: failed to run `{}`: {err}", Path::new(program).display());
    match err.kind() {
        io::ErrorKind::NotFound => 127,
        _ => 126,
    }
}

fn write_all(fd: libc::c_int, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: writes from a live slice to a descriptor we checked is open.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        let Ok(n) = usize::try_from(n) else { return };
        if n == 0 {
            return;
        }
        bytes = &bytes[n..];
    }
}

/// The shell to run a script in: `--shell` when it names a known shell, else `sh`.
fn shell(given: Option<&str>) -> OsString {
    given
        .filter(|shell| {
            let name = Path::new(shell)
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            SHELLS.contains(&name.trim_start_matches('-'))
        })
        .unwrap_or("sh")
        .into()
}

fn descriptor_open(fd: libc::c_int) -> bool {
    // SAFETY: F_GETFD only reads the descriptor's flags.
    unsafe { libc::fcntl(fd, libc::F_GETFD) != -1 }
}

#[cfg(test)]
mod tests {
    use super::shell;

    #[test]
    fn only_a_known_shell_runs_the_script() {
        assert_eq!(shell(Some("/bin/bash")), "/bin/bash");
        assert_eq!(shell(Some("zsh")), "zsh");
        assert_eq!(shell(Some("/tmp/evil")), "sh");
        assert_eq!(shell(None), "sh");
    }
}

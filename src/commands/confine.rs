//! `loopgate confine [--loop-home DIR] [--protect PATH]… -- CMD ARGS…` (or `--shell SH -c SCRIPT`): enters the
//! confinement of `confine` for the loop's control plane, then becomes the command (`exec`), so the exit code,
//! signals and process group are the command's own. A command that cannot be found exits 127 and one that
//! cannot be executed 126, as a shell's would.
//!
//! `-c SCRIPT` is the form the PreToolUse rewrite uses (`confine::rewrite`): the script runs in the calling
//! shell's kind of shell, and when descriptor 3 is open the shell writes its last directory there after the
//! script succeeds, so the unconfined caller can follow a `cd`. The script's own processes get descriptor 3
//! closed.

use std::ffi::OsString;
use std::io;
use std::path::Path;

use crate::cli::ConfineArgs;
use crate::plane::Plane;

/// Shells the `-c` form runs the script in by name; any other `--shell` runs `sh`.
const SHELLS: &[&str] = &["bash", "zsh", "sh", "dash", "ksh", "mksh", "ash"];

/// The script the shell runs: the original comes as `$1` and is removed from the positional parameters first.
const REPORTING: &str = "__lg_c=$1; shift; eval \"$__lg_c\" 3>&- && pwd -P >&3";
const PLAIN: &str = "__lg_c=$1; shift; eval \"$__lg_c\"";

pub(crate) fn run(args: ConfineArgs) -> u8 {
    let home = args.loop_home.unwrap_or_else(crate::project::loopgate_home);
    let plane = Plane::new(&home, &args.protect);
    let (program, rest) = match args.script {
        Some(script) => {
            let shell = shell(args.shell.as_deref());
            let body = if descriptor_open(3) { REPORTING } else { PLAIN };
            (shell.clone(), vec!["-c".into(), body.into(), shell, script.into()])
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
    eprintln!(
        "loopgate: failed to run `{}`: {err}",
        Path::new(&program).display()
    );
    match err.kind() {
        io::ErrorKind::NotFound => 127,
        _ => 126,
    }
}

/// The shell to run a script in: `--shell` when it names a known shell, else `sh`.
fn shell(given: Option<&str>) -> OsString {
    given
        .filter(|shell| {
            let name = Path::new(shell).file_name().and_then(|n| n.to_str()).unwrap_or_default();
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

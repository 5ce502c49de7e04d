//! The start channel at the runner's binary (issue 39; see [`super::complete`]). On `PATH` the channel is a list
//! of ways in, each with a way around: a `node` started by its full path, a `PATH` set without the room's entry,
//! `env -i`, a wrapper script that calls `$(command -v node)`'s target. Where the room's run stands in a mount
//! namespace of its own (`confine::mount`), the channel is the binary itself: the stand-in ([`STANDIN`]) is bound
//! over each runner binary the traced baseline executed (the interpreter, `node`, `go`, `ruby`, as its real path
//! resolves: a venv's `bin/python` link reaches the same file), and the real binary is bound at a private path
//! in the room that only the stand-in execs. So however the runner is started — by name, by path, under any
//! `PATH`, with any environment, from a script — the room's words are back in its options variable when it
//! starts. The stand-in runs the real binary under the name it was started by (`exec -a`: Python finds its
//! venv's `pyvenv.cfg` from that name), which is why it is a bash script (`-p`: it reads no `BASH_ENV` and no
//! exported function); where there is no `/bin/bash` the `PATH` stand-in alone remains, as where there is no
//! namespace (macOS, Landlock only) or no trace (the baseline itself is untraced until it ends, so its own run
//! has the `PATH` channel; every later run has both, and they agree: the words put back twice are the same).
//!
//! The run cannot take the binding off: its processes are no root in the namespace (the uid maps to itself, and
//! an `exec` drops the capabilities entering it gave), and a namespace it makes inside holds the binding locked.
//! What the channel does not reach: a copy of the interpreter the run makes itself (the agent's code, read by the
//! reviewer), and Python's own switches that load no hook (`-I`, `-E`, `-S`: the stand-in puts `PYTEST_ADDOPTS`'
//! words back, which pytest reads whatever the switches, so pytest's report holds; unittest's hook, loaded
//! through `PYTHONPATH`, stays out as the user asked).

use std::io;
use std::path::{Path, PathBuf};

/// The stand-in's text; `@…@` are filled per binary.
const STANDIN: &str = include_str!("standin.sh");

/// The shell the stand-in needs (`exec -a`).
const BASH: &str = "/bin/bash";

/// Where the stand-ins are written in the room, one per binary, and the private mount points of the real ones.
const AT: &str = "hook/at";
const REAL: &str = "hook/real";

/// One binary the channel stands in at: the stand-in bound over `target` (its real path), the real binary
/// bound at `real`, a file of the room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StandIn {
    pub(crate) target: PathBuf,
    pub(crate) standin: PathBuf,
    pub(crate) real: PathBuf,
}

/// Whether `name` (a program's file name) is a runner binary the channel stands in at: one of a completed
/// variable's `binaries`, or one followed by a version (`python3.12`, `ruby3.1`).
pub(crate) fn is_runner(name: &str) -> bool {
    super::HOOKS
        .iter()
        .filter_map(|hook| hook.completes())
        .flat_map(|c| c.binaries.iter())
        .any(|binary| {
            name.strip_prefix(binary)
                .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit() || c == '.'))
        })
}

/// The name `program` (a recipe's first word) is started by where it is a runner binary's full path that the
/// first entry of `path` (the run's `PATH`) holding that name reaches too — the same file, so the same runner,
/// started through the same channel — and the channel stands at the binary on this machine (a mount namespace,
/// and the stand-in's shell): where it stands only on `PATH`, a full path goes around it, so it stays a change.
pub(crate) fn as_named<'a>(program: &'a str, path: Option<&str>) -> Option<&'a str> {
    let (dir, name) = program.rsplit_once('/')?;
    if dir.is_empty() || !program.starts_with('/') || !is_runner(name) || !standing() {
        return None;
    }
    let real = Path::new(program).canonicalize().ok()?;
    // The room's own `PATH` stand-in (first on the run's `PATH`) passes the name on to the next entry.
    let home = crate::plane::resolve(&crate::project::loopgate_home());
    let found = std::env::split_paths(path?)
        .filter(|dir| !crate::plane::resolve(dir).starts_with(&home))
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())?;
    (found.canonicalize().ok()? == real).then_some(name)
}

/// Whether the channel can stand at the binary on this machine: a mount namespace, and the stand-in's shell.
pub(crate) fn standing() -> bool {
    Path::new(BASH).is_file() && crate::confine::mount::probe().is_ok()
}

/// The completed variables a runner binary named `name` reads.
fn vars_of(name: &str) -> Vec<&'static str> {
    super::HOOKS
        .iter()
        .filter_map(|hook| hook.completes())
        .filter(|c| {
            c.binaries.iter().any(|binary| {
                name.strip_prefix(binary)
                    .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit() || c == '.'))
            })
        })
        .map(|c| c.var)
        .collect()
}

/// The runner binaries among `executed` (the paths a traced run executed), by their real paths, once each;
/// none in loopgate's `home` (the `PATH` stand-in of the room, named like the runner, is the channel's own).
pub(crate) fn runners(executed: impl IntoIterator<Item = PathBuf>, home: &Path) -> Vec<PathBuf> {
    let home = crate::plane::resolve(home);
    let mut found: Vec<PathBuf> = executed
        .into_iter()
        .filter(|path| path.file_name().and_then(|n| n.to_str()).is_some_and(is_runner))
        .filter_map(|path| path.canonicalize().ok())
        .filter(|real| real.file_name().and_then(|n| n.to_str()).is_some_and(is_runner))
        .filter(|real| !real.starts_with(&home) && !is_script(real))
        .collect();
    found.sort();
    found.dedup();
    found
}

/// Whether `file` is a script (`#!`): a version manager's shim (pyenv's `python3`, which finds what to run from
/// its own name, `$0`, which a script started through a stand-in cannot be given back). The binary it starts is
/// a runner binary of the trace too, and the stand-in stands there.
fn is_script(file: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 2];
    std::fs::File::open(file)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && head == *b"#!"
}

/// Writes the stand-in of each of `binaries` (real paths) into the room at `room`, with an empty file at each
/// private path for its real binary to be bound on; none where the stand-in's shell is missing, and none for a
/// binary that is no longer a file (the run then finds what is there, as it would have).
pub(crate) fn at_binaries(room: &Path, binaries: &[PathBuf]) -> io::Result<Vec<StandIn>> {
    if binaries.is_empty() || !Path::new(BASH).is_file() {
        return Ok(Vec::new());
    }
    let mut standins = Vec::new();
    for (n, target) in binaries.iter().enumerate() {
        let Some(name) = target.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if !std::fs::metadata(target).is_ok_and(|m| m.is_file()) {
            continue;
        }
        let real = room.join(REAL).join(n.to_string());
        let (Some(real_text), Some(target_text), Some(words)) = (
            real.to_str(),
            target.to_str(),
            room.join(super::WORDS).to_str().map(str::to_string),
        ) else {
            continue;
        };
        if [real_text, target_text, &words]
            .iter()
            .any(|t| t.contains(['\'', '\n']))
        {
            continue;
        }
        let text = STANDIN
            .replace("@TARGET@", target_text)
            .replace("@WORDS@", &words)
            .replace("@VARS@", &vars_of(name).join(" "))
            .replace("@EXTRA@", &extra(name, target))
            .replace("@REAL@", real_text);
        let place = format!("{AT}/{n}");
        super::write(room, &place, &text, true)?;
        super::write(room, &format!("{REAL}/{n}"), "", false)?;
        standins.push(StandIn {
            target: target.clone(),
            standin: room.join(place),
            real,
        });
    }
    Ok(standins)
}

/// The runner binary (one of `binaries`, as [`at_binaries`] numbered them) whose private path in the room at
/// `room` is `ran`, if it is one.
pub(crate) fn stood_in<'b>(room: &Path, ran: &Path, binaries: &'b [PathBuf]) -> Option<&'b PathBuf> {
    let n: usize = ran.strip_prefix(room.join(REAL)).ok()?.to_str()?.parse().ok()?;
    binaries.get(n)
}

/// What a binary needs beside its words: `go` finds its tree from its own path (`os.Executable`), which is
/// now the private one, so its `GOROOT` is named where the caller named none.
fn extra(name: &str, target: &Path) -> String {
    let goroot = target.parent().and_then(Path::parent);
    match goroot
        .filter(|root| name == "go" && root.join("pkg/tool").is_dir())
        .and_then(|r| r.to_str())
    {
        Some(root) if !root.contains(['\'', '\n']) => format!("[ -n \"${{GOROOT-}}\" ] || export GOROOT='{root}'"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runner_binaries_are_known_by_name_and_version() {
        for name in [
            "python",
            "python3",
            "python3.12",
            "node",
            "nodejs",
            "go",
            "ruby",
            "ruby3.1",
        ] {
            assert!(is_runner(name), "{name}");
        }
        for name in ["pythonw-x", "gofmt", "nodemon", "rubocop", "sh", "make", "pytest"] {
            assert!(!is_runner(name), "{name}");
        }
        assert_eq!(vars_of("python3.11"), ["PYTEST_ADDOPTS"]);
        assert_eq!(vars_of("ruby"), ["RUBYOPT"]);
    }

    /// The stand-in puts the room's words back last, whatever the variable held, and starts the real binary
    /// under the name it was started by.
    #[test]
    fn the_standin_puts_the_words_back_and_runs_the_real_binary() {
        if !Path::new(BASH).is_file() {
            return;
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let room = dir.path().join("room");
        let bin = dir.path().join("bin");
        std::fs::create_dir_all(&bin).expect("bin");
        let node = bin.join("node");
        std::fs::write(&node, "").expect("node");
        super::super::write(
            &room,
            &format!("{}/NODE_OPTIONS", super::super::WORDS),
            "--require /r/h.cjs",
            false,
        )
        .expect("words");
        let standins = at_binaries(&room, std::slice::from_ref(&node)).expect("stand-ins");
        assert_eq!(standins.len(), 1);
        // Stand in for the real binary at its private path: a script printing what it was started with.
        let text = std::fs::read_to_string(&standins[0].standin).expect("read");
        let probe = dir.path().join("probe");
        std::fs::write(&probe, "#!/bin/sh\necho \"$0|$NODE_OPTIONS\"\n").expect("probe");
        std::fs::set_permissions(&probe, std::os::unix::fs::PermissionsExt::from_mode(0o755)).expect("mode");
        let text = text.replace(
            standins[0].real.to_str().expect("utf-8"),
            probe.to_str().expect("utf-8"),
        );
        std::fs::write(&standins[0].standin, text).expect("write");
        for (given, want) in [
            ("--max-old-space-size=64", "--max-old-space-size=64 --require /r/h.cjs"),
            ("", "--require /r/h.cjs"),
            ("--require /r/h.cjs --x", "--x --require /r/h.cjs"),
        ] {
            let out = std::process::Command::new(&standins[0].standin)
                .env("NODE_OPTIONS", given)
                .output()
                .expect("run");
            let out = String::from_utf8_lossy(&out.stdout);
            let (_, value) = out.trim().split_once('|').expect("printed");
            assert_eq!(value.trim(), want, "{given}");
        }
    }
}

//! go test's start hook (`room::hook`): `go-exec.sh` beside this file, the program `GOFLAGS=-exec=…` runs each
//! test binary through; it records runs, not tests (see `room::hook`).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io;
use std::path::Path;

/// The hook, in the room.
const FILE: &str = "hook/go/loopgate-go-exec";
const EXEC: &str = include_str!("go-exec.sh");

pub(super) struct Hook;

impl super::StartHook for Hook {
    fn completes(&self) -> Option<super::Completed> {
        Some(super::Completed {
            var: "GOFLAGS",
            program: Some("go"),
            binaries: &["go"],
            ours: |word| word.starts_with("-exec=") && word.ends_with(&format!("/{FILE}")),
        })
    }

    fn install(&self, room: &Path) -> io::Result<()> {
        super::write(room, FILE, EXEC, true)
    }

    /// Last in `GOFLAGS`, which is split at spaces with no quoting; a user's own `-exec` (an emulator, a device)
    /// stays theirs.
    fn set(&self, room: &Path, vars: &mut BTreeMap<String, OsString>) {
        let hook = room.join(FILE).into_os_string();
        let theirs = vars
            .get("GOFLAGS")
            .is_some_and(|flags| flags.to_string_lossy().contains("-exec"));
        if !theirs && !hook.to_string_lossy().contains(char::is_whitespace) {
            let mut word = OsString::from("-exec=");
            word.push(hook);
            super::push_word(vars, "GOFLAGS", word);
        }
    }
}

//! go test's start hook (`room::hook`): `go-exec.sh` beside this file, the program `GOFLAGS=-exec=…` runs each
//! test binary through; it records runs, not tests (see `room::hook`).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io;
use std::path::Path;

/// The hook, in the room.
const FILE: &str = "hook/go/loopgate-go-exec";
const EXEC: &str = include_str!("go-exec.sh");

/// The room's order of the tests: as written. `go test` runs a package's tests in an order the `-shuffle`
/// flag's seed picks, and the last `-shuffle` it reads wins; the start channel puts the room's words back last
/// at go's start (`room::hook::complete`), so whatever the tree sets — `-shuffle=on` (a fresh seed each run, which
/// a retried promise could draw until a test that leaves state behind runs before the one it rescues) or a
/// chosen `-shuffle=N` — the oracle's run orders the tests as the baseline did. A `-shuffle` on the verify
/// command's own line comes after `GOFLAGS` and stays the user's, at the baseline as at every promise.
const IN_ORDER: &str = "-shuffle=off";

pub(super) struct Hook;

impl super::StartHook for Hook {
    fn completes(&self) -> Option<super::Completed> {
        Some(super::Completed {
            var: "GOFLAGS",
            program: Some("go"),
            binaries: &["go"],
            ours: |word| word == IN_ORDER || (word.starts_with("-exec=") && word.ends_with(&format!("/{FILE}"))),
        })
    }

    fn install(&self, room: &Path) -> io::Result<()> {
        super::write(room, FILE, EXEC, true)
    }

    /// Last in `GOFLAGS`, which is split at spaces with no quoting; a user's own `-exec` (an emulator, a device)
    /// stays theirs. And [`IN_ORDER`], always, after every word of theirs.
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
        let last = vars.get("GOFLAGS").and_then(|flags| {
            flags
                .to_string_lossy()
                .split_whitespace()
                .rfind(|word| word.starts_with("-shuffle") || word.starts_with("-test.shuffle"))
                .map(str::to_string)
        });
        if last.as_deref() != Some(IN_ORDER) {
            super::push_word(vars, "GOFLAGS", IN_ORDER);
        }
    }
}

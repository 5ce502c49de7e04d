//! node's start hook (`room::hook`): `report.cjs` beside this file, loaded by `NODE_OPTIONS=--require`, records
//! mocha's, Jest's and Vitest's per-test events.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io;
use std::path::Path;

/// The hook, in the room.
const FILE: &str = "hook/node/loopgate-report.cjs";
const REPORT: &str = include_str!("report.cjs");

pub(super) struct Hook;

impl super::StartHook for Hook {
    fn completes(&self) -> Option<super::Completed> {
        Some(super::Completed {
            var: "NODE_OPTIONS",
            program: Some("node"),
            binaries: &["node", "nodejs"],
            ours: |word| word.ends_with(&format!("/{FILE}")),
        })
    }

    fn install(&self, room: &Path) -> io::Result<()> {
        super::write(room, FILE, REPORT, false)
    }

    /// Last in `NODE_OPTIONS`, where `report.cjs` looks for itself to take itself out.
    fn set(&self, room: &Path, vars: &mut BTreeMap<String, OsString>) {
        let word = options_word(&room.join(FILE).display().to_string());
        super::push_word(vars, "NODE_OPTIONS", format!("--require {word}"));
    }
}

/// `word` as one word of `NODE_OPTIONS` (node splits it at spaces, and reads `"…"` with `\` escapes as one).
fn options_word(word: &str) -> String {
    if !word.contains([' ', '"', '\\', '\t']) {
        return word.to_string();
    }
    format!("\"{}\"", word.replace('\\', "\\\\").replace('"', "\\\""))
}

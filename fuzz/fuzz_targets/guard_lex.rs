//! The guard's shell lexer, and the guard around it: any Bash command tokenizes (or is reported as nested too
//! deeply) and gets a verdict, never a panic or a hang.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use loopgate::guard::{self, Protected, Verdict};

fuzz_target!(|data: &[u8]| {
    let Ok(command) = std::str::from_utf8(data) else { return };
    let _ = guard::lex_for_fuzzing(command);
    let root = Path::new("/nonexistent/loopgate-fuzz");
    let protected = Protected {
        files: vec![root.join(".claude/pua-loop.local.md")],
        dirs: vec![root.join(".claude/loopgate")],
        project_root: root.to_path_buf(),
        ..Default::default()
    };
    let input = serde_json::json!({ "command": command });
    if let Verdict::Deny { reason } = guard::check_with_env("Bash", &input, root, &protected, &|_| None) {
        assert!(!reason.is_empty(), "a deny always says why");
    }
});

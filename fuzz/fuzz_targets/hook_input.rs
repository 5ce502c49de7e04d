//! Hook JSON as Claude Code sends it on stdin: any bytes give an input or a one-line error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for event in ["Stop", "PreToolUse", "SessionStart"] {
        if let Err(problem) = loopgate::hook::parse_input(data, event) {
            assert!(!problem.contains('\n'), "multi-line error: {problem}");
        }
    }
});

//! The /pua-loop argument splitter: any text splits or gives a one-line error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loopgate::args::{FlagSpec, split};

fuzz_target!(|data: &[u8]| {
    let Ok(raw) = std::str::from_utf8(data) else { return };
    let known: Vec<FlagSpec> = [("verify", true), ("max-iterations", true), ("seal", true), ("force", false)]
        .into_iter()
        .map(|(name, takes_value)| FlagSpec {
            name: name.to_string(),
            takes_value,
        })
        .collect();
    if let Err(problem) = split(raw, &known) {
        assert!(!problem.contains('\n'), "multi-line error: {problem}");
    }
});

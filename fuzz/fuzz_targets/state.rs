//! The state file: whatever parses renders, and the rendering parses back to the same file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loopgate::state::State;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(state) = State::parse(text) else { return };
    let Ok(rendered) = state.render() else { return };
    let back = State::parse(&rendered).expect("a rendered state parses");
    // Compared as rendered text: a parsed `.nan` is not equal to itself.
    assert_eq!(back.render().expect("renders again"), rendered);
    assert_eq!(back.task, state.task, "the task survives byte for byte");
});

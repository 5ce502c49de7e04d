//! The tag scanner: the bytes before the first NUL are the sealed promise, the rest the agent's message.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (promise, message) = text.split_once('\0').unwrap_or(("LOOP_DONE", &text));
    let _ = loopgate::tags::scan(message, promise);
});

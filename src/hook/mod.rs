//! Claude Code hook entry points.
//!
//! Every hook exits 0 and speaks through the JSON it prints: a non-zero exit other than 2 is a non-blocking
//! error Claude Code may never show, which would silently disable a loop. When something goes wrong (bad
//! input, an unreadable file) the hook **fails open**: it lets the agent stop or the tool run, prints one line
//! naming the file and the problem on stderr, and repeats it to the user in `systemMessage`. It fails closed
//! (blocks) only where the oracle itself was tampered with — and then the seal, not the tampered file, decides.

mod input;
mod output;
mod pre_tool_use;
mod session_start;
pub mod stop;

pub use input::{HookInput, MAX_INPUT, parse as parse_input};
pub use output::HookOutput;

use std::io::Write;

use crate::cli::HookEvent;

/// A hook's decision logic: input in, output (or nothing) out, or a one-line problem.
type Handler = fn(&HookInput) -> Result<Option<HookOutput>, String>;

/// Runs one hook: reads stdin, decides, prints. Always returns exit code 0 (see module docs).
pub fn run(event: &HookEvent) -> u8 {
    let (name, handler): (&str, Handler) = match event {
        HookEvent::Stop => ("Stop", stop::handle),
        HookEvent::PreToolUse => ("PreToolUse", pre_tool_use::handle),
        HookEvent::SessionStart => ("SessionStart", session_start::handle),
    };
    let outcome = input::read(std::io::stdin().lock(), name).and_then(|input| handler(&input));
    let output = match outcome {
        Ok(output) => output,
        Err(problem) => {
            eprintln!("loopgate: {problem}");
            Some(HookOutput::allow(format!(
                "loopgate: {problem} (the loop was not enforced at this step)"
            )))
        }
    };
    if let Some(output) = output {
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{}", output.to_json());
    }
    crate::exit_codes::OK
}

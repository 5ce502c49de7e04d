//! Claude Code hook entry points.
//!
//! Every hook exits 0 and speaks through the JSON it prints: a non-zero exit other than 2 is a non-blocking
//! error Claude Code may never show, which would silently disable a loop. When something goes wrong (bad
//! input, an unreadable file) the hook **fails open**: it lets the agent stop or the tool run, prints one line
//! naming the file and the problem on stderr, and repeats it to the user in `systemMessage`. It fails closed
//! (blocks) only where the oracle itself was tampered with — and then the seal, not the tampered file, decides.
//!
//! A panic is no exception: Rust would exit 101, which Claude Code treats as a non-blocking error and lets the
//! agent stop — the loop silently off. [`guarded`] catches it and turns it into the same fail-open answer, with
//! the panic's message and place, so the user sees that loopgate has a bug instead of a loop that just ended.

pub(crate) mod agent;
mod carry;
mod input;
pub(crate) mod output;
pub(crate) mod pre_tool_use;
mod session_start;
pub(crate) mod stop;
mod stop_failure;
mod user_prompt_submit;

pub use input::{HookInput, MAX_INPUT, parse as parse_input};
pub(crate) use output::HookOutput;

use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;

use crate::cli::{Agent, HookEvent};

/// A hook's decision logic: input in, output (or nothing) out, or a one-line problem.
type Handler = fn(&HookInput) -> Result<Option<HookOutput>, String>;

/// Runs one hook of `agent`: reads stdin, decides, prints in that agent's format (`agent`). Always returns exit
/// code 0 (see module docs).
pub(crate) fn run(agent: Agent, event: &HookEvent) -> u8 {
    crate::cli::set_client(agent);
    let adapter = agent::of(agent);
    let (name, handler): (&str, Handler) = match event {
        HookEvent::Stop => ("Stop", stop::handle),
        HookEvent::PreToolUse => ("PreToolUse", pre_tool_use::handle),
        HookEvent::SessionStart => ("SessionStart", session_start::handle),
        HookEvent::StopFailure => ("StopFailure", stop_failure::handle),
        HookEvent::UserPromptSubmit => ("UserPromptSubmit", user_prompt_submit::handle),
    };
    let outcome = guarded(name, || {
        let expected = agent.event_name(event).unwrap_or(name);
        let translate = |fields: &mut serde_json::Map<String, serde_json::Value>| adapter.translate(event, fields);
        let mut input = input::read(std::io::stdin().lock(), expected, &translate)?;
        input.agent = agent;
        adapter.read(event, &mut input);
        debug_panic(name);
        handler(&input)
    });
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
        let _ = writeln!(stdout, "{}", adapter.write(event, output));
    }
    crate::exit_codes::OK
}

/// The message and place of the last panic, kept by the panic hook [`guarded`] installs.
static PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Runs a hook's `decide`, turning a panic into a one-line problem (so the hook fails open and says why)
/// instead of exit 101. The default panic message is replaced by that line, printed once by the caller.
pub(crate) fn guarded<T>(name: &str, decide: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    let previous = panic::take_hook();
    panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        let place = info
            .location()
            .map_or(String::new(), |l| format!(" at {}:{}", l.file(), l.line()));
        *PANIC.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(format!("{message}{place}"));
    }));
    let result = panic::catch_unwind(AssertUnwindSafe(decide));
    panic::set_hook(previous);
    result.unwrap_or_else(|_| {
        let what = PANIC
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
            .unwrap_or_else(|| "a panic".to_string());
        Err(format!(
            "internal error in the {name} hook: {what}; this is a bug in loopgate, please report it"
        ))
    })
}

/// Debug builds only: `LOOPGATE_DEBUG_PANIC=Stop` (or `PreToolUse`, `SessionStart`) makes that hook panic after
/// reading its input, so the tests can prove a panic fails open. Release builds have no such switch.
fn debug_panic(name: &str) {
    #[cfg(debug_assertions)]
    if std::env::var_os("LOOPGATE_DEBUG_PANIC").is_some_and(|v| v == name) {
        panic!("LOOPGATE_DEBUG_PANIC={name}");
    }
    #[cfg(not(debug_assertions))]
    let _ = name;
}

#[cfg(test)]
mod tests {
    use super::guarded;

    #[test]
    fn a_panic_becomes_a_problem_naming_the_hook_the_message_and_the_place() {
        let out: Result<(), String> = guarded("Stop", || panic!("index out of bounds"));
        let problem = out.expect_err("a panic is a problem");
        assert!(
            problem.starts_with("internal error in the Stop hook: index out of bounds at src/hook.rs:"),
            "{problem}"
        );
        assert!(problem.ends_with("please report it"), "{problem}");
        let formatted: Result<(), String> = guarded("PreToolUse", || panic!("bad {}", 42));
        assert!(formatted.expect_err("panic").contains("PreToolUse hook: bad 42 at "));
    }

    #[test]
    fn without_a_panic_the_result_passes_through() {
        assert_eq!(guarded("Stop", || Ok::<_, String>(7)), Ok(7));
        assert_eq!(
            guarded::<()>("Stop", || Err("bad input".into())),
            Err("bad input".to_string())
        );
    }
}

//! `loopgate verify`: the agent's (or user's) self-check. Runs the sealed oracle exactly as the Stop hook would —
//! sealed files first, then the sealed command — prints the result and records `self_check`. It never completes
//! the loop: only a promise at a stop does. It says which of the agent's new test files sat out the run, and a
//! person at a terminal (stdin a terminal, or not inside Claude Code) is not given the agent's instructions.

use crate::error::Error;
use crate::exit_codes;
use crate::history::Record;
use crate::history::{Event, VerifyResult};
use crate::lifecycle::{Lookup, lookup};
use crate::oracle::{self, Caller, Verdict};
use crate::project::Project;

/// Lines of output printed.
const TAIL_LINES: usize = 60;

/// Runs `loopgate verify`.
pub(crate) fn run(json: bool) -> Result<u8, Error> {
    let project = Project::for_terminal();
    let Lookup::Loop(active) = lookup(&project)? else {
        return Err(Error::NoLoop { root: project.root });
    };
    let iteration = active.seal.fields.progress.iteration;
    // A person at a terminal (not the agent's Bash tool) is not given the instructions meant for the agent.
    let person =
        std::io::IsTerminal::is_terminal(&std::io::stdin()) || !crate::control::Caller::from_env().in_claude_code;
    // Killed outright (SIGKILL: the agent's Bash tool past its timeout), this process can tidy nothing: its
    // warden stops the verify's group and puts the stash back at once (`process::tether`).
    let tether = crate::process::tether::arm(&project.root);
    let verdict = oracle::judge(&active, iteration, Caller::SelfCheck);
    drop(tether);
    let verdict = verdict?;
    let (passed, result, text) = match &verdict {
        Verdict::Honor => (
            true,
            VerifyResult {
                passed: true,
                ..VerifyResult::default()
            },
            "no verify command is sealed for this loop: the promise alone completes it".to_string(),
        ),
        Verdict::SealBroken(breach) => {
            let paths = breach.lines(crate::schema::Speech::En);
            let text = format!("FAIL\n\n{}", breach.render_for(active.seal.fields.config.lang, person));
            (false, VerifyResult::sealed(paths), text)
        }
        Verdict::Pass(run) | Verdict::Fail(run) => {
            let passed = run.outcome.passed();
            let word = if passed { "PASS" } else { "FAIL" };
            let mut text = format!(
                "{word}: `{}` ({})",
                run.command,
                run.result_text(active.seal.fields.config.lang)
            );
            if !passed && !run.summary.text.is_empty() {
                text.push_str(&format!("\n\nsummary:\n{}", run.summary.text));
            }
            if !run.sat_out.is_empty() {
                let said = crate::messages::breach::sat_out(active.seal.fields.config.lang, &run.sat_out);
                text.push_str(&format!("\n\n{said}"));
            }
            text.push_str(&format!(
                "\n\n{}\n\nfull log: {}",
                run.outcome.tail_text(TAIL_LINES).trim_end(),
                run.outcome.log_path.display()
            ));
            (passed, run.result(), text)
        }
    };
    let record = Record::new(active.loop_id(), iteration, Event::SelfCheck(result));
    let _lock = super::lock(&project)?;
    // Inside Claude Code's sandbox, and in the agent's world (`confine::world`), the seal store is read-only: the
    // result is shown, not recorded (a history line without the seal's mark of it would read as tampering); the
    // Stop hook records what counts.
    let sandboxed = crate::control::Caller::from_env().sandboxed || !crate::seal::Store::open().writable();
    // The Stop hook may have moved the loop on while the verify ran: record against the seal as it is now.
    if let Lookup::Loop(mut fresh) = lookup(&project)?
        && fresh.loop_id() == active.loop_id()
        && !sandboxed
    {
        if let Verdict::Pass(run) | Verdict::Fail(run) = &verdict {
            fresh.mark_log(&run.outcome.log_path);
            // A self-check is a real run of the oracle: its counts raise the ratchet like any other.
            let mut state = fresh.state();
            run.record_counts(&mut state.fields.progress);
            fresh.save(&state)?;
        }
        fresh.record(&record)?;
    }
    if json {
        crate::say(serde_json::to_string(&record).unwrap_or_default());
    } else {
        crate::say(format!("loopgate verify: {text}"));
    }
    Ok(if passed {
        exit_codes::OK
    } else {
        exit_codes::VERIFY_FAILED
    })
}

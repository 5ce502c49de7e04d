//! The block `reason`: everything the model must read to keep going, in a fixed order — header, tampering
//! notices, escalation, the failure (summary, then the output tail with the log path), the task verbatim, and
//! how to finish, pause or abort. Claude Code shows `systemMessage` only to the user, so nothing the model needs
//! may live anywhere else.

use crate::messages::{self, Event, Section};
use crate::oracle::Breach;
use crate::oracle::Run;
use crate::project::Project;
use crate::state::State;

/// Lines of verify output shown to the model.
const TAIL_LINES: usize = 40;

/// The failure behind a block, if any.
#[derive(Clone, Copy)]
pub(crate) enum Failure<'a> {
    None,
    Verify {
        run: &'a Run,
        same_failure_streak: u64,
    },
    Sealed(&'a Breach),
    /// The reviewer's findings, rendered (`messages::review::findings`).
    Review(&'a str),
}

/// Facts for one block reason.
pub(crate) struct Reason<'a> {
    pub(crate) project: &'a Project,
    pub(crate) state: &'a State,
    pub(crate) event: Event,
    pub(crate) failure: Failure<'a>,
    pub(crate) tamper: &'a [String],
    /// Stops in a row without a working-tree change, when this one had none.
    pub(crate) unchanged_streak: Option<u64>,
    /// What the agent's last message gave up on (no signal tag), answered first.
    pub(crate) give_up: Option<&'a crate::giveup::GiveUp>,
}

impl Reason<'_> {
    /// Renders the reason.
    pub(crate) fn render(&self) -> String {
        let f = &self.state.fields;
        let lang = f.config.lang;
        let mut out = vec![messages::header(
            lang,
            f.progress.iteration,
            f.config.limits.max_iterations,
            messages::event_name(lang, self.event),
            f.progress.rejections.promise_rejections,
        )];
        out.extend(self.tamper.iter().map(|what| messages::tampered(lang, what)));
        out.extend(
            self.give_up
                .map(|g| messages::give_up_guidance(lang, g.kind, &g.phrase, f.progress.stall.give_up_streak)),
        );
        if self.event != Event::Continue {
            out.extend(messages::escalation(lang, f.progress.rejections.promise_rejections).map(str::to_string));
        }
        out.extend(messages::pressure(lang, f.progress.iteration).map(str::to_string));
        out.extend(
            self.unchanged_streak
                .map(|streak| messages::unchanged_tree(lang, streak)),
        );
        match &self.failure {
            Failure::None => {}
            Failure::Verify {
                run,
                same_failure_streak,
            } => {
                out.extend(run.note.clone());
                if *same_failure_streak >= 2 {
                    out.push(messages::same_failure(lang, *same_failure_streak));
                }
                if !run.summary.text.is_empty() {
                    out.push(format!(
                        "{}\n{}",
                        messages::section(lang, Section::Summary),
                        run.summary.text
                    ));
                }
                let log = self.relative(&run.outcome.log_path);
                let title = messages::output_tail(lang, &run.command, &run.result_text(lang), &log);
                out.push(format!(
                    "{title}\n```\n{}\n```",
                    run.outcome.tail_text(TAIL_LINES).trim_end()
                ));
            }
            Failure::Sealed(breach) => out.push(breach.render(lang)),
            Failure::Review(evidence) => out.push((*evidence).to_string()),
        }
        out.push(task_and_how_to_finish(self.state));
        out.join("\n\n")
    }

    fn relative(&self, path: &std::path::Path) -> String {
        path.strip_prefix(&self.project.root)
            .unwrap_or(path)
            .display()
            .to_string()
    }
}

/// The end of everything that hands the model its work: the task verbatim, then how to finish, pause or abort.
pub(crate) fn task_and_how_to_finish(state: &State) -> String {
    let f = &state.fields;
    format!(
        "{}\n{}\n\n{}",
        messages::section(f.config.lang, Section::Task),
        state.task.trim_end(),
        messages::how_to_finish(
            f.config.lang,
            &f.config.completion_promise,
            f.config.verify.verify_command.is_some()
        )
    )
}

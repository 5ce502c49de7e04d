//! `--review auto|off|MODEL|'CMD'`: which reviewer a loop is sealed with, decided once at setup.
//!
//! `auto` is resolved at setup, not at the stop, so the seal names the very program that will read the change
//! and `status` can say which one before the first promise: the CLI of the agent that runs the loop when setup
//! knows it (`loopgate run --agent`), else the first of Claude Code, Codex CLI and Gemini CLI found on `PATH`.
//! When none is found the loop is sealed with no reviewer and setup says so: a reviewer that cannot run would
//! only ever answer "not reviewed".
//!
//! `claude`, `codex` or `gemini` names that CLI (with its small model). A `MODEL` is one word of the characters
//! model ids use; anything else (a space, a `/`) is a command, which
//! reads the reviewer's input on stdin and prints the answer. A one-word program is given as `./NAME` or `sh NAME`.

use crate::schema::{ReviewBy, ReviewCli, Reviewer};

use super::clis;

/// The longest a reviewer may take: with the verify's own timeout it stays well inside the Stop hook's.
pub const MAX_TIMEOUT: u64 = 600;

/// What `--review` asked for, before `auto` and a bare `MODEL` are given a CLI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    Off,
    Auto,
    /// The CLI named by its program (`--review codex`), with its small model.
    Cli(ReviewCli),
    Model(String),
    Command(String),
}

impl Choice {
    /// Reads the flag's value; `None` for an empty one (the caller names the flag).
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        Some(match text {
            "" => return None,
            "off" | "none" => Self::Off,
            "auto" => Self::Auto,
            program if clis::ROWS.iter().any(|r| r.program == program) => Self::Cli(
                clis::ROWS
                    .iter()
                    .find(|r| r.program == program)
                    .map_or(ReviewCli::Claude, |r| r.cli),
            ),
            model if is_model(model) => Self::Model(model.to_string()),
            command => Self::Command(command.to_string()),
        })
    }

    /// The sealed reviewer. `agent`: the CLI that runs the loop when setup knows it; `found` says whether a
    /// program is on `PATH`. `Ok(None)`: no reviewer (asked for none, or `auto` found no CLI — the caller says so).
    pub fn resolve(
        self,
        agent: Option<ReviewCli>,
        timeout: u64,
        found: impl Fn(&str) -> bool,
    ) -> Result<Option<Reviewer>, String> {
        let by = match self {
            Self::Off => return Ok(None),
            Self::Command(command) => ReviewBy::Command { command },
            Self::Cli(cli) if found(clis::row(cli).program) => ReviewBy::Cli { cli, model: None },
            Self::Cli(cli) => {
                let program = clis::row(cli).program;
                return Err(format!(
                    "`--review {program}` names a CLI that is not on PATH; install it, or choose `auto`"
                ));
            }
            Self::Auto | Self::Model(_) => {
                let model = match self {
                    Self::Model(m) => Some(m),
                    _ => None,
                };
                let cli = agent.filter(|cli| found(clis::row(*cli).program)).or_else(|| {
                    clis::ROWS
                        .iter()
                        .map(|r| r.cli)
                        .find(|cli| found(clis::row(*cli).program))
                });
                match (cli, model) {
                    (Some(cli), model) => ReviewBy::Cli { cli, model },
                    (None, None) => return Ok(None),
                    (None, Some(model)) => {
                        return Err(format!(
                            "`--review {model}` names a model, but none of {} is on PATH to run it; install one, or give a command (`--review './my-reviewer'`)",
                            clis::program_list()
                        ));
                    }
                }
            }
        };
        Ok(Some(Reviewer { by, timeout }))
    }
}

/// A model id: one word of letters, digits and `.-_:@[]` (`haiku`, `claude-haiku-4-5`, `gpt-5-mini`,
/// `gemini-2.5-flash`, `model[1m]`).
fn is_model(text: &str) -> bool {
    text.chars().all(|c| c.is_ascii_alphanumeric() || "._-:@[]".contains(c))
        && text.starts_with(|c: char| c.is_ascii_alphanumeric())
}

impl Reviewer {
    /// How `status` and the report name the reviewer.
    pub fn describe(&self) -> String {
        match &self.by {
            ReviewBy::Cli { cli, model } => {
                let row = clis::row(*cli);
                format!("{} ({})", row.program, model.as_deref().unwrap_or(row.small_model))
            }
            ReviewBy::Command { command } => format!("`{command}`"),
        }
    }
}

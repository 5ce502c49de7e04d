//! The agent CLIs that can be a reviewer, one row each, and how one run of a reviewer goes.
//!
//! Every row runs its CLI the same way: in an empty directory of its own (so no project file, `CLAUDE.md`,
//! project hook or settings reaches it, and it has nothing to read), with the question set as its instructions
//! and the fenced input on stdin, without tools (Claude Code `--tools ""`; Codex `--sandbox read-only`; Gemini
//! `-p`, whose headless mode runs no tool that needs approval), under the process supervisor with the sealed
//! timeout. A row only says what differs: the program, its small model, its arguments, and where in its output
//! the answer and the usage are.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::cost::{Prices, Receipt};
use crate::process::{self, Ended, Watch};

use crate::schema::{ReviewBy, ReviewCli};

/// What one reviewer CLI differs in.
pub struct Row {
    pub cli: ReviewCli,
    pub program: &'static str,
    /// The model used when `--review auto` names none ("" = the CLI's own default).
    pub small_model: &'static str,
    /// Arguments after the program: `prompt` is the question set, `model` the model, `scratch` its directory.
    argv: fn(prompt: &str, model: &str, scratch: &Path) -> Vec<String>,
    /// The answer's text and the run's receipt, from its output and its scratch directory.
    read: fn(output: &str, scratch: &Path, prices: &Prices) -> Read,
    /// Environment the run needs (a headless run in a directory the CLI has not seen).
    env: &'static [(&'static str, &'static str)],
}

/// A run's answer (if its output holds one) and its receipt (if its CLI reports usage).
type Read = (Option<String>, Option<Receipt>);

/// One row per reviewer CLI, in the order `auto` looks for them.
pub const ROWS: [Row; 3] = [
    Row {
        cli: ReviewCli::Claude,
        program: "claude",
        small_model: "haiku",
        argv: |prompt, model, _| {
            let fixed = [
                "-p",
                "--tools",
                "",
                "--output-format",
                "json",
                "--no-session-persistence",
            ];
            words(&fixed, &["--model", model, "--system-prompt", prompt])
        },
        read: |output, _, prices| {
            let report = first_json_with(output, "result");
            let answer = report
                .as_ref()
                .and_then(|r| r.get("result")?.as_str().map(String::from));
            (answer, crate::cost::from_output(output, prices))
        },
        env: &[],
    },
    Row {
        cli: ReviewCli::Codex,
        program: "codex",
        small_model: "",
        argv: |_, model, scratch| {
            let answer = scratch.join(LAST_MESSAGE).display().to_string();
            let fixed = [
                "exec",
                "--sandbox",
                "read-only",
                "--skip-git-repo-check",
                "--json",
                "-o",
                &answer,
            ];
            let model: &[&str] = if model.is_empty() { &[] } else { &["-m", model] };
            words(&fixed, &[model, &["-"]].concat())
        },
        read: |output, scratch, _| {
            let answer = std::fs::read_to_string(scratch.join(LAST_MESSAGE)).ok();
            let usage = output.lines().rev().find_map(|line| {
                let v: Value = serde_json::from_str(line.trim()).ok()?;
                let usage = v.get("usage")?.clone();
                Some(Receipt {
                    tokens_in: number(&usage, "input_tokens").saturating_sub(number(&usage, "cached_input_tokens")),
                    tokens_out: number(&usage, "output_tokens"),
                    cache_read: number(&usage, "cached_input_tokens"),
                    ..Receipt::default()
                })
            });
            (answer, usage)
        },
        env: &[],
    },
    Row {
        cli: ReviewCli::Gemini,
        program: "gemini",
        small_model: "gemini-2.5-flash",
        argv: |prompt, model, _| words(&["-p", prompt, "-o", "json"], &["-m", model]),
        read: |output, _, _| {
            let report = first_json_with(output, "response");
            let answer = report
                .as_ref()
                .and_then(|r| r.get("response")?.as_str().map(String::from));
            let receipt = report.as_ref().and_then(|r| {
                let models = r.get("stats")?.get("models")?.as_object()?;
                Some(models.iter().fold(Receipt::default(), |sum, (name, m)| {
                    let tokens = m.get("tokens").cloned().unwrap_or(Value::Null);
                    let mut names = sum.models;
                    names.push(name.clone());
                    Receipt {
                        tokens_in: sum.tokens_in + number(&tokens, "prompt"),
                        tokens_out: sum.tokens_out + number(&tokens, "candidates"),
                        cache_read: sum.cache_read + number(&tokens, "cached"),
                        models: names,
                        ..Receipt::default()
                    }
                }))
            });
            (answer, receipt)
        },
        env: &[("GEMINI_CLI_TRUST_WORKSPACE", "true")],
    },
];

/// Where Codex writes its last message (`-o`), in the reviewer's scratch.
const LAST_MESSAGE: &str = "answer.txt";
/// Bytes of a reviewer's output kept: an answer is a few lines, a JSON report a few kilobytes.
const OUTPUT_CAP: usize = 256 * 1024;

/// The row of `cli`.
pub fn row(cli: ReviewCli) -> &'static Row {
    ROWS.iter().find(|r| r.cli == cli).unwrap_or(&ROWS[0])
}

/// "claude, codex or gemini", for messages.
pub fn program_list() -> String {
    let names: Vec<&str> = ROWS.iter().map(|r| r.program).collect();
    format!("`{}`", names.join("`, `"))
}

/// How one reviewer run went.
#[derive(Debug)]
pub enum Ran {
    /// It exited 0; its answer (if any could be found) and what it used.
    Answered {
        answer: Option<String>,
        receipt: Option<Receipt>,
    },
    /// It failed, timed out or could not start; why, in a few words.
    Failed(String),
}

/// Runs the reviewer `by` on `input` with the question set `prompt`, for at most `timeout`.
pub fn run(by: &ReviewBy, prompt: &str, input: &str, timeout: Duration) -> Ran {
    let Ok(scratch) = crate::fsutil::scratch::Scratch::in_temp("loopgate-review") else {
        return Ran::Failed("no scratch directory for the reviewer".into());
    };
    let prices = Prices::load(None).unwrap_or_default();
    let (mut command, stdin, read): (_, String, Option<&Row>) = match by {
        ReviewBy::Command { command } => {
            let mut c = std::process::Command::new("sh");
            c.args(["-c", command]);
            (c, input.to_string(), None)
        }
        ReviewBy::Cli { cli, model } => {
            let row = row(*cli);
            let model = model.as_deref().unwrap_or(row.small_model);
            let mut c = std::process::Command::new(row.program);
            c.args((row.argv)(prompt, model, scratch.path()));
            c.envs(row.env.iter().copied());
            // Codex and Gemini take the question set in the prompt; Claude Code as its system prompt.
            let stdin = match row.cli {
                ReviewCli::Claude | ReviewCli::Gemini => input.to_string(),
                ReviewCli::Codex => format!("{prompt}\n\n{input}"),
            };
            (c, stdin, Some(row))
        }
    };
    command.current_dir(scratch.path());
    let mut output = Vec::new();
    let watch = Watch {
        timeout: Some(timeout),
        kill_grace: process::KILL_GRACE,
        keep_going: None,
    };
    let exit = process::run(command, Some(stdin.into_bytes()), watch, &mut |chunk| {
        if output.len() < OUTPUT_CAP {
            output.extend_from_slice(&chunk[..chunk.len().min(OUTPUT_CAP - output.len())]);
        }
    });
    let exit = match exit {
        Ok(exit) => exit,
        Err(failure) => return Ran::Failed(format!("the reviewer could not run ({failure:?})")),
    };
    let output = String::from_utf8_lossy(&output);
    match (exit.ended, exit.code()) {
        (Ended::TimedOut, _) => Ran::Failed(format!("the reviewer timed out after {} s", timeout.as_secs())),
        (Ended::Stopped, _) => Ran::Failed("the reviewer was stopped".into()),
        (Ended::Exited, Some(0)) => match read {
            Some(row) => {
                let (answer, receipt) = (row.read)(&output, scratch.path(), &prices);
                Ran::Answered { answer, receipt }
            }
            None => Ran::Answered {
                answer: Some(output.into_owned()),
                receipt: None,
            },
        },
        (Ended::Exited, Some(127)) => Ran::Failed("the reviewer's program was not found".into()),
        (Ended::Exited, code) => Ran::Failed(format!(
            "the reviewer exited with {}: {}",
            code.map_or_else(|| "a signal".to_string(), |c| c.to_string()),
            last_line(&output)
        )),
    }
}

/// The first JSON object in `output` (which may mix in the CLI's warnings) that has `key`.
fn first_json_with(output: &str, key: &str) -> Option<Value> {
    output.match_indices('{').find_map(|(at, _)| {
        let value = serde_json::Deserializer::from_str(&output[at..])
            .into_iter::<Value>()
            .next()?
            .ok()?;
        value.get(key).is_some().then_some(value)
    })
}

/// Arguments as owned strings: the fixed ones, then the rest.
fn words(fixed: &[&str], rest: &[&str]) -> Vec<String> {
    fixed.iter().chain(rest).map(|w| (*w).to_string()).collect()
}

fn number(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or(0)
}

/// The last non-empty line of a failed reviewer's output, cut short (the reason in `status`).
fn last_line(output: &str) -> String {
    let line = output
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("no output");
    crate::printable::truncate(&crate::printable::printable(line.trim()), 160)
}

//! The built-in agents `--agent NAME` names: one row per agent CLI, each saying how to start it for one
//! iteration of a loop. This table is the seam adapters plug into: a new agent is a row, and every caller
//! (`loopgate run --agent`, a tournament's candidates) asks the table.

use crate::error::Error;

/// Builds one iteration's command of an agent for a model.
type Build = fn(model: Option<&str>) -> Vec<String>;

/// One agent CLI loopgate knows how to start.
pub(crate) struct Agent {
    /// The name `--agent` takes.
    pub(crate) name: &'static str,
    /// The command for one iteration with `model` (the prompt is added as its last argument), or `None` when
    /// loopgate has no adapter for it yet (the command after `--` still runs it).
    pub(crate) command: Option<Build>,
}

/// Every built-in agent.
pub(crate) const AGENTS: &[Agent] = &[
    Agent {
        name: "claude",
        command: Some(claude),
    },
    Agent {
        name: "codex",
        command: Some(codex),
    },
    Agent {
        name: "gemini",
        command: Some(gemini),
    },
    Agent {
        name: "cursor",
        command: Some(|model| adapter(crate::cli::Agent::Cursor, model, "--model")),
    },
    Agent {
        name: "copilot",
        command: Some(|model| adapter(crate::cli::Agent::Copilot, model, "--model")),
    },
    Agent {
        name: "opencode",
        command: Some(|model| adapter(crate::cli::Agent::Opencode, model, "--model")),
    },
];

/// Claude Code in print mode, allowed the tools an unattended iteration needs (root refuses
/// `--dangerously-skip-permissions`), reporting in JSON: its usage is the iteration's cost receipt (`cost`).
fn claude(model: Option<&str>) -> Vec<String> {
    let mut argv: Vec<String> = [
        "claude",
        "-p",
        "--output-format",
        "json",
        "--allowedTools",
        "Bash,Edit,Write,Read,Glob,Grep",
    ]
    .map(String::from)
    .to_vec();
    if let Some(model) = model {
        argv.extend(["--model".to_string(), model.to_string()]);
    }
    argv
}

/// Codex CLI's non-interactive command, as its adapter runs it (`cli::Agent::run_command`).
fn codex(model: Option<&str>) -> Vec<String> {
    adapter(crate::cli::Agent::Codex, model, "-m")
}

/// Gemini CLI's non-interactive command, as its adapter runs it.
fn gemini(model: Option<&str>) -> Vec<String> {
    adapter(crate::cli::Agent::Gemini, model, "-m")
}

/// An adapter's plain non-interactive command line, with `FLAG MODEL` (Codex and Gemini spell it `-m`; Cursor's
/// agent, Copilot CLI and `opencode run` take `--model`).
fn adapter(agent: crate::cli::Agent, model: Option<&str>, flag: &str) -> Vec<String> {
    let mut argv: Vec<String> = agent.run_command().iter().map(|s| (*s).to_string()).collect();
    if let Some(model) = model {
        argv.extend([flag.to_string(), model.to_string()]);
    }
    argv
}

/// The command of the agent `name` with `model`; a usage error names the flag and the agents known.
pub(crate) fn command(name: &str, model: Option<&str>) -> Result<Vec<String>, Error> {
    let name = name.trim();
    let Some(agent) = AGENTS.iter().find(|a| a.name == name) else {
        let known: Vec<&str> = AGENTS.iter().map(|a| a.name).collect();
        return Err(Error::Usage(format!(
            "`--agent`: unknown agent `{name}`: use one of {}, or give any agent's command after `--`",
            known.join(", ")
        )));
    };
    let build = agent.command.ok_or_else(|| {
        Error::Usage(format!(
            "`--agent`: loopgate has no built-in adapter for `{name}` yet: give its command after `--` (e.g. `-- {name} exec`)"
        ))
    })?;
    Ok(build(model.map(str::trim).filter(|m| !m.is_empty())))
}

/// The agent command of each of `n` candidates: `names` and `models` are taken in turn (the shorter list
/// repeats), or every candidate runs `fallback` (the command after `--`) when no name is given.
pub(crate) fn per_candidate(
    n: usize,
    names: &[String],
    models: &[String],
    fallback: &[String],
) -> Result<Vec<Vec<String>>, Error> {
    if names.is_empty() {
        return Ok(vec![fallback.to_vec(); n]);
    }
    if !fallback.is_empty() {
        return Err(Error::Usage(
            "give the agents either by name (`--agent`) or as a command after `--`, not both".into(),
        ));
    }
    (0..n)
        .map(|i| {
            let model = (!models.is_empty()).then(|| models[i % models.len()].as_str());
            command(&names[i % names.len()], model)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_models_are_taken_in_turn_and_unknown_or_unbuilt_agents_are_named() {
        let names = vec!["claude".to_string()];
        let models = vec!["a".to_string(), "b".to_string()];
        let argv = per_candidate(3, &names, &models, &[]).expect("claude is built in");
        assert_eq!(argv[0][0], "claude");
        assert_eq!(argv[0].last().map(String::as_str), Some("a"));
        assert_eq!(argv[1].last().map(String::as_str), Some("b"));
        assert_eq!(argv[2].last().map(String::as_str), Some("a"));
        let err = per_candidate(1, &["vim".into()], &[], &[])
            .expect_err("refused")
            .to_string();
        assert!(err.contains("unknown agent `vim`") && err.contains("claude"), "{err}");
        let codex = per_candidate(1, &["codex".into()], &["m".into()], &[]).expect("codex has an adapter");
        assert_eq!(codex[0], ["codex", "exec", "-m", "m"], "as the adapter runs it");
        let fallback = vec!["my-agent".to_string()];
        assert_eq!(
            per_candidate(2, &[], &[], &fallback).expect("fallback"),
            vec![fallback.clone(); 2]
        );
        assert!(per_candidate(2, &names, &[], &fallback).is_err());
    }
}

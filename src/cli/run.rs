//! Flags of `loopgate run`: every `setup` flag that shapes the loop (flattened from [`SetupArgs`], so the two
//! never drift apart), plus how the agent gets its prompt and how its work is shown.

use std::path::PathBuf;

use clap::Args;

use super::SetupArgs;

/// `loopgate run [FLAGS] [TASK]… -- AGENT [ARGS]…`
#[derive(Debug, Clone, Args)]
#[command(
    mut_arg("session_id", |a| a.hide(true)),
    mut_arg("args_stdin", |a| a.hide(true)),
    mut_arg("max_tokens", |a| a.hide(true)),
    mut_arg("task", |a| a.help("The task, as words (or from a file with --task-file)")),
    // `mut_arg` moves an argument to the end; clap finds the `last` positional by that order, so AGENT must
    // come after TASK again (see the test below).
    mut_arg("agent", |a| a),
    after_help = "The prompt is the task (first iteration), then exactly the feedback the Stop hook would give \
                  (verify output, task, how to finish). Examples:\n  \
                  loopgate run --verify 'cargo test' 'fix the parser' -- claude -p --allowedTools Bash,Edit,Write\n  \
                  loopgate run --verify 'npm test' --task-file PROMPT.md -- codex exec\n  \
                  loopgate run --verify 'pytest' 'make the tests pass' -- aider --yes --message {prompt}"
)]
pub(crate) struct RunArgs {
    #[command(flatten)]
    pub(crate) setup: SetupArgs,
    /// Read the task from this file (e.g. PROMPT.md) instead of the TASK words.
    #[arg(long, value_name = "FILE")]
    pub(crate) task_file: Option<PathBuf>,
    /// Give the agent its prompt on stdin instead of as its last argument.
    #[arg(long)]
    pub(crate) stdin: bool,
    /// Complete only when the agent's output holds <promise>…</promise> and the verify passes (default: a
    /// passing verify after any iteration completes the loop).
    #[arg(long)]
    pub(crate) require_promise: bool,
    /// Stop the agent (its whole process group) after this long in one iteration, e.g. 20m; the iteration then
    /// counts as one without a signal.
    #[arg(long, value_name = "DUR", allow_hyphen_values = true)]
    pub(crate) agent_timeout: Option<String>,
    /// Do not stream the agent's output: one line per iteration and the summary.
    #[arg(long, short, conflicts_with = "verbose")]
    pub(crate) quiet: bool,
    /// Also show every prompt given to the agent.
    #[arg(long, short)]
    pub(crate) verbose: bool,
    /// Continue this project's paused loop (or one a killed `loopgate run` left behind) instead of starting one.
    #[arg(long)]
    pub(crate) resume: bool,
    /// Best of N: several loops under one sealed oracle (see `docs/tournament.md`).
    #[command(flatten)]
    pub(crate) tournament: TournamentArgs,
    /// Cost receipts and the dollar budget (see `docs/cost.md`).
    #[command(flatten)]
    pub(crate) cost: CostArgs,
    /// Best of N as a CI matrix (see `docs/ci.md`).
    #[command(flatten)]
    pub(crate) matrix: MatrixArgs,
    /// The agent command and its arguments, after `--`. The prompt replaces every `{prompt}` in them; without
    /// one it is added as the last argument (or written to stdin with `--stdin`).
    #[arg(last = true, required_unless_present_any = ["agents", "collect"], value_name = "AGENT")]
    pub(crate) agent: Vec<String>,
}

/// Best of N as jobs of a CI matrix (`commands::run::matrix`): seal once and print the jobs, run one job's
/// candidate under that oracle, rank the jobs' results.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct MatrixArgs {
    /// With `--candidates N`: seal the oracle and run the baseline once, write it to DIR (ship it to the jobs as
    /// an artifact) and print the candidates as a job matrix (JSON).
    #[arg(long, value_name = "DIR", requires = "candidates", conflicts_with_all = ["oracle", "collect", "resume"])]
    pub(crate) emit_matrix: Option<PathBuf>,
    /// One job of the matrix: take the oracle `--emit-matrix` wrote to DIR as this checkout's loop and run it.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["collect", "candidates", "resume"])]
    pub(crate) oracle: Option<PathBuf>,
    /// The matrix's last job: rank the candidates' results in DIR (a folder each, with `history.jsonl` and
    /// `change.patch`) and print the winner.
    #[arg(long, value_name = "DIR", conflicts_with = "candidates")]
    pub(crate) collect: Option<PathBuf>,
}

/// The flags of a tournament (`--candidates N`, which is a setup flag so that `/pua-loop` knows it), kept apart from the loop's own so that the loop's settings can
/// change without touching them.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct TournamentArgs {
    /// How many candidates run at once [default: all of them: agents mostly wait on the network].
    #[arg(long, value_name = "N", requires = "candidates", value_parser = super::small_count, allow_negative_numbers = true)]
    pub(crate) jobs: Option<u32>,
    /// When the tournament ends: `first` (the first to pass wins) or `all` (all finish, the best wins).
    #[arg(long, value_enum, requires = "candidates", default_value_t = Until::All)]
    pub(crate) until: Until,
    /// Built-in agents by name, comma-separated, one per candidate in turn (e.g. `claude,codex`), instead of
    /// the command after `--`.
    #[arg(long = "agent", id = "agents", value_name = "NAMES", value_delimiter = ',')]
    pub(crate) agents: Vec<String>,
    /// Models, comma-separated, one per candidate in turn (passed to a built-in agent's `--model`).
    #[arg(long = "model", value_name = "MODELS", value_delimiter = ',', requires = "agents")]
    pub(crate) models: Vec<String>,
    /// How the passing candidates are ranked: `diff` (the smaller diff, then the lower cost), `cost` (the lower
    /// cost, then the smaller diff) or `time` (the shorter time, then the smaller diff).
    #[arg(long, value_enum, requires = "candidates", default_value_t = Rank::Diff)]
    pub(crate) rank: Rank,
    /// Stream the tournament's events on stdout, one JSON object a line (`started`, `candidate_started`,
    /// `candidate_ended`, `ended`); the text report stays on stderr.
    #[arg(long, requires = "candidates")]
    pub(crate) json: bool,
    /// Keep the candidates' clones and branches when no candidate passed (by default they are removed; the
    /// record stays).
    #[arg(long, requires = "candidates")]
    pub(crate) keep: bool,
}

/// What ranks the passing candidates of a tournament (after the score, when the loop has one).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Rank {
    /// The smaller diff, then the lower cost.
    #[default]
    Diff,
    /// The lower cost, then the smaller diff.
    Cost,
    /// The shorter time, then the smaller diff.
    Time,
}

/// The price table that counts a run's dollar budget (`--max-cost`, a setup flag).
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct CostArgs {
    /// Prices per model, a JSON file overriding the built-in table [default: $LOOPGATE_HOME/prices.json if it
    /// exists].
    #[arg(long, value_name = "FILE")]
    pub(crate) prices: Option<PathBuf>,
}

/// How a tournament ends.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Until {
    /// The first candidate to pass wins; the others are stopped.
    First,
    /// Every candidate runs to its end; the best passing one wins.
    #[default]
    All,
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    use crate::cli::{Cli, Command};

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    fn parse(args: &[&str]) -> (Vec<String>, Vec<String>) {
        let cli = Cli::try_parse_from(["loopgate", "run"].iter().chain(args)).expect("parses");
        let Command::Run(args) = cli.command else {
            panic!("not run")
        };
        (args.setup.task, args.agent)
    }

    #[test]
    fn task_words_come_before_the_separator_and_the_agent_after_it() {
        let (task, agent) = parse(&[
            "--verify",
            "cargo test",
            "fix",
            "it",
            "--",
            "claude",
            "-p",
            "--verify",
            "x",
        ]);
        assert_eq!(
            (task, agent),
            (
                vec!["fix".into(), "it".into()],
                ["claude", "-p", "--verify", "x"].map(String::from).to_vec()
            )
        );
        // Plain words after `--` all belong to the agent (a regression: clap once gave all but the last to TASK).
        let (task, agent) = parse(&["t", "u", "--", "aider", "--yes", "message", "{prompt}"]);
        assert_eq!(task, ["t", "u"]);
        assert_eq!(agent, ["aider", "--yes", "message", "{prompt}"]);
        let (task, agent) = parse(&["t", "--", "agent", "x", "y"]);
        assert_eq!((task.len(), agent.len()), (1, 3));
    }
}

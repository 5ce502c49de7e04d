//! The record of a tournament, kept in loopgate's store (`tournaments/<id>.json`, out of the agents' reach):
//! where it started, every candidate's result, and the winner that `loopgate accept` takes into the user's
//! branch.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::cli::Until;
use crate::error::Error;

/// One tournament.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Tournament {
    pub(crate) id: String,
    /// The user's repository (its top level).
    pub(crate) repo: PathBuf,
    /// The commit every candidate started from.
    pub(crate) base: String,
    pub(crate) until: Until,
    pub(crate) candidates: Vec<Candidate>,
    /// The index in `candidates` of the winner, if one passed.
    pub(crate) winner: Option<usize>,
    /// Set by `loopgate accept`.
    #[serde(default)]
    pub(crate) accepted: bool,
    /// The score's target (`--target`), drawn on the picture.
    #[serde(default)]
    pub(crate) target: Option<f64>,
    /// The tournament was ended by `--max-cost`.
    #[serde(default)]
    pub(crate) budget_spent: bool,
    /// Where it stands: written `running` (with the pid) before the first clone is made, so that `loopgate
    /// tournament list` and `clean` know every clone and branch it may leave, whatever ends it.
    #[serde(default)]
    pub(crate) status: Status,
    /// The process running it, while `status` is `running`.
    #[serde(default)]
    pub(crate) pid: Option<u32>,
    /// How the passing candidates were ranked.
    #[serde(default)]
    pub(crate) rank: crate::cli::Rank,
    /// Its clones, branches, seals and rooms were removed (`loopgate tournament clean`, or no winner).
    #[serde(default)]
    pub(crate) cleaned: bool,
}

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Status {
    Running,
    /// Every candidate ended (a winner or none).
    #[default]
    Finished,
    /// Stopped by a signal (or its process died): the candidates were stopped where they stood.
    Interrupted,
}

/// One candidate's result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Candidate {
    /// `c1`, `c2`, …
    pub(crate) name: String,
    pub(crate) agent: String,
    pub(crate) worktree: PathBuf,
    pub(crate) loop_id: String,
    /// How its loop ended: `complete`, `max_iterations`, `cancelled`, …
    pub(crate) ending: String,
    pub(crate) iterations: u64,
    pub(crate) score: Option<f64>,
    pub(crate) diff_lines: u64,
    /// The branch holding its work, and the commit.
    pub(crate) branch: Option<String>,
    pub(crate) commit: Option<String>,
    /// The oracle's inputs it changed, as the rejections named them: a candidate that tried to game the oracle.
    #[serde(default)]
    pub(crate) gamed: Vec<String>,
    pub(crate) seconds: f64,
    /// What its agent's runs cost, when the agent reported its usage.
    #[serde(default)]
    pub(crate) cost: Option<crate::cost::Receipt>,
    /// How the reviewer (`--review`) judged the promise its loop completed on: clean, or not reviewed and why
    /// (a promise it called gaming was rejected, so never completes). Absent without a reviewer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) review: Option<crate::schema::ReviewNote>,
}

impl Candidate {
    /// What the report and `tournament show` say under the candidate's line: the oracle's inputs it tried to
    /// change, and how the reviewer judged the promise it completed on (clean, or not reviewed and why).
    pub(crate) fn notes(&self) -> Vec<String> {
        let gamed = (!self.gamed.is_empty())
            .then(|| format!("rejected for changing the oracle's inputs: {}", self.gamed.join("; ")));
        let review = self.review.as_ref().map(crate::history::event::describe_review);
        gamed.into_iter().chain(review).collect()
    }
}

/// The directory of tournament records.
pub(crate) fn dir() -> PathBuf {
    crate::project::loopgate_home().join("tournaments")
}

/// Where the worktrees of tournament `id` live (a directory the candidates' confinement opens, one each).
pub(crate) fn worktrees(id: &str) -> PathBuf {
    crate::project::loopgate_home().join("worktrees").join(id)
}

/// Where a candidate's history is kept once the tournament ends (its worktree goes at `accept`).
pub(crate) fn history_copy(id: &str, name: &str) -> PathBuf {
    dir().join(id).join(format!("{name}.jsonl"))
}

/// The picture of tournament `id`.
pub(crate) fn picture(id: &str) -> PathBuf {
    dir().join(format!("{id}.html"))
}

impl Tournament {
    pub(crate) fn save(&self) -> Result<(), Error> {
        let path = dir().join(format!("{}.json", self.id));
        let io = |source| Error::Io {
            action: "write the tournament record",
            path: path.clone(),
            source,
        };
        crate::seal::create_private_dir(&dir()).map_err(io)?;
        let bytes = serde_json::to_vec_pretty(self).map_err(|e| io(std::io::Error::other(e)))?;
        crate::fsutil::write_atomic(&path, &bytes, 0o600).map_err(io)
    }

    /// Tournament `id`, or the latest one of `repo`.
    pub(crate) fn find(id: Option<&str>, repo: &Path) -> Result<Self, Error> {
        let found = match id {
            Some(id) => Self::all().into_iter().rfind(|t| t.id == id),
            None => Self::all_of(repo).pop(),
        };
        found.ok_or_else(|| {
            Error::Usage(match id {
                Some(id) => format!("no tournament `{id}`: `loopgate run --candidates N` prints its id"),
                None => format!(
                    "no tournament for `{}`: start one with `loopgate run --candidates N`",
                    repo.display()
                ),
            })
        })
    }

    /// Every tournament of `repo`, oldest first.
    pub(crate) fn all_of(repo: &Path) -> Vec<Self> {
        Self::all().into_iter().filter(|t| t.repo == repo).collect()
    }

    /// Every tournament on record, oldest first (the ids sort by time); unreadable records are skipped.
    fn all() -> Vec<Self> {
        let mut found: Vec<Self> = std::fs::read_dir(dir())
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| serde_json::from_slice::<Self>(&std::fs::read(entry.path()).ok()?).ok())
            .collect();
        found.sort_by(|a, b| a.id.cmp(&b.id));
        found
    }

    /// Where it stands now: a `running` record whose process is gone was interrupted (killed outright).
    pub(crate) fn status_now(&self) -> Status {
        match (self.status, self.pid) {
            (Status::Running, Some(pid)) if !crate::process::alive(pid) => Status::Interrupted,
            (status, _) => status,
        }
    }

    pub(crate) fn winner(&self) -> Option<&Candidate> {
        self.winner.and_then(|i| self.candidates.get(i))
    }
}

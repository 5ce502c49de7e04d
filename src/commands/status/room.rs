//! `loopgate status`'s room: where the oracle runs, the disk its caches take, what is private, what stays the
//! user's, and the runners whose verdict reads their output alone (see `crate::room`, `crate::runner`).

use std::path::PathBuf;

use serde::Serialize;

use crate::lifecycle::ActiveLoop;
use crate::room::{Recorded, Room, TreeState};

/// The `room` object of `status --json`; `state` names the variant. `output_only` names the runners with no
/// structured report through a private channel (`messages::runner::output_only`), in both variants.
#[derive(Debug, Serialize)]
#[serde(tag = "state", rename_all = "lowercase")]
pub(super) enum RoomReport {
    /// Set up without a room: why.
    None {
        why: &'static str,
        output_only: Option<String>,
    },
    Private(PrivateRoom),
}

/// A room of private caches, as `status --json` lists it.
#[derive(Debug, Serialize)]
pub(super) struct PrivateRoom {
    dir: PathBuf,
    /// The disk the room's caches take now.
    bytes: u64,
    /// The private caches' variables.
    private: Vec<&'static str>,
    shared: Vec<SharedReport>,
    environment: Environment,
    /// Where the oracle's run stands: the room's own tree, or the project's and why (`room::tree`).
    tree: TreeReport,
    /// What the verdict reads: the runner's output, or pytest's own report beside it.
    verdict_reads: String,
    /// Where the room's words for a runner's options come back when it starts (`room::hook::binary`): at the
    /// runner's binary, or only on `PATH`, and why.
    start_channel: StartChannel,
    output_only: Option<String>,
}

/// A cache left shared, and why.
#[derive(Debug, Serialize)]
pub(super) struct SharedReport {
    var: String,
    why: String,
}

/// How many variables setup recorded with their values, and how many secrets by name only.
#[derive(Debug, Serialize)]
pub(super) struct Environment {
    recorded: usize,
    secrets: usize,
}

/// The `start_channel` object: `binary` with the runner binaries the stand-in is bound over, `path` (the
/// stand-in first on the run's `PATH` alone, which a full path or another `PATH` bypasses) and why, or `no_runner`
/// where the traced baseline ran none of the runners the room hooks (a verify of `test -f …` has nothing to
/// bypass; the `PATH` stand-in still stands for a runner a later run starts).
#[derive(Debug, Serialize)]
#[serde(tag = "state", rename_all = "lowercase")]
pub(super) enum StartChannel {
    Binary {
        binaries: Vec<PathBuf>,
    },
    Path {
        why: String,
    },
    #[serde(rename = "no_runner")]
    NoRunner,
}

/// Where the start channel stands for a loop whose tree is `tree` and whose snapshot holds `snapshot`; `traced`:
/// whether the baseline ran under the tracer (else no binary could be seen).
fn start_channel(tree: &TreeReport, snapshot: Option<&crate::room::snapshot::Snapshot>, traced: bool) -> StartChannel {
    let why = match (tree, snapshot) {
        (TreeReport::Mounted { .. }, Some(s))
            if !s.binaries.is_empty() && std::path::Path::new("/bin/bash").is_file() =>
        {
            return StartChannel::Binary {
                binaries: s.binaries.clone(),
            };
        }
        (TreeReport::Mounted { .. }, Some(s)) if !s.binaries.is_empty() => {
            "no `/bin/bash` for the stand-in".to_string()
        }
        (TreeReport::Mounted { .. }, _) if traced => return StartChannel::NoRunner,
        (TreeReport::Mounted { .. }, _) => "the baseline was not traced".to_string(),
        (TreeReport::Copied { why, .. } | TreeReport::Fallback { why }, _) => format!("no mount namespace: {why}"),
    };
    StartChannel::Path { why }
}

/// The `tree` object: `mounted` with the copy's place, `copied` with the copy's place and why it is not mounted,
/// or `fallback` with the reason.
#[derive(Debug, Serialize)]
#[serde(tag = "state", rename_all = "lowercase")]
pub(super) enum TreeReport {
    Mounted { dir: PathBuf },
    Copied { dir: PathBuf, why: String },
    Fallback { why: String },
}

/// The room of a loop with a verify command; `None` without one. `traced`: whether its baseline ran under the
/// tracer.
pub(super) fn report(active: &ActiveLoop, traced: bool) -> Option<RoomReport> {
    active.seal.fields.config.verify.verify_command.as_ref()?;
    let recorded = active
        .store
        .load_companion::<Recorded>(&active.project, crate::seal::ROOM)
        .ok()
        .flatten();
    let runners = active
        .seal
        .closure
        .as_ref()
        .map(|c| c.runners.as_slice())
        .unwrap_or_default();
    let output_only = crate::messages::runner::output_only(active.seal.fields.config.lang, runners);
    let Some(recorded) = recorded else {
        return Some(RoomReport::None {
            why: "set up without a room (`LOOPGATE_ROOM=0`, or by a loopgate before it): the oracle runs in the environment of the process that runs it, with the shared caches",
            output_only,
        });
    };
    let room = Room::at(active.store.room_dir(&active.project));
    let described = recorded.describe(&room);
    let verdict_reads = verdict_reads(&described);
    let tree = match &described.tree {
        Some(TreeState::Mounted) => TreeReport::Mounted {
            dir: room.dir().join(crate::room::tree::PLACE),
        },
        Some(TreeState::Copied { why }) => TreeReport::Copied {
            dir: room.dir().join(crate::room::tree::PLACE),
            why: why.clone(),
        },
        Some(TreeState::Fallback { why }) => TreeReport::Fallback { why: why.clone() },
        None => TreeReport::Fallback {
            why: "set up before the room had a tree".to_string(),
        },
    };
    let snapshot = active
        .store
        .load_companion::<crate::room::snapshot::Snapshot>(&active.project, crate::seal::SNAPSHOT)
        .ok()
        .flatten();
    let start_channel = start_channel(&tree, snapshot.as_ref(), traced);
    Some(RoomReport::Private(PrivateRoom {
        bytes: room.disk_used(),
        private: described.private,
        shared: described
            .shared
            .iter()
            .map(|s| SharedReport {
                var: s.var.clone(),
                why: crate::messages::room::why(&s.why),
            })
            .collect(),
        environment: Environment {
            recorded: described.recorded,
            secrets: described.secrets,
        },
        tree,
        verdict_reads,
        start_channel,
        output_only,
        dir: described.dir,
    }))
}

/// What the verdict of a loop whose room is `described` reads: the report channel whose names are the run's
/// first, then one that stands beside the output, then the start hooks' events, else the output alone.
fn verdict_reads(described: &crate::room::Described) -> String {
    let channel = |key: &&str| crate::room::channels::by_key(key);
    let read = described
        .reports
        .iter()
        .find(|key| channel(key).is_some_and(|c| c.names_the_run()))
        .or(described.reports.first())
        .and_then(|key| crate::messages::report_words(key));
    match (read, &described.hook_report) {
        (Some(words), _) => words.verdict_reads.to_string(),
        (None, Some(who)) => format!(
            "the per-test results loopgate's start hook recorded from {who} to a private path, beside the runner's output"
        ),
        (None, None) => {
            let beside: Vec<&str> = crate::room::CHANNELS
                .iter()
                .filter(|c| !c.names_the_run())
                .map(|c| c.who())
                .collect();
            format!(
                "the runner's output (no structured report: {}'s or the start hook's was not usable at the baseline, or no such runner ran)",
                beside.join("'s, ")
            )
        }
    }
}

/// The text lines of [`report`].
pub(super) fn render(room: &RoomReport) -> String {
    let reports = |output_only: &Option<String>| {
        output_only
            .as_ref()
            .map(|line| format!("\n    reports:   {line}"))
            .unwrap_or_default()
    };
    let room = match room {
        RoomReport::None { why, output_only } => {
            return format!("\n  room:        none — {why}{}", reports(output_only));
        }
        RoomReport::Private(room) => room,
    };
    let mut out = format!(
        "\n  room:        {} ({:.1} MB)\n    private:   {}\n    env:       as recorded at setup ({} variables)",
        room.dir.display(),
        room.bytes as f64 / 1e6,
        room.private.join(", "),
        room.environment.recorded,
    );
    for shared in &room.shared {
        out.push_str(&format!("\n    shared:    {} ({})", shared.var, shared.why));
    }
    out.push_str(&match &room.tree {
        TreeReport::Mounted { .. } => {
            "\n    tree:      a private copy in the room, mounted at the project's path".to_string()
        }
        TreeReport::Copied { why, .. } => {
            format!("\n    tree:      a private copy in the room, at its own path (not mounted: {why})")
        }
        TreeReport::Fallback { why } => format!("\n    tree:      falls back to the project's own tree — {why}"),
    });
    out.push_str(&match &room.start_channel {
        StartChannel::Binary { binaries } => format!(
            "\n    starts:    the room's words come back at the runner's binary, however it is started ({})",
            binaries
                .iter()
                .filter_map(|b| b.file_name())
                .map(|n| n.to_string_lossy())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        StartChannel::Path { why } => format!(
            "\n    starts:    the room's words come back only through a stand-in first on PATH: a runner started by its full path or under another PATH bypasses it ({why})"
        ),
        StartChannel::NoRunner => {
            "\n    starts:    no runner the room hooks ran at the traced baseline".to_string()
        }
    });
    out.push_str(&format!("\n    verdict:   reads {}", room.verdict_reads));
    out.push_str(&reports(&room.output_only));
    out
}

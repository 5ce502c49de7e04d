//! `loopgate status`'s room: where the oracle runs, the disk its caches take, what is private, what stays the
//! user's (see `crate::room`).

use std::path::PathBuf;

use serde::Serialize;

use crate::lifecycle::ActiveLoop;
use crate::room::{Recorded, Room};

/// The `room` object of `status --json`; `state` names the variant.
#[derive(Debug, Serialize)]
#[serde(tag = "state", rename_all = "lowercase")]
pub(super) enum RoomReport {
    /// Set up without a room: why.
    None { why: &'static str },
    Private {
        dir: PathBuf,
        /// The disk the room's caches take now.
        bytes: u64,
        /// The private caches' variables.
        private: Vec<&'static str>,
        shared: Vec<SharedReport>,
        environment: Environment,
        /// What the verdict reads: the runner's output, or pytest's own report beside it.
        verdict_reads: &'static str,
    },
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

/// The room of a loop with a verify command; `None` without one.
pub(super) fn report(active: &ActiveLoop) -> Option<RoomReport> {
    active.seal.fields.config.verify.verify_command.as_ref()?;
    let recorded = active
        .store
        .load_companion::<Recorded>(&active.project, crate::seal::ROOM)
        .ok()
        .flatten();
    let Some(recorded) = recorded else {
        return Some(RoomReport::None {
            why: "set up without a room (`LOOPGATE_ROOM=0`, or by a loopgate before it): the oracle runs in the environment of the process that runs it, with the shared caches",
        });
    };
    let room = Room::at(active.store.room_dir(&active.project));
    let described = recorded.describe(&room);
    Some(RoomReport::Private {
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
        verdict_reads: if described.pytest_report {
            "pytest's own JUnit report, written to a private path, beside the runner's output"
        } else {
            "the runner's output (no structured report: pytest's was not usable at the baseline, or no pytest ran)"
        },
        dir: described.dir,
    })
}

/// The text lines of [`report`].
pub(super) fn render(room: &RoomReport) -> String {
    let (dir, bytes, private, shared, environment, verdict_reads) = match room {
        RoomReport::None { why } => return format!("\n  room:        none — {why}"),
        RoomReport::Private {
            dir,
            bytes,
            private,
            shared,
            environment,
            verdict_reads,
        } => (dir, bytes, private, shared, environment, verdict_reads),
    };
    let mut out = format!(
        "\n  room:        {} ({:.1} MB)\n    private:   {}\n    env:       as recorded at setup ({} variables)",
        dir.display(),
        *bytes as f64 / 1e6,
        private.join(", "),
        environment.recorded,
    );
    for shared in shared {
        out.push_str(&format!("\n    shared:    {} ({})", shared.var, shared.why));
    }
    out.push_str(&format!("\n    verdict:   reads {verdict_reads}"));
    out
}

//! One stop, heard twice. When the Stop hook is registered twice (the plugin and a copy in the user's settings,
//! two plugin installs), Claude Code runs both at once with the same input. Each would move the loop on: the
//! counters ran ahead (two iterations, two "unchanged" stops for one), and two verify runs wrote one log, one
//! of which then looked "replaced" — a false tampering report.
//!
//! So the seal remembers the last stop it decided: a key (a hash of the session, prompt id, `stop_hook_active`,
//! the last message and the transcript's length) and when its decision began. A stop with the same key that
//! started before that decision, or within [`TWIN_WINDOW`] after it, is the same stop heard twice: it changes
//! nothing and prints nothing — Claude Code takes the decision of the one that decided (a block from any hook
//! blocks). A real next stop differs: it starts only after the last decision's final write of the seal (the
//! answer is printed after it, then the agent needs a model call), so a stop that started later than that write
//! plus [`START_JITTER_NS`] is never a twin (`stop::at_stop` checks the seal's modification time) — needed
//! because the transcript, which usually grows between real stops, can lag (Claude Code 2.1.330). Without a
//! readable transcript no stop is taken for a twin. A decision that never finished (a crash) stops counting
//! after [`STALE_AFTER`].

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

use super::block_cap::Turn;
pub(crate) use crate::schema::LastStop;

/// How long an unfinished decision (no `decided_ns`) holds beyond the verify timeout.
const STALE_AFTER: Duration = Duration::from_secs(60);
/// How late a twin may start after the decision (process start-up jitter). Kept well below the quickest real
/// next stop: with Claude Code 2.1.330, whose transcript can lag, a real next stop repeating the same words came
/// about 0.3 s after the decision, and a 2 s window took it for a twin and let the agent go unanswered; with
/// 2.1.197 and a scripted model, a real next stop with the same words came 70 ms after the previous one's, so a
/// 100 ms window (tried in issue 23) swallowed it too.
const TWIN_WINDOW: Duration = Duration::from_millis(50);

/// How long after the last decision's final write a twin may still start (process start-up on a busy machine);
/// below the quickest real next stop seen (70 ms, see [`TWIN_WINDOW`]).
pub(crate) const START_JITTER_NS: i128 = 20_000_000;

/// Nanoseconds since the epoch, now.
pub(crate) fn now_ns() -> i128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i128::try_from(d.as_nanos()).unwrap_or(i128::MAX))
}

/// The key of a Claude Code stop; `transcript_len`: the transcript's length now.
pub(crate) fn key(session: &str, turn: &Turn, message: &str, transcript_len: u64) -> String {
    let len = transcript_len.to_string();
    let mut hash = Sha256::new();
    for part in [
        session,
        turn.prompt_id.as_deref().unwrap_or(""),
        match turn.stop_hook_active {
            Some(true) => "1",
            Some(false) => "0",
            None => "-",
        },
        message,
        &len,
    ] {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    crate::fsutil::hex(&hash.finalize())[..32].to_string()
}

/// Whether a stop with `key`, whose hook started at `started_ns`, repeats `last` (see the module docs).
pub(crate) fn repeats(last: Option<&LastStop>, key: &str, started_ns: i128, verify_timeout: u64) -> bool {
    let Some(last) = last.filter(|l| l.key == key) else {
        return false;
    };
    match last.decided_ns {
        Some(decided) => started_ns < decided + i128::try_from(TWIN_WINDOW.as_nanos()).unwrap_or(0),
        None => {
            let limit = Duration::from_secs(verify_timeout) + STALE_AFTER;
            started_ns.saturating_sub(last.arrived_ns) < i128::try_from(limit.as_nanos()).unwrap_or(i128::MAX)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_stop_twice_repeats_a_later_one_does_not() {
        let turn = Turn {
            prompt_id: Some("p".into()),
            stop_hook_active: Some(true),
            ..Turn::default()
        };
        let k = key("S", &turn, "working", 10);
        assert_ne!(k, key("S", &turn, "working!", 10));
        assert_ne!(k, key("S", &turn, "working", 11), "the transcript grew: another stop");
        let decided = LastStop {
            key: k.clone(),
            arrived_ns: 100,
            decided_ns: Some(200),
        };
        assert!(repeats(Some(&decided), &k, 150, 600), "started before the decision");
        assert!(repeats(Some(&decided), &k, 250, 600), "a twin started a little late");
        assert!(
            !repeats(Some(&decided), &k, 200 + 300_000_000, 600),
            "an answer to it, 0.3 s later (as quick as 2.1.330 with a lagging transcript)"
        );
        assert!(!repeats(Some(&decided), "other", 150, 600));
        let in_flight = LastStop {
            decided_ns: None,
            ..decided
        };
        assert!(repeats(Some(&in_flight), &k, 10_000, 600));
        assert!(!repeats(Some(&in_flight), &k, 100 + 700 * 1_000_000_000, 600), "stale");
        assert!(!repeats(None, &k, 150, 600));
    }
}

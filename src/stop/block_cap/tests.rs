use super::*;
use crate::state::StateFields;

#[test]
fn the_cap_is_read_as_claude_code_reads_it() {
    assert_eq!(cap_from(None), Some(DEFAULT_CAP));
    assert_eq!(cap_from(Some("3")), Some(3));
    assert_eq!(cap_from(Some("  12")), Some(12));
    assert_eq!(cap_from(Some("+5")), Some(5));
    // parseInt keeps a leading number and ignores the rest.
    assert_eq!(cap_from(Some("4 blocks")), Some(4));
    // Not a number: the default.
    for value in ["", "  ", "eight", "x9", "-", "+"] {
        assert_eq!(cap_from(Some(value)), Some(DEFAULT_CAP), "{value:?}");
    }
    // Zero or negative: no cap.
    for value in ["0", "-1", "-30", "000"] {
        assert_eq!(cap_from(Some(value)), None, "{value:?}");
    }
    assert_eq!(cap_from(Some("99999999999999999999999")), Some(u64::MAX));
}

fn tally(cap: Option<u64>, without_tool: u64) -> Tally {
    Tally {
        cap,
        without_tool,
        prompt_id: Some("p1".into()),
        own_cap: false,
    }
}

#[test]
fn the_last_honored_block_warns_and_the_next_stop_yields() {
    let cap = Some(8);
    for before in 0..7 {
        assert_eq!(
            decide(&tally(cap, before)),
            Decision::Block { last_warning: false },
            "{before}"
        );
    }
    assert_eq!(decide(&tally(cap, 7)), Decision::Block { last_warning: true });
    assert_eq!(decide(&tally(cap, 8)), Decision::Yield);
    assert_eq!(decide(&tally(cap, 30)), Decision::Yield);
    // A cap of 1: the first block is already the last one.
    assert_eq!(decide(&tally(Some(1), 0)), Decision::Block { last_warning: true });
    assert_eq!(decide(&tally(Some(1), 1)), Decision::Yield);
    // No cap: always block, never warn.
    assert_eq!(decide(&tally(None, u64::MAX)), Decision::Block { last_warning: false });
}

#[test]
fn remembering_a_block_counts_it() {
    let mut fields = StateFields::default();
    remember(&mut fields.progress, &tally(Some(8), 2));
    assert_eq!(
        fields.progress.pending_block,
        Some(PendingBlock {
            prompt_id: Some("p1".into()),
            without_tool: 3
        })
    );
}

#[test]
fn a_stop_continues_the_blocked_turn_only_when_claude_code_says_so() {
    let pending = PendingBlock {
        prompt_id: Some("p1".into()),
        without_tool: 4,
    };
    let turn = |prompt: Option<&str>, active: Option<bool>| Turn {
        prompt_id: prompt.map(str::to_string),
        stop_hook_active: active,
        ..Turn::default()
    };
    assert!(same_turn(&pending, &turn(Some("p1"), Some(true))));
    // `stop_hook_active` is what counts when it is there.
    assert!(same_turn(&pending, &turn(Some("p2"), Some(true))));
    assert!(!same_turn(&pending, &turn(Some("p1"), Some(false))));
    // Older clients: the prompt id decides; without ids, the same turn (the count errs high).
    assert!(same_turn(&pending, &turn(Some("p1"), None)));
    assert!(!same_turn(&pending, &turn(Some("p2"), None)));
    assert!(same_turn(&pending, &turn(None, None)));
}

#[test]
fn a_compaction_inside_a_turn_is_not_a_turn_that_ended() {
    let mut fields = StateFields::default();
    fields.progress.pending_block = Some(PendingBlock {
        prompt_id: None,
        without_tool: 1,
    });
    assert_eq!(unanswered_at_session_start(&mut fields.progress, Some("compact")), None);
    assert!(fields.progress.pending_block.is_some());
    assert!(unanswered_at_session_start(&mut fields.progress, Some("resume")).is_some());
    assert_eq!(fields.progress.pending_block, None);
}

#[test]
fn the_pending_block_round_trips_through_the_state_file() {
    let mut state = crate::state::State {
        fields: StateFields::default(),
        task: "task\n".into(),
    };
    state.fields.config.loop_id = "lg-1".into();
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("state.md");
    state.save(&path).expect("save");
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(!text.contains("pending_block"), "absent when none:\n{text}");
    state.fields.progress.pending_block = Some(PendingBlock {
        prompt_id: Some("p-1".into()),
        without_tool: 5,
    });
    state.save(&path).expect("save");
    let back = crate::state::State::load(&path).expect("load").expect("present");
    assert_eq!(back.fields.progress.pending_block, state.fields.progress.pending_block);
}

use super::*;

pub(crate) fn sample(task: &str) -> State {
    State {
        fields: StateFields {
            config: LoopConfig {
                loop_id: "lg-test".into(),
                started_at: "2026-11-21T00:00:00Z".into(),
                sealed: vec!["tests/**".into()],
                verify: VerifyConfig {
                    verify_command: Some("cargo test -- --test-threads=1 'it''s'".into()),
                    ..VerifyConfig::default()
                },
                ..LoopConfig::default()
            },
            progress: LoopProgress {
                session_id: "s1".into(),
                ..LoopProgress::default()
            },
        },
        task: task.into(),
    }
}

#[test]
fn task_with_delimiters_quotes_and_substitutions_round_trips_byte_for_byte() {
    let task = "fix it\n---\nnot: yaml\n---\n\"quoted\" 'single' `tick` $(rm -rf /) \\ back\r\nCRLF line\r\n";
    let state = sample(task);
    let text = state.render().expect("render");
    let back = State::parse(&text).expect("parse");
    assert_eq!(back, state);
    assert_eq!(back.task.as_bytes(), task.as_bytes());
}

#[test]
fn crlf_frontmatter_parses() {
    let text = "---\r\nloop_id: a\r\niteration: 3\r\nverify_command: make\r\n---\r\ntask\r\n";
    let state = State::parse(text).expect("parse");
    assert_eq!(state.fields.progress.iteration, 3);
    assert_eq!(state.fields.config.verify.verify_command.as_deref(), Some("make"));
    assert_eq!(state.task, "task\r\n");
}

#[test]
fn missing_required_field_is_named() {
    let err = State::parse("---\niteration: 1\n---\ntask").expect_err("must fail");
    assert!(err.contains("loop_id"), "{err}");
}

#[test]
fn wrong_type_is_reported() {
    let err = State::parse("---\nloop_id: a\niteration: lots\n---\ntask").expect_err("must fail");
    assert!(err.contains("iteration"), "{err}");
    // A field of a feature's sub-struct, flattened twice, is named too.
    let err = State::parse("---\nloop_id: a\niteration: 1\nverify_timeout: soon\n---\ntask").expect_err("must fail");
    assert!(err.contains("`verify_timeout`"), "{err}");
}

#[test]
fn broken_yaml_and_missing_delimiters_are_errors_not_panics() {
    for text in [
        "",
        "no frontmatter",
        "---\nloop_id: [\n---\n",
        "---\nloop_id: a\niteration: 1\n",
        "---",
    ] {
        assert!(State::parse(text).is_err(), "{text:?} parsed");
    }
}

#[test]
fn load_names_the_file_and_missing_file_is_none() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("state.md");
    assert!(State::load(&path).expect("load").is_none());
    std::fs::write(&path, "garbage").expect("write");
    let err = State::load(&path).expect_err("corrupt").to_string();
    assert!(err.contains("state.md") && err.contains("corrupt"), "{err}");
    std::fs::write(&path, [0xff, 0xfe, 0x00]).expect("write");
    assert!(State::load(&path).expect_err("binary").to_string().contains("UTF-8"));
}

#[test]
fn save_then_load_round_trips() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(".claude/pua-loop.local.md");
    let state = sample("task ---\n---\n");
    state.save(&path).expect("save");
    assert_eq!(State::load(&path).expect("load"), Some(state));
}

/// State files and seals a loopgate before the settings were split into `LoopConfig` and `LoopProgress` wrote
/// (`tests/fixtures/state-0.1.0/`: a scored loop with limits, checkpoints and a pending block; a paused one with
/// counts and a give-up streak) load, and re-save byte for byte: the files on disk keep their keys and order.
#[test]
fn state_files_and_seals_of_the_previous_layout_resave_byte_for_byte() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/state-0.1.0");
    for name in ["scored", "paused"] {
        let text = std::fs::read_to_string(dir.join(format!("{name}.local.md"))).expect("state fixture");
        let state = State::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(state.render().expect("render"), text, "{name}.local.md");
        let bytes = std::fs::read(dir.join(format!("{name}.seal.json"))).expect("seal fixture");
        let seal: crate::seal::Seal = serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let again = serde_json::to_vec_pretty(&seal).expect("seal json");
        assert_eq!(
            String::from_utf8_lossy(&again),
            String::from_utf8_lossy(&bytes),
            "{name}.seal.json"
        );
        assert_eq!(
            seal.state().render().expect("render"),
            text,
            "{name}: the seal mirrors the state file"
        );
    }
}

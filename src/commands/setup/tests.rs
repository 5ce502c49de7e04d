use super::*;

fn from_text(text: &str) -> Result<Config, Error> {
    let cli = SetupArgs {
        args_stdin: true,
        session_id: Some("s-cli".into()),
        ..SetupArgs::default()
    };
    Config::from_args(cli, text.as_bytes())
}

#[test]
fn text_flags_and_task_are_parsed_and_cli_session_fills_in() {
    let c = from_text("\"fix it's `parse()`\" --verify 'cargo test' --max-iterations 7 --seal 'tests/**' --lang zh")
        .expect("valid");
    assert_eq!(c.task, "fix it's `parse()`");
    assert_eq!(c.verify.as_deref(), Some("cargo test"));
    assert_eq!(
        (c.max_iterations, c.lang, c.session_id.as_str()),
        (7, Speech::Zh, "s-cli")
    );
    assert_eq!(c.seal, ["tests/**"]);
}

#[test]
fn bad_values_name_the_flag() {
    let cases = [
        ("task --max-iterations lots", "--max-iterations"),
        ("task --verify-timeout 7200", "--verify-timeout"),
        ("task --verify-timeout 0", "--verify-timeout"),
        ("task --verify-on sometimes", "--verify-on"),
        ("task --verify-on always", "--verify"),
        ("task --max-duration soon", "--max-duration"),
        ("task --seal 'tests/['", "tests/["),
        ("--verify true", "no task"),
        ("task --lang fr", "--lang"),
    ];
    for (text, flag) in cases {
        let err = from_text(text).expect_err(text).to_string();
        assert!(err.contains(flag) && !err.contains('\n'), "{text}: {err}");
    }
}

#[test]
fn unsubstituted_session_placeholder_is_no_session() {
    let cli = SetupArgs {
        args_stdin: true,
        session_id: Some("${CLAUDE_SESSION_ID}".into()),
        ..SetupArgs::default()
    };
    let config = Config::from_args(cli, &b"task"[..]).expect("valid");
    // The flag is given, so `$CLAUDE_CODE_SESSION_ID` is never consulted: empty whatever the environment.
    assert_eq!(config.session_id, "");
}

#[test]
fn loop_ids_are_unique_and_safe() {
    let now = chrono::Utc::now();
    let (a, b) = (new_loop_id(now), new_loop_id(now));
    assert_ne!(a, b);
    assert_eq!(crate::project::safe_name(&a), a);
}

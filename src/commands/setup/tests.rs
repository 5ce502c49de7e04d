use super::*;
use crate::schema::Speech;
use clap::{CommandFactory, FromArgMatches};

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
    assert_eq!(c.loop_config.verify.verify_command.as_deref(), Some("cargo test"));
    assert_eq!(
        (
            c.loop_config.limits.max_iterations,
            c.loop_config.lang,
            c.session_id.as_str()
        ),
        (7, Speech::Zh, "s-cli")
    );
    assert_eq!(c.loop_config.sealed, ["tests/**"]);
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

/// Every flag of `setup` survives the merge of the slash command's text over the command line: given in the text
/// it wins, given on the command line alone it stays (a flag `merge_text` forgot would be dropped silently).
#[test]
fn every_flag_survives_the_merge_from_either_side() {
    let command = TextArgs::command();
    let mut tried = 0;
    for arg in command.get_arguments() {
        let Some(long) = arg.get_long().filter(|long| *long != "args-stdin") else {
            continue;
        };
        // The flag with a value clap accepts for it (and the flags it requires).
        let given = flag_with_value(long);
        let on_cli = parse_args(&given);
        let cli = SetupArgs {
            args_stdin: true,
            ..on_cli.clone()
        };
        let from_cli = merge_text(cli, &b"task"[..]).unwrap_or_else(|e| panic!("--{long} on the command line: {e}"));
        let text = format!("task {}", given.join(" "));
        let cli = SetupArgs {
            args_stdin: true,
            ..SetupArgs::default()
        };
        let from_text = merge_text(cli, text.as_bytes()).unwrap_or_else(|e| panic!("--{long} in the text: {e}"));
        let unset = merge_text(
            SetupArgs {
                args_stdin: true,
                ..SetupArgs::default()
            },
            &b"task"[..],
        )
        .expect("plain task");
        assert_ne!(
            format!("{from_cli:?}"),
            format!("{unset:?}"),
            "--{long} on the command line was dropped"
        );
        assert_eq!(
            format!("{from_cli:?}"),
            format!("{from_text:?}"),
            "--{long}: text and command line differ"
        );
        tried += 1;
    }
    assert!(tried > 20, "only {tried} flags");
}

/// `--LONG VALUE` (no value for a switch), with what clap requires beside it (`--target` needs `--score-regex`).
fn flag_with_value(long: &str) -> Vec<String> {
    let arg = TextArgs::command()
        .get_arguments()
        .find(|a| a.get_long() == Some(long))
        .cloned()
        .expect("the flag");
    let required: &[&str] = match long {
        "score-regex" => &["--target", "1"],
        "target" => &["--score-regex", "'score: (\\d+)'"],
        "direction" | "plateau" => &["--score-regex", "'score: (\\d+)'", "--target", "1"],
        "verify-on" | "verify-timeout" => &["--verify", "true"],
        _ => &[],
    };
    let flag = format!("--{long}");
    let mut given = if !arg.get_action().takes_values() {
        vec![flag]
    } else if let Some(value) = arg
        .get_possible_values()
        .iter()
        .map(|v| v.get_name().to_string())
        .next_back()
    {
        vec![flag, value]
    } else {
        let accepted = |value: &str| {
            let argv = [flag.as_str(), value].into_iter().chain(required.iter().copied());
            parse_args_checked(&argv.map(|a| a.trim_matches('\'').to_string()).collect::<Vec<_>>()).is_some()
        };
        let value = ["7", "1h", "tests/**"]
            .into_iter()
            .find(|v| accepted(v))
            .expect("a value clap accepts");
        vec![flag, value.to_string()]
    };
    given.extend(required.iter().map(ToString::to_string));
    given
}

fn parse_args_checked(given: &[String]) -> Option<SetupArgs> {
    let argv = given.iter().cloned().chain(["--".to_string(), "task".to_string()]);
    let matches = TextArgs::command().try_get_matches_from(argv).ok()?;
    TextArgs::from_arg_matches(&matches).ok().map(|t| SetupArgs {
        task: Vec::new(),
        ..t.args
    })
}

fn parse_args(given: &[String]) -> SetupArgs {
    let unquoted: Vec<String> = given.iter().map(|g| g.trim_matches('\'').to_string()).collect();
    parse_args_checked(&unquoted).unwrap_or_else(|| panic!("clap refuses {given:?}"))
}

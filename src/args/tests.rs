use super::*;

fn known() -> Vec<FlagSpec> {
    let flag = |name: &str, takes_value| FlagSpec {
        name: name.to_string(),
        takes_value,
    };
    vec![
        flag("verify", true),
        flag("max-iterations", true),
        flag("seal", true),
        flag("force", false),
    ]
}

fn flags(split: &Split) -> Vec<(&str, Option<&str>)> {
    split.flags.iter().map(|(n, v)| (n.as_str(), v.as_deref())).collect()
}

#[test]
fn quoted_task_and_quoted_values() {
    let s = split(
        r#""make the parser handle unicode" --verify 'cargo test' --max-iterations 5"#,
        &known(),
    )
    .expect("ok");
    assert_eq!(s.task, "make the parser handle unicode");
    assert_eq!(
        flags(&s),
        [("--verify", Some("cargo test")), ("--max-iterations", Some("5"))]
    );
}

#[test]
fn loose_words_are_kept_verbatim_with_apostrophes_and_backticks() {
    let s = split(
        "fix `parse()` so it's   fast --verify \"npm test\" don't stop",
        &known(),
    )
    .expect("ok");
    assert_eq!(s.task, "fix `parse()` so it's   fast don't stop");
    assert_eq!(flags(&s), [("--verify", Some("npm test"))]);
}

#[test]
fn substitutions_are_plain_text() {
    let s = split("rm $(whoami) `id` --verify 'test -f ok'", &known()).expect("ok");
    assert_eq!(s.task, "rm $(whoami) `id`");
}

#[test]
fn equals_form_and_repeated_flags() {
    let s = split(
        "--seal='tests/**' --seal=*.snap --verify='make check' do it --force",
        &known(),
    )
    .expect("ok");
    assert_eq!(
        flags(&s),
        [
            ("--seal", Some("tests/**")),
            ("--seal", Some("*.snap")),
            ("--verify", Some("make check")),
            ("--force", None)
        ]
    );
    assert_eq!(s.task, "do it");
}

#[test]
fn double_dash_ends_flags_and_keeps_the_rest_verbatim() {
    let s = split("--verify x -- explain --verify and\n---\nmore", &known()).expect("ok");
    assert_eq!(s.task, "explain --verify and\n---\nmore");
}

#[test]
fn a_flag_inside_a_quoted_task_is_task_text() {
    let s = split(r#""document what --verify does" --verify 'cargo doc'"#, &known()).expect("ok");
    assert_eq!(s.task, "document what --verify does");
    assert_eq!(flags(&s), [("--verify", Some("cargo doc"))]);
}

#[test]
fn multi_line_task_keeps_line_breaks() {
    let s = split("first line\n---\n\"second\" line --verify true", &known()).expect("ok");
    assert_eq!(s.task, "first line\n---\n\"second\" line");
}

#[test]
fn escaped_quotes_in_double_quotes() {
    let s = split(r#"--verify "echo \"hi\" | grep hi" task"#, &known()).expect("ok");
    assert_eq!(flags(&s), [("--verify", Some(r#"echo "hi" | grep hi"#))]);
}

#[test]
fn unterminated_quote_is_literal_text() {
    let s = split("it's 'broken --verify ok", &known()).expect("ok");
    assert_eq!(s.task, "it's 'broken");
}

#[test]
fn missing_value_and_typos_are_named() {
    assert!(
        split("task --verify", &known())
            .expect_err("missing")
            .contains("--verify")
    );
    let err = split("task --max-iteration 5", &known()).expect_err("typo");
    assert!(
        err.contains("--max-iteration") && err.contains("--max-iterations"),
        "{err}"
    );
}

#[test]
fn unknown_flags_far_from_known_ones_are_task_text_only_when_quoted() {
    assert!(split("make --help work", &known()).is_err());
    let s = split("\"make --help work\"", &known()).expect("ok");
    assert_eq!(s.task, "make --help work");
}

#[test]
fn never_panics_on_odd_input() {
    for raw in [
        "",
        "'",
        "\"",
        "--",
        "--=",
        "--verify=",
        "'\u{e9}'",
        "\"\\",
        "a\u{0}b",
        "--verify='",
        "é'x' y",
    ] {
        let _ = split(raw, &known());
    }
}

#[test]
fn a_word_opening_with_an_apostrophe_does_not_swallow_later_flags() {
    let s = split("support '90s dates --verify 'cargo test'", &known()).expect("ok");
    assert_eq!(flags(&s), [("--verify", Some("cargo test"))]);
    assert_eq!(s.task, "support '90s dates");
}

/// Issue 33, item 10: an unknown `--word` outside the quoted task is an error naming it (a near miss still gets
/// "did you mean"); quoted, or after `--`, it stays in the task.
#[test]
fn an_unknown_flag_is_an_error_unless_quoted() {
    let err = split(r#""Fix add" --verify true --budget 5"#, &known()).expect_err("unknown flag");
    assert!(
        err.contains("unknown flag `--budget`") && err.contains("quote"),
        "{err}"
    );
    let err = split("fix it --new-flag=3", &known()).expect_err("unknown flag");
    assert!(err.contains("`--new-flag`"), "{err}");
    let err = split("fix it --max-iteration 3", &known()).expect_err("near miss");
    assert!(err.contains("did you mean `--max-iterations`"), "{err}");

    let s = split(r#""handle --budget in the parser" --verify true"#, &known()).expect("quoted");
    assert_eq!(s.task, "handle --budget in the parser");
    let s = split("--verify true -- handle --budget too", &known()).expect("after --");
    assert_eq!(s.task, "handle --budget too");
    let s = split("arrows --> and --1 are prose --verify true", &known()).expect("prose");
    assert_eq!(s.task, "arrows --> and --1 are prose");
}

/// Issue 33, item 9: `--max-duration 5 years` is an error naming the unit, not 5 seconds with "years" added to
/// the task; a unit in the value, or a number followed by prose, is fine.
#[test]
fn a_duration_unit_written_apart_is_an_error_naming_it() {
    let known = [FlagSpec {
        name: "max-duration".into(),
        takes_value: true,
    }];
    for (raw, named) in [
        ("fix --max-duration 5 years", "`--max-duration 5 years`"),
        ("fix --max-duration 10 min", "`--max-duration 10 min`"),
    ] {
        let err = split(raw, &known).expect_err(raw);
        assert!(err.contains(named), "{err}");
    }
    let s = split("fix --max-duration 5d", &known).expect("one word");
    assert_eq!(s.flags, [("--max-duration".to_string(), Some("5d".to_string()))]);
    let s = split("--max-duration 300 fix the years column", &known).expect("prose");
    assert_eq!(s.task, "fix the years column");
}

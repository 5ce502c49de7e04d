//! Property tests for every parser loopgate runs on text it does not control: the hook JSON Claude Code sends,
//! the state file's frontmatter, the `/pua-loop` argument splitter, the signal-tag scanner, the test-count
//! scanner and the block cap.
//!
//! Two kinds of property: nothing panics on any input (errors are one line), and round trips hold — a state
//! rendered and parsed again is equal, its task byte for byte whatever it contains; a task made of safe words
//! survives the splitter; a whole `<promise>` tag is found wherever it sits. Case counts are kept small enough
//! for `cargo test` on every change (the whole file runs in a few seconds); raise them with `PROPTEST_CASES`.

use proptest::prelude::*;

#[path = "support/proptest_config.rs"]
mod proptest_config;
use proptest_config::config;
use serde_json::{Map, Value, json};

use loopgate::args::{self, FlagSpec};
use loopgate::hook::parse_input;
use loopgate::readout::{self, CountScanner, TestCounts};
use loopgate::state::{LoopStatus, State, VerifyOn};
use loopgate::tags::{self, Signal};

/// Text that stresses parsers: tag, YAML and shell fragments, white space of every kind, and any character.
fn nasty_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => any::<char>().prop_map(String::from),
        2 => "[ \t\r\n]{1,3}",
        2 => "[a-zA-Z0-9]{1,8}",
        1 => Just("---".to_string()),
        1 => Just("\n---\n".to_string()),
        1 => Just("\r\n---\r\n".to_string()),
        1 => Just("...".to_string()),
        1 => prop::sample::select(vec!["'", "\"", "`", "$(", ")", "\\", "#", ":", ": ", "- ", "|", ">", "&", "*", "!", "%", "@", "{", "}", "[", "]", ",", "?"])
            .prop_map(str::to_string),
        1 => prop::sample::select(vec!["yes", "no", "null", "~", "true", "1e3", "0x1F", ".nan", "-.inf", "0o17", "2026-11-21"])
            .prop_map(str::to_string),
        1 => Just("\u{0}".to_string()),
        1 => Just("\u{feff}".to_string()),
        1 => Just("\u{85}\u{2028}\u{2029}".to_string()),
        1 => Just(" ".repeat(90)),
    ];
    prop::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
}

// ---------------------------------------------------------------------------------------------------------
// Hook JSON
// ---------------------------------------------------------------------------------------------------------

const STRING_FIELDS: [&str; 7] = [
    "session_id",
    "transcript_path",
    "cwd",
    "hook_event_name",
    "last_assistant_message",
    "source",
    "tool_name",
];

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        // Floats only with short exact forms: serde_json's default float parsing is not bit-exact (loopgate reads
        // no number from hook input, so that is not what is tested here).
        prop::sample::select(vec![0.5, -2.25, 1e10, 3.0]).prop_map(Value::from),
        nasty_text().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,12}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(config(512))]

    /// Any bytes at all: an `Ok` or a one-line error, never a panic.
    #[test]
    fn hook_input_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        if let Err(err) = parse_input(&bytes, "Stop") {
            prop_assert!(!err.contains('\n'), "multi-line error: {err:?}");
        }
    }

    /// JSON-shaped text, truncated or not: still no panic, still one line.
    #[test]
    fn hook_input_never_panics_on_json_prefixes(value in any_json(), cut in any::<prop::sample::Index>()) {
        let text = value.to_string();
        let end = cut.index(text.len() + 1);
        let bytes = &text.as_bytes()[..end];
        if let Err(err) = parse_input(bytes, "Stop") {
            prop_assert!(!err.contains('\n'), "multi-line error: {err:?}");
        }
    }

    /// The fields loopgate reads come out exactly as sent, whatever else the object holds.
    #[test]
    fn hook_input_fields_round_trip(
        fields in prop::collection::vec(prop::option::of(nasty_text()), STRING_FIELDS.len()),
        extra in prop::collection::btree_map("x_[a-z_]{1,8}", any_json(), 0..4),
        tool_input in prop::option::of(any_json()),
    ) {
        let mut object: Map<String, Value> = extra.into_iter().collect();
        for (name, value) in STRING_FIELDS.iter().zip(&fields) {
            // The event name must be Stop's for a Stop hook; the other fields take anything.
            let value = if *name == "hook_event_name" { value.as_ref().map(|_| "Stop".to_string()) } else { value.clone() };
            if let Some(value) = value {
                object.insert((*name).to_string(), Value::String(value));
            }
        }
        if let Some(tool_input) = &tool_input {
            object.insert("tool_input".to_string(), tool_input.clone());
        }
        let bytes = serde_json::to_vec(&Value::Object(object.clone())).expect("serialize");
        let input = parse_input(&bytes, "Stop").expect("valid hook JSON parses");
        let got = [
            &input.session_id,
            &input.transcript_path,
            &input.cwd,
            &input.hook_event_name,
            &input.last_assistant_message,
            &input.source,
            &input.tool_name,
        ];
        for (name, value) in STRING_FIELDS.iter().zip(got) {
            prop_assert_eq!(value.as_deref(), object.get(*name).and_then(Value::as_str), "field {}", name);
        }
        // `"tool_input": null` reads as absent.
        prop_assert_eq!(input.tool_input.as_ref(), tool_input.as_ref().filter(|v| !v.is_null()));
    }

    /// A known field of the wrong type is refused with an error naming that field.
    #[test]
    fn hook_input_wrong_types_name_the_field(
        field in prop::sample::select(STRING_FIELDS.to_vec()),
        value in any_json().prop_filter("not a string or null", |v| !v.is_string() && !v.is_null()),
    ) {
        let bytes = json!({ field: value }).to_string();
        let err = parse_input(bytes.as_bytes(), "Stop").expect_err("wrong type must fail");
        prop_assert!(err.contains(&format!("`{field}`")) && !err.contains('\n'), "{}", err);
    }

    /// Input for another event is refused, naming both events.
    #[test]
    fn hook_input_for_another_event_is_refused(event in "[A-Za-z]{1,16}") {
        prop_assume!(event != "Stop");
        let bytes = json!({"hook_event_name": event, "session_id": "s"}).to_string();
        let err = parse_input(bytes.as_bytes(), "Stop").expect_err("other event must fail");
        prop_assert!(err.contains(&format!("`{event}`")) && err.contains("`Stop`"), "{}", err);
    }
}

// ---------------------------------------------------------------------------------------------------------
// State file frontmatter
// ---------------------------------------------------------------------------------------------------------

/// A valid state to start from; the properties then overwrite its fields with generated values. (Built by
/// parsing, not a struct literal, so fields added to the state later need no change here.)
fn base_state() -> State {
    State::parse("---\nloop_id: lg-base\niteration: 1\n---\n").expect("base state parses")
}

#[derive(Debug, Clone)]
struct Generated {
    task: String,
    loop_id: String,
    session_id: String,
    promise: String,
    verify: Option<String>,
    started_at: String,
    sealed: Vec<String>,
    pause_reason: Option<String>,
    last_fingerprint: Option<String>,
    numbers: [u64; 5],
    flags: (bool, bool, bool),
    max_duration: Option<u64>,
    best_score: Option<f64>,
}

fn generated() -> impl Strategy<Value = Generated> {
    (
        (
            nasty_text(),
            nasty_text(),
            nasty_text(),
            nasty_text(),
            prop::option::of(nasty_text()),
            nasty_text(),
            prop::collection::vec(nasty_text(), 0..3),
        ),
        (
            prop::option::of(nasty_text()),
            prop::option::of(nasty_text()),
            any::<[u64; 5]>(),
            any::<(bool, bool, bool)>(),
            prop::option::of(any::<u64>()),
            prop::option::of(any::<f64>().prop_filter("finite", |f| f.is_finite())),
        ),
    )
        .prop_map(
            |(
                (task, loop_id, session_id, promise, verify, started_at, sealed),
                (pause_reason, last_fingerprint, numbers, flags, max_duration, best_score),
            )| Generated {
                task,
                loop_id,
                session_id,
                promise,
                verify,
                started_at,
                sealed,
                pause_reason,
                last_fingerprint,
                numbers,
                flags,
                max_duration,
                best_score,
            },
        )
}

fn build(g: &Generated) -> State {
    let mut state = base_state();
    let f = &mut state.fields;
    f.config.loop_id.clone_from(&g.loop_id);
    f.progress.session_id.clone_from(&g.session_id);
    f.config.completion_promise.clone_from(&g.promise);
    f.config.verify.verify_command.clone_from(&g.verify);
    f.config.started_at.clone_from(&g.started_at);
    f.config.sealed.clone_from(&g.sealed);
    f.progress.pause_reason.clone_from(&g.pause_reason);
    f.progress.rejections.last_fingerprint.clone_from(&g.last_fingerprint);
    [
        f.progress.iteration,
        f.config.limits.max_iterations,
        f.config.verify.verify_timeout,
        f.progress.rejections.promise_rejections,
        f.config.limits.stall_limit,
    ] = g.numbers;
    f.progress.active = g.flags.0;
    f.progress.status = if g.flags.1 {
        LoopStatus::Paused
    } else {
        LoopStatus::Running
    };
    f.config.verify.verify_on = if g.flags.2 { VerifyOn::Always } else { VerifyOn::Promise };
    f.config.limits.max_duration = g.max_duration;
    f.progress.score.best_score = g.best_score;
    state.task.clone_from(&g.task);
    state
}

proptest! {
    #![proptest_config(config(256))]

    /// state → YAML frontmatter → state: equal, and the task byte for byte, whatever the strings hold
    /// (`---` lines, CRLF, quotes, NUL, YAML keywords, a byte-order mark, long lines that a YAML emitter folds).
    #[test]
    fn state_round_trips_through_the_file(g in generated()) {
        let state = build(&g);
        let text = state.render().expect("a state always renders");
        let back = State::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n--- file ---\n{text}")))?;
        prop_assert_eq!(back.task.as_bytes(), state.task.as_bytes());
        // Rendering is stable too: the parsed state renders to the same bytes.
        prop_assert_eq!(back.render().expect("renders"), text.as_str());
        prop_assert_eq!(back, state, "file:\n{}", text);
    }

    /// CRLF line ends on the frontmatter (an editor or git converted the file) read as the same fields.
    #[test]
    fn state_frontmatter_with_crlf_reads_the_same(
        loop_id in "[a-zA-Z0-9_-]{1,20}",
        task in nasty_text(),
        iteration in any::<u64>(),
    ) {
        let mut state = base_state();
        state.fields.config.loop_id = loop_id;
        state.fields.progress.iteration = iteration;
        state.task = task;
        let text = state.render().expect("renders");
        let split = text.len() - state.task.len();
        let crlf = format!("{}{}", text[..split].replace('\n', "\r\n"), state.task);
        let back = State::parse(&crlf).expect("CRLF frontmatter parses");
        prop_assert_eq!(back, state);
    }

    /// Any text at all: a state or a one-line error, never a panic.
    #[test]
    fn state_parse_never_panics(text in nasty_text(), with_delimiters in any::<bool>()) {
        let text = if with_delimiters { format!("---\n{text}\n---\n{text}") } else { text };
        if let Err(err) = State::parse(&text) {
            prop_assert!(!err.is_empty());
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// The /pua-loop argument splitter
// ---------------------------------------------------------------------------------------------------------

fn known_flags() -> Vec<FlagSpec> {
    let flag = |name: &str, takes_value| FlagSpec {
        name: name.to_string(),
        takes_value,
    };
    vec![
        flag("verify", true),
        flag("max-iterations", true),
        flag("completion-promise", true),
        flag("verify-timeout", true),
        flag("seal", true),
        flag("verify-on", true),
        flag("max-duration", true),
        flag("lang", true),
        flag("session-id", true),
        flag("force", false),
    ]
}

/// A word of prose that is not a flag or a quoted value: apostrophes and quotes inside words, backticks,
/// `$(…)` and any non-ASCII text are all fine.
fn safe_word() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-zA-Z0-9][a-zA-Z0-9.,:;!?()`$_/*'\"=-]{0,10}",
        1 => "[\\p{L}\\p{N}][\\p{L}\\p{N}\\p{P}]{0,6}".prop_filter("starts with a quote or dash", |w| !w.starts_with(['\'', '"', '-'])),
        1 => prop::sample::select(vec!["it's", "don't", "`parse()`", "$(rm -rf /)", "a=b", "x--y", "'90s"]).prop_map(str::to_string)
            .prop_filter("opening quote", |w| !w.starts_with(['\'', '"'])),
    ]
}

fn separator() -> impl Strategy<Value = String> {
    "[ \t\n]{1,3}"
}

/// Safe words joined by arbitrary white space.
fn prose() -> impl Strategy<Value = String> {
    prop::collection::vec((safe_word(), separator()), 1..12).prop_map(|words| {
        let mut text = String::new();
        for (i, (word, sep)) in words.iter().enumerate() {
            if i > 0 {
                text.push_str(sep);
            }
            text.push_str(word);
        }
        text
    })
}

/// A flag value: anything without the quote character that will surround it (in `"…"` also no backslash,
/// which escapes there).
fn value_for(quote: char) -> impl Strategy<Value = String> {
    nasty_text().prop_map(move |v| {
        v.chars()
            .filter(|&c| c != quote && !(quote == '"' && c == '\\'))
            .collect()
    })
}

proptest! {
    #![proptest_config(config(512))]

    /// Any text: split or a one-line error, never a panic.
    #[test]
    fn split_never_panics(raw in nasty_text(), flagish in prop::collection::vec("--[a-z-]{1,20}(=['\"]?)?", 0..3)) {
        let raw = format!("{raw} {}", flagish.join(" "));
        if let Err(err) = args::split(&raw, &known_flags()) {
            prop_assert!(!err.contains('\n'), "{}", err);
        }
    }

    /// A task made only of safe words comes out verbatim (white space between words included), no flags.
    #[test]
    fn safe_prose_is_the_task_verbatim(task in prose(), lead in "[ \t\n]{0,2}", trail in "[ \t\n]{0,2}") {
        let raw = format!("{lead}{task}{trail}");
        let split = args::split(&raw, &known_flags()).expect("safe prose splits");
        prop_assert!(split.flags.is_empty(), "{:?}", split.flags);
        prop_assert_eq!(split.task, task);
    }

    /// Known flags with quoted values, anywhere among the task's words, come out exact; the task keeps its words.
    #[test]
    fn quoted_flag_values_come_out_exact(
        before in prop::option::of(prose()),
        after in prop::option::of(prose()),
        values in prop::collection::vec(
            (prop::sample::select(vec!["verify", "completion-promise", "seal", "max-duration", "session-id"]),
             prop::sample::select(vec!['\'', '"']), any::<bool>())
                .prop_flat_map(|(name, quote, equals)| (Just(name), Just(quote), Just(equals), value_for(quote))),
            1..4,
        ),
    ) {
        let mut raw = before.clone().unwrap_or_default();
        for (name, quote, equals, value) in &values {
            let joiner = if *equals { "=" } else { " " };
            raw.push_str(&format!(" --{name}{joiner}{quote}{value}{quote}"));
        }
        if let Some(after) = &after {
            raw.push(' ');
            raw.push_str(after);
        }
        let split = args::split(&raw, &known_flags()).map_err(|e| TestCaseError::fail(format!("{e}: {raw:?}")))?;
        let want: Vec<(String, Option<String>)> =
            values.iter().map(|(name, _, _, value)| (format!("--{name}"), Some(value.clone()))).collect();
        prop_assert_eq!(&split.flags, &want, "raw: {:?}", raw);
        let task: Vec<&str> = [&before, &after].into_iter().flatten().map(String::as_str).collect();
        prop_assert_eq!(split.task, task.join(" "), "raw: {:?}", raw);
    }
}

// ---------------------------------------------------------------------------------------------------------
// The signal-tag scanner
// ---------------------------------------------------------------------------------------------------------

/// Text around a tag, rich in tag fragments: stray and half tags of all three kinds, white space, prose.
fn around() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => "[a-zA-Z .,\n]{1,12}",
        2 => prop::sample::select(vec![
            "<promise>", "</promise>", "<promise", "promise>", "</promise", "<", ">", "/", "<<", ">>",
            "<loop-abort>", "</loop-abort>", "<loop-pause>", "</loop-pause>", "<loop-abort", "loop-pause>",
            "LOOP_DONE", "<promise>LOOP_DONE", "LOOP_DONE</promise>", "<promise>nope</promise>",
        ]).prop_map(str::to_string),
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..10).prop_map(|p| p.concat())
}

/// A completion promise as a user would seal it: no `<` (it could not be echoed inside a tag otherwise).
fn promise_text() -> impl Strategy<Value = String> {
    prop_oneof![Just("LOOP_DONE".to_string()), "[a-zA-Z0-9_ .!-]{0,24}", "[^<]{0,16}",]
}

/// Whether `text` holds a complete `<name>…</name>` pair.
fn has_pair(text: &str, name: &str) -> bool {
    let (open, close) = (format!("<{name}>"), format!("</{name}>"));
    text.find(&open)
        .is_some_and(|at| text[at + open.len()..].contains(&close))
}

proptest! {
    #![proptest_config(config(1024))]

    /// Any message and promise: no panic.
    #[test]
    fn scan_never_panics(message in around(), promise in any::<String>()) {
        let _ = tags::scan(&message, &promise);
    }

    /// `<promise>P</promise>` for the sealed P is a promise whatever surrounds it, unless an abort or pause tag
    /// is present (they take precedence, in that order).
    #[test]
    fn a_whole_promise_tag_is_found_wherever_it_sits(
        before in around(),
        after in around(),
        promise in promise_text(),
        pad in ("[ \t\n]{0,2}", "[ \t\n]{0,2}"),
    ) {
        let message = format!("{before}<promise>{}{promise}{}</promise>{after}", pad.0, pad.1);
        let got = tags::scan(&message, &promise);
        if has_pair(&message, "loop-abort") {
            prop_assert!(matches!(got, Signal::Abort(_)), "{:?} for {:?}", got, message);
        } else if has_pair(&message, "loop-pause") {
            prop_assert!(matches!(got, Signal::Pause(_)), "{:?} for {:?}", got, message);
        } else {
            prop_assert_eq!(got, Signal::Promise, "message: {:?}", message);
        }
    }

    /// Without any whole tag, nothing is a signal — not even the bare promise text.
    #[test]
    fn no_whole_tag_no_signal(text in "[a-zA-Z _<>/-]{0,40}", promise in promise_text()) {
        let message = format!("{text}{promise}");
        prop_assume!(!["promise", "loop-abort", "loop-pause"].iter().any(|n| has_pair(&message, n)));
        prop_assert_eq!(tags::scan(&message, &promise), Signal::None);
    }

    /// Abort and pause reasons are trimmed and never contain their own tags.
    #[test]
    fn reasons_are_trimmed_tag_contents(before in around(), reason in "[^<]{0,20}", after in around()) {
        let message = format!("{before}<loop-abort>{reason}</loop-abort>{after}");
        match tags::scan(&message, "LOOP_DONE") {
            Signal::Abort(got) => {
                prop_assert_eq!(got.trim(), got.as_str());
                prop_assert!(!got.contains("<loop-abort>") && !got.contains("</loop-abort>"));
            }
            other => prop_assert!(false, "expected an abort, got {:?} for {:?}", other, message),
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// The test-count scanner
// ---------------------------------------------------------------------------------------------------------

/// Output made of the runners' summary fragments, numbers, escapes and any byte.
fn runner_output() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        3 => prop::sample::select(vec![
            "test result: ok. ", "test result: FAILED. ", " passed", " failed", " ignored", " filtered out", "; ",
            "    Starting 3 tests across 1 binary", "     Summary [   0.1s] ", " tests run: ", "3/6", " skipped",
            " (1 slow, 1 leaky)", "=== RUN   T", "--- PASS: T", "--- FAIL: T/x", "--- SKIP: T", "    ", "Ran ",
            " tests in 0.1s", "OK", "FAILED (failures=", "skipped=", ", ", ")", "(", "Tests:", " total", "Tests  ",
            " | ", " todo", "# tests ", "# pass ", "ℹ fail ", " passing (1ms)", " pending", " failing", " in 0.1s",
            "== ", " ==", " xfailed", " errors", "no tests ran", "=", "\x1b[31m", "\x1b[0m", "\r", "\n", "\r\n",
        ]).prop_map(|s| s.as_bytes().to_vec()),
        2 => (0u64..20).prop_map(|n| n.to_string().into_bytes()),
        1 => Just(u64::MAX.to_string().into_bytes()),
        1 => Just(b"18446744073709551616".to_vec()),
        1 => any::<char>().prop_map(|c| c.to_string().into_bytes()),
        1 => prop::collection::vec(any::<u8>(), 1..4),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
}

fn counts_strategy() -> impl Strategy<Value = TestCounts> {
    (0u64..100_000, 0u64..1000, 0u64..1000, 0u64..1000).prop_map(|(p, f, s, i)| TestCounts::new(p, f, s, i))
}

proptest! {
    #![proptest_config(config(512))]

    /// Any bytes: no panic, and the scanner fed line by line agrees with `counts` on the whole text and with
    /// the failure summary's counts.
    #[test]
    fn count_scanner_never_panics_and_agrees_with_the_whole_text(bytes in runner_output()) {
        let mut scanner = CountScanner::new();
        for line in bytes.split(|&b| b == b'\n') {
            scanner.feed_line(line);
        }
        let text = String::from_utf8_lossy(&bytes);
        let whole = readout::counts(&text);
        prop_assert_eq!(scanner.finish(), whole);
        prop_assert_eq!(readout::summarize(&text).counts, whole);
    }

    /// A summary line each runner could print, with any numbers, colored or not, reads back as those numbers.
    #[test]
    fn printed_summaries_read_back(c in counts_strategy(), colored in any::<bool>(), noise in "[a-z .:]{0,30}") {
        let (p, f, s, i) = (c.passed, c.failed, c.skipped, c.ignored);
        let color = |text: String| if colored { format!("\x1b[1m\x1b[32m{text}\x1b[0m") } else { text };
        let cases = [
            (format!("test result: ok. {p} passed; {f} failed; {i} ignored; 0 measured; {s} filtered out; finished in 0.01s"),
             TestCounts { skipped: 0, ..c }),
            (format!("     Summary [   1.0s] {} tests run: {p} passed, {f} failed, {s} skipped", p + f),
             TestCounts { ignored: 0, ..c }),
            (format!("===== {f} failed, {p} passed, {s} skipped, {i} deselected in 0.12s ====="),
             TestCounts { ignored: 0, ..c }),
            (format!("Tests:       {f} failed, {s} skipped, {p} passed, {} total", p + f + s), TestCounts { ignored: 0, ..c }),
            (format!("      Tests  {f} failed | {p} passed | {s} skipped ({})", p + f + s), TestCounts { ignored: 0, ..c }),
        ];
        for (line, expected) in cases {
            let output = format!("{noise}\n{}\n{noise}\n", color(line.clone()));
            prop_assert_eq!(readout::counts(&output), Some(expected), "{}", line);
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The stop-hook block cap, read from `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` as Claude Code reads it (JS `parseInt`)
// ---------------------------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(256))]

    /// Never panics; a leading integer (after white space and a sign) is the cap, zero or less is none, anything
    /// else is the default of 8.
    #[test]
    fn block_cap_reads_a_leading_integer(
        space in "[ \t\n]{0,3}",
        sign in prop::sample::select(vec!["", "+", "-"]),
        number in 0u64..100_000,
        rest in nasty_text(),
    ) {
        use loopgate::stop::block_cap::{DEFAULT_CAP, cap_from};
        let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        let text = format!("{space}{sign}{number}{rest}");
        let expected = if sign == "-" || number == 0 { None } else { Some(number) };
        prop_assert_eq!(cap_from(Some(&text)), expected, "{:?}", text);
        let not_a_number = format!("{space}{sign}x{rest}");
        prop_assert_eq!(cap_from(Some(&not_a_number)), Some(DEFAULT_CAP));
    }
}

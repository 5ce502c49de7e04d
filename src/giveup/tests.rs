use super::*;

/// One labelled message of `tests/fixtures/giveup/corpus.txt`.
struct Case {
    give_up: bool,
    kind: Option<Kind>,
    lang: String,
    set: String,
    text: String,
}

fn corpus() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/giveup/corpus.txt");
    let text = std::fs::read_to_string(path).expect("read the give-up corpus");
    let mut cases: Vec<Case> = Vec::new();
    for line in text.lines() {
        if let Some(header) = line.strip_prefix("=== ") {
            let fields: Vec<&str> = header.split_whitespace().collect();
            assert_eq!(fields.len(), 4, "bad corpus header: {line}");
            let kind = match fields[1] {
                "giving_up" => Some(Kind::GivingUp),
                "asking_user" => Some(Kind::AskingUser),
                "external_blocker" => Some(Kind::ExternalBlocker),
                "-" => None,
                other => panic!("bad kind `{other}` in: {line}"),
            };
            let give_up = match fields[0] {
                "give_up" => true,
                "not" => false,
                other => panic!("bad label `{other}` in: {line}"),
            };
            assert_eq!(give_up, kind.is_some(), "label and kind disagree: {line}");
            assert!(matches!(fields[2], "en" | "zh"), "bad lang: {line}");
            assert!(
                matches!(fields[3], "holdout" | "dev" | "blind1" | "blind2" | "blind3"),
                "bad set: {line}"
            );
            cases.push(Case {
                give_up,
                kind,
                lang: fields[2].to_string(),
                set: fields[3].to_string(),
                text: String::new(),
            });
        } else if let Some(case) = cases.last_mut() {
            case.text.push_str(line);
            case.text.push('\n');
        } else {
            assert!(
                line.is_empty() || line.starts_with('#'),
                "text before the first header: {line}"
            );
        }
    }
    cases
}

/// Precision and recall of `classify` over some cases, with the misclassified ones for the failure message.
fn score<'a>(cases: impl Iterator<Item = &'a Case>) -> (f64, f64, usize, Vec<String>) {
    let (mut tp, mut fp, mut fn_, mut n) = (0u32, 0u32, 0u32, 0);
    let mut wrong = Vec::new();
    for case in cases {
        n += 1;
        let got = classify(&case.text);
        match (case.give_up, &got) {
            (true, Some(_)) => tp += 1,
            (false, Some(g)) => {
                fp += 1;
                wrong.push(format!(
                    "false positive ({:?} on {:?}): {}",
                    g.kind,
                    g.phrase,
                    case.text.trim()
                ));
            }
            (true, None) => {
                fn_ += 1;
                wrong.push(format!("missed ({:?}): {}", case.kind, case.text.trim()));
            }
            (false, None) => {}
        }
    }
    let precision = f64::from(tp) / f64::from((tp + fp).max(1));
    let recall = f64::from(tp) / f64::from((tp + fn_).max(1));
    (precision, recall, n, wrong)
}

/// The measured figures (README, "Give-up detection"). The thresholds: a false positive only adds a paragraph of
/// guidance to a stop that was going to continue anyway (and counts towards a stall only when nothing changed),
/// while a miss costs an iteration in which nobody answers the agent; so precision must stay high (≥ 0.9: at most
/// one wrong call in ten) and recall reasonable (≥ 0.8), on the held-out set as on the whole corpus.
#[test]
fn corpus_precision_and_recall() {
    let cases = corpus();
    assert!(cases.len() >= 40, "the corpus needs at least 40 messages");
    let positives = cases.iter().filter(|c| c.give_up).count();
    assert_eq!(positives * 2, cases.len(), "half give up, half do not");
    for (name, set) in [
        ("all", cases.iter().collect::<Vec<_>>()),
        ("holdout", cases.iter().filter(|c| c.set == "holdout").collect()),
        ("dev", cases.iter().filter(|c| c.set == "dev").collect()),
        ("blind1", cases.iter().filter(|c| c.set == "blind1").collect()),
        ("blind2", cases.iter().filter(|c| c.set == "blind2").collect()),
        ("blind3", cases.iter().filter(|c| c.set == "blind3").collect()),
        ("zh", cases.iter().filter(|c| c.lang == "zh").collect()),
    ] {
        let (precision, recall, n, wrong) = score(set.into_iter());
        println!("{name}: {n} messages, precision {precision:.2}, recall {recall:.2}");
        for line in &wrong {
            println!("  {line}");
        }
        assert!(
            precision >= 0.9 && recall >= 0.8,
            "{name}: precision {precision:.2}, recall {recall:.2} below 0.9 / 0.8:\n{}",
            wrong.join("\n")
        );
    }
}

#[test]
fn kinds_are_told_apart() {
    let kind = |text: &str| classify(text).map(|g| g.kind);
    assert_eq!(kind("I can't fix this test. I give up."), Some(Kind::GivingUp));
    assert_eq!(kind("Should I keep the old API?"), Some(Kind::AskingUser));
    assert_eq!(
        kind("This needs credentials for the staging database."),
        Some(Kind::ExternalBlocker)
    );
    assert_eq!(kind("我无法完成这个任务。"), Some(Kind::GivingUp));
    assert_eq!(kind("请问用哪个方案？"), Some(Kind::AskingUser));
    assert_eq!(kind("测试需要数据库的访问凭据。"), Some(Kind::ExternalBlocker));
    // A blocker outranks a question in the same message: pausing with what is needed is the right answer.
    assert_eq!(
        kind("I cannot proceed without the API key. Could you provide it?"),
        Some(Kind::ExternalBlocker)
    );
}

#[test]
fn the_phrase_and_sentence_are_reported_as_written() {
    let found = classify("Done with step one.\nI'm Unable To reach the server; please check the VPN.").expect("found");
    assert_eq!(found.kind, Kind::AskingUser);
    assert_eq!(found.phrase, "please check");
    assert_eq!(found.sentence, "please check the VPN.");
    let long = format!("I give up {}", "x".repeat(500));
    let sentence = classify(&long).expect("found").sentence;
    assert_eq!(sentence.chars().count(), SENTENCE_CHARS + 1, "cut, with an ellipsis");
}

#[test]
fn workarounds_conditions_and_later_progress_cancel_a_phrase() {
    for text in [
        "There is no network access here, so I mocked the client.",
        "If you need the old output, pass --legacy.",
        "To use it you need to set FOO first.",
        "I couldn't get it to build at first; the missing header was the cause.",
        "I can't reach the registry. I switched to the vendored copy and the build passes.",
        "Should I also update the docs? Next I'll do that.",
        "没有网络，所以我改用本地模拟服务。",
        "我无法继续原来的方案。接下来我会换一种实现。",
    ] {
        assert_eq!(classify(text), None, "{text}");
    }
}

#[test]
fn quoted_errors_and_code_are_not_the_agent_s_words() {
    for text in [
        "The test printed `I cannot proceed without credentials` and now it does not.",
        "```\nError: you will need to log in\n```\nFixed the login fixture.",
        "The old message was \"I give up\"; it says \"retrying\" now.",
        "报错“无法连接数据库”已经修复。",
    ] {
        assert_eq!(classify(text), None, "{text}");
    }
}

#[test]
fn empty_and_odd_input_is_handled() {
    for text in ["", "\n\n", "```", "`", "“", "?", "。", "I", "ı İ ß ﬁ 🙂 I give up 🙂"] {
        let _ = classify(text);
    }
    assert_eq!(
        classify("ı İ 🙂 I give up 🙂").map(|g| g.phrase),
        Some("I give up".into())
    );
}

/// The prefilter only rules out what the classifier would not find: over the whole corpus, message by message
/// and sentence by sentence, and the examples above, the classifier gives the same answer with and without it.
#[test]
fn the_anchor_prefilter_agrees_with_the_full_classifier() {
    let mut texts: Vec<String> = Vec::new();
    for case in corpus() {
        texts.extend(sentences(&case.text).iter().map(|s| s.to_string()));
        texts.push(case.text);
    }
    texts.extend(
        [
            "still working",
            "I can't fix this test. I give up.",
            "Should I keep the old API?",
            "请问用哪个方案？",
            "I cannot proceed without the API key. Could you provide it?",
            "Tests pass now. Anything else?",
            "You `x` must set it",
        ]
        .map(String::from),
    );
    let mut ruled_out = 0;
    for text in &texts {
        let anchored = Anchored::of(text);
        ruled_out += usize::from(anchored.none());
        assert_eq!(classify(text), classify_as(text, Anchored::ALL), "{text}");
        if let Some(found) = classify_as(text, Anchored::ALL) {
            let possible = match found.kind {
                Kind::ExternalBlocker => anchored.external,
                Kind::AskingUser => anchored.asking || anchored.question,
                Kind::GivingUp => anchored.giving,
                Kind::TalkOnly => false,
            };
            assert!(possible, "{:?} found but ruled out in: {text}", found.kind);
        }
    }
    // Not a bound to keep, but the prefilter must do something: most sentences of the corpus hold no anchor.
    assert!(ruled_out > 0, "the prefilter ruled out nothing");
}

/// Every anchor list covers its pattern: strings generated from each alternative (word boundaries dropped, which
/// only widens what is generated) all hold one of its anchors, so a message without any cannot match.
#[test]
fn every_match_of_an_alternative_holds_one_of_its_anchors() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new(Config::default());
    for alt in patterns::EXTERNAL
        .iter()
        .chain(patterns::ASKING)
        .chain(patterns::GIVING)
    {
        assert!(!alt.anchors.is_empty(), "no anchor for {}", alt.pattern);
        for word in alt.anchors {
            assert!(
                !word.is_empty()
                    && *word == word.to_ascii_lowercase()
                    && !word
                        .chars()
                        .any(|c| c.is_whitespace() || matches!(c, '`' | '"' | '“' | '”')),
                "anchor {word:?} of {}: lowercase, no white space, no quote marks",
                alt.pattern
            );
        }
        let widened = alt.pattern.replace(r"\b", "");
        let strategy = proptest::string::string_regex(&widened).expect("a pattern proptest can generate from");
        for _ in 0..512 {
            let generated = strategy.new_tree(&mut runner).expect("a string").current();
            let lower = generated.to_ascii_lowercase();
            assert!(
                alt.anchors.iter().any(|word| lower.contains(word)),
                "{generated:?} matches {} but holds none of {:?}",
                alt.pattern,
                alt.anchors
            );
        }
    }
}

#[test]
fn a_message_without_anchors_is_ruled_out_before_any_pattern() {
    for text in [
        "still working",
        "Refactored the parser; 12 tests added.",
        "修复了解析器。",
    ] {
        assert!(Anchored::of(text).none(), "{text}");
        assert_eq!(classify(text), None);
    }
    let question = Anchored::of("Done. Anything else?");
    assert!(question.question && !question.none());
}

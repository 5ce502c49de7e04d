//! What a CLI's HTML escaping leaves alone. Two CLIs turn characters into entities before the model reads a hook's
//! text (checked on the real clients): Codex escapes `<`, `>` and `&` in a Stop hook's reason (it wraps it in
//! `<hook_prompt>`, 0.169.0 and 0.171.0), Gemini CLI `<` and `>` in every `additionalContext` (it wraps it in
//! `<hook_context>`, 0.61.0); neither has another channel for that text. The model would read
//! `&lt;promise&gt;LOOP_DONE&lt;/promise&gt;` and might answer in kind.
//!
//! So the adapter hands over text with none of those characters: each whole signal tag (`tags::NAMES`) said in
//! words, with one line that says how a tag is written, and any other such character (a verify's output, the
//! task) as a look-alike the model reads as it is.

/// `text` with none of `escaped` in it (`cli`: the CLI's name, for the line about the tags).
pub(crate) fn survive(text: &str, escaped: &[char], cli: &str) -> String {
    if !text.contains(escaped) {
        return text.to_string();
    }
    let mut text = text.to_string();
    let mut worded = false;
    for name in crate::tags::NAMES {
        let (open, close) = (format!("<{name}>"), format!("</{name}>"));
        let mut from = 0;
        while let Some(start) = text[from..].find(&open).map(|at| at + from) {
            let Some(len) = text[start..].find(&close) else {
                break;
            };
            let inner = text[start + open.len()..start + len].to_string();
            let words = format!("{inner} in a {name} tag");
            text.replace_range(start..start + len + close.len(), &words);
            from = start + words.len();
            worded = true;
        }
    }
    let mut text: String = text
        .chars()
        .map(|c| match c {
            '<' if escaped.contains(&c) => '‹',
            '>' if escaped.contains(&c) => '›',
            '&' if escaped.contains(&c) => '＆',
            other => other,
        })
        .collect();
    if worded {
        text.push_str(&format!(
            "\n({cli} shows no angle brackets here: \"X in a NAME tag\" means X between the opening tag NAME and the closing tag /NAME, each in angle brackets, as in XML.)"
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::survive;

    #[test]
    fn every_tag_is_worded_and_nothing_escapable_is_left() {
        let text = "Exit 1: expected <5> && done\nReply with <promise>LOOP_DONE</promise>. Stuck? <loop-pause>what you need</loop-pause> or <loop-abort>why</loop-abort>; again <promise>X</promise>.";
        let out = survive(text, &['<', '>', '&'], "Codex");
        assert!(!out.contains(['<', '>', '&']), "{out}");
        for kept in [
            "expected ‹5› ＆＆ done",
            "Reply with LOOP_DONE in a promise tag.",
            "what you need in a loop-pause tag",
            "why in a loop-abort tag",
            "again X in a promise tag.",
            "(Codex shows no angle brackets here:",
        ] {
            assert!(out.contains(kept), "{kept:?} in {out}");
        }
    }

    #[test]
    fn only_the_characters_the_cli_escapes_change() {
        let out = survive("a && b <promise>D</promise>", &['<', '>'], "Gemini CLI");
        assert!(out.starts_with("a && b D in a promise tag\n(Gemini CLI"), "{out}");
        assert_eq!(survive("a && b", &['<', '>'], "Gemini CLI"), "a && b");
        // A lone or unclosed tag is no signal: its brackets become look-alikes.
        assert_eq!(survive("<promise> x", &['<', '>'], "G"), "‹promise› x");
    }
}

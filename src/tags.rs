//! The tags the agent signals with in its last message — abort, pause, promise — found as whole tags. (Not
//! operating-system signals: those are `process`'s.)
//!
//! Only whole tags count: `<loop-abort>reason</loop-abort>` beats `<loop-pause>need</loop-pause>`, which beats
//! `<promise>TEXT</promise>`. A bare `LOOP_DONE` is not a promise, and a promise whose text differs from the
//! sealed one (after trimming and collapsing white space on both sides) is ignored.

/// The tags' names, strongest first.
pub(crate) const NAMES: [&str; 3] = ["loop-abort", "loop-pause", "promise"];

/// What the agent asked for at this stop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Signal {
    Abort(String),
    Pause(String),
    Promise,
    None,
}

/// Scans `message` for the strongest signal. `promise` is the completion promise from the seal.
pub fn scan(message: &str, promise: &str) -> Signal {
    if let Some(reason) = tag_contents(message, "loop-abort").next() {
        return Signal::Abort(reason.trim().to_string());
    }
    if let Some(need) = tag_contents(message, "loop-pause").next() {
        return Signal::Pause(need.trim().to_string());
    }
    let wanted = collapse(promise);
    if tag_contents(message, "promise").any(|text| collapse(text) == wanted) {
        return Signal::Promise;
    }
    Signal::None
}

/// Trims and collapses every run of white space to one space.
pub(crate) fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The contents of every complete `<name>…</name>` pair, in order. Each closing tag pairs with the nearest
/// opening tag before it, so a stray opener earlier in the message (`<promise> is the tag I use:
/// <promise>LOOP_DONE</promise>`) cannot swallow a whole tag that follows it.
fn tag_contents<'a>(text: &'a str, name: &str) -> impl Iterator<Item = &'a str> + 'a {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    let mut rest = text;
    std::iter::from_fn(move || {
        loop {
            let end = rest.find(&close)?;
            let before = &rest[..end];
            rest = &rest[end + close.len()..];
            if let Some(start) = before.rfind(&open) {
                return Some(&before[start + open.len()..]);
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_is_abort_then_pause_then_promise() {
        let all = "<promise>LOOP_DONE</promise> <loop-pause>creds</loop-pause> <loop-abort>impossible</loop-abort>";
        assert_eq!(scan(all, "LOOP_DONE"), Signal::Abort("impossible".into()));
        let two = "<promise>LOOP_DONE</promise><loop-pause> need a key </loop-pause>";
        assert_eq!(scan(two, "LOOP_DONE"), Signal::Pause("need a key".into()));
    }

    #[test]
    fn promise_must_be_a_whole_tag_with_matching_text() {
        assert_eq!(scan("LOOP_DONE", "LOOP_DONE"), Signal::None);
        assert_eq!(scan("<promise>LOOP_DONE", "LOOP_DONE"), Signal::None);
        assert_eq!(scan("<promise>NOT_DONE</promise>", "LOOP_DONE"), Signal::None);
        assert_eq!(scan("done: <promise>LOOP_DONE</promise>", "LOOP_DONE"), Signal::Promise);
    }

    #[test]
    fn white_space_is_collapsed_on_both_sides() {
        assert_eq!(
            scan("<promise>\n  all   tests\tpass \n</promise>", " all tests  pass"),
            Signal::Promise
        );
    }

    #[test]
    fn later_matching_promise_counts_after_a_wrong_one() {
        assert_eq!(
            scan("<promise>x</promise> then <promise>LOOP_DONE</promise>", "LOOP_DONE"),
            Signal::Promise
        );
    }

    #[test]
    fn stray_opening_tag_does_not_swallow_a_whole_promise() {
        let text = "I end with <promise> tags, like this: <promise>LOOP_DONE</promise>";
        assert_eq!(scan(text, "LOOP_DONE"), Signal::Promise);
        assert_eq!(
            scan("<loop-abort>a <loop-abort>no way</loop-abort>", "X"),
            Signal::Abort("no way".into())
        );
    }

    #[test]
    fn unterminated_tags_do_not_panic() {
        for text in [
            "<loop-abort>",
            "</loop-abort><loop-abort>",
            "<promise></promise>",
            "<<promise>>",
        ] {
            let _ = scan(text, "LOOP_DONE");
        }
        assert_eq!(scan("<loop-abort></loop-abort>", "X"), Signal::Abort(String::new()));
    }
}

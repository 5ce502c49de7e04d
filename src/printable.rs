//! Text loopgate did not write — a task, the agent's words, a verify command — printed for a person. A terminal
//! obeys control characters: an escape sequence in a task could retitle the window, clear the screen or hide
//! the lines around it. So every control character except a line break and a tab is shown, never obeyed, as
//! Rust would write it in a string (`\u{1b}`). JSON output needs none of this: JSON escapes them itself.

use std::borrow::Cow;

/// `text` with its control characters (C0, DEL, C1; not `\n` or `\t`) written out as `\u{…}`.
pub fn printable(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn escape_sequences_are_shown_not_obeyed() {
        let title = "fix it\u{1b}]0;pwned\u{7}\u{1b}[2J\r\nnext\tline\u{9b}31m";
        assert_eq!(
            printable(title),
            "fix it\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{d}\nnext\tline\\u{9b}31m"
        );
        assert!(matches!(printable("plain 中文\n"), std::borrow::Cow::Borrowed(_)));
    }
}

//! Text printed for a person, as a terminal shows it.
//!
//! Text loopgate did not write — a task, the agent's words, a verify command — may hold control characters, and
//! a terminal obeys them: an escape sequence in a task could retitle the window, clear the screen or hide the
//! lines around it. So every control character except a line break and a tab is shown, never obeyed, as Rust
//! would write it in a string (`\u{1b}`). JSON output needs none of this: JSON escapes them itself.
//!
//! Table columns are measured in terminal cells, not characters: a Chinese character takes two, a combining
//! accent none ([`width`], [`pad`], [`truncate`], [`wrap`]).

use std::borrow::Cow;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Terminal cells `text` takes.
pub(crate) fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// `text` followed by spaces up to `cells` cells (nothing added when it is as wide already).
pub(crate) fn pad(text: &str, cells: usize) -> String {
    format!("{text}{}", " ".repeat(cells.saturating_sub(width(text))))
}

/// At most `cells` cells of `text`, with `…` when cut.
pub(crate) fn truncate(text: &str, cells: usize) -> String {
    if width(text) <= cells {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > cells {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// Every line of `text` folded to at most `cells` cells, at spaces where it can, its continuation lines indented
/// by `indent` spaces (the value column of `status`'s `label:` lines); a word longer than a line is cut.
pub(crate) fn wrap(text: &str, cells: usize, indent: usize) -> String {
    let mut out: Vec<String> = Vec::new();
    for line in text.split('\n') {
        let mut rest = line.to_string();
        let mut lead = String::new();
        while width(&lead) + width(&rest) > cells {
            let room = cells.saturating_sub(width(&lead)).max(1);
            let mut cut = 0;
            let mut used = 0;
            let mut last_space = None;
            for (at, c) in rest.char_indices() {
                let w = c.width().unwrap_or(0);
                if used + w > room {
                    break;
                }
                if c == ' ' && at > 0 {
                    last_space = Some(at);
                }
                used += w;
                cut = at + c.len_utf8();
            }
            let cut = last_space
                .filter(|&at| !rest[..at].trim().is_empty())
                .unwrap_or(cut.max(1));
            out.push(format!("{lead}{}", rest[..cut].trim_end()));
            rest = rest[cut..].trim_start().to_string();
            lead = " ".repeat(indent);
        }
        out.push(format!("{lead}{rest}"));
    }
    out.join("\n")
}

/// `text` with its control characters (C0, DEL, C1; not `\n` or `\t`) written out as `\u{…}`.
pub(crate) fn printable(text: &str) -> Cow<'_, str> {
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

    #[test]
    fn long_lines_fold_at_spaces_under_the_value_column() {
        use super::{width, wrap};
        let line = format!("  verify:      {}", "word ".repeat(30));
        let folded = wrap(&line, 80, 15);
        assert!(folded.lines().count() > 1, "{folded}");
        assert!(folded.lines().all(|l| width(l) <= 80), "{folded}");
        assert!(
            folded.lines().skip(1).all(|l| l.starts_with(&" ".repeat(15))),
            "{folded}"
        );
        assert_eq!(wrap("short\nlines", 80, 15), "short\nlines");
        assert!(wrap(&"x".repeat(200), 80, 15).lines().all(|l| width(l) <= 80));
    }

    #[test]
    fn columns_are_measured_in_terminal_cells() {
        use super::{pad, truncate, width};
        assert_eq!(width("停滞"), 4);
        assert_eq!(pad("停滞", 6), "停滞  ");
        assert_eq!(pad("ab", 6), "ab    ");
        assert_eq!(truncate("验证失败了", 6), "验证…");
        assert_eq!(width(&truncate("验证失败了", 6)), 5);
        assert_eq!(truncate("short", 6), "short");
    }
}

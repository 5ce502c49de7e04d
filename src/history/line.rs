//! One history record as one line of JSON that a shell can source without running anything of it.
//!
//! The history is not meant to be sourced, and loopgate never writes it into a file that is (a link or a hard
//! link planted in its place is refused, see `fsutil::nofollow`). As a second wall, nothing loopgate copies
//! into a line from test output can become a command or a redirection even so:
//!
//! - serde_json escapes `"`, `\` and every control character, so a line is one line, starts with `{` and holds
//!   no raw newline; its JSON quotes are the shell's double quotes too (`\"` and `\\` mean the same in both), so
//!   every string's content sits inside shell double quotes, where only `$` and `` ` `` expand;
//! - inside strings, the characters a shell acts on — `$` and `` ` `` (expansion, command substitution), `;`,
//!   `&`, `|` (a new command), `<` and `>` (a redirection) — are written as `\u0024`, `\u0060`, `\u003b`,
//!   `\u0026`, `\u007c`, `\u003c`, `\u003e`. Any JSON reader reads the same string back; and if a torn or
//!   hand-made line before it leaves a quote open, so that the shell reads the contents as bare words, they are
//!   still only words (arguments of a command named by the line's first word, `{loop_id:…`, which no system has).
//!
//! `(`, `)`, `'` and spaces stay as they are (readable test names and prose): without `$` or a command separator
//! next to them they start nothing.

use std::io;

use serde::Serialize;

/// The compact formatter, with the shell's active characters escaped inside strings.
struct ShellInert;

impl serde_json::ser::Formatter for ShellInert {
    fn write_string_fragment<W: ?Sized + io::Write>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()> {
        let bytes = fragment.as_bytes();
        let mut start = 0;
        for (at, byte) in bytes.iter().enumerate() {
            let escaped: &[u8] = match byte {
                b'$' => br"\u0024",
                b'`' => br"\u0060",
                b';' => br"\u003b",
                b'&' => br"\u0026",
                b'|' => br"\u007c",
                b'<' => br"\u003c",
                b'>' => br"\u003e",
                _ => continue,
            };
            writer.write_all(&bytes[start..at])?;
            writer.write_all(escaped)?;
            start = at + 1;
        }
        writer.write_all(&bytes[start..])
    }
}

/// `record` as one JSON line, newline included.
pub(crate) fn to_line(record: &impl Serialize) -> io::Result<Vec<u8>> {
    let mut line = Vec::with_capacity(256);
    record
        .serialize(&mut serde_json::Serializer::with_formatter(&mut line, ShellInert))
        .map_err(io::Error::other)?;
    line.push(b'\n');
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::{Event, Record};

    /// Test output an attacker would print, each a way into a shell that sources the file.
    const HOSTILE: &[&str] = &[
        "x\"; touch PWNED; \"",
        "$(touch PWNED)",
        "`touch PWNED`",
        "${X:=$(touch PWNED)}",
        "a; touch PWNED",
        "a && touch PWNED",
        "a | touch PWNED",
        "a > PWNED",
        "a\ntouch PWNED\n",
        "a\\\"; touch PWNED; #",
        "a\\",
        "'; touch PWNED; '",
        "\u{1b}]0;touch PWNED\u{7}",
        "(touch PWNED)",
        "<(touch PWNED)",
        "a\r\ntouch PWNED",
    ];

    fn rejected(tail: &str) -> Record {
        let mut record: Record = serde_json::from_value(serde_json::json!({
            "loop_id": "a1", "iteration": 2, "status": "promise_rejected", "timestamp": "2026-11-21T19:40:00Z"
        }))
        .expect("record");
        if let Event::PromiseRejected(r) = &mut record.event {
            r.verify.tail = Some(tail.to_string());
            r.verify.summary = Some(tail.to_string());
        }
        record
    }

    #[test]
    fn a_line_reads_back_as_the_record_it_was() {
        for tail in HOSTILE {
            let record = rejected(tail);
            let line = to_line(&record).expect("line");
            assert_eq!(line.iter().filter(|&&b| b == b'\n').count(), 1);
            assert_eq!(line[0], b'{');
            for active in b"$`;&|<>" {
                assert!(
                    !line.contains(active),
                    "`{}` left in {}",
                    *active as char,
                    String::from_utf8_lossy(&line)
                );
            }
            let back: Record = serde_json::from_slice(&line).expect("valid JSON");
            assert_eq!(back, record);
            assert_eq!(crate::history::parse(&line).records, vec![record]);
        }
    }

    /// The history full of hostile test output, sourced by `sh` and by `bash` — also after a torn line that leaves
    /// a quote open, and after one that leaves a single quote open — runs nothing.
    #[test]
    fn sourcing_a_history_of_hostile_output_runs_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut text = Vec::new();
        for prefix in [&b""[..], b"{\"loop_id\":\"a1\",\"verify_tail\":\"torn", b"it's torn"] {
            text.extend_from_slice(prefix);
            text.push(b'\n');
            for tail in HOSTILE {
                text.extend(to_line(&rejected(tail)).expect("line"));
            }
        }
        let history = dir.path().join("history.jsonl");
        std::fs::write(&history, &text).expect("write");
        for shell in ["sh", "bash", "dash", "zsh"] {
            let ran = std::process::Command::new(shell)
                .arg("-c")
                .arg(". ./history.jsonl; true")
                .current_dir(dir.path())
                .env("PATH", "/usr/bin:/bin")
                .output();
            // `sh` and `bash` are everywhere loopgate runs; `dash` and `zsh` are checked where installed.
            assert!(
                ran.is_ok() || !["sh", "bash"].contains(&shell),
                "`{shell}` did not start"
            );
            assert!(
                !dir.path().join("PWNED").exists(),
                "`{shell}` ran a command from the history"
            );
        }
    }
}

use super::*;
use std::fs::{File, OpenOptions};
use std::io::Write;

/// A transcript line of an assistant message (one content block of it), as Claude Code writes it.
fn assistant(id: &str, model: &str, input: u64, output: u64) -> String {
    serde_json::json!({"type": "assistant", "timestamp": "2026-11-29T06:30:00.500Z",
        "message": {"id": id, "role": "assistant", "model": model,
        "usage": {"input_tokens": input, "output_tokens": output, "cache_read_input_tokens": 1,
                  "cache_creation_input_tokens": 0}}})
    .to_string()
}

fn tokens(input: u64, output: u64, cache_read: u64) -> Tokens {
    Tokens {
        input,
        output,
        cache_read,
        cache_write: 0,
    }
}

fn append(path: &Path, text: &str) {
    let mut file = OpenOptions::new().append(true).create(true).open(path).expect("open");
    file.write_all(text.as_bytes()).expect("write");
}

/// Appends `line` and reads on: what it added, per model.
fn appended(cursor: &mut Cursor, path: &Path, line: String) -> Vec<(String, Tokens)> {
    append(path, &format!("{line}\n"));
    advance(cursor, path, None).expect("read").per_model
}

#[test]
fn each_message_counts_once_and_only_what_was_appended_is_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("t.jsonl");
    let m1 = assistant("m1", "claude-sonnet-4-5", 10, 5);
    append(
        &path,
        &format!("{m1}\n{m1}\n{{\"type\":\"user\",\"message\":{{\"content\":\"hi\"}}}}\n"),
    );
    let mut cursor = Cursor::default();
    let read = advance(&mut cursor, &path, None).expect("read");
    assert_eq!(
        read.per_model,
        vec![("claude-sonnet-4-5".to_string(), tokens(10, 5, 1))]
    );
    assert_eq!((read.all(), read.reports), (16, 2));
    let at = cursor.offset;
    assert_eq!(
        advance(&mut cursor, &path, None).expect("read"),
        Usage::default(),
        "nothing new"
    );
    assert_eq!(cursor.offset, at);
    let added = appended(&mut cursor, &path, assistant("m2", "claude-haiku-4-5", 100, 1));
    assert_eq!(added, vec![("claude-haiku-4-5".to_string(), tokens(100, 1, 1))]);
}

#[test]
fn a_partial_last_line_waits_for_its_newline() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("t.jsonl");
    let line = assistant("m3", "claude-sonnet-4-5", 7, 7);
    let (head, tail) = line.split_at(line.len() / 2);
    append(&path, head);
    let mut cursor = Cursor::default();
    assert_eq!(advance(&mut cursor, &path, None).expect("read").all(), 0);
    assert_eq!(cursor.offset, 0, "the partial line is not consumed");
    append(&path, tail);
    assert_eq!(
        advance(&mut cursor, &path, None).expect("read").all(),
        0,
        "still no newline"
    );
    append(&path, "\n");
    assert_eq!(advance(&mut cursor, &path, None).expect("read").all(), 15);
    assert_eq!(cursor.offset, line.len() as u64 + 1);
}

#[test]
fn a_later_line_of_the_same_message_adds_only_what_it_reports_beyond_the_first() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("t.jsonl");
    append(&path, &format!("{}\n", assistant("m1", "claude-sonnet-4-5", 10, 1)));
    let mut cursor = Cursor::default();
    assert_eq!(advance(&mut cursor, &path, None).expect("read").all(), 12);
    // Across the stop: the message's last block reports its final output count.
    let added = appended(&mut cursor, &path, assistant("m1", "claude-sonnet-4-5", 10, 40));
    assert_eq!(added, vec![("claude-sonnet-4-5".to_string(), tokens(0, 39, 0))]);
}

#[test]
fn another_shorter_or_replaced_transcript_starts_over() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
    std::fs::write(&a, format!("{}\n", assistant("x", "m", 1, 1))).expect("write");
    std::fs::write(&b, format!("{}\n", assistant("y", "m", 2, 2))).expect("write");
    let mut cursor = Cursor::default();
    assert_eq!(advance(&mut cursor, &a, None).expect("read").all(), 3);
    assert_eq!(advance(&mut cursor, &b, None).expect("read").all(), 5, "another file");
    std::fs::write(&b, "").expect("truncate");
    assert_eq!(advance(&mut cursor, &b, None).expect("read").all(), 0);
    assert_eq!(cursor.offset, 0, "a shrunk file is read from its start");
    // Rotated: a new file renamed over the old name, as long as the old one was.
    std::fs::write(&b, format!("{}\n", assistant("z1", "m", 4, 4))).expect("write");
    assert_eq!(advance(&mut cursor, &b, None).expect("read").all(), 9);
    let fresh = dir.path().join("fresh.jsonl");
    let longer = format!("{}\n{}\n", assistant("r1", "m", 5, 5), assistant("r2", "m", 6, 6));
    std::fs::write(&fresh, &longer).expect("write");
    std::fs::rename(&fresh, &b).expect("rename");
    assert_eq!(
        advance(&mut cursor, &b, None).expect("read").all(),
        11 + 13,
        "the new file whole"
    );
}

#[test]
fn malformed_lines_count_nothing_and_do_not_stop_the_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("t.jsonl");
    let garbage = [
        "not json \"usage\"",
        "{\"message\": {\"usage\": 12}}",
        "{\"message\": {\"usage\": {\"input_tokens\": \"many\"}}}",
        "{\"usage\": {\"input_tokens\": 5}}",
        "\u{0}\u{1}\u{2}",
        "[1, 2, \"usage\"]",
    ];
    let mut text = garbage.join("\n");
    text.push('\n');
    text.push_str(&assistant("ok", "claude-sonnet-4-5", 2, 3));
    text.push('\n');
    std::fs::write(&path, text).expect("write");
    let mut cursor = Cursor::default();
    let read = advance(&mut cursor, &path, None).expect("read");
    assert_eq!(read.all(), 6, "{read:?}");
    // A usage whose counts are not numbers counts as a report of nothing, not as a failure.
    assert_eq!(read.reports, 2);
}

#[test]
fn lines_from_before_the_loop_started_count_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("t.jsonl");
    let mut file = File::create(&path).expect("create");
    writeln!(
        file,
        "{}",
        assistant("old", "m", 1000, 1000).replace("06:30:00.500", "06:00:00.000")
    )
    .expect("write");
    writeln!(file, "{}", assistant("new", "m", 1, 1)).expect("write");
    drop(file);
    let since = crate::history::timestamp::parse("2026-11-29T06:30:00Z").expect("time");
    let mut cursor = Cursor::default();
    assert_eq!(advance(&mut cursor, &path, Some(since)).expect("read").all(), 3);
}

#[test]
fn a_directory_or_a_missing_file_is_an_error_not_a_count() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut cursor = Cursor::default();
    assert!(advance(&mut cursor, dir.path(), None).is_err());
    assert!(advance(&mut cursor, &dir.path().join("none.jsonl"), None).is_err());
}

#[test]
fn a_cursor_written_before_the_inode_and_the_last_count_reads_back() {
    let old = r#"{"path":"/t.jsonl","offset":42,"last_message_id":"m1"}"#;
    let cursor: Cursor = serde_json::from_str(old).expect("old cursor");
    assert_eq!((cursor.offset, cursor.inode, cursor.last_counted), (42, None, None));
}

//! Codex CLI's hook trust in `config.toml`, edited structurally.
//!
//! Codex runs a hook only once it is trusted: a `[hooks.state."FILE:EVENT:GROUP:INDEX"] trusted_hash = …` table
//! whose hash is the one Codex computes for the hook as it now reads ([`codex_hook_hash`]). Install writes one
//! such table per loopgate hook and uninstall removes them; everything else in the file — the user's tables and
//! keys, the tables Codex appends later (a folder's `trust_level`, `[tui]`), comments, blank lines and order —
//! is kept byte for byte (`toml_edit`). Codex appends at the end of the file, after whatever install wrote, so
//! loopgate's tables are found by what they are, never by a span of lines: a table is loopgate's when its key
//! names one of loopgate's hooks in `hooks.json`, or when it carries install's comment ([`MARK`]). Versions
//! before this one wrote the tables between two marker lines; those lines are dropped too.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use toml_edit::{DocumentMut, Item, Table};

/// The comment above each table install writes.
const MARK: &str = "# loopgate install --agent codex: trust of loopgate's hook";
/// The lines around the tables of earlier versions (dropped wherever they are found).
const LEGACY_MARKS: [&str; 2] = [
    "# loopgate install --agent codex: hook trust (begin)",
    "# loopgate install --agent codex: hook trust (end)",
];

/// Codex's name of an event in trust keys and hashes (`PreToolUse` → `pre_tool_use`).
pub(crate) fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// The key Codex trusts the `index`th handler of the `group`th group of `event` in `hooks_file` by.
pub(crate) fn key(hooks_file: &Path, event: &str, group: usize, index: usize) -> String {
    format!("{}:{}:{group}:{index}", hooks_file.display(), snake(event))
}

/// The hash Codex trusts a hook by: SHA-256 of the compact JSON, keys sorted, of the event's label and the
/// hook's group with this one handler (no matcher: none; `async` false; the timeout in seconds).
pub(crate) fn codex_hook_hash(event: &str, handler: &Value) -> String {
    let identity = json!({
        "event_name": snake(event),
        "hooks": [{
            "type": "command",
            "command": handler["command"],
            "timeout": handler["timeout"],
            "async": false,
        }],
    });
    let digest = Sha256::digest(canonical(&identity).as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// Compact JSON with every object's keys sorted, whatever order the map keeps (`preserve_order` is on).
fn canonical(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let fields: Vec<String> = entries
                .into_iter()
                .map(|(key, value)| format!("{}:{}", Value::String(key.clone()), canonical(value)))
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(canonical).collect::<Vec<_>>().join(",")),
        other => other.to_string(),
    }
}

/// Why `config.toml` could not be edited: Codex itself could not read it.
#[derive(Debug)]
pub(crate) struct Unreadable(pub(crate) String);

fn parse(text: &str) -> Result<DocumentMut, Unreadable> {
    text.parse::<DocumentMut>()
        .map_err(|e| Unreadable(e.message().to_string()))
}

/// `text` with loopgate's trust tables (`ours`: the keys of loopgate's hooks as `hooks.json` held them before
/// this edit, plus every table with install's comment) replaced by `trusted` (key → hash), appended at the end.
pub(crate) fn with_trust(text: &str, ours: &[String], trusted: &[(String, String)]) -> Result<String, Unreadable> {
    let mut doc = parse(text)?;
    remove(&mut doc, ours);
    let after = last_position(&doc) + 1;
    let first = doc.as_table().is_empty() && doc.trailing().as_str().is_none_or(|t| t.trim().is_empty());
    let state = state_table(&mut doc)?;
    for (i, (key, hash)) in trusted.iter().enumerate() {
        let next = after.saturating_add_unsigned(i);
        let mut table = Table::new();
        table.insert("trusted_hash", toml_edit::value(hash.as_str()));
        table.set_position(Some(next));
        let blank = if first && i == 0 { "" } else { "\n" };
        table.decor_mut().set_prefix(format!("{blank}{MARK}\n"));
        state.insert(key, Item::Table(table));
    }
    Ok(doc.to_string())
}

/// `text` without loopgate's trust tables (see [`with_trust`]).
pub(crate) fn without_trust(text: &str, ours: &[String]) -> Result<String, Unreadable> {
    let mut doc = parse(text)?;
    remove(&mut doc, ours);
    Ok(doc.to_string())
}

/// The trusted hash of each key `config.toml` trusts (empty where it has none or cannot be read).
pub(crate) fn trusted(text: &str) -> BTreeMap<String, String> {
    let Ok(doc) = parse(text) else {
        return BTreeMap::new();
    };
    let Some(state) = doc
        .get("hooks")
        .and_then(Item::as_table_like)
        .and_then(|hooks| hooks.get("state"))
        .and_then(Item::as_table_like)
    else {
        return BTreeMap::new();
    };
    state
        .iter()
        .filter_map(|(key, item)| {
            let hash = item.as_table_like()?.get("trusted_hash")?.as_str()?;
            Some((key.to_string(), hash.to_string()))
        })
        .collect()
}

/// `hooks.state`, made (implicit, so no header of its own is written) where it is missing.
fn state_table(doc: &mut DocumentMut) -> Result<&mut Table, Unreadable> {
    let not_table = |what: &str| Unreadable(format!("`{what}` is not a table"));
    let hooks = doc.entry("hooks").or_insert_with(implicit);
    let hooks = hooks.as_table_mut().ok_or_else(|| not_table("hooks"))?;
    let state = hooks.entry("state").or_insert_with(implicit);
    state.as_table_mut().ok_or_else(|| not_table("hooks.state"))
}

fn implicit() -> Item {
    let mut table = Table::new();
    table.set_implicit(true);
    Item::Table(table)
}

/// Removes loopgate's tables from `hooks.state` (and `hooks.state`, `hooks` where that leaves them empty and they
/// were never written as tables of their own), and the marker lines of earlier versions.
fn remove(doc: &mut DocumentMut, ours: &[String]) {
    if let Some(hooks) = doc.get_mut("hooks").and_then(Item::as_table_mut) {
        if let Some(state) = hooks.get_mut("state").and_then(Item::as_table_mut) {
            state.retain(|key, item| {
                let marked = item
                    .as_table()
                    .and_then(|t| t.decor().prefix())
                    .and_then(|p| p.as_str())
                    .is_some_and(|p| p.contains(MARK));
                !(marked || ours.iter().any(|k| k == key))
            });
            if state.is_empty() && state.is_implicit() {
                hooks.remove("state");
            }
        }
        if hooks.is_empty() && hooks.is_implicit() {
            doc.remove("hooks");
        }
    }
    drop_legacy_marks(doc);
}

/// Removes the marker lines of earlier versions from every comment they can sit in.
fn drop_legacy_marks(doc: &mut DocumentMut) {
    fn clean(text: &str) -> Option<String> {
        if !LEGACY_MARKS.iter().any(|m| text.contains(m)) {
            return None;
        }
        let kept: Vec<&str> = text
            .split_inclusive('\n')
            .filter(|line| !LEGACY_MARKS.contains(&line.trim_end()))
            .collect();
        Some(kept.concat())
    }
    fn visit(table: &mut Table) {
        if let Some(cleaned) = table.decor().prefix().and_then(|p| p.as_str()).and_then(clean) {
            table.decor_mut().set_prefix(cleaned);
        }
        for (_, item) in table.iter_mut() {
            match item {
                Item::Table(child) => visit(child),
                Item::ArrayOfTables(array) => array.iter_mut().for_each(visit),
                _ => {}
            }
        }
    }
    visit(doc.as_table_mut());
    if let Some(cleaned) = doc.trailing().as_str().and_then(clean) {
        doc.set_trailing(cleaned);
    }
}

/// The highest position of a table in the document (so new tables go after every one).
fn last_position(doc: &DocumentMut) -> isize {
    fn visit(table: &Table, max: &mut isize) {
        if let Some(p) = table.position() {
            *max = (*max).max(p);
        }
        for (_, item) in table.iter() {
            match item {
                Item::Table(child) => visit(child, max),
                Item::ArrayOfTables(array) => array.iter().for_each(|t| visit(t, max)),
                _ => {}
            }
        }
    }
    let mut max = 0;
    visit(doc.as_table(), &mut max);
    max
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hash Codex 0.169.0 trusted for this handler (recorded: the hook ran with no bypass flag).
    #[test]
    fn the_trust_hash_is_the_one_codex_computes() {
        let handler = json!({"type": "command", "command": "cat > /tmp/h34p/stop-$(date +%s%N).json", "timeout": 30});
        assert_eq!(
            codex_hook_hash("Stop", &handler),
            "sha256:ae77af737190078896b2d078d15b572b8a40627e1d64dec9cb05d1bf18c515f7"
        );
    }

    const FOREIGN: &str = "# the user's config\nmodel = \"m\" # inline comment\n\n[model_providers.mock]\nbase_url = \"http://127.0.0.1:1/v1\"\n\n[hooks.state.\"/h/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:theirs\"\n";

    fn trust(n: usize) -> Vec<(String, String)> {
        (0..n)
            .map(|i| (format!("/h/.codex/hooks.json:stop:{}:0", i + 1), format!("sha256:{i}")))
            .collect()
    }

    /// Regression (issue 42): Codex appends its own tables after install's; a second install and uninstall
    /// removed them with loopgate's block.
    #[test]
    fn tables_codex_appends_after_install_survive_reinstall_and_uninstall() {
        let installed = with_trust(FOREIGN, &[], &trust(2)).expect("valid");
        assert!(installed.starts_with(FOREIGN), "{installed}");
        assert_eq!(trusted(&installed).len(), 3);
        let codex = "\n[projects.\"/work/p\"]\ntrust_level = \"trusted\"\n\n# tui\n[tui]\nnotifications = true\n";
        let appended = format!("{installed}{codex}");
        let ours: Vec<String> = trust(2).into_iter().map(|(k, _)| k).collect();
        let again = with_trust(&appended, &ours, &trust(2)).expect("valid");
        assert!(again.contains(codex), "{again}");
        let again2 = with_trust(&again, &ours, &trust(2)).expect("valid");
        assert_eq!(again, again2, "a third install changes nothing");
        let gone = without_trust(&again2, &ours).expect("valid");
        assert_eq!(gone, format!("{FOREIGN}{codex}"));
    }

    #[test]
    fn a_fresh_file_gets_only_the_tables_and_loses_them_all() {
        let installed = with_trust("", &[], &trust(1)).expect("valid");
        assert_eq!(
            installed,
            format!("{MARK}\n[hooks.state.\"/h/.codex/hooks.json:stop:1:0\"]\ntrusted_hash = \"sha256:0\"\n")
        );
        assert_eq!(without_trust(&installed, &[]).expect("valid"), "");
    }

    #[test]
    fn a_foreign_hooks_table_and_its_keys_stay() {
        let text = "[hooks]\nenabled = true\n\n[hooks.state]\n# kept\n";
        let installed = with_trust(text, &[], &trust(1)).expect("valid");
        assert_eq!(without_trust(&installed, &[]).expect("valid"), text);
    }

    /// The block of earlier versions, and what Codex appended inside it, after one more install.
    #[test]
    fn the_legacy_block_goes_and_codexs_tables_inside_it_stay() {
        let legacy = format!(
            "model = \"m\"\n\n{}\n[hooks.state.\"/h/.codex/hooks.json:stop:1:0\"]\ntrusted_hash = \"sha256:old\"\n{}\n\n[tui]\nx = 1\n",
            LEGACY_MARKS[0], LEGACY_MARKS[1]
        );
        let ours = vec!["/h/.codex/hooks.json:stop:1:0".to_string()];
        let gone = without_trust(&legacy, &ours).expect("valid");
        assert_eq!(gone, "model = \"m\"\n\n[tui]\nx = 1\n");
    }

    #[test]
    fn a_file_codex_cannot_read_is_refused() {
        assert!(with_trust("[a\n", &[], &trust(1)).is_err());
        assert!(with_trust("hooks = 1\n", &[], &trust(1)).is_err());
    }
}

//! Edits to partly sealed files, judged on the content they would leave.
//!
//! Only part of some sealed files is sealed: `package.json`'s test script but not its dependencies, a test
//! file's existing tests but not the new ones the agent adds. Refusing every edit would block honest work, so
//! for `Write`, `Edit` and `MultiEdit` the guard hands such a file here: the edit is applied in memory to the
//! file as it is now, and the result is compared with the seal. The call is refused only if a sealed part
//! would then differ — with the same words the rejection at a promise would use.

use std::path::Path;

use serde_json::Value;

use crate::closure::MovedPart;
use crate::lifecycle::ActiveLoop;
use crate::messages::breach as words;
use crate::testseal;

/// The deny reason for an edit of `relative` that would move a sealed part, or `None` to let it run.
pub(crate) fn judge(active: &ActiveLoop, tool: &str, input: &Value, relative: &Path) -> Option<String> {
    let root = &active.project.root;
    let key = relative.to_string_lossy().replace('\\', "/");
    let current = std::fs::read_to_string(root.join(relative)).unwrap_or_default();
    // An edit that cannot apply (its `old_string` is not in the file) fails in the tool itself.
    let after = apply(tool, input, &current)?;
    let lang = active.seal.fields.config.lang;
    let closure = active.seal.closure.as_ref();
    let judged = closure.and_then(|c| c.moved_if(root, &key, after.as_bytes()));
    let moved = match judged {
        Some((moves, why)) => {
            let parts: Vec<MovedPart> = moves
                .into_iter()
                .map(|(part, change)| MovedPart {
                    path: key.clone(),
                    part,
                    change,
                    why: why.clone(),
                })
                .collect();
            // A change that is only steps of the run (a `pretest`, a script's line running a program) is the
            // promise's to judge by what it does (`oracle::steps`), where a tracer can watch it.
            let steps_only = !parts.is_empty()
                && parts
                    .iter()
                    .all(|m| closure.is_some_and(|c| c.steps_if(m, after.as_bytes()).is_some()))
                && crate::trace::Tracer::find().is_ok();
            if steps_only {
                Vec::new()
            } else {
                parts.iter().map(|m| words::moved(lang, m)).collect()
            }
        }
        None => test_findings(active, root, &key, &after),
    };
    (!moved.is_empty()).then(|| words::edit_denied(lang, &key, &moved, crate::guard::tracked(root, &key)))
}

/// What the edit would do to the existing tests of a sealed test file, for the checks that are on.
fn test_findings(active: &ActiveLoop, root: &Path, key: &str, after: &str) -> Vec<String> {
    let fields = &active.seal.fields;
    let Ok(Some(inventory)) = active.store.load_inventory(&active.project) else {
        return Vec::new();
    };
    let Some(entry) = inventory.entry(key) else {
        return Vec::new();
    };
    testseal::compare_at(root, key, entry, after)
        .into_iter()
        .filter(|finding| fields.checks(testseal::check_of(finding)))
        .map(|finding| crate::messages::finding::line(fields.config.lang, key, &finding))
        .collect()
}

/// The file's content after the tool call, or `None` when the edit does not apply.
fn apply(tool: &str, input: &Value, current: &str) -> Option<String> {
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
    match tool {
        "Write" => text(input, "content"),
        "Edit" => replace(current, input),
        "MultiEdit" => input
            .get("edits")?
            .as_array()?
            .iter()
            .try_fold(current.to_string(), |acc, edit| replace(&acc, edit)),
        _ => None,
    }
}

/// One `old_string` → `new_string` replacement (every occurrence with `replace_all`).
fn replace(current: &str, edit: &Value) -> Option<String> {
    let old = edit.get("old_string")?.as_str()?;
    let new = edit.get("new_string")?.as_str()?;
    if old.is_empty() || !current.contains(old) {
        return None;
    }
    if edit.get("replace_all").and_then(Value::as_bool) == Some(true) {
        Some(current.replace(old, new))
    } else {
        Some(current.replacen(old, new, 1))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn edits_apply_like_the_tools_do() {
        let file = "a b a";
        assert_eq!(apply("Write", &json!({"content": "new"}), file).as_deref(), Some("new"));
        let edit = json!({"old_string": "a", "new_string": "c"});
        assert_eq!(apply("Edit", &edit, file).as_deref(), Some("c b a"));
        let all = json!({"old_string": "a", "new_string": "c", "replace_all": true});
        assert_eq!(apply("Edit", &all, file).as_deref(), Some("c b c"));
        let multi =
            json!({"edits": [{"old_string": "b", "new_string": "x"}, {"old_string": "x a", "new_string": "y"}]});
        assert_eq!(apply("MultiEdit", &multi, file).as_deref(), Some("a y"));
        assert_eq!(
            apply("Edit", &json!({"old_string": "zz", "new_string": "q"}), file),
            None
        );
        assert_eq!(apply("Edit", &json!({"old_string": "", "new_string": "q"}), file), None);
        assert_eq!(apply("NotebookEdit", &json!({}), file), None);
    }
}

//! `package.json`'s scripts, as the reader of the files that name commands (`recipes`) gives them.

/// The command text of `scripts.<name>` in a `package.json`, if there is one.
pub(crate) fn npm_script(package_json: &[u8], name: &str) -> Option<String> {
    let doc: serde_json::Value = serde_json::from_slice(package_json).ok()?;
    doc.get("scripts")?.get(name)?.as_str().map(str::to_string)
}

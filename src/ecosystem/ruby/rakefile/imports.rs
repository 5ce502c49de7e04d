//! The files a Rakefile loads by literal paths, read as their text placed where rake loads it, so that the
//! Rakefile's reading (`closure::rakefile`) judges them as one file: a task of theirs the verify cannot reach is
//! inert, their top-level code counts like the Rakefile's own.
//!
//! Why: `import "tasks/release.rake"` is one line of top-level Ruby, and what it runs is the imported file's top
//! level (a constant, a `desc`, a task's declaration — or `ENV["RUBYOPT"] = …`, which the test task's `ruby`
//! inherits). Judged as a line, every import counts and an honest file of release tasks is refused; judged as
//! nothing, the imported file's top level is free. Judged as the text it loads, neither.
//!
//! Where rake loads each, so where its text is placed:
//!
//! - `import "a.rake", "b.rake"` (with or without parentheses): after the Rakefile has been read whole, in the
//!   order they were imported (`Rake::Application#load_imports`);
//! - `Rake.add_rakelib "tasks"`: every `tasks/*.rake`, sorted, after the Rakefile too (rake globs its rakelib
//!   directories once the Rakefile is loaded);
//! - `load "tasks/x.rake"` and `require_relative "tasks/x"` (`.rb` added where the path has no extension): in
//!   place of the line, as Ruby runs them there;
//! - a literal glob's files, each imported or loaded (`Dir.glob("tasks/*.rake").each { |r| import r }`,
//!   `Dir["tasks/*.rake"].sort.each do |f| load f end`, `FileList[…]`, `import(*Dir[…])`): the files the glob
//!   takes where the Rakefile stands, sorted as Ruby's `Dir.glob` returns them, placed as `import` or `load`
//!   places one. Read as a line, such a loop was the baseline's code whatever files it took, so a new
//!   `tasks/x.rake` whose top level sets `RUBYOPT` was in no reading (`tests/gaming/fresh_moves_11.rs`); read
//!   as its files, a new file of inert tasks stays free and a new top level counts. A glob with a brace or a
//!   class (`{a,b}`, `[ab]`) is not read, and the line counts.
//!
//! Paths are the Rakefile's directory's (rake's working directory; `require_relative`'s too, for a Rakefile's
//! own lines). A load of a path that is not a plain relative literal (interpolated, absolute, with `..`), of a
//! file that does not exist or is not text, or nested deeper than [`DEPTH`], stays a line of code, as before:
//! its text cannot be read here, so the line counts. A file read once is not read again (a second `import` of
//! it is a line of code). Lines of an imported file that load further files are expanded from that file's own
//! directory for `require_relative`, the Rakefile's for the rest.

use std::path::{Component, Path};
use std::sync::LazyLock;

use regex::Regex;

/// How deep loads inside loaded files are followed.
const DEPTH: usize = 4;

/// A plain string literal (no interpolation, no escape).
const LITERAL: &str = r##"(?:"[^"#\\]*"|'[^'\\]*')"##;

/// A load of literal paths on a line of its own: the method and its arguments.
static LOADS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^(import|load|require_relative|Rake\.add_rakelib)\s*(?:\(\s*({LITERAL}(?:\s*,\s*{LITERAL})*)\s*\)|\s+({LITERAL}(?:\s*,\s*{LITERAL})*))$"
    ))
    .expect("a valid pattern")
});

/// A literal glob's files, each imported or loaded: `Dir.glob(G)`, `Dir[G]` or `FileList[G]`, maybe `.sort`ed,
/// then `.each` with a block that imports or loads its one parameter (braces or `do … end` on the line); or
/// `import(*Dir[G])`. Captures: the glob (`glob`), the method (`method`, `splat`).
static GLOB_LOADS: LazyLock<Regex> = LazyLock::new(|| {
    let source = format!(
        r"(?:Dir\.glob\(\s*(?P<glob>{LITERAL})\s*\)|Dir\[\s*(?P<glob2>{LITERAL})\s*\]|FileList\[\s*(?P<glob3>{LITERAL})\s*\])"
    );
    Regex::new(&format!(
        r"^(?:{source}(?:\.sort)?\.each\s*(?:\{{\s*\|(?P<v1>\w+)\|\s*(?P<method>import|load)\s*\(?\s*(?P<u1>\w+)\s*\)?\s*\}}|do\s*\|(?P<v2>\w+)\|\s*(?P<method2>import|load)\s*\(?\s*(?P<u2>\w+)\s*\)?\s*end)|(?P<splat>import)\s*\(?\s*\*\s*(?:Dir\[\s*(?P<glob4>{LITERAL})\s*\]|Dir\.glob\(\s*(?P<glob5>{LITERAL})\s*\)|FileList\[\s*(?P<glob6>{LITERAL})\s*\])\s*\)?)$"
    ))
    .expect("a valid pattern")
});

/// One literal.
static ONE: LazyLock<Regex> = LazyLock::new(|| Regex::new(LITERAL).expect("a valid pattern"));

/// `text` (the Rakefile rake reads in `dir`) with every load of literal paths it can read replaced by the text
/// it loads (see the module doc).
pub(super) fn expanded(text: &str, dir: &Path) -> String {
    let mut seen: Vec<String> = Vec::new();
    let mut after = String::new();
    let mut out = expand(text, dir, dir, 0, &mut seen, &mut after);
    out.push_str(&after);
    out
}

/// `text`, a file in `own` (relative loads of `require_relative`), with its loads expanded: inline ones in
/// place, rake's deferred ones (`import`, `add_rakelib`) appended to `after`.
fn expand(text: &str, dir: &Path, own: &Path, depth: usize, seen: &mut Vec<String>, after: &mut String) -> String {
    let mut out = String::new();
    for line in text.lines() {
        match load(line.trim(), dir, own, depth, seen) {
            Some((deferred, files)) => {
                for (file, at) in files {
                    let text = expand(&file, dir, &at, depth + 1, seen, after);
                    let into = if deferred { &mut *after } else { &mut out };
                    into.push_str(&text);
                    if !text.ends_with('\n') {
                        into.push('\n');
                    }
                }
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// The files `line` loads, with the directory each lies in, and whether rake loads them after the Rakefile;
/// `None` where the line is no load of literal paths this reading can read whole.
fn load(
    line: &str,
    dir: &Path,
    own: &Path,
    depth: usize,
    seen: &mut Vec<String>,
) -> Option<(bool, Vec<(String, std::path::PathBuf)>)> {
    if depth >= DEPTH {
        return None;
    }
    if let Some((method, glob)) = glob_load(line) {
        let files = globbed(dir, &glob)?;
        return read_all(files, dir, seen).map(|files| (method == "import", files));
    }
    let c = LOADS.captures(line)?;
    let method = &c[1];
    let args = c.get(2).or_else(|| c.get(3))?.as_str();
    let paths: Vec<&str> = ONE
        .find_iter(args)
        .map(|m| &m.as_str()[1..m.as_str().len() - 1])
        .collect();
    if paths.iter().any(|p| !plain(p)) {
        return None;
    }
    let mut wanted: Vec<std::path::PathBuf> = Vec::new();
    for path in paths {
        match method {
            "require_relative" => {
                let mut file = own.join(path);
                if file.extension().is_none() {
                    file.set_extension("rb");
                }
                wanted.push(file);
            }
            "Rake.add_rakelib" => {
                let mut found: Vec<std::path::PathBuf> = std::fs::read_dir(dir.join(path))
                    .ok()?
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "rake"))
                    .collect();
                found.sort();
                wanted.extend(found);
            }
            _ => wanted.push(dir.join(path)),
        }
    }
    read_all(wanted, dir, seen).map(|files| (matches!(method, "import" | "Rake.add_rakelib"), files))
}

/// The method (`import` or `load`) and the glob of a line that imports or loads every file of a literal glob
/// ([`GLOB_LOADS`]); `None` for any other line, or a block whose call is not of its own parameter.
fn glob_load(line: &str) -> Option<(String, String)> {
    let c = GLOB_LOADS.captures(line)?;
    let glob = ["glob", "glob2", "glob3", "glob4", "glob5", "glob6"]
        .iter()
        .find_map(|name| c.name(name))?
        .as_str();
    let glob = glob[1..glob.len() - 1].to_string();
    if c.name("splat").is_some() {
        return Some(("import".to_string(), glob));
    }
    let (var, method, used) = match (c.name("v1"), c.name("v2")) {
        (Some(v), _) => (v, c.name("method")?, c.name("u1")?),
        (None, Some(v)) => (v, c.name("method2")?, c.name("u2")?),
        (None, None) => return None,
    };
    (var.as_str() == used.as_str()).then(|| (method.as_str().to_string(), glob))
}

/// The files `glob` (relative to `dir`) takes, sorted as Ruby's `Dir.glob` returns them: `*` and `?` within a
/// name (not a leading dot), `**` for any depth of directories; `None` for a glob this reading cannot follow
/// (a brace, a class, an escape, a path out of `dir`).
fn globbed(dir: &Path, glob: &str) -> Option<Vec<std::path::PathBuf>> {
    if glob.is_empty() || glob.contains(['{', '}', '[', ']', '\\']) || glob.starts_with('/') {
        return None;
    }
    let parts: Vec<&str> = glob.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
    if parts.contains(&"..") {
        return None;
    }
    let mut found = Vec::new();
    walk_glob(dir, &parts, 0, &mut found);
    found.retain(|p| p.is_file());
    found.sort();
    found.dedup();
    Some(found)
}

/// Adds to `found` what `parts` take under `at` (see [`globbed`]); `depth` bounds a `**` walk.
fn walk_glob(at: &Path, parts: &[&str], depth: usize, found: &mut Vec<std::path::PathBuf>) {
    let Some((first, rest)) = parts.split_first() else {
        found.push(at.to_path_buf());
        return;
    };
    if *first == "**" {
        walk_glob(at, rest, depth, found);
        if depth < 8 {
            for entry in entries(at).into_iter().filter(|p| p.is_dir() && !p.is_symlink()) {
                walk_glob(&entry, parts, depth + 1, found);
            }
        }
        return;
    }
    if !first.contains(['*', '?']) {
        walk_glob(&at.join(first), rest, depth, found);
        return;
    }
    for entry in entries(at) {
        let name = entry
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !name.starts_with('.') && wildcard(first.as_bytes(), name.as_bytes()) {
            walk_glob(&entry, rest, depth, found);
        }
    }
}

/// The entries of a directory, none where it cannot be read.
fn entries(dir: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default()
}

/// Whether `name` matches `pattern` of `*` (any run) and `?` (one byte).
fn wildcard(pattern: &[u8], name: &[u8]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some((b'*', rest)) => (0..=name.len()).any(|i| wildcard(rest, &name[i..])),
        Some((b'?', rest)) => !name.is_empty() && wildcard(rest, &name[1..]),
        Some((c, rest)) => name.first() == Some(c) && wildcard(rest, &name[1..]),
    }
}

/// The text of each of `wanted` with the directory it lies in; `None` where one was read already, is missing
/// or is not text (the line then stays code).
fn read_all(
    wanted: Vec<std::path::PathBuf>,
    dir: &Path,
    seen: &mut Vec<String>,
) -> Option<Vec<(String, std::path::PathBuf)>> {
    let mut files = Vec::new();
    for file in wanted {
        let key = file.to_string_lossy().into_owned();
        if seen.contains(&key) {
            return None;
        }
        let meta = std::fs::metadata(&file).ok().filter(std::fs::Metadata::is_file)?;
        let bytes = std::fs::read(&file).ok().filter(|_| meta.len() < 1 << 20)?;
        let text = String::from_utf8(bytes).ok()?;
        seen.push(key);
        let at = file.parent().unwrap_or(dir).to_path_buf();
        files.push((text, at));
    }
    Some(files)
}

/// A relative path made only of plain names (no `..`, not absolute, nothing expanded).
fn plain(path: &str) -> bool {
    !path.is_empty()
        && Path::new(path)
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

#[cfg(test)]
mod tests {
    use super::expanded;
    use crate::closure::derive::tests::project;

    #[test]
    fn an_import_is_placed_after_the_rakefile_and_a_load_in_place() {
        let dir = project(&[
            ("tasks/a.rake", "task :a do\n  puts 1\nend\n"),
            ("tasks/b.rb", "B = 1\n"),
            ("more/c.rake", "C = 1\n"),
        ]);
        let text = "import \"tasks/a.rake\"\nrequire_relative 'tasks/b'\nRake.add_rakelib(\"more\")\nX = 1\n";
        assert_eq!(
            expanded(text, dir.path()),
            "B = 1\nX = 1\ntask :a do\n  puts 1\nend\nC = 1\n"
        );
    }

    /// A loop importing or loading every file of a literal glob reads as those files, sorted, placed where rake
    /// places each; a glob it cannot follow, or a block that loads something else, stays a line.
    #[test]
    fn a_glob_of_imports_is_read_as_its_files() {
        let dir = project(&[
            ("tasks/b.rake", "B = 1\n"),
            ("tasks/a.rake", "A = 1\n"),
            ("tasks/deep/c.rake", "C = 1\n"),
            ("tasks/notes.txt", "no\n"),
        ]);
        for line in [
            "Dir.glob(\"tasks/*.rake\").each { |r| import r }",
            "Dir[\"tasks/*.rake\"].sort.each do |f| import f end",
            "FileList[\"tasks/*.rake\"].each { |f| import(f) }",
            "import(*Dir[\"tasks/*.rake\"])",
        ] {
            assert_eq!(
                expanded(&format!("{line}\nX = 1\n"), dir.path()),
                "X = 1\nA = 1\nB = 1\n",
                "{line}"
            );
        }
        assert_eq!(
            expanded("Dir.glob(\"tasks/**/*.rake\").each { |f| load f }\nX = 1\n", dir.path()),
            "A = 1\nB = 1\nC = 1\nX = 1\n"
        );
        for line in [
            "Dir.glob(\"tasks/{a,b}.rake\").each { |r| import r }",
            "Dir.glob(\"../tasks/*.rake\").each { |r| import r }",
            "Dir.glob(\"tasks/*.rake\").each { |r| import other }",
            "Dir.glob(\"tasks/*.rake\").each { |r| require r }",
        ] {
            let text = format!("{line}\n");
            assert_eq!(expanded(&text, dir.path()), text, "{line}");
        }
    }

    #[test]
    fn a_load_this_reading_cannot_read_stays_a_line() {
        let dir = project(&[("tasks/a.rake", "A = 1\n")]);
        for line in [
            "import \"tasks/missing.rake\"",
            "import \"../outside.rake\"",
            "import \"/etc/x.rake\"",
            "import \"tasks/#{name}.rake\"",
            "import name",
            "import \"tasks/a.rake\" if ENV[\"X\"]",
        ] {
            let text = format!("{line}\n");
            assert_eq!(expanded(&text, dir.path()), text, "{line}");
        }
        // A file imported twice is read once; the second import is a line.
        let twice = "import \"tasks/a.rake\"\nimport \"tasks/a.rake\"\n";
        assert_eq!(expanded(twice, dir.path()), "import \"tasks/a.rake\"\nA = 1\n");
    }
}

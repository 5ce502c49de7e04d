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
//!   place of the line, as Ruby runs them there.
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
    Some((matches!(method, "import" | "Rake.add_rakelib"), files))
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

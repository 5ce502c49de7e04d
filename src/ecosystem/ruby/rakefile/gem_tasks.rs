//! `require "bundler/gem_tasks"`, the first line of the Rakefile `bundle gem` writes, read as what it loads:
//! Bundler's tasks (`build`, `install`, `release`), which run only when invoked, and the project's gemspec, which
//! Bundler evaluates as the Rakefile loads (`Bundler::GemHelper.install_tasks`), in rake's own process.
//!
//! So the line is no code of its own where Bundler's file is the one it finds — no `bundler/gem_tasks.rb` in the
//! project, where code the Rakefile runs could have put it on the load path first — and the gemspec is read in
//! its place as code: a line setting an attribute of the spec to a literal (`spec.version = "0.2.0"`, `spec.files
//! = Dir["lib/**/*.rb"]`, a dependency with literal requirements) describes the gem and evaluates nothing of the
//! project's, as do the block that holds them and the gemspec's name; any other line (`ENV["RUBYOPT"] = …`,
//! `require_relative`, a `git ls-files` run) is code the Rakefile's process runs, and counts like the
//! Rakefile's own. Read without the project (a file tool's text alone), the line stays code.

use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;

/// The require, on a line of its own.
static GEM_TASKS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^require\s*\(?\s*(?:"bundler/gem_tasks"|'bundler/gem_tasks')\s*\)?$"#).expect("a valid pattern")
});

/// A plain literal: a string without interpolation, a number, a symbol, `true`, `false`, `nil`.
const LITERAL: &str = r##"(?:"[^"#\\]*"|'[^'\\]*'|-?\d[\d._]*|:\w+|true|false|nil)"##;

/// The block a gemspec is: `Gem::Specification.new do |spec|`.
static SPEC_BLOCK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^Gem::Specification\.new\s+do\s*\|\s*([A-Za-z_]\w*)\s*\|$").expect("a valid pattern")
});

/// One attribute set to a literal, a list of literals or a literal glob: `spec.name = "calc"`,
/// `spec.authors = ["a"]`, `spec.files = Dir["lib/**/*.rb"]`, `spec.metadata["x"] = "y"`.
static ATTRIBUTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r#"^([A-Za-z_]\w*)\.\w+(?:\[{LITERAL}\])?\s*=\s*(?:{LITERAL}|\[\s*(?:{LITERAL}(?:\s*,\s*{LITERAL})*)?\s*,?\s*\]|%w\[[\w\s./*-]*\]|Dir(?:\.glob)?\s*[\[(]\s*{LITERAL}(?:\s*,\s*{LITERAL})*\s*[\])])$"#
    ))
    .expect("a valid pattern")
});

/// A dependency with literal requirements: `spec.add_dependency "json", "~> 2.6"`.
static DEPENDENCY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^([A-Za-z_]\w*)\.add_(?:runtime_|development_)?dependency\s*\(?\s*{LITERAL}(?:\s*,\s*{LITERAL})*\s*\)?$"
    ))
    .expect("a valid pattern")
});

/// `text` (the Rakefile rake reads in `dir`) with each `require "bundler/gem_tasks"` it can read replaced by
/// the code of the gemspecs Bundler evaluates there (see the module doc).
pub(super) fn read_in(text: &str, dir: &Path) -> String {
    if !text.lines().any(|line| GEM_TASKS.is_match(line.trim())) || shadowed(dir) {
        return text.to_string();
    }
    let mut specs: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "gemspec"))
        .collect();
    specs.sort();
    let mut code = String::new();
    for spec in specs {
        match std::fs::read_to_string(&spec) {
            Ok(spec) => code.push_str(&gemspec_code(&spec)),
            // Unreadable: what it runs cannot be said here, so the require stays code.
            Err(_) => return text.to_string(),
        }
    }
    let mut out = String::new();
    for line in text.lines() {
        if GEM_TASKS.is_match(line.trim()) {
            out.push_str(&code);
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// A gemspec's lines that are code: all but the spec's block, its literal attributes and dependencies.
fn gemspec_code(text: &str) -> String {
    let mut var: Option<(String, usize)> = None;
    let mut out = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        let indent = line.len() - line.trim_start().len();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if var.is_none()
            && let Some(c) = SPEC_BLOCK.captures(trimmed)
        {
            var = Some((c[1].to_string(), indent));
            continue;
        }
        if let Some((name, at)) = &var {
            if trimmed == "end" && indent == *at {
                var = None;
                continue;
            }
            let on_spec = |c: regex::Captures| &c[1] == name.as_str();
            if ATTRIBUTE.captures(trimmed).is_some_and(on_spec)
                || DEPENDENCY.captures(trimmed).is_some_and(|c| &c[1] == name.as_str())
            {
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Whether the project holds a `bundler/gem_tasks.rb` that code the Rakefile runs could find first.
fn shadowed(dir: &Path) -> bool {
    let mut found = false;
    let walked = crate::walk::Walker::skipping(&[".git"]).walk(dir, |file| {
        found = file.relative.ends_with("bundler/gem_tasks.rb") || file.relative == "bundler/gem_tasks.rb";
        Ok(crate::walk::until(found))
    });
    found || walked.is_err()
}

#[cfg(test)]
mod tests {
    use super::read_in;
    use crate::closure::derive::tests::project;

    const SPEC: &str = "Gem::Specification.new do |spec|\n  spec.name = \"calc\"\n  spec.version = \"0.1.0\"\n  spec.authors = [\"a\"]\n  spec.files = Dir[\"lib/**/*.rb\"]\n  spec.metadata[\"homepage_uri\"] = \"https://example.com\"\n  spec.add_development_dependency \"rake\", \"~> 13.0\"\nend\n";

    #[test]
    fn a_gemspec_of_literal_attributes_is_no_code_and_the_require_goes() {
        let dir = project(&[("calc.gemspec", SPEC)]);
        let text = "require \"bundler/gem_tasks\"\nX = 1\n";
        assert_eq!(read_in(text, dir.path()), "X = 1\n");
        let bumped = SPEC.replace("0.1.0", "0.2.0");
        let dir = project(&[("calc.gemspec", bumped.as_str())]);
        assert_eq!(read_in(text, dir.path()), "X = 1\n");
    }

    #[test]
    fn a_gemspecs_code_counts_and_a_shadow_keeps_the_require() {
        let text = "require \"bundler/gem_tasks\"\n";
        for spec in [
            format!("ENV[\"RUBYOPT\"] = \"-rpatch\"\n{SPEC}"),
            SPEC.replace(
                "  spec.name = \"calc\"\n",
                "  spec.name = ENV[\"RUBYOPT\"] = \"-rpatch\"\n",
            ),
            SPEC.replace("  spec.name = \"calc\"\n", "  spec.name = \"#{`id`}\"\n"),
            SPEC.replace("  spec.name = \"calc\"\n", "  other.name = \"calc\"\n"),
        ] {
            let dir = project(&[("calc.gemspec", spec.as_str())]);
            assert_ne!(read_in(text, dir.path()), "", "{spec}");
        }
        let dir = project(&[("calc.gemspec", SPEC), ("lib/bundler/gem_tasks.rb", "")]);
        assert_eq!(read_in(text, dir.path()), text);
    }
}

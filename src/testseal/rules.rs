//! Which files are tests by the runners' own rules, beyond the naming conventions `testsig::is_test_file`
//! knows: the defaults of the runner the verify command runs and the project's own configuration. Both come
//! from the runner's row of `runner` (`TestFiles`: the default globs, the settings and keys that list test
//! files; `Config`: the files they are read from); this module reads those settings out of the files:
//!
//! - pytest: `python_files` from `pytest.ini`, `.pytest.ini`, `pytest.toml`, `.pytest.toml`, `pyproject.toml`
//!   (`[tool.pytest.ini_options]`, `[tool.pytest]`), `tox.ini` (`[pytest]`) or `setup.cfg` (`[tool:pytest]`)
//!   in the project root — file-name globs such as `check_*.py`;
//! - unittest (and Django's `manage.py test`): its default pattern `test*.py`, which takes `tests.py`;
//! - `node --test`: its default patterns `*.test.js`, `*-test.js`, `*_test.js`, `test-*.js`, `test.js` (with
//!   `.cjs` / `.mjs`), anywhere but `node_modules`;
//! - Jest's `testMatch` / `testRegex`, Vitest's `include`, Mocha's `spec`: read from `package.json`'s runner key,
//!   `jest.config.*`, `vitest.config.*` / `vite.config.*` and `.mocharc.*` — string literals of those keys, so a
//!   configuration computed by code is read only as far as it spells its patterns out.
//!
//! - pytest's `--doctest-modules` (on the command line or in `addopts`): Python modules with `>>>` examples are
//!   read inline for their doctests, as Rust sources are for their inline tests.
//!
//! pytest's `python_classes` / `python_functions` are not read: in a file sealed as a test file, a function or
//! class they would collect is sealed as a helper (changing, deleting or marking it is still named), and the
//! per-test verdict holds it to its baseline result by name.
//!
//! What a rule adds is sealed as a test file and, when new, sits out the oracle's run like any new test file.
//! Without a recognized runner (an old seal, an unknown command) only the conventions apply.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::runner::{Config, Doctests, Runner};

/// Extra test-file rules of a project, kept in the inventory so new files are judged by the same rules.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Rules {
    /// Globs over the project-relative path (`**/check_*.py`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) globs: Vec<String>,
    /// Regular expressions over `/` + the project-relative path (Jest's `testRegex`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) regexes: Vec<String>,
    /// pytest runs with `--doctest-modules` (on its command line or in `addopts`): every Python module with a
    /// `>>>` example holds tests, read inline (see `testsig::doctest`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) doctest_modules: bool,
}

impl Rules {
    /// The rules of `runners` in the project at `root`: each runner's defaults and the settings of its
    /// configuration files at the root, as its row of `runner` declares them.
    pub(crate) fn of(root: &Path, runners: &[Runner]) -> Rules {
        let mut rules = Rules::default();
        for runner in runners {
            let row = runner.row();
            let tests = &row.tests;
            rules.names(tests.names.iter().map(|g| g.to_string()).collect());
            if tests.doctests == Doctests::Always {
                rules.doctest_modules = true;
            }
            for text in config_texts(root, &row.config) {
                for key in tests.name_settings {
                    rules.names(setting_words(&text, key));
                }
                for key in tests.path_keys {
                    rules.paths(string_values(&text, key));
                }
                for key in tests.regex_keys {
                    rules.regexes.extend(string_values(&text, key));
                }
                if let Doctests::When { setting, word } = tests.doctests {
                    rules.doctest_modules |= setting_words(&text, setting).iter().any(|w| w == word);
                }
            }
        }
        rules.globs.sort();
        rules.globs.dedup();
        rules
    }

    /// The rules compiled, to match many paths.
    pub(crate) fn matcher(&self) -> Matcher {
        let mut builder = globset::GlobSetBuilder::new();
        for glob in self.globs.iter().filter_map(|g| globset::Glob::new(g).ok()) {
            builder.add(glob);
        }
        Matcher {
            globs: builder.build().unwrap_or_else(|_| globset::GlobSet::empty()),
            regexes: self.regexes.iter().filter_map(|r| regex::Regex::new(r).ok()).collect(),
        }
    }

    /// Whether a project-relative path is a test file by these rules (compiles them: see [`Rules::matcher`]).
    #[cfg(test)]
    pub(crate) fn matches(&self, relative: &str) -> bool {
        self.matcher().matches(relative)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.globs.is_empty() && self.regexes.is_empty() && !self.doctest_modules
    }

    /// File-name globs: they match in any directory.
    fn names(&mut self, names: Vec<String>) {
        self.globs.extend(names.into_iter().map(|n| format!("**/{n}")));
    }

    /// Path globs, written for micromatch or tinyglobby (`?(x)`, `+(a|b)` read as `{,x}`, `{a,b}`; a leading
    /// `./` dropped); a pattern without a directory matches in any directory, as Mocha's and Jest's do.
    fn paths(&mut self, patterns: Vec<String>) {
        for pattern in patterns {
            let pattern = pattern.trim_start_matches("<rootDir>/").trim_start_matches("./");
            if pattern.starts_with('!') || pattern.is_empty() {
                continue;
            }
            for glob in extglob(pattern) {
                self.globs
                    .push(if glob.contains('/') { glob } else { format!("**/{glob}") });
            }
        }
    }
}

/// [`Rules`] compiled.
pub(crate) struct Matcher {
    globs: globset::GlobSet,
    regexes: Vec<regex::Regex>,
}

impl Matcher {
    /// Whether a project-relative path is a test file by the rules.
    pub(crate) fn matches(&self, relative: &str) -> bool {
        self.globs.is_match(relative) || self.regexes.iter().any(|re| re.is_match(&format!("/{relative}")))
    }
}

/// micromatch's extglobs in the forms test patterns use, as globset patterns: `+(a|b)` and `@(a|b)` as
/// `{a,b}`, `?(x)` as two patterns, one without `x` and one with it.
fn extglob(pattern: &str) -> Vec<String> {
    let opening = pattern
        .char_indices()
        .find(|(i, c)| matches!(c, '?' | '+' | '@' | '*') && pattern[i + 1..].starts_with('('));
    let Some((at, _)) = opening else {
        return vec![pattern.to_string()];
    };
    let Some(close) = pattern[at..].find(')').map(|c| at + c) else {
        return vec![pattern.to_string()];
    };
    let inner = pattern[at + 2..close].replace('|', ",");
    let alternatives = if inner.contains(',') {
        format!("{{{inner}}}")
    } else {
        inner
    };
    let (head, tail) = (&pattern[..at], &pattern[close + 1..]);
    let mut out: Vec<String> = extglob(tail)
        .into_iter()
        .map(|tail| format!("{head}{alternatives}{tail}"))
        .collect();
    if pattern[at..].starts_with('?') {
        out.extend(extglob(tail).into_iter().map(|tail| format!("{head}{tail}")));
    }
    out
}

/// The words of an INI or TOML setting `key = a b` / `key = ["a", "b"]` anywhere in `text`.
fn setting_words(text: &str, key: &str) -> Vec<String> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let Some((name, value)) = line.split_once('=') else {
            continue;
        };
        if name.trim() != key {
            continue;
        }
        // INI continuation lines (indented) and a TOML list spread over lines belong to the value.
        let more = lines[i + 1..]
            .iter()
            .take_while(|l| l.starts_with([' ', '\t']) || (value.contains('[') && !value.contains(']')));
        for part in std::iter::once(value).chain(more.copied()) {
            out.extend(
                part.split([' ', '\t', ',', '[', ']', '"', '\''])
                    .filter(|w| !w.is_empty())
                    .map(str::to_string),
            );
        }
    }
    out
}

/// The string literals given to `key` in a JSON, JavaScript or YAML text: `key: "a"`, `key: ['a', "b"]`,
/// `"key": [...]`, or a YAML block list under `key:`.
fn string_values(text: &str, key: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(key) {
        let after = &rest[at + key.len()..];
        rest = after;
        let after = after.trim_start_matches(['"', '\'']).trim_start();
        let Some(value) = after.strip_prefix(':') else { continue };
        let value = value.trim_start_matches([' ', '\t']);
        let end = if value.starts_with('[') {
            closing_bracket(value)
        } else if value.starts_with('\n') || value.starts_with("\r\n") {
            // A YAML block list: the `- item` lines that follow.
            let lines: Vec<&str> = value
                .lines()
                .skip(1)
                .take_while(|l| l.trim_start().starts_with('-'))
                .collect();
            out.extend(lines.iter().map(|l| unquote(l.trim_start()[1..].trim())));
            continue;
        } else {
            value.find([',', '\n', '}']).unwrap_or(value.len())
        };
        out.extend(quoted(&value[..end]));
    }
    out.retain(|s| !s.is_empty());
    out
}

/// Where the list that `text` opens with `[` ends: the first `]` outside a string literal.
fn closing_bracket(text: &str) -> usize {
    let mut quote = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (None, '"' | '\'' | '`') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, ']') => return i,
            _ => {}
        }
    }
    text.len()
}

/// The contents of the quoted strings in `text`.
fn quoted(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(['"', '\'', '`']) {
        let quote = rest[start..].chars().next().unwrap_or('"');
        let body = &rest[start + 1..];
        let Some(end) = body.find(quote) else { break };
        out.push(body[..end].replace("\\\\", "\\"));
        rest = &body[end + 1..];
    }
    out
}

fn unquote(text: &str) -> String {
    text.trim_matches(['"', '\'']).to_string()
}

/// `package.json`'s `key` as JSON text (empty when absent).
fn package_key(root: &Path, key: &str) -> String {
    std::fs::read(root.join("package.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|doc| doc.get(key).map(ToString::to_string))
        .unwrap_or_default()
}

/// The texts of a runner's configuration files at the root, and of its `package.json` key.
fn config_texts(root: &Path, config: &Config) -> Vec<String> {
    let mut texts: Vec<String> = config
        .file_names()
        .iter()
        .filter_map(|name| std::fs::read_to_string(root.join(name)).ok())
        .collect();
    if let Some(key) = config.package_key {
        texts.push(package_key(root, key));
    }
    texts
}

#[cfg(test)]
mod tests;

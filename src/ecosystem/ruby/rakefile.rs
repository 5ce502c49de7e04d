//! A Rakefile read as code but for what only changes how its test task prints, and for its test tasks' file
//! lists and load paths, read as rake resolves them (`closure::READERS`: stored as `rakefile`). The file is Ruby
//! and stays sealed as code: its first part is every line of it, read as Ruby reads it (comments, white space, a
//! plain string's quotes and a call's optional parentheses are spellings, `testsig::norm`; a line break is kept),
//! but, on the variable a `Rake::TestTask.new … do |t|` block names, a `warning` or `verbose` switch set to a literal `true` or `false`
//! (Ruby's `-w` and the echo of the command change what is printed, never which tests run or what they assert),
//! and the task's file list and load path set from literals (`t.pattern = "…"`, `t.test_files = FileList["…",
//! …]`, `t.libs << "…"` or `t.libs.push("…")`). Those are parts of their own, per task, as rake resolves them:
//!
//! - **its test files**: the globs rake loads (`test_files` and `pattern` together; `test/test*.rb` when neither
//!   is set). The baseline's globs are stored with the seal (the reading's names, `TASK=GLOB`); a list that still
//!   holds every one of them and adds only globs that can match nothing but test files by minitest's names
//!   (`*_test.rb`, `test_*.rb`, `*_spec.rb` under literal, `*` or `**` directories) reads as the baseline's. New
//!   test files sit out the oracle's run (`testswap`), and an old one a new glob reaches is a sealed test file
//!   standing as it was; a glob dropped (an old file no longer run) or one that can match another file
//!   (`lib/patch.rb`, `test/**/*.rb`) counts.
//! - **its load path**: `lib` (rake's default) then each `libs` entry, a repeated one dropped (the first
//!   directory on the path wins, so repeating one changes nothing). An entry added after the baseline's, in their
//!   order, is judged by the files it could shadow, in the project (the reading is a `parts::Resolving`: it
//!   reads the rakefile rake finds from its place): free where it holds no Ruby file, library or link outside the
//!   earlier entries that lie inside it — minitest's `.` after `lib` and `test` reaches their files only by
//!   longer names (`lib/calc`) — and counted where it does (a root `json.rb` or `minitest/autorun.rb` found before
//!   the standard one, `test/support` giving its `json.rb` the name `json`). Any other order counts.
//!
//! **Minitest's own task** (`Minitest::TestTask.create`, minitest 5.16's, which `bundle gem` writes) is read as
//! the same parts with its defaults: test files `test/**/test_*.rb` and `test/**/*_test.rb` (`test_globs`), load
//! path `lib`, `test`, `.` then `libs`; `warning` is a display switch like rake's. The task's declaration (rake's
//! or minitest's, bare or with a block), its block's `end` and the require of its library are cut from the code,
//! so switching between the two tasks with the same files and path moves nothing. What differs is read where it
//! matters: minitest requires each test file by its name from the root *through the load path* (`require
//! "test/calc_test.rb"`), so a file under an entry before `.` named like a project file (`lib/test/calc_test.rb`)
//! would load in the sealed test's place: shown in the load path's part as a twin. Its `test_prelude`,
//! `framework` and `extra_args` (code run before the tests, what loads the runner, the runner's arguments) are
//! lines of code and count. A loop sealed before this reading (no `(dir)`/`(lib)` names) reads every entry as
//! shown, and its header lines were code: such a loop names the Rakefile once after an upgrade.
//!
//! The same settings set to anything but literals, with a comment, on another receiver or outside a test task's
//! block are lines like the rest, and any change to them counts.
//!
//! A task the verify's run does not reach is inert ([`inert`]): rake runs a task's block only when the task is
//! invoked, so a top-level `task(:lint) do … end` with a literal name, its `desc '…'`, and a literal
//! declaration of prerequisites (`task(default: %i[lint test])`) evaluate nothing of the project's when the
//! verify's tasks (recorded at setup as [`RUNS`] names) do not reach them through those declarations. Their lines
//! are left out of the code, so adding one (as in `rakelib/`) moves nothing. A task the run reaches, one named
//! anywhere else in the file (`Rake::Task[:lint]`, `enhance`), or any other shape stays code; a seal without the
//! names (older) leaves every line code. A top-level constant set to a literal that no line kept names
//! (`VERSION_FILE = "VERSION"`, read by an inert task's body) goes with them.
//!
//! Read from its place, the files the Rakefile loads by literal paths (`import`, `load`, `require_relative`,
//! `Rake.add_rakelib`) are read as their text placed where rake loads it (`rakefile/imports.rs`): an imported
//! file of tasks the verify cannot reach moves nothing, and its top-level code counts like the Rakefile's own.
//! `require "bundler/gem_tasks"` is read as what it loads (`rakefile/gem_tasks.rs`): Bundler's tasks, inert, and
//! the gemspec Bundler evaluates in rake's process, whose lines but its literal attributes count as code.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::Regex;

use super::parts::{Edited, Reading, Resolving, Texts};

#[path = "rakefile/gem_tasks.rs"]
mod gem_tasks;
#[path = "rakefile/imports.rs"]
mod imports;

/// A Rakefile read for its code and its test tasks (`closure::READERS`): stored as `rakefile`, never renamed;
/// its names are the baseline's test globs and load paths ([`baseline`]), the tasks the verify runs ([`RUNS`]),
/// the directory rake runs in ([`DIR`]) and the rakefiles that existed at setup ([`EXISTED`]). It is read from
/// its place ([`Resolving`]): rake reads the first of its names that exists, and a load path is judged by the
/// files its entries hold ([`load_path_shown`]), which the file's text alone cannot say.
pub(crate) const READING: Reading = Reading {
    kind: "rakefile",
    parts: |text, names| parts(text, names, None),
    labels: |_| LABELS.iter().map(|label| (*label).to_string()).collect(),
    resolves: Some(Resolving {
        parts: |root, names, edited| resolved(root, names, edited),
        file: |root, names| first(root, names, None).map(|(path, _)| path),
        existed: |names, file| names.iter().any(|n| n.strip_prefix(EXISTED) == Some(file)),
        also: "",
    }),
};

/// The prefix of the name recording the directory rake runs in, relative to the project's root.
pub(crate) const DIR: &str = "(dir) ";

/// The prefix of a name recording a rakefile that existed when the scope was derived (at setup).
pub(crate) const EXISTED: &str = "(existed) ";

/// The prefix of a name recording one entry of a test task's load path at setup (`(lib) TASK=ENTRY`).
const LIB: &str = "(lib) ";

/// The files rake looks for, in its order.
pub(crate) const RAKEFILES: [&str; 4] = ["rakefile", "Rakefile", "rakefile.rb", "Rakefile.rb"];

/// The rakefile rake reads in the recorded directory (its path from the root) and its text: `edited` (a file
/// tool's content, before it is written) in place of the file on disk where it names one of them.
fn first(root: &std::path::Path, names: &[String], edited: Option<Edited>) -> Option<(String, String)> {
    let dir = names.iter().find_map(|n| n.strip_prefix(DIR)).unwrap_or("");
    RAKEFILES.iter().find_map(|name| {
        let path = if dir.is_empty() {
            (*name).to_string()
        } else {
            format!("{dir}/{name}")
        };
        let text = match edited {
            Some((at, bytes)) if at == path => Some(String::from_utf8_lossy(bytes).into_owned()),
            _ => std::fs::read(root.join(&path))
                .ok()
                .map(|b| String::from_utf8_lossy(&b).into_owned()),
        }?;
        Some((path, text))
    })
}

/// The resolved rakefile's parts (none: rake finds no rakefile), its load paths judged in the project.
fn resolved(root: &std::path::Path, names: &[String], edited: Option<Edited>) -> Texts {
    let Some((path, text)) = first(root, names, edited) else {
        return Texts::new();
    };
    let dir = std::path::Path::new(&path).parent().unwrap_or(std::path::Path::new(""));
    parts(&text, names, Some(&root.join(dir)))
}

/// The parts' labels: the file's code, its test tasks' file lists, their load paths.
const LABELS: [&str; 3] = ["its code", "its test files", "its load path"];

/// A string literal with nothing in it that interpolates or escapes.
const STR: &str = r##"(?:"[^"#\\]*"|'[^'\\]*')"##;

/// A test task's block: its name (`:test`, `"test"`; none: `test`) and the variable it names.
static TEST_TASK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"Rake::TestTask\.new\b\s*(?:\(\s*(?::(\w+)|["'](\w+)["'])?[^)]*\))?.*\bdo\s*\|\s*([A-Za-z_]\w*)\s*\|"#)
        .expect("a valid pattern")
});

/// A test task's declaration on a line of its own, rake's or minitest's (`Minitest::TestTask.create`, minitest
/// 5.16's, which `bundle gem` writes), with a literal name or none and a block with a variable or none: the line
/// is cut from the code, since what it declares is read as the task's parts (its kind decides their defaults).
static HEADER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"^(Rake::TestTask\.new|Minitest::TestTask\.create)\b\s*(?:\(\s*(?::(\w+)|"(\w+)"|'(\w+)')?\s*\)|\s+(?::(\w+)|"(\w+)"|'(\w+)'))?\s*(?:do\s*\|\s*([A-Za-z_]\w*)\s*\|)?$"#,
    )
    .expect("a valid pattern")
});

/// The library that defines a test task, required on a line of its own (`require "rake/testtask"`, `require
/// 'minitest/test_task'`): the rakefile's own process loads it from rake's or minitest's installation, outside the
/// project, so which of the two is required is the task's kind, read with the task.
static TASK_LIBRARY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"^require\s*\(?\s*(?:"(?:rake/testtask|minitest/test_task)"|'(?:rake/testtask|minitest/test_task)')\s*\)?$"#,
    )
    .expect("a valid pattern")
});

/// `t.test_globs = ["…", …]`: minitest's task's file list.
static TEST_GLOBS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^([A-Za-z_]\w*)\.test_globs\s*=\s*(?:FileList\s*)?\[\s*({STR}(?:\s*,\s*{STR})*)\s*,?\s*\]$"
    ))
    .expect("a valid pattern")
});

/// `t.test_globs = %w[…]`.
static TEST_GLOBS_WORDS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([A-Za-z_]\w*)\.test_globs\s*=\s*%w\[([\w*./\s-]*)\]$").expect("a valid pattern"));

/// The prefix of a name recording a task the verify's `rake` runs (`default` where it names none).
pub(crate) const RUNS: &str = "(runs) ";

/// A task name as a literal: `:lint`, `"lint"`, `'lint'`.
const NAME: &str = r#"(?::\w+|"\w+"|'\w+')"#;

/// A top-level task defined with a literal name and a block: `task :lint do`, `task(:lint) do |t|`.
static DEFINED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^task\s*(?:\(\s*({NAME})\s*\)|\s({NAME}))\s*do\s*(?:\|\s*\w*\s*\|)?\s*$"
    ))
    .expect("a valid pattern")
});

/// A top-level task defined with a literal name, literal prerequisites and a block: `task tag: :version do`,
/// `task(:tag => [:version]) do |t|`.
static DEFINED_WITH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^task\s*\(?\s*(?:(\w+):|({NAME})\s*=>)\s*(%i\[[\w\s]*\]|\[\s*{NAME}(?:\s*,\s*{NAME})*\s*,?\s*\]|{NAME})\s*\)?\s*do\s*(?:\|\s*\w*\s*\|)?\s*$"
    ))
    .expect("a valid pattern")
});

/// A top-level declaration of a task's prerequisites, all literal: `task default: :test`,
/// `task(default: %i[lint test])`, `task :default => [:lint, "test"]`, with no block.
static DECLARED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^task\s*\(?\s*(?:(\w+):|({NAME})\s*=>)\s*(%i\[[\w\s]*\]|\[\s*{NAME}(?:\s*,\s*{NAME})*\s*,?\s*\]|{NAME})\s*\)?\s*$"
    ))
    .expect("a valid pattern")
});

/// A top-level constant set to a literal: `VERSION_FILE = "VERSION"`, `RETRIES = 3`, `TARGET = :gem`.
static CONSTANT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"^([A-Z][A-Z0-9_]*)\s*=\s*(?:{STR}|\d+|:\w+)\s*$")).expect("a valid pattern")
});

/// One task name's literal.
static ONE_NAME: LazyLock<Regex> = LazyLock::new(|| Regex::new(NAME).expect("a valid pattern"));

/// A word.
static WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\w+").expect("a valid pattern"));

/// rake's clean library, required on a line of its own (`require "rake/clean"`): it defines the `clean` and
/// `clobber` tasks and the file lists they remove.
static CLEAN_LIBRARY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"^require\s*\(?\s*(?:"rake/clean"|'rake/clean')\s*\)?$"#).expect("a valid pattern"));

/// A literal added to one of those lists (`CLEAN.include("coverage", "tmp")`, `CLOBBER << "pkg"`).
static CLEAN_LIST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^(?:CLEAN|CLOBBER)(?:\.include\s*(?:\(\s*{STR}(?:\s*,\s*{STR})*\s*\)|\s+{STR}(?:\s*,\s*{STR})*)|\s*<<\s*{STR})$"
    ))
    .expect("a valid pattern")
});

/// The keyword that closes a block.
static END_WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\bend\b").expect("a valid pattern"));

/// A description with a literal string: `desc 'Check the code'`, `desc("…")`.
static DESC: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"^desc\s*(?:\(\s*{STR}\s*\)|\s{STR})\s*$")).expect("a valid pattern"));

/// A display switch set to a literal on a variable: `t.warning = false`.
static SWITCH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([A-Za-z_]\w*)\.(warning|verbose)\s*=\s*(true|false)$").expect("a valid pattern"));

/// `t.pattern = "…"`.
static PATTERN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"^([A-Za-z_]\w*)\.pattern\s*=\s*({STR})$")).expect("a valid pattern"));

/// `t.test_files = FileList["…", …]` (or a plain list).
static FILES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^([A-Za-z_]\w*)\.test_files\s*=\s*(?:FileList\s*)?\[\s*({STR}(?:\s*,\s*{STR})*)\s*,?\s*\]$"
    ))
    .expect("a valid pattern")
});

/// `t.libs << "…"`, `t.libs.push("…")` or `t.libs.push "…"`: one directory appended.
static LIBS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^([A-Za-z_]\w*)\.libs(?:\s*<<\s*({STR})|\.push\s*\(\s*({STR})\s*\)|\.push\s+({STR}))$"
    ))
    .expect("a valid pattern")
});

/// A line that opens a block with a variable.
static BLOCK: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\bdo\s*\|").expect("a valid pattern"));

/// One string literal.
static ONE: LazyLock<Regex> = LazyLock::new(|| Regex::new(STR).expect("a valid pattern"));

/// A test task as rake resolves it.
#[derive(Debug, Default)]
struct Task {
    /// `Minitest::TestTask` rather than `Rake::TestTask`: other defaults, and its test files are required by
    /// their names through the load path.
    minitest: bool,
    pattern: Option<String>,
    files: Option<Vec<String>>,
    libs: Vec<String>,
}

impl Task {
    /// The globs rake loads for it.
    fn globs(&self) -> Vec<String> {
        if self.pattern.is_none() && self.files.is_none() {
            if self.minitest {
                return vec!["test/**/*_test.rb".to_string(), "test/**/test_*.rb".to_string()];
            }
            return vec!["test/test*.rb".to_string()];
        }
        let mut globs: Vec<String> = self.files.iter().flatten().chain(&self.pattern).cloned().collect();
        globs.sort();
        globs.dedup();
        globs
    }

    /// Its load path: `lib` (minitest's task: `lib`, `test`, `.`), then each entry, a repeated one dropped.
    fn load_path(&self) -> Vec<&str> {
        let mut path = if self.minitest {
            vec!["lib", "test", "."]
        } else {
            vec!["lib"]
        };
        for lib in &self.libs {
            if !path.contains(&lib.as_str()) {
                path.push(lib);
            }
        }
        path
    }
}

/// The file read: its code (the lines not cut) and its test tasks by name, in the order they are defined.
struct Read {
    code: String,
    tasks: BTreeMap<String, Task>,
}

fn read(text: &str) -> Read {
    let mut code = String::new();
    let mut tasks: BTreeMap<String, Task> = BTreeMap::new();
    // The task whose block the lines are in, its variable and the indentation its `end` will have.
    let mut current: Option<(String, String)> = None;
    let mut indent = "";
    // Whether the block being read was opened by a declaration cut from the code: its `end` is cut too, so a
    // task declared with a block and one declared bare (minitest's defaults) read alike.
    let mut cut_end = false;
    for line in text.lines() {
        let trimmed = line.trim();
        let at = &line[..line.len() - line.trim_start().len()];
        if TASK_LIBRARY.is_match(trimmed) {
            continue;
        }
        if let Some(task) = HEADER.captures(trimmed) {
            let name = (2..=7).find_map(|i| task.get(i)).map_or("test", |m| m.as_str());
            let entry = tasks.entry(name.to_string()).or_default();
            entry.minitest = &task[1] == "Minitest::TestTask.create";
            current = task.get(8).map(|var| (name.to_string(), var.as_str().to_string()));
            cut_end = current.is_some();
            indent = at;
            continue;
        }
        if cut_end && trimmed == "end" && at == indent {
            current = None;
            cut_end = false;
            continue;
        }
        if let Some(task) = TEST_TASK.captures(line) {
            let name = task.get(1).or_else(|| task.get(2)).map_or("test", |m| m.as_str());
            let var = task.get(3).map_or("", |m| m.as_str());
            current = Some((name.to_string(), var.to_string()));
            indent = at;
            tasks.entry(name.to_string()).or_default();
        } else if BLOCK.is_match(trimmed) || (trimmed.starts_with("end") && at.len() <= indent.len()) {
            // Another block (`RSpec::Core::RakeTask.new do |t|`, whose `t.pattern` is RSpec's), or this one's end.
            current = None;
        }
        let var = current.as_ref().map_or("", |(_, var)| var.as_str());
        let task = current.as_ref().and_then(|(name, _)| tasks.get_mut(name));
        let cut = match task {
            Some(task) => {
                if on(SWITCH.captures(trimmed), var).is_some() {
                    true
                } else if let Some(c) = on(PATTERN.captures(trimmed), var) {
                    task.pattern = Some(unquote(&c[2]));
                    true
                } else if let Some(c) = on(FILES.captures(trimmed), var) {
                    task.files = Some(ONE.find_iter(&c[2]).map(|m| unquote(m.as_str())).collect());
                    true
                } else if let Some(c) = on(TEST_GLOBS.captures(trimmed), var).filter(|_| task.minitest) {
                    task.files = Some(ONE.find_iter(&c[2]).map(|m| unquote(m.as_str())).collect());
                    true
                } else if let Some(c) = on(TEST_GLOBS_WORDS.captures(trimmed), var).filter(|_| task.minitest) {
                    task.files = Some(c[2].split_whitespace().map(str::to_string).collect());
                    true
                } else if let Some(c) = on(LIBS.captures(trimmed), var) {
                    let lib = c.get(2).or_else(|| c.get(3)).or_else(|| c.get(4));
                    task.libs.push(unquote(lib.map_or("", |m| m.as_str())));
                    true
                } else {
                    false
                }
            }
            None => false,
        };
        if !cut {
            code.push_str(line);
            code.push('\n');
        }
    }
    Read { code, tasks }
}

/// A setting found on the block's variable `var`, not on another receiver.
fn on<'t>(found: Option<regex::Captures<'t>>, var: &str) -> Option<regex::Captures<'t>> {
    found.filter(|c| &c[1] == var)
}

fn unquote(literal: &str) -> String {
    literal
        .get(1..literal.len().saturating_sub(1))
        .unwrap_or("")
        .to_string()
}

/// A task name's literal without its quotes or colon.
fn task_name(literal: &str) -> String {
    literal
        .trim_start_matches(':')
        .trim_matches(|c| c == '"' || c == '\'')
        .to_string()
}

/// The task names of a literal list of prerequisites (`%i[lint test]`, `[:lint, "test"]`, `:test`).
fn prerequisites(deps: &str) -> Vec<String> {
    match deps.strip_prefix("%i[") {
        Some(words) => words
            .trim_end_matches(']')
            .split_whitespace()
            .map(str::to_string)
            .collect(),
        None => ONE_NAME.find_iter(deps).map(|m| task_name(m.as_str())).collect(),
    }
}

/// `text` without the lines of the tasks the verify's run cannot reach (module docs); `runs` are the tasks it
/// runs. With none recorded, `text` as it is.
fn inert(text: &str, runs: &[&str]) -> String {
    if runs.is_empty() {
        return text.to_string();
    }
    let lines: Vec<&str> = text.lines().collect();
    // Each literal definition or declaration: (task, its prerequisites, its first and last line).
    let mut found: Vec<(String, Vec<String>, usize, usize)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_end();
        let defined = DEFINED
            .captures(line)
            .map(|c| {
                (
                    task_name(c.get(1).or_else(|| c.get(2)).map_or("", |m| m.as_str())),
                    Vec::new(),
                )
            })
            .or_else(|| {
                DEFINED_WITH.captures(line).map(|c| {
                    let name = c.get(1).map_or_else(
                        || task_name(c.get(2).map_or("", |m| m.as_str())),
                        |m| m.as_str().to_string(),
                    );
                    (name, prerequisites(&c[3]))
                })
            });
        if let Some((name, deps)) = defined {
            // Its block: indented lines up to an `end` of its own line at the start of one. A body that could
            // close the block early (the word `end`, a line at the margin) is code like the rest.
            let end = (i + 1..lines.len()).find(|&j| !lines[j].is_empty() && !lines[j].starts_with([' ', '\t']));
            if let Some(end) = end.filter(|&end| lines[end].trim_end() == "end")
                && !lines[i + 1..end].iter().any(|l| END_WORD.is_match(l))
            {
                found.push((name, deps, i, end));
                i = end + 1;
                continue;
            }
        }
        if let Some(c) = DECLARED.captures(line) {
            let name = c.get(1).map_or_else(
                || task_name(c.get(2).map_or("", |m| m.as_str())),
                |m| m.as_str().to_string(),
            );
            found.push((name, prerequisites(&c[3]), i, i));
        }
        i += 1;
    }
    // What the run reaches through the literal declarations.
    let mut reached: Vec<String> = runs.iter().map(|r| (*r).to_string()).collect();
    let mut k = 0;
    while let Some(task) = reached.get(k).cloned() {
        for (name, deps, _, _) in &found {
            if *name == task {
                for dep in deps {
                    if !reached.contains(dep) {
                        reached.push(dep.clone());
                    }
                }
            }
        }
        k += 1;
    }
    let mut cut = vec![false; lines.len()];
    for (_, _, first, last) in found.iter().filter(|(name, ..)| !reached.contains(name)) {
        for c in &mut cut[*first..=*last] {
            *c = true;
        }
        if let Some(desc) = first.checked_sub(1).filter(|&d| DESC.is_match(lines[d].trim_end())) {
            cut[desc] = true;
        }
    }
    // A cut task named anywhere in what stays (`Rake::Task[:lint]`, `enhance`, the body of another task kept) is
    // kept: something may reach it. Kept again until nothing more is.
    loop {
        let kept_words: std::collections::BTreeSet<&str> = lines
            .iter()
            .zip(&cut)
            .filter(|(_, c)| !**c)
            .flat_map(|(line, _)| WORD.find_iter(line).map(|m| m.as_str()))
            .collect();
        let mut more = false;
        for (name, _, first, last) in &found {
            if cut[*first] && kept_words.contains(name.as_str()) {
                for c in &mut cut[*first..=*last] {
                    *c = false;
                }
                more = true;
            }
        }
        if !more {
            break;
        }
    }
    // A constant set to a literal that no line kept names (`VERSION_FILE = "VERSION"`, read only by a cut task's
    // body) evaluates nothing of the project's and is read by nothing that runs: it goes with them. The rake
    // process that runs the Rakefile starts the tests in a child `ruby`, which inherits no constant of it.
    let constants: Vec<(usize, &str)> = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| !cut[*i])
        .filter_map(|(i, line)| {
            CONSTANT
                .captures(line.trim_end())
                .map(|c| (i, c.get(1).map_or("", |m| m.as_str())))
        })
        .collect();
    for (at, name) in constants {
        let named = lines
            .iter()
            .zip(&cut)
            .enumerate()
            .any(|(i, (line, c))| i != at && !*c && WORD.find_iter(line).any(|w| w.as_str() == name));
        if !named {
            cut[at] = true;
        }
    }
    // rake's clean library and the literals its lists gain register files for the `clean` and `clobber` tasks:
    // where the run reaches neither and no line kept names them (or the lists), they evaluate nothing of the
    // project's for the run.
    let cleaning = |line: &str| CLEAN_LIBRARY.is_match(line.trim()) || CLEAN_LIST.is_match(line.trim());
    let names_cleaning = lines.iter().zip(&cut).any(|(line, c)| {
        !*c && !cleaning(line)
            && WORD
                .find_iter(line)
                .any(|w| matches!(w.as_str(), "clean" | "clobber" | "CLEAN" | "CLOBBER"))
    });
    if !reached.iter().any(|task| task == "clean" || task == "clobber") && !names_cleaning {
        for (at, line) in lines.iter().enumerate() {
            if cleaning(line) {
                cut[at] = true;
            }
        }
    }
    let mut out = String::new();
    for (line, _) in lines.iter().zip(&cut).filter(|(_, c)| !**c) {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// [`baseline`] of a Rakefile rake reads in `dir`, the files it loads by literal paths read in (`imports`).
pub(crate) fn baseline_in(text: &str, dir: &std::path::Path) -> Vec<String> {
    baseline(&imports::expanded(text, dir))
}

/// The baseline's test globs and load paths, stored as the reading's names at setup (`TASK=GLOB`, `(lib)
/// TASK=ENTRY`).
pub(crate) fn baseline(text: &str) -> Vec<String> {
    let read = read(text);
    let globs = read
        .tasks
        .iter()
        .flat_map(|(name, task)| task.globs().into_iter().map(move |glob| format!("{name}={glob}")));
    let libs = read.tasks.iter().flat_map(|(name, task)| {
        task.load_path()
            .into_iter()
            .map(move |entry| format!("{LIB}{name}={entry}"))
    });
    globs.chain(libs).collect()
}

fn parts(text: &str, names: &[String], dir: Option<&std::path::Path>) -> Texts {
    let runs: Vec<&str> = names.iter().filter_map(|n| n.strip_prefix(RUNS)).collect();
    // Read from its place, the files it loads by literal paths are read as their text where rake loads it, and
    // `bundler/gem_tasks` as the gemspec Bundler evaluates.
    let text = dir.map_or_else(
        || text.to_string(),
        |dir| gem_tasks::read_in(&imports::expanded(text, dir), dir),
    );
    let read = read(&inert(&text, &runs));
    let mut files = String::new();
    let mut path = String::new();
    for (name, task) in &read.tasks {
        let then: Vec<&str> = names
            .iter()
            .filter_map(|n| n.strip_prefix(name.as_str()).and_then(|g| g.strip_prefix('=')))
            .collect();
        let now = task.globs();
        let widened = then.iter().all(|glob| now.iter().any(|g| g == glob))
            && now.iter().all(|glob| then.contains(&glob.as_str()) || only_tests(glob));
        let shown = if widened { then.join(" ") } else { now.join(" ") };
        files.push_str(&format!("{name}: {shown}\n"));
        let then: Vec<&str> = names
            .iter()
            .filter_map(|n| n.strip_prefix(LIB)?.strip_prefix(name.as_str())?.strip_prefix('='))
            .collect();
        path.push_str(&format!("{name}: {}\n", load_path_shown(task, &then, dir)));
    }
    vec![
        (LABELS[0].to_string(), code_hash(&read.code)),
        (LABELS[1].to_string(), files),
        (LABELS[2].to_string(), path),
    ]
}

/// The load path a task's part shows: its entries, less each entry added after the baseline's (`then`, in their
/// order) that can make no `require` find another file than before — one holding no Ruby file (nor a library
/// Ruby loads, nor a link) outside the entries before it that lie inside it. So minitest's `.`, after `lib` and
/// `test`, is free where the project's Ruby files are all under those two: through `.` they are reachable only
/// by longer names (`lib/calc`), which nothing the baseline ran required, while a root-level `json.rb` or
/// `minitest/autorun.rb` would be found before the standard one. Read without the project (`dir` none: a file
/// tool's text alone) or without the baseline's entries (a seal from before they were recorded), every entry
/// shows. And for minitest's task, which requires each test file by its name from the project's root through the
/// load path, a file under an entry before `.` that is named like a project file (`lib/test/calc_test.rb` for
/// `test/calc_test.rb`) would be loaded in its place: it is shown as a twin, which no baseline had.
fn load_path_shown(task: &Task, then: &[&str], dir: Option<&std::path::Path>) -> String {
    let now = task.load_path();
    let Some(dir) = dir.filter(|_| !then.is_empty()) else {
        return now.join(" ");
    };
    let kept = now.iter().take_while(|entry| then.contains(entry)).count();
    let baseline_order = now[..kept].iter().zip(then.iter()).all(|(a, b)| a == b);
    let mut shown: Vec<&str> = now.clone();
    if baseline_order && kept == then.len() {
        let mut earlier: Vec<&str> = now[..kept].to_vec();
        let mut out: Vec<&str> = earlier.clone();
        for entry in &now[kept..] {
            if holds_other_libraries(dir, entry, &earlier) {
                out.push(entry);
            }
            earlier.push(entry);
        }
        shown = out;
    }
    let mut text = shown.join(" ");
    if task.minitest {
        for twin in twins(dir, &now) {
            text.push_str(&format!(" (twin: {twin})"));
        }
    }
    text
}

/// The extensions of the files Ruby's `require` loads.
const LOADED: [&str; 5] = ["rb", "so", "bundle", "dll", "dylib"];

/// Whether `entry` (relative to `dir`) holds a file `require` could load, or a link, outside the `earlier`
/// entries that lie inside it; an entry that leaves the project, or a walk that fails, counts.
fn holds_other_libraries(dir: &std::path::Path, entry: &str, earlier: &[&str]) -> bool {
    let start = std::path::Path::new(entry);
    if start.is_absolute()
        || start
            .components()
            .any(|c| !matches!(c, std::path::Component::Normal(_) | std::path::Component::CurDir))
    {
        return true;
    }
    let base = dir.join(start);
    if !base.exists() {
        return false;
    }
    // The entries before it that lie inside it, as paths from it.
    let inside: Vec<std::path::PathBuf> = earlier
        .iter()
        .filter_map(|e| {
            let e = std::path::Path::new(e);
            let rel = e.strip_prefix(start).ok().or_else(|| (entry == ".").then_some(e))?;
            (!rel.as_os_str().is_empty() && *rel != *std::path::Path::new(".")).then(|| rel.to_path_buf())
        })
        .collect();
    let mut found = false;
    let walked = crate::walk::Walker::skipping(&[".git"]).walk_pruned(
        &base,
        |relative| inside.iter().any(|i| std::path::Path::new(relative) == i),
        |file| {
            let library = std::path::Path::new(file.name)
                .extension()
                .is_some_and(|ext| LOADED.iter().any(|l| ext == *l));
            found = library || file.kind.is_symlink();
            Ok(crate::walk::until(found))
        },
    );
    found || walked.is_err()
}

/// The files under the load path's entries before `.` named like a file of the project (`lib/test/calc_test.rb`
/// for `test/calc_test.rb`), which minitest's `require "test/calc_test.rb"` finds first.
fn twins(dir: &std::path::Path, path: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for entry in path.iter().take_while(|e| **e != ".") {
        let base = dir.join(entry);
        if !base.is_dir() {
            continue;
        }
        let _ = crate::walk::Walker::skipping(&[".git"]).walk(&base, |file| {
            if std::path::Path::new(file.name)
                .extension()
                .is_some_and(|ext| ext == "rb")
                && std::fs::symlink_metadata(dir.join(file.relative)).is_ok()
            {
                out.push(format!("{entry}/{}", file.relative));
            }
            Ok(crate::walk::until(false))
        });
    }
    out.sort();
    out
}

/// The code's hash as Ruby reads it (`testsig::norm`, line by line): comments, blank lines, white space inside a
/// line, a plain string's quotes and a call's optional parentheses (`require 'x'`, `require("x")`) are spellings
/// of the same code, as in the test files. Line breaks are kept (a Ruby line ends a statement).
fn code_hash(code: &str) -> String {
    let lx = crate::testsig::lex::lex(crate::testsig::Lang::Ruby, code);
    let mut norm = crate::testsig::norm::Norm::new(&lx);
    let mut from = 0;
    for i in 1..=lx.toks.len() {
        let ends = lx.toks.get(i).is_none_or(|tok| tok.line > lx.toks[i - 1].end_line);
        if ends {
            norm.line(0);
            norm.tokens(from, i);
            from = i;
        }
    }
    norm.finish()
}

/// Whether every file `glob` can match is a test file by minitest's or RSpec's names: its last component
/// `…_test.rb`, `test_….rb` or `…_spec.rb` with nothing but `*` as a wildcard, under directories each literal,
/// `*` or `**`, the first literal, inside the project.
fn only_tests(glob: &str) -> bool {
    let mut components: Vec<&str> = glob.split('/').collect();
    let Some(last) = components.pop() else {
        return false;
    };
    let plain = |c: &str| !c.is_empty() && c.chars().all(|ch| ch.is_ascii_alphanumeric() || "_-.*".contains(ch));
    let named = plain(last)
        && last.ends_with(".rb")
        && (last.starts_with("test_") || last.ends_with("_test.rb") || last.ends_with("_spec.rb"));
    let dirs = components
        .iter()
        .all(|c| plain(c) && *c != "." && *c != ".." && (!c.contains('*') || *c == "*" || *c == "**"));
    // Rooted at a directory of the project's own (`test/`), not anywhere (`**/` reaches `vendor/`'s gems).
    let rooted = components.first().is_some_and(|c| !c.contains('*'));
    named && dirs && rooted && !glob.starts_with('/')
}

#[cfg(test)]
mod tests {
    use super::{baseline, only_tests, parts, read};

    fn sealed_text(text: &str) -> String {
        super::code_hash(&read(text).code)
    }

    const RAKEFILE: &str = "require \"rake/testtask\"\n\nRake::TestTask.new(:test) do |t|\n  t.libs << \"test\"\n  t.pattern = \"test/**/*_test.rb\"\nend\n";

    fn with(line: &str) -> String {
        RAKEFILE.replace("  t.libs << \"test\"\n", &format!("  t.libs << \"test\"\n{line}\n"))
    }

    #[test]
    fn a_test_tasks_display_switch_set_to_a_literal_is_free() {
        for line in ["  t.warning = false", "  t.verbose = true", "\tt.warning=true"] {
            assert_eq!(sealed_text(&with(line)), sealed_text(RAKEFILE), "{line}");
        }
    }

    #[test]
    fn quotes_optional_parentheses_comments_and_libs_push_are_spellings_of_the_same_file() {
        let respelled = "# frozen_string_literal: true\n\nrequire('rake/testtask')\n\nRake::TestTask.new(:test) do |t|\n  t.libs.push('test')\n  t.pattern = 'test/**/*_test.rb'\nend\n";
        assert!(same(RAKEFILE, respelled), "{respelled}");
        let push = RAKEFILE.replace("t.libs << \"test\"", "t.libs.push \"test\"");
        assert!(same(RAKEFILE, &push), "{push}");
        // A line break is a statement's end in Ruby: two statements joined on one line are another file.
        assert_ne!(sealed_text("a\n-1\n"), sealed_text("a -1\n"));
        assert_ne!(sealed_text("require \"a#{1}\"\n"), sealed_text("require 'a#{1}'\n"));
    }

    #[test]
    fn anything_else_is_code_and_counts() {
        for line in [
            "  t.warning = ENV[\"W\"] == \"1\"",
            "  t.warning = false # quiet",
            "  u.warning = false",
            "  t.ruby_opts << \"-rpatch\"",
        ] {
            assert_ne!(sealed_text(&with(line)), sealed_text(RAKEFILE), "{line}");
        }
        // The switch outside a file that defines a test task is a line like the rest.
        assert_ne!(sealed_text("t.warning = false\n"), sealed_text(""));
    }

    /// The parts of `text` against the baseline `then` (a Rakefile's text at setup).
    fn same(then: &str, now: &str) -> bool {
        parts(then, &baseline(then), None) == parts(now, &baseline(then), None)
    }

    #[test]
    fn a_file_list_that_keeps_the_old_glob_and_adds_test_globs_is_the_baseline() {
        let now = RAKEFILE.replace(
            "  t.pattern = \"test/**/*_test.rb\"\n",
            "  t.libs << \"lib\"\n  t.test_files = FileList[\"test/**/*_test.rb\", 'test/**/test_*.rb', \"spec/*_spec.rb\"]\n",
        );
        assert!(same(RAKEFILE, &now), "{now}");
        // The default pattern, written out.
        let bare = "Rake::TestTask.new do |t|\nend\n";
        assert!(same(
            bare,
            "Rake::TestTask.new do |t|\n  t.pattern = \"test/test*.rb\"\nend\n"
        ));
    }

    #[test]
    fn a_file_list_that_drops_an_old_glob_or_reaches_other_files_counts() {
        for line in [
            "  t.pattern = \"test/**/add_test.rb\"",
            "  t.test_files = FileList[\"test/**/*_test.rb\", \"lib/patch.rb\"]",
            "  t.test_files = FileList[\"test/**/*_test.rb\", \"test/**/*.rb\"]",
            "  t.test_files = [\"test/**/*_test.rb\", \"../other/x_test.rb\"]",
            "  t.test_files = FileList[\"test/**/*_test.rb\", \"test/{a,b}_test.rb\"]",
            "  t.libs << \"shim\"",
            "  t.libs.unshift \"shim\"",
        ] {
            let now = RAKEFILE.replace("  t.pattern = \"test/**/*_test.rb\"\n", &format!("{line}\n"));
            let kept = RAKEFILE.replace("end\n", &format!("{line}\nend\n"));
            assert!(!same(RAKEFILE, &now), "{line}");
            assert!(!same(RAKEFILE, &kept) || line.contains("add_test"), "{line}");
        }
        // Another block's `pattern` (RSpec's rake task) is code, not the test task's list.
        let rspec =
            format!("{RAKEFILE}RSpec::Core::RakeTask.new(:spec) do |t|\n  t.pattern = \"spec/**/*_spec.rb\"\nend\n");
        assert!(read(&rspec).code.contains("spec/**/*_spec.rb"));
    }

    #[test]
    fn only_globs_of_test_names_hold_only_tests() {
        for glob in [
            "test/**/test_*.rb",
            "test/*_test.rb",
            "spec/**/*_spec.rb",
            "test/*/*_test.rb",
        ] {
            assert!(only_tests(glob), "{glob}");
        }
        for glob in [
            "test/**/*.rb",
            "lib/patch.rb",
            "test/../lib/x_test.rb",
            "/abs/x_test.rb",
            "test/*_test.rb.bak",
            "test/**x/*_test.rb",
            "**/*_test.rb",
            "x_test.rb",
        ] {
            assert!(!only_tests(glob), "{glob}");
        }
    }

    #[test]
    fn a_task_the_verify_does_not_reach_is_inert() {
        let base = format!("{RAKEFILE}\ntask default: :test\n");
        let runs = |task: &str| vec![format!("test=test/**/*_test.rb"), format!("{}{task}", super::RUNS)];
        let code = |text: &str, names: &[String]| parts(text, names, None)[0].1.clone();
        let lint = "\ndesc 'Check the code'\ntask(:lint) do\n  sh('ruby -wc lib/calc.rb')\nend\n\ntask(default: %i[lint test])\n";
        let honest = format!("{RAKEFILE}{lint}");
        assert_eq!(code(&base, &runs("test")), code(&honest, &runs("test")));
        // The verify runs the default task, which now reaches `lint`: its code counts.
        assert_ne!(code(&base, &runs("default")), code(&honest, &runs("default")));
        // A seal without the names keeps every line code.
        let old = ["test=test/**/*_test.rb".to_string()];
        assert_ne!(code(&base, &old), code(&honest, &old));
        for reached in [
            // A prerequisite of the test task, declared or named elsewhere.
            "\ntask(:lint) do\n  Calc.prepend(Patch)\nend\ntask test: :lint\n",
            "\ntask(:lint) do\n  Calc.prepend(Patch)\nend\nRake::Task[:test].enhance([:lint])\n",
            // Reached through the body of a task that something else names.
            "\ntask(:a) do\n  Rake::Task[:b].invoke\nend\ntask(:b) do\n  Calc.prepend(Patch)\nend\nRake::Task[:test].enhance([:a])\n",
            // A body that closes the block early, code at the margin, a name that is not a literal.
            "\ntask(:lint) do\n  end; Calc.prepend(Patch); begin\nend\n",
            "\ntask(:lint) do\nCalc.prepend(Patch)\nend\n",
            "\ntask(lint_name) do\n  sh('true')\nend\n",
            "\ntask default: patched(:test)\n",
        ] {
            let moved = format!("{RAKEFILE}{reached}");
            assert_ne!(code(&base, &runs("test")), code(&moved, &runs("test")), "{reached}");
        }
        // rake's clean library and its lists' literals, for tasks the run does not reach.
        let cleaned = format!("require \"rake/clean\"\nCLEAN.include(\"coverage\", 'tmp')\nCLOBBER << \"pkg\"\n{base}");
        assert_eq!(code(&base, &runs("test")), code(&cleaned, &runs("test")));
        for reached in [
            "task default: [:clean, :test]\n",
            "Rake::Task[:clean].invoke\n",
            "CLEAN.include(Dir[\"lib/*\"])\n",
            "CLEAN.include(\"#{ENV['X']}\")\n",
        ] {
            // The clean library's lines count where the run reaches its tasks or something names them.
            let without = format!("{base}{reached}");
            let moved = format!("{cleaned}{reached}");
            assert_ne!(
                code(&without, &runs("default")),
                code(&moved, &runs("default")),
                "{reached}"
            );
        }
        // A task kept because something names it keeps what its body names: `b`'s body counts.
        let chain = |body: &str| {
            format!(
                "{RAKEFILE}\ntask(:a) do\n  Rake::Task[:b].invoke\nend\ntask(:b) do\n  {body}\nend\nRake::Task[:test].enhance([:a])\n"
            )
        };
        assert_ne!(
            code(&chain("sh('true')"), &runs("test")),
            code(&chain("Calc.prepend(Patch)"), &runs("test"))
        );
    }
}

#[cfg(test)]
mod minitest_task_tests {
    use super::{baseline, resolved};
    use crate::closure::derive::tests::project;

    const RAKE: &str = "require \"rake/testtask\"\n\nRake::TestTask.new(:test) do |t|\n  t.libs << \"test\"\n  t.pattern = \"test/**/*_test.rb\"\nend\n\ntask default: :test\n";
    const MINITEST: &str = "require \"minitest/test_task\"\n\nMinitest::TestTask.create(:test) do |t|\n  t.libs << \"test\"\n  t.libs << \"lib\"\n  t.warning = false\n  t.test_globs = [\"test/**/*_test.rb\"]\nend\n\ntask default: :test\n";

    /// The names setup records for `text` with `rake test`.
    fn names(text: &str) -> Vec<String> {
        let mut names = baseline(text);
        names.push(format!("{}test", super::RUNS));
        names
    }

    #[test]
    fn minitests_own_task_with_the_same_files_and_a_dot_of_no_other_ruby_file_is_the_baseline() {
        let dir = project(&[("Rakefile", RAKE), ("lib/calc.rb", ""), ("test/calc_test.rb", "")]);
        let then = resolved(dir.path(), &names(RAKE), None);
        let now = resolved(dir.path(), &names(RAKE), Some(("Rakefile", MINITEST.as_bytes())));
        assert_eq!(then, now);
    }

    #[test]
    fn minitests_task_created_bare_or_with_its_defaults_spelled_out_is_the_baseline() {
        let dir = project(&[
            ("Rakefile", RAKE),
            ("lib/calc.rb", ""),
            ("test/calc_test.rb", ""),
            ("calc.gemspec", ""),
        ]);
        let then = resolved(dir.path(), &names(RAKE), None);
        for text in [
            "require \"minitest/test_task\"\n\nMinitest::TestTask.create\n",
            "require 'minitest/test_task'\nMinitest::TestTask.create(:test)\n",
            "Minitest::TestTask.create :test do |t|\n  t.test_globs = %w[test/**/*_test.rb]\n  t.warning = true\nend\n",
        ] {
            let now = resolved(dir.path(), &names(RAKE), Some(("Rakefile", text.as_bytes())));
            assert_eq!(then, now, "{text}");
        }
    }

    #[test]
    fn a_dot_that_holds_a_twin_or_a_test_file_shadowed_ahead_of_it_counts() {
        let base = [("Rakefile", RAKE), ("lib/calc.rb", ""), ("test/calc_test.rb", "")];
        for (twin, why) in [
            ("json.rb", "a library's twin at the root"),
            ("minitest/autorun.rb", "minitest's twin under the root"),
            ("support/helper.so", "a compiled library"),
            ("lib/test/calc_test.rb", "the test file's twin ahead of `.`"),
            ("test/test/calc_test.rb", "the test file's twin in `test`"),
        ] {
            let mut files = base.to_vec();
            files.push((twin, ""));
            let dir = project(&files);
            let then = resolved(dir.path(), &names(RAKE), None);
            let now = resolved(dir.path(), &names(RAKE), Some(("Rakefile", MINITEST.as_bytes())));
            assert_ne!(then, now, "{why}");
        }
    }

    #[test]
    fn minitests_prelude_framework_and_extra_args_are_code() {
        let dir = project(&[("Rakefile", RAKE), ("lib/calc.rb", ""), ("test/calc_test.rb", "")]);
        let then = resolved(dir.path(), &names(RAKE), None);
        for line in [
            "  t.test_prelude = %(require \"patch\")",
            "  t.framework = %(require \"minitest/pride\")",
            "  t.extra_args = [\"-n\", \"/multiplies/\"]",
            "  t.libs.unshift \"shim\"",
        ] {
            let text = MINITEST.replace("  t.warning = false\n", &format!("  t.warning = false\n{line}\n"));
            let now = resolved(dir.path(), &names(RAKE), Some(("Rakefile", text.as_bytes())));
            assert_ne!(then, now, "{line}");
        }
    }

    #[test]
    fn an_added_entry_inside_an_earlier_one_is_judged_by_the_shorter_names_it_gives() {
        let with = MINITEST.replace(
            "  t.warning = false\n",
            "  t.warning = false\n  t.libs << \"test/support\"\n",
        );
        // Empty or missing, it can shadow nothing; holding `json.rb`, it shadows the standard `json`.
        for (extra, moves) in [(None, false), (Some(("test/support/json.rb", "")), true)] {
            let mut files = vec![("Rakefile", RAKE), ("lib/calc.rb", ""), ("test/calc_test.rb", "")];
            files.extend(extra);
            let dir = project(&files);
            let then = resolved(dir.path(), &names(RAKE), None);
            let now = resolved(dir.path(), &names(RAKE), Some(("Rakefile", with.as_bytes())));
            assert_eq!(then != now, moves, "{extra:?}");
        }
    }
}

//! From the verify command to the files that define what it runs — the oracle's *closure*.
//!
//! The verify command string is sealed, but `npm test` means whatever `package.json` says, `pytest` obeys
//! `pytest.ini` and every `conftest.py`, `cargo test` obeys `.cargo/config.toml`, `make test` runs the
//! Makefile's recipe. An agent that edits those files games the oracle without touching the command. So setup
//! reads the command the way a shell would (the guard's lexer: `&&`, `;`, pipes, `$(…)`, `sh -c`) and, for
//! each simple command, adds the files its program reads, recursing into what those files run: an npm script's
//! text, a Makefile target's recipe (and its prerequisites), a justfile recipe, a shell script named in the
//! command. Files that would change the run if they *appeared* (a new `conftest.py`, a `pytest.ini` that was
//! not there) are sealed as absent.
//!
//! It never runs anything and never fails: an unknown program adds nothing but the files named in its
//! arguments; recursion is bounded by [`MAX_DEPTH`] and the plan by [`MAX_TARGETS`].

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::parts::Scope;
use crate::guard::lex;
use crate::recipes;
use crate::schema::Lang;

include!(concat!(env!("OUT_DIR"), "/ecosystem/closure/derive.rs"));

/// Every ecosystem's rule for the program of a simple command, tried after the wrappers (`env`, `npx`, `uv run`,
/// …) in their ranks' order (`program:RANK` on each folder's line of `src/ecosystem/ECOSYSTEMS`;
/// `build/ranked.rs`, `RANKED`): each reads the configuration of the programs it recognises and says whether it recognised this one.
const PROGRAMS: &[fn(&mut Deriver, &Simple) -> bool] = &ranked_program!(program);

/// What scripts are, as a verify command names them: the core's own, then each ecosystem's that has scripts, in
/// their ranks' order (`scripts:RANK`).
const SCRIPTS: &[&Scripts] = &ranked_scripts!(&OTHER_SCRIPTS ; &SCRIPTS);

/// An ecosystem's scripts: their extensions (an argument naming such a file of the project is code or
/// configuration, sealed whole: `Deriver::named_files`), and which of its interpreters run the script their first
/// word names (within a test script, that script is the code under test: `Deriver::code_under_test`).
struct Scripts {
    extensions: &'static [&'static str],
    runs_first_word: fn(&str) -> bool,
}

/// Perl's and Lua's scripts, and configuration files by their extension.
const OTHER_SCRIPTS: Scripts = Scripts {
    extensions: &["pl", "lua", "toml", "ini", "cfg", "conf", "yaml", "yml"],
    runs_first_word: |_| false,
};

/// One simple command as an ecosystem's rule reads it: its program's `name` (the last part of `verb`, the
/// word as written), the words after it, and where it runs.
struct Simple<'s> {
    name: &'s str,
    verb: &'s str,
    rest: &'s [String],
    cwd: &'s Path,
    depth: usize,
}

/// How deeply scripts, recipes and `sh -c` strings are followed.
const MAX_DEPTH: usize = 6;
/// Most files one verify command may seal (a guard against pathological build files).
const MAX_TARGETS: usize = 256;

/// Why a file belongs to the closure, for the status listing and the rejection messages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "what")]
pub enum Why {
    /// Configuration that the named tool reads (`pytest`, `npm test`, `cargo`).
    Configures(String),
    /// Named in, or run by, this command text.
    RunBy(String),
    /// Seen in the traced baseline run (see `closure::observed`).
    Observed(super::observed::Seen),
    /// A step of the run whose change a promise's trace did not clear: what it did (see `closure::steps`).
    /// Only in a rejection; setup stores none.
    Step(super::steps::Finding),
}

/// A file of the closure: relative to the project root, or absolute outside it (`/home/u/.cargo/config.toml`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub path: String,
    pub scope: Scope,
    pub why: Why,
}

/// A file name that matters wherever it appears in the project (e.g. `conftest.py`), or a file name pattern
/// that matters in one directory (`mk/*.mk`, from a Makefile's `-include $(wildcard mk/*.mk)`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Watch {
    /// A file name; with `dir`, a glob over file names (`*.mk`).
    pub name: String,
    /// The one directory (relative to the project root) the pattern applies to; none: every directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<String>,
    pub scope: Scope,
    pub why: Why,
    /// Whether a new file of this name is a change to the oracle (a new `conftest.py` is; a new crate's
    /// `Cargo.toml` is not).
    pub new_file_counts: bool,
}

/// A test runner the command runs: whose rules say which files are tests (see `testseal::rules`). The
/// one type of the runner table (`runner`); the closure never records `Runner::Nextest` (it reads cargo's
/// configuration for it as `Runner::Cargo`).
pub use crate::runner::Runner;

/// What a verify command's closure is made of.
#[derive(Debug, Default)]
pub struct Plan {
    pub targets: Vec<Target>,
    pub watches: Vec<Watch>,
    /// Empty when no known test runner was recognized: then every ecosystem's tests are sealed.
    pub ecosystems: BTreeSet<Lang>,
    /// The test runners recognized in the command.
    pub runners: BTreeSet<Runner>,
}

/// Derives the closure of `command` run by `sh -c` in `root`. `home` is where user-level configuration lives
/// (`~/.npmrc`); `None` leaves it out. `var` reads the environment, where a tool's own home may be named
/// elsewhere (`$CARGO_HOME`, in its ecosystem's closure file).
pub fn derive(command: &str, root: &Path, home: Option<&Path>, var: &dyn Fn(&str) -> Option<OsString>) -> Plan {
    let mut d = Deriver {
        root,
        home,
        var,
        plan: Plan::default(),
        followed: BTreeSet::new(),
        in_test: false,
    };
    d.source(command, Path::new(""), 0);
    d.plan
}

struct Deriver<'a> {
    root: &'a Path,
    home: Option<&'a Path>,
    /// The environment the command runs in, for the variables a tool reads its home from.
    var: &'a dyn Fn(&str) -> Option<OsString>,
    plan: Plan,
    /// Scripts and recipes already followed (file, entry), so cycles end.
    followed: BTreeSet<(String, String)>,
    /// Following a script on the test side (`tests/run.sh`): the programs it runs are the code under test.
    in_test: bool,
}

impl Deriver<'_> {
    /// Shell source run in `cwd` (relative to the root).
    fn source(&mut self, src: &str, cwd: &Path, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let Ok(cmds) = lex::parse(src, 0) else { return };
        let mut cwd = cwd.to_path_buf();
        self.commands(&cmds, &mut cwd, depth);
    }

    fn commands(&mut self, cmds: &[lex::Cmd], cwd: &mut PathBuf, depth: usize) {
        for cmd in cmds {
            for nested in &cmd.nested {
                let mut inner = cwd.clone();
                self.commands(nested, &mut inner, depth + 1);
            }
            // Unknown words (`$X`, `$(…)`) are kept as empty strings so positions stay meaningful.
            let words: Vec<String> = cmd.words.iter().map(|w| w.literal().unwrap_or_default()).collect();
            let start = words.iter().take_while(|w| is_assignment(w)).count();
            if words.get(start).is_some_and(|w| w == "cd") {
                if let Some(dir) = words.get(start + 1).filter(|d| !d.is_empty() && !d.starts_with('-')) {
                    *cwd = normalize(&cwd.join(dir));
                }
                continue;
            }
            self.argv(&words[start..], cwd, depth);
        }
    }

    /// One simple command's words (after leading `VAR=value`s).
    fn argv(&mut self, argv: &[String], cwd: &Path, depth: usize) {
        if depth > MAX_DEPTH || self.plan.targets.len() >= MAX_TARGETS {
            return;
        }
        let Some(verb) = argv.first().filter(|v| !v.is_empty()) else {
            return;
        };
        let name = verb.rsplit('/').next().unwrap_or(verb).to_string();
        let rest = &argv[1..];
        let text = argv.join(" ");
        if self.in_test && self.code_under_test(&name, rest, verb, cwd) {
            return;
        }
        // A sourced file is read key by key where the match follows it, and a script a shell runs line by line
        // (`follow_script`), not sealed whole as a file named here.
        if !matches!(name.as_str(), "." | "source") {
            let script = match name.as_str() {
                "sh" | "bash" | "dash" | "zsh" | "ksh" => script_operand(rest),
                _ => Some(verb.as_str()),
            };
            self.named_files(argv, cwd, &text, script);
        }
        match name.as_str() {
            "env" | "timeout" | "nice" | "time" | "nohup" | "command" | "exec" | "stdbuf" | "xvfb-run" | "sudo"
            | "npx" | "bunx" | "pnpx" | "cross-env" | "nyc" | "c8" => self.argv(skip_wrapper(&name, rest), cwd, depth),
            "cross-env-shell" => self.source(&skip_wrapper(&name, rest).join(" "), cwd, depth + 1),
            "dotenv" | "dotenvx" => self.dotenv(rest, cwd, depth),
            "uv" | "poetry" | "pipenv" | "pdm" | "hatch" | "rye" if rest.first().is_some_and(|w| w == "run") => {
                self.argv(skip_flags(&rest[1..]), cwd, depth + 1);
            }
            "just" => self.just(rest, cwd, depth),
            "sh" | "bash" | "dash" | "zsh" | "ksh" => self.shell(rest, cwd, depth, Some(&text)),
            "source" | "." => self.shell(rest, cwd, depth, None),
            // An ecosystem's program: the first rule that recognises it reads its configuration.
            _ => {
                let simple = Simple {
                    name: &name,
                    verb,
                    rest,
                    cwd,
                    depth,
                };
                let _ = PROGRAMS.iter().any(|program| program(self, &simple));
            }
        }
        if verb.contains('/') || self.is_file(&cwd.join(verb)) {
            self.follow_script(&cwd.join(verb), cwd, depth, &text, (false, false));
        }
    }

    /// Arguments that name a file of the project that is code or configuration (`sh tests/run.sh`, `python
    /// check.py`, `--config ci.toml`) are sealed whole. Data files (`cat score.txt`) are not: they are often what
    /// the agent is meant to produce; `--seal` covers the rest. Test files are not sealed whole either: they are
    /// sealed test by test, so new tests can be added.
    /// `script`, the word naming the script the command runs, is left to [`Deriver::follow_script`].
    fn named_files(&mut self, argv: &[String], cwd: &Path, text: &str, script: Option<&str>) {
        for word in argv.iter().filter(|w| Some(w.as_str()) != script) {
            let word = word
                .split_once('=')
                .map_or(word.as_str(), |(flag, v)| if flag.starts_with('-') { v } else { word });
            if word.is_empty() || word.starts_with('-') || !is_code_or_config(word) {
                continue;
            }
            let path = cwd.join(word);
            if self.is_file(&path) && !crate::closure::is_test_path(&path) {
                self.whole(path, Why::RunBy(short(text)));
            }
        }
    }

    fn just(&mut self, rest: &[String], cwd: &Path, depth: usize) {
        let mut file = None;
        let mut recipe = None;
        let mut i = 0;
        while i < rest.len() {
            let w = &rest[i];
            if matches!(w.as_str(), "-f" | "--justfile") {
                file = rest.get(i + 1).cloned();
                i += 2;
                continue;
            }
            if !w.starts_with('-') && recipe.is_none() {
                recipe = Some(w.clone());
            }
            i += 1;
        }
        let justfile = match file {
            Some(f) => cwd.join(f),
            None => recipes::JUSTFILES
                .iter()
                .map(|n| cwd.join(n))
                .find(|p| self.is_file(p))
                .unwrap_or_else(|| cwd.join("justfile")),
        };
        let why = Why::Configures(
            format!("just {}", recipe.clone().unwrap_or_default())
                .trim()
                .to_string(),
        );
        self.whole(justfile.clone(), why);
        let Ok(text) = std::fs::read_to_string(self.root.join(&justfile)) else {
            return;
        };
        if !self.followed.insert((
            justfile.to_string_lossy().into_owned(),
            recipe.clone().unwrap_or_default(),
        )) {
            return;
        }
        for line in recipes::just_recipes(&text, recipe.as_deref()) {
            self.source(&line, cwd, depth + 1);
        }
    }

    /// A shell's arguments: the script it runs, named by the command's whole `text` (`sh check.sh`), or with none
    /// the script it sources, named by its arguments (`ci/env`); or the string `-c` gives it.
    fn shell(&mut self, rest: &[String], cwd: &Path, depth: usize, text: Option<&str>) {
        if let Some(script) = script_operand(rest) {
            let sourced = text.is_none();
            let text = text.map_or_else(|| rest.join(" "), str::to_string);
            self.follow_script(&cwd.join(script), cwd, depth, &text, (true, sourced));
        } else if let Some(code) = rest.iter().position(|w| w == "-c").and_then(|i| rest.get(i + 1)) {
            self.source(code, cwd, depth + 1);
        }
    }

    /// Within a test script, a program of the project that the script runs (`sh bin/double.sh 4`, `./calc 1 2`,
    /// `python3 tool.py`) is the code under test, as the module a Python test imports is: named in the plan as
    /// such (so the trace's reading leaves it to the agent too), not sealed, not followed. Whether `verb` was one;
    /// a runner the script starts (`python3 -m pytest`, `cargo test`) is read as anywhere else.
    fn code_under_test(&mut self, name: &str, rest: &[String], verb: &str, cwd: &Path) -> bool {
        let program: Option<&str> = match name {
            "sh" | "bash" | "dash" | "zsh" | "ksh" => {
                rest.iter().find(|w| !w.starts_with(['-', '+'])).map(String::as_str)
            }
            _ if SCRIPTS.iter().any(|scripts| (scripts.runs_first_word)(name)) => {
                rest.first().filter(|w| !w.starts_with('-')).map(String::as_str)
            }
            _ if verb.contains('/') || self.is_file(&cwd.join(verb)) => Some(verb),
            _ => None,
        };
        let Some(program) = program else { return false };
        let path = normalize(&cwd.join(program));
        if !self.is_file(&path) || crate::closure::is_test_path(&path) {
            return false;
        }
        self.add(
            path,
            Scope::Code,
            Why::RunBy(short(&format!("{verb} {}", rest.join(" ")))),
        );
        true
    }

    /// A script run by the command: sealed, and its lines followed when it is a shell script — by its
    /// extension or `#!` line, or because a shell runs it (`sh FILE`, `. FILE`, `source FILE`: `by_shell`). A
    /// shell script is sealed but for its lines that only print (`Scope::Script`, see `closure::script`); any
    /// other script whole. A file a script sources runs in its shell and is sealed key by key (`Scope::Shell`: its functions that are
    /// no command are the code the tests call); a script on the test side has what it runs read as the code
    /// under test ([`Deriver::code_under_test`]).
    fn follow_script(&mut self, path: &Path, cwd: &Path, depth: usize, text: &str, how: (bool, bool)) {
        let (by_shell, sourced) = how;
        let path = normalize(path);
        if !self.is_file(&path) {
            return;
        }
        let body = std::fs::read_to_string(self.root.join(&path));
        let shell = by_shell
            || path.extension().is_some_and(|e| e == "sh" || e == "bash")
            || body.as_ref().is_ok_and(|body| {
                body.lines()
                    .next()
                    .is_some_and(|l| l.starts_with("#!") && l.contains("sh"))
            });
        let on_test_side = crate::closure::is_test_path(&path);
        let scope = match (sourced, shell && !on_test_side && body.is_ok()) {
            (true, _) => self.sourced_scope(),
            (false, true) => match from_dir(path.parent().unwrap_or(Path::new("")), cwd) {
                Some(home) => Scope::ScriptIn { home, by_shell },
                None => Scope::Script,
            },
            (false, false) => Scope::Whole,
        };
        self.add(path.clone(), scope, Why::RunBy(short(text)));
        let was_in_test = self.in_test;
        if !sourced {
            self.in_test = on_test_side;
        }
        let Ok(body) = body else {
            self.in_test = was_in_test;
            return;
        };
        if shell
            && self
                .followed
                .insert((path.to_string_lossy().into_owned(), String::new()))
        {
            self.source(&body, cwd, depth + 1);
        }
        self.in_test = was_in_test;
    }

    /// How a sourced shell file is sealed: [`Scope::ShellBeside`], with the values this run inherits of the
    /// runners' options variables the start channel completes.
    fn sourced_scope(&self) -> Scope {
        let inherited = crate::room::hook::completed_vars()
            .filter_map(|name| Some((name.to_string(), (self.var)(name)?.to_string_lossy().into_owned())))
            .collect();
        Scope::ShellBeside { inherited }
    }

    /// An absolute path inside the project as a relative one; outside it, as it is.
    fn local(&self, abs: &Path) -> PathBuf {
        abs.strip_prefix(self.root)
            .map_or_else(|_| abs.to_path_buf(), Path::to_path_buf)
    }

    fn is_file(&self, relative: &Path) -> bool {
        let path = self.root.join(relative);
        path.starts_with(self.root) && !relative.starts_with("..") && path.is_file()
    }

    fn whole(&mut self, path: PathBuf, why: Why) {
        self.add(path, Scope::Whole, why);
    }

    fn add(&mut self, path: PathBuf, scope: Scope, why: Why) {
        let path = display(&normalize(&path));
        if let Some(existing) = self.plan.targets.iter_mut().find(|t| t.path == path) {
            existing.scope.merge(scope);
            return;
        }
        if self.plan.targets.len() < MAX_TARGETS {
            self.plan.targets.push(Target { path, scope, why });
        }
    }

    fn watch(&mut self, name: &str, scope: Scope, why: Why, new_file_counts: bool) {
        if !self.plan.watches.iter().any(|w| w.name == name) {
            self.plan.watches.push(Watch {
                name: name.to_string(),
                dir: None,
                scope,
                why,
                new_file_counts,
            });
        }
    }
}

/// The script a shell's arguments name (`sh -e scripts/check.sh`): the first operand, unless `-c` comes first
/// (then the shell runs a string, not a file).
fn script_operand(rest: &[String]) -> Option<&str> {
    let mut i = 0;
    while let Some(w) = rest.get(i) {
        match w.as_str() {
            "-c" => return None,
            "-o" | "+o" => i += 2,
            w if w.starts_with(['-', '+']) => i += 1,
            w => return Some(w),
        }
    }
    None
}

/// Whether a file name looks like code or configuration rather than data.
fn is_code_or_config(word: &str) -> bool {
    Path::new(word)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| SCRIPTS.iter().any(|scripts| scripts.extensions.contains(&e)))
}

/// `FOO=bar` before a command.
fn is_assignment(word: &str) -> bool {
    word.split_once('=')
        .is_some_and(|(name, _)| !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
}

/// The place `to` as named from `dir` (both relative to the project's root, normalized): `..` for `scripts` to the
/// root, `.` for the same place; `None` where either climbs above the root.
fn from_dir(dir: &Path, to: &Path) -> Option<String> {
    let parts = |p: &Path| -> Option<Vec<String>> {
        p.components()
            .filter(|c| !matches!(c, Component::CurDir))
            .map(|c| match c {
                Component::Normal(name) => Some(name.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect()
    };
    let (dir, to) = (parts(dir)?, parts(to)?);
    let common = dir.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let named: Vec<&str> = std::iter::repeat_n("..", dir.len() - common)
        .chain(to[common..].iter().map(String::as_str))
        .collect();
    Some(if named.is_empty() {
        ".".to_string()
    } else {
        named.join("/")
    })
}

/// The command a wrapper runs: `timeout 60 pytest` → `pytest`, `env -i A=1 make` → `make`.
fn skip_wrapper<'a>(wrapper: &str, rest: &'a [String]) -> &'a [String] {
    let mut i = 0;
    while let Some(w) = rest.get(i) {
        let value_flag = matches!(
            w.as_str(),
            "-n" | "-s"
                | "-k"
                | "-p"
                | "--package"
                | "-u"
                | "--signal"
                | "--kill-after"
                | "-e"
                | "-f"
                | "-r"
                | "--reporter"
        );
        if value_flag {
            i += 2;
        } else if w.starts_with('-') || is_assignment(w) || (wrapper == "timeout" && looks_like_duration(w)) {
            i += 1;
        } else {
            break;
        }
    }
    rest.get(i..).unwrap_or_default()
}

fn skip_flags(rest: &[String]) -> &[String] {
    let i = rest.iter().take_while(|w| w.starts_with('-')).count();
    &rest[i..]
}

fn looks_like_duration(w: &str) -> bool {
    let digits = w.trim_end_matches(['s', 'm', 'h', 'd']);
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// `.` and `..` removed textually; a `..` that climbs above a relative path's start is kept.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for comp in path.components() {
        match comp {
            Component::CurDir => {}
            Component::ParentDir => match out.components().next_back() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(".."),
            },
            other => out.push(other),
        }
    }
    out
}

fn display(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// A command text cut to a readable length.
fn short(text: &str) -> String {
    const MAX: usize = 80;
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= MAX {
        return one_line;
    }
    let mut cut: String = one_line.chars().take(MAX - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod lookup_tests;
#[cfg(test)]
pub(crate) mod tests;

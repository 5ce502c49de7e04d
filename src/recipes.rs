//! The one reader of the build files that name commands: a `package.json` script, the rules of a Makefile and
//! of a justfile. `--verify auto` asks it which targets and recipes there are (`make_targets`,
//! `just_recipe_names`); the closure asks it what a target runs (`make_recipes`, `just_recipes`, which follow
//! dependencies — `test: build` — so the whole recipe is known) and how a Makefile's lines read (the line rules
//! below, for `closure::makefile`). Each reader is forgiving: an odd file yields fewer commands, never an error.
//!
//! The line rules are GNU make's and just's, as far as loopgate needs them: continuation lines are joined, a
//! Makefile line starting with a tab is a recipe line and any other line (indented with spaces or not) a rule
//! header, an assignment or a directive; a justfile recipe's body is indented.

use std::collections::{BTreeMap, BTreeSet};

include!(concat!(env!("OUT_DIR"), "/ecosystem/recipes.rs"));

/// The ecosystems' own readers of the files that name commands (`package.json`'s scripts, the names make looks
/// for), asked as this module's.
pub(crate) use js::*;
pub(crate) use make::*;

/// The names just looks for, in its order.
pub(crate) const JUSTFILES: [&str; 4] = ["justfile", "Justfile", ".justfile", "JUSTFILE"];

/// A kind of file that names the project's own commands, and the program that runs one of them (`just test`,
/// `make test`): `--verify auto` picks a `test` one first and a `check` one last (`detect`), in [`TASKS`]'
/// order.
pub(crate) struct Tasks {
    /// The names its program looks for, in its order.
    pub(crate) files: &'static [&'static str],
    /// Its name where a sentence names the kind (`justfile`).
    pub(crate) shown: &'static str,
    pub(crate) program: &'static str,
    /// The names it defines, from its text.
    pub(crate) names: fn(&str) -> Vec<String>,
    /// Whether it calls them recipes (just) rather than targets (make).
    pub(crate) recipes: bool,
}

/// The files that name commands, a justfile before a Makefile.
pub(crate) const TASKS: [Tasks; 2] = [
    Tasks {
        files: &JUSTFILES,
        shown: "justfile",
        program: "just",
        names: just_recipe_names,
        recipes: true,
    },
    MAKE_TASKS,
];

/// The program that reads a build file of this name without being told (`make` for `Makefile`, `just` for
/// `justfile`); none for another name.
pub(crate) fn build_file_program(name: &str) -> Option<&'static str> {
    TASKS.iter().find(|t| t.files.contains(&name)).map(|t| t.program)
}

/// Whether a file name is one make or just reads without being told (`Makefile`, `justfile`, …).
pub(crate) fn is_build_file(name: &str) -> bool {
    MAKEFILES.contains(&name) || JUSTFILES.contains(&name)
}

/// How many recipes one lookup follows through dependencies.
const MAX_RECIPES: usize = 32;

/// A rule of a Makefile or justfile: the names it defines, what it depends on, its recipe lines.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Rule {
    pub names: Vec<String>,
    pub deps: Vec<String>,
    pub lines: Vec<String>,
}

/// The recipe lines that `make TARGET…` runs (no targets: the default goal, the first ordinary target), with
/// `@`, `-` and `+` prefixes removed and variables expanded (see [`expand`]); and the files named by `include`,
/// `-include` and `sinclude` lines, a `$(wildcard PATTERN)` given as its pattern. `overrides` are the
/// `NAME=value` words of the make command line, which win over the Makefile's own assignments.
pub(crate) fn make_recipes(
    text: &str,
    targets: &[String],
    overrides: &[(String, String)],
) -> (Vec<String>, Vec<String>) {
    let (rules, includes) = make_rules(text, overrides);
    let goals = make_goals(&rules, targets);
    (follow(&rules, goals), includes)
}

/// The names of the targets a Makefile's rules define (`test:`, `test check: deps`; not variables such as
/// `X := a:b`), in order, as [`make_recipes`] reads them: what `make NAME` may be asked for.
pub(crate) fn make_targets(text: &str) -> Vec<String> {
    make_rules(text, &[])
        .0
        .into_iter()
        .flat_map(|rule| rule.names)
        .collect()
}

/// A Makefile's rules, with their recipe lines (variables expanded, `overrides` winning), and its include words.
fn make_rules(text: &str, overrides: &[(String, String)]) -> (Vec<Rule>, Vec<String>) {
    let lines = join_continued(text);
    let mut vars: BTreeMap<String, String> = BTreeMap::new();
    for line in &lines {
        if let Some((name, value)) = make_assignment(line) {
            vars.entry(name).or_insert(value);
        }
    }
    vars.extend(overrides.iter().cloned());
    let mut rules: Vec<Rule> = Vec::new();
    let mut includes = Vec::new();
    for line in &lines {
        if let Some(body) = line.strip_prefix('\t') {
            if let Some(rule) = rules.last_mut() {
                rule.lines.push(expand(&clean_recipe_line(body), &vars));
            }
            continue;
        }
        let trimmed = line.trim();
        if let Some(files) = ["include ", "-include ", "sinclude "]
            .iter()
            .find_map(|directive| trimmed.strip_prefix(directive))
        {
            includes.extend(include_words(files, &vars));
            continue;
        }
        if let Some(rule) = make_rule_header(trimmed) {
            rules.push(rule);
        } else if !trimmed.is_empty() && !trimmed.starts_with('#') {
            // A variable or directive ends the previous rule's recipe.
            rules.push(Rule::default());
        }
    }
    (rules, includes)
}

/// The goals of `make TARGETS…`: the targets, or without any the default goal (the first ordinary target).
pub(crate) fn make_goals<'r>(rules: impl IntoIterator<Item = &'r Rule>, targets: &[String]) -> Vec<String> {
    if !targets.is_empty() {
        return targets.to_vec();
    }
    rules
        .into_iter()
        .flat_map(|r| r.names.first())
        .find(|n| !n.starts_with('.') && !n.contains('%'))
        .cloned()
        .into_iter()
        .collect()
}

/// `NAME = value` (also `:=`, `::=`, `?=`, `+=`, with `override` or `export` before it).
pub(crate) fn make_assignment(line: &str) -> Option<(String, String)> {
    if line.starts_with('\t') {
        return None;
    }
    let line = line.trim();
    let line = line
        .strip_prefix("override ")
        .or_else(|| line.strip_prefix("export "))
        .unwrap_or(line);
    let eq = line.find('=')?;
    let name = line[..eq].trim_end_matches([':', '?', '+', '!']).trim();
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.') {
        return None;
    }
    Some((name.to_string(), line[eq + 1..].trim().to_string()))
}

/// `$(NAME)` and `${NAME}` replaced by the variable's value, recursively (bounded). `$(MAKE)` is `make`; a
/// variable the Makefile does not set (make would take it from the environment) reads as its name in lower
/// case, which is the program such variables usually name (`$(PYTHON) -m pytest` → `python -m pytest`).
/// Function calls (`$(shell …)`) and automatic variables are left as they are.
pub(crate) fn expand(text: &str, vars: &BTreeMap<String, String>) -> String {
    let mut text = text.to_string();
    for _ in 0..8 {
        let next = expand_once(&text, vars);
        if next == text {
            break;
        }
        text = next;
    }
    text
}

fn expand_once(text: &str, vars: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let close = match after.chars().next() {
            Some('(') => ')',
            Some('{') => '}',
            _ => {
                out.push('$');
                rest = after;
                continue;
            }
        };
        let name_end = after[1..].find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'));
        match name_end.map(|n| n + 1) {
            Some(end) if end > 1 && after[end..].starts_with(close) => {
                let name = &after[1..end];
                let value = match name {
                    "MAKE" => "make".to_string(),
                    _ => vars.get(name).cloned().unwrap_or_else(|| name.to_lowercase()),
                };
                out.push_str(&value);
                rest = &after[end + 1..];
            }
            _ => {
                out.push('$');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The words of an include line, variables expanded and `$(wildcard a b)` read as `a b`: an include of a
/// wildcard is an include of whatever matches it.
fn include_words(text: &str, vars: &BTreeMap<String, String>) -> Vec<String> {
    expand(text, vars)
        .replace("$(wildcard", " ")
        .replace("${wildcard", " ")
        .replace([')', '}'], " ")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// `name other: deps` (not `:=`, `::=` or `?=` assignments).
pub(crate) fn make_rule_header(line: &str) -> Option<Rule> {
    if line.starts_with('#') {
        return None;
    }
    let colon = line.find(':')?;
    let (left, right) = line.split_at(colon);
    let right = right.trim_start_matches(':');
    if right.starts_with('=') || left.contains('=') || left.trim().is_empty() {
        return None;
    }
    let (deps, inline) = right.split_once(';').unwrap_or((right, ""));
    Some(Rule {
        names: left.split_whitespace().map(str::to_string).collect(),
        deps: deps
            .split_whitespace()
            .filter(|d| *d != "|")
            .map(str::to_string)
            .collect(),
        lines: [inline.trim()]
            .into_iter()
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect(),
    })
}

/// The body lines of `just RECIPE` (no recipe: `default`, else the first one), following dependencies.
pub(crate) fn just_recipes(justfile: &str, recipe: Option<&str>) -> Vec<String> {
    let rules = just_rules(justfile);
    let goal = match recipe {
        Some(name) => name.to_string(),
        None if rules.iter().any(|r| r.names.iter().any(|n| n == "default")) => "default".to_string(),
        None => match rules.iter().find_map(|r| r.names.first()) {
            Some(first) => first.clone(),
            None => return Vec::new(),
        },
    };
    follow(&rules, vec![goal])
}

/// The names of a justfile's recipes (`test:`, `@test *ARGS:`, `test: build`; not settings, aliases or
/// assignments such as `x := "a"`), in order, as [`just_recipes`] reads them.
pub(crate) fn just_recipe_names(justfile: &str) -> Vec<String> {
    just_rules(justfile).into_iter().flat_map(|rule| rule.names).collect()
}

/// A justfile's recipes with their body lines.
fn just_rules(justfile: &str) -> Vec<Rule> {
    let mut rules: Vec<Rule> = Vec::new();
    for line in justfile.lines() {
        if line.starts_with([' ', '\t']) {
            if let Some(rule) = rules.last_mut()
                && !line.trim().is_empty()
                && !line.trim_start().starts_with('#')
            {
                rule.lines.push(clean_recipe_line(line.trim()));
            }
            continue;
        }
        let trimmed = line.trim();
        match just_rule_header(trimmed) {
            Some(rule) => rules.push(rule),
            None if !trimmed.is_empty() && !trimmed.starts_with('#') => rules.push(Rule::default()),
            None => {}
        }
    }
    rules
}

/// `[private]`-free recipe headers: `name param='x': dep1 dep2` (not `name := value`).
fn just_rule_header(line: &str) -> Option<Rule> {
    if line.starts_with('[') || line.starts_with("set ") || line.starts_with("export ") || line.starts_with("alias ") {
        return None;
    }
    let line = line.trim_start_matches('@');
    let colon = line.find(':')?;
    let (left, right) = line.split_at(colon);
    let right = &right[1..];
    if right.starts_with('=') {
        return None;
    }
    let name = left.split_whitespace().next()?;
    if !name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
        return None;
    }
    Some(Rule {
        names: vec![name.to_string()],
        deps: right
            .split_whitespace()
            .take_while(|d| *d != "&&")
            .map(|d| d.trim_start_matches('(').trim_end_matches(')').to_string())
            .collect(),
        lines: Vec::new(),
    })
}

/// Recipe lines of `goals` and, depth first, of their dependencies (each rule once).
fn follow(rules: &[Rule], goals: Vec<String>) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut stack = goals;
    stack.reverse();
    let mut out = Vec::new();
    while let Some(goal) = stack.pop() {
        if !seen.insert(goal.clone()) || seen.len() > MAX_RECIPES {
            continue;
        }
        for rule in rules.iter().filter(|r| r.names.contains(&goal)) {
            out.extend(rule.lines.iter().cloned());
            stack.extend(rule.deps.iter().rev().cloned());
        }
    }
    out
}

/// A recipe line without make's and just's echo / ignore-error prefixes.
fn clean_recipe_line(line: &str) -> String {
    line.trim_start_matches(['@', '-', '+', ' ']).to_string()
}

/// Lines with backslash continuations joined (recipe lines keep their leading tab).
pub(crate) fn join_continued(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut pending = String::new();
    for line in text.lines() {
        if let Some(head) = line.strip_suffix('\\') {
            pending.push_str(head);
            pending.push(' ');
            continue;
        }
        pending.push_str(line);
        out.push(std::mem::take(&mut pending));
    }
    if !pending.is_empty() {
        out.push(pending);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn make_follows_the_target_and_its_dependencies() {
        let makefile = "CC ?= cc\n\nall: build\n\nbuild:\n\t$(CC) -o app main.c\n\n.PHONY: test\ntest: build fixtures\n\t@./scripts/run-tests.sh \\\n\t  --fast\n\t-$(MAKE) lint\n\nfixtures:\n\tpython gen.py\n\nlint:\n\tshellcheck *.sh\ninclude rules.mk\n";
        let (lines, includes) = make_recipes(makefile, &["test".to_string()], &[]);
        assert_eq!(
            lines,
            vec![
                "./scripts/run-tests.sh  \t  --fast",
                "make lint",
                "cc -o app main.c",
                "python gen.py"
            ]
        );
        assert_eq!(includes, vec!["rules.mk"]);
        let (default, _) = make_recipes(makefile, &[], &[]);
        assert_eq!(default, vec!["cc -o app main.c"]);
    }

    #[test]
    fn make_ignores_assignments_and_odd_lines() {
        let (lines, _) = make_recipes(
            "X := a:b\nY ::= c\n%.o: %.c\n\tcc $<\ncheck: ; go test ./...\n",
            &[],
            &[],
        );
        assert_eq!(lines, vec!["go test ./..."]);
        assert!(make_recipes("", &["test".into()], &[]).0.is_empty());
    }

    #[test]
    fn just_reads_the_recipe_body_and_dependencies() {
        let justfile = "set shell := [\"bash\", \"-c\"]\nversion := \"1\"\n\n# run the tests\ntest filter='': build\n    cargo test {{filter}}\n    @./check.sh\n\nbuild:\n  cargo build\n\n[private]\ndefault:\n  just --list\n";
        assert_eq!(
            just_recipes(justfile, Some("test")),
            vec!["cargo test {{filter}}", "./check.sh", "cargo build"]
        );
        assert_eq!(just_recipes(justfile, None), vec!["just --list"]);
        assert!(just_recipes(justfile, Some("missing")).is_empty());
    }

    #[test]
    fn target_and_recipe_names_are_read_by_the_same_rules_as_the_recipes() {
        let makefile = "X := a:b\nURL = http://x:80\n.PHONY: test\nall \\\n  test: build\n\tcc x.c\n  check: ; ./t\n";
        assert_eq!(make_targets(makefile), vec![".PHONY", "all", "test", "check"]);
        let justfile = "set shell := [\"bash\", \"-c\"]\nalias t := test\nversion := \"1\"\n# test: not this\n@test *ARGS: build\n    cargo test\n[private]\nbuild:\n  cargo build\n";
        assert_eq!(just_recipe_names(justfile), vec!["test", "build"]);
    }

    #[test]
    fn npm_scripts() {
        let pkg = br#"{"scripts":{"test":"jest --ci","pretest":"tsc"}}"#;
        assert_eq!(npm_script(pkg, "test").as_deref(), Some("jest --ci"));
        assert_eq!(npm_script(pkg, "lint"), None);
        assert_eq!(npm_script(b"not json", "test"), None);
    }
}

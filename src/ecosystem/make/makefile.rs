//! The parts of a Makefile that decide what `make TARGET…` runs, so that a new target the verify command does
//! not use is honest work while a change to the one it runs is not.
//!
//! A Makefile sealed for `make test` is cut into parts ([`parts`]), each compared on its own:
//!
//! - `test:` — each rule reached from the goals through prerequisites (the default goal when none is named),
//!   header and recipe; a new rule with a reached name (a second `test:`) joins that part; a reached build step
//!   (a file target that is neither a goal nor phony, whose recipe writes the file: [`builds_a_file`]) is not a
//!   part, its product being code;
//! - `.PHONY` — which reached targets are phony (a target no longer phony is skipped when a file of its name
//!   exists);
//! - `NAME =` — each variable the reached rules use, directly or through other variables, every exported or
//!   overriding assignment, and make's own variables (`SHELL`, `.SHELLFLAGS`, `MAKEFLAGS`, `.DEFAULT_GOAL`, …);
//! - `(directives)` — everything else that is not a rule or an assignment (`include`, conditionals, `define`,
//!   `vpath`), special targets (`.ONESHELL:`, `.EXPORT_ALL_VARIABLES:`), and pattern rules, which any target
//!   may reach implicitly.
//!
//! So a new rule that no reached rule depends on, with its own new variables, changes no part.

use std::collections::{BTreeMap, BTreeSet};

use crate::recipes::{Rule, join_continued, make_assignment, make_goals, make_rule_header};

/// Variables make itself reads, which matter whether or not a recipe names them.
const MAKE_VARIABLES: &[&str] = &[
    "SHELL",
    ".SHELLFLAGS",
    "MAKEFLAGS",
    "GNUMAKEFLAGS",
    "MFLAGS",
    "MAKEFILES",
    ".DEFAULT_GOAL",
    ".RECIPEPREFIX",
    "VPATH",
];
/// Label of the part holding directives, special targets and pattern rules.
pub(super) const DIRECTIVES: &str = "(directives)";

/// A Makefile read for the goals a verify command asks make for (`closure::READERS`): stored as `make`.
pub(crate) const READING: super::parts::Reading = super::parts::Reading {
    kind: "make",
    parts: |text, goals| parts(text, goals).into_iter().collect(),
    labels: |goals| goals.iter().map(|g| format!("{g}:")).collect(),
    resolves: None,
};

/// A rule with its text as written (header and recipe lines, trimmed).
struct Written {
    rule: Rule,
    text: String,
}

/// The sealed parts of a Makefile for `make GOALS…`: label → the part's text (see the module doc).
pub(super) fn parts(makefile: &str, goals: &[String]) -> BTreeMap<String, String> {
    let mut rules: Vec<Written> = Vec::new();
    let mut vars: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut always: BTreeSet<String> = BTreeSet::new();
    let mut directives: Vec<String> = Vec::new();
    let mut in_rule = false;
    for line in join_continued(makefile) {
        if let Some(recipe) = line.strip_prefix('\t') {
            match rules.last_mut() {
                Some(written) if in_rule => {
                    written.text.push('\n');
                    written.text.push_str(recipe.trim());
                }
                _ => directives.push(recipe.trim().to_string()),
            }
            continue;
        }
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        in_rule = false;
        if let Some((name, _)) = make_assignment(trimmed) {
            if trimmed.starts_with("export") || trimmed.starts_with("override") {
                always.insert(name.clone());
            }
            vars.entry(name).or_default().push(trimmed.to_string());
        } else if let Some(rule) = make_rule_header(trimmed) {
            in_rule = true;
            rules.push(Written {
                rule,
                text: trimmed.to_string(),
            });
        } else {
            directives.push(trimmed.to_string());
        }
    }
    let goals = make_goals(rules.iter().map(|w| &w.rule), goals);
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let phony: BTreeSet<&str> = rules
        .iter()
        .filter(|w| w.rule.names.iter().any(|n| n == ".PHONY"))
        .flat_map(|w| w.rule.deps.iter().map(String::as_str))
        .collect();
    let reached = reach(&rules, goals.clone());
    let mut used = String::new();
    for name in &reached {
        // Its recipe lines: each rule's text but its header.
        let recipe = rules
            .iter()
            .filter(|w| w.rule.names.contains(name))
            .flat_map(|w| w.text.lines().skip(1));
        if !goals.contains(name) && !phony.contains(name.as_str()) && builds_a_file(name, recipe) {
            continue;
        }
        let text: Vec<&str> = rules
            .iter()
            .filter(|w| w.rule.names.contains(name))
            .map(|w| w.text.as_str())
            .collect();
        used.push_str(&text.join("\n"));
        out.insert(format!("{name}:"), text.join("\n"));
    }
    let phony_reached: Vec<&str> = reached
        .iter()
        .map(String::as_str)
        .filter(|n| phony.contains(n))
        .collect();
    if !phony_reached.is_empty() {
        out.insert(".PHONY".to_string(), phony_reached.join(" "));
    }
    for w in &rules {
        let special = w
            .rule
            .names
            .iter()
            .any(|n| (n.starts_with('.') && n != ".PHONY") || n.contains('%'));
        if special {
            directives.push(w.text.clone());
        }
    }
    used.push_str(&directives.join("\n"));
    // Always present, so an existing Makefile never reads as absent.
    out.insert(DIRECTIVES.to_string(), directives.join("\n"));
    always.extend(MAKE_VARIABLES.iter().map(|v| v.to_string()));
    for name in used_variables(&vars, &used, &always) {
        if let Some(lines) = vars.get(&name) {
            out.insert(format!("{name} ="), lines.join("\n"));
        }
    }
    out
}

/// Whether a reached rule is a build step: its recipe writes the file it names (`$@`, or the name itself when
/// it names a file: a `.` or `/` in it), as
/// `calc.o: calc.c` / `$(CC) -c -o $@ $<` does. Its product is code, the agent's to change; what it could do to
/// the test side is kept out by the world (the tests stand as sealed, the closure's files are sealed), so its
/// recipe is not part of what the goal runs. A goal and a phony target are never build steps.
pub(crate) fn builds_a_file<'a>(target: &str, recipe: impl IntoIterator<Item = &'a str>) -> bool {
    recipe.into_iter().any(|line| {
        line.contains("$@")
            || line.contains("$(@")
            || line.contains("${@")
            || (target.contains(['.', '/'])
                && line
                    .split(|c: char| c.is_whitespace() || "<>;|&'\"".contains(c))
                    .any(|w| w == target))
    })
}

/// The names of the rules reached from `goals` through prerequisites, in order.
fn reach(rules: &[Written], goals: Vec<String>) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut stack = goals;
    stack.reverse();
    while let Some(goal) = stack.pop() {
        if seen.contains(&goal) || seen.len() >= 256 {
            continue;
        }
        for w in rules.iter().filter(|w| w.rule.names.contains(&goal)) {
            stack.extend(w.rule.deps.iter().rev().cloned());
        }
        seen.push(goal);
    }
    seen
}

/// Variables named in `text` (as `$(NAME)` or `${NAME}`), in the values of those, and so on; plus `always`.
fn used_variables(vars: &BTreeMap<String, Vec<String>>, text: &str, always: &BTreeSet<String>) -> BTreeSet<String> {
    let mut used: BTreeSet<String> = always.clone();
    let mut pending: Vec<String> = vec![text.to_string()];
    pending.extend(always.iter().filter_map(|n| vars.get(n)).map(|lines| lines.join("\n")));
    while let Some(text) = pending.pop() {
        for name in vars.keys() {
            let named = [format!("$({name})"), format!("${{{name}}}"), format!("$({name}:")];
            if !used.contains(name) && named.iter().any(|n| text.contains(n.as_str())) {
                used.insert(name.clone());
                pending.push(vars[name].join("\n"));
            }
        }
    }
    used
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAKEFILE: &str = "PYTHON ?= python3\nFLAGS = -q\nDOCS = mkdocs\n\n.PHONY: test unit docs\n\ntest: unit\n\nunit:\n\t$(PYTHON) -m pytest $(FLAGS)\n\ndocs:\n\t$(DOCS) build\n";

    fn moved(before: &str, after: &str, goals: &[&str]) -> Vec<String> {
        let goals: Vec<String> = goals.iter().map(|g| g.to_string()).collect();
        let (a, b) = (parts(before, &goals), parts(after, &goals));
        let labels: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
        labels.into_iter().filter(|l| a.get(*l) != b.get(*l)).cloned().collect()
    }

    #[test]
    fn the_reached_rules_their_variables_and_phony_status_are_parts() {
        let parts = parts(MAKEFILE, &["test".to_string()]);
        let labels: Vec<&str> = parts.keys().map(String::as_str).collect();
        assert_eq!(
            labels,
            vec![DIRECTIVES, ".PHONY", "FLAGS =", "PYTHON =", "test:", "unit:"]
        );
        assert_eq!(parts[".PHONY"], "test unit");
    }

    #[test]
    fn a_new_target_and_its_variables_change_nothing_the_goal_uses() {
        let honest = format!("{MAKEFILE}\nLINT = ruff\n.PHONY: lint\nlint:\n\t$(LINT) check .\n");
        assert!(moved(MAKEFILE, &honest, &["test"]).is_empty());
        let docs = MAKEFILE.replace("$(DOCS) build", "$(DOCS) build --strict");
        assert!(moved(MAKEFILE, &docs, &["test"]).is_empty(), "an unused target changed");
        let comment = MAKEFILE.replace("unit:\n", "# the unit tests\nunit:\n");
        assert!(moved(MAKEFILE, &comment, &["test"]).is_empty());
    }

    #[test]
    fn a_change_to_what_the_goal_runs_is_named() {
        let recipe = MAKEFILE.replace("-m pytest $(FLAGS)", "-c 'exit 0'");
        // The variable it no longer uses leaves the sealed parts too.
        assert_eq!(moved(MAKEFILE, &recipe, &["test"]), vec!["FLAGS =", "unit:"]);
        let variable = MAKEFILE.replace("FLAGS = -q", "FLAGS = -q -k nothing");
        assert_eq!(moved(MAKEFILE, &variable, &["test"]), vec!["FLAGS ="]);
        let prerequisite = MAKEFILE.replace("test: unit", "test:");
        assert!(moved(MAKEFILE, &prerequisite, &["test"]).contains(&"test:".to_string()));
        let second = format!("{MAKEFILE}\ntest:\n\ttrue\n");
        assert_eq!(moved(MAKEFILE, &second, &["test"]), vec!["test:"]);
        let not_phony = MAKEFILE.replace(".PHONY: test unit docs", ".PHONY: docs");
        assert_eq!(moved(MAKEFILE, &not_phony, &["test"]), vec![".PHONY"]);
        let shell = format!("SHELL = /bin/true\n{MAKEFILE}");
        assert_eq!(moved(MAKEFILE, &shell, &["test"]), vec!["SHELL ="]);
        let exported = format!("export PYTEST_ADDOPTS = -k nothing\n{MAKEFILE}");
        assert_eq!(moved(MAKEFILE, &exported, &["test"]), vec!["PYTEST_ADDOPTS ="]);
        let directive = format!("{MAKEFILE}\n-include local.mk\n");
        assert_eq!(moved(MAKEFILE, &directive, &["test"]), vec![DIRECTIVES]);
        let pattern = format!("{MAKEFILE}\n%:\n\t@true\n");
        assert_eq!(moved(MAKEFILE, &pattern, &["test"]), vec![DIRECTIVES]);
    }

    #[test]
    fn a_build_step_the_goal_reaches_is_not_what_it_runs() {
        let makefile = ".PHONY: test unit\ntest: unit calc.o\n\tsh check.sh\nunit:\n\tpython3 -m unittest\ncalc.o: calc.c\n\tcc -c calc.c -o $@\n";
        let labels: Vec<String> = parts(makefile, &["test".to_string()]).into_keys().collect();
        assert_eq!(labels, vec![DIRECTIVES, ".PHONY", "calc.c:", "test:", "unit:"]);
        let rebuilt = makefile.replace("cc -c", "cc -O2 -Wall -c");
        assert!(moved(makefile, &rebuilt, &["test"]).is_empty());
        // A target that writes nothing of its name runs commands for their effect, phony or not.
        let undeclared = makefile.replace(".PHONY: test unit", ".PHONY: test");
        let labels: Vec<String> = parts(&undeclared, &["test".to_string()]).into_keys().collect();
        assert!(labels.contains(&"unit:".to_string()), "{labels:?}");
        assert!(builds_a_file("calc.o", ["cc -c calc.c -o calc.o"]));
        assert!(builds_a_file("version.py", ["echo \"VERSION = 1\" > $@"]));
        assert!(!builds_a_file("unit", ["python3 -m unittest"]));
        assert!(!builds_a_file("test", ["go test ./..."]), "a word is not a file");
    }

    #[test]
    fn without_goals_the_default_goal_is_sealed() {
        let makefile = "all: test\n\ntest:\n\tgo test ./...\n\nlint:\n\tgolangci-lint run\n";
        let labels: Vec<String> = parts(makefile, &[]).into_keys().collect();
        assert_eq!(labels, vec![DIRECTIVES, "all:", "test:"]);
        let reordered = "lint:\n\tgolangci-lint run\n\nall: test\n\ntest:\n\tgo test ./...\n";
        assert_eq!(moved(makefile, reordered, &[]), vec!["all:", "lint:", "test:"]);
    }
}

//! The plan read from real `make -n -p --trace` output: what changes what make runs is named, what does not
//! is not.

use super::*;

/// Runs the dry run `resolve` runs, on `files` in a fresh directory, and reads the plan for `goals`.
fn plan(files: &[(&str, &str)], goals: &[&str]) -> MakePlan {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("a file in the directory")).expect("its folder");
        std::fs::write(path, text).expect("the file");
    }
    let out = std::process::Command::new("make")
        .args(["-n", "-p", "--trace"])
        .args(goals)
        .current_dir(dir.path())
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .output()
        .expect("make runs");
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    plan_of(&lines, goals, out.status.success())
}

const MAKEFILE: &str = "PYTHON ?= python3\n.PHONY: test unit\ntest: unit calc.o\n\tsh scripts/check.sh\nunit:\n\t$(PYTHON) -m unittest -q\ncalc.o: calc.c\n\tcc -c calc.c -o $@\n";

fn moved_labels(before: &[(&str, &str)], after: &[(&str, &str)]) -> Vec<String> {
    let (a, b) = (plan(before, &["test"]), plan(after, &["test"]));
    moved(&a, &b).into_iter().map(|m| m.part).collect()
}

fn with(extra: &[(&'static str, &'static str)], makefile: &'static str) -> Vec<(&'static str, &'static str)> {
    let mut files = vec![("Makefile", makefile), ("calc.c", ""), ("scripts/check.sh", "")];
    files.extend_from_slice(extra);
    files
}

#[test]
fn the_goals_and_phony_targets_are_compared_build_steps_are_not() {
    let plan = plan(&with(&[], MAKEFILE), &["test"]);
    let labels: Vec<&str> = plan.parts.keys().map(String::as_str).collect();
    assert_eq!(labels, vec![HOW_RECIPES_RUN, "test:", "unit:"]);
    assert!(plan.parts["unit:"].contains("python3 -m unittest -q"), "{plan:?}");
    assert!(plan.parts["test:"].contains("sh scripts/check.sh"), "{plan:?}");
    assert_eq!(plan.from["test:"], "Makefile");
}

#[test]
fn honest_makefile_edits_change_nothing_make_runs_for_the_goal() {
    let base = with(&[], MAKEFILE);
    let edits: &[&str] = &[
        // a new target with its own variable
        "PYTHON ?= python3\nDOCS = mkdocs\n.PHONY: test unit docs\ntest: unit calc.o\n\tsh scripts/check.sh\nunit:\n\t$(PYTHON) -m unittest -q\ncalc.o: calc.c\n\tcc -c calc.c -o $@\ndocs:\n\t$(DOCS) build\n",
        // comments, blank lines, reordered rules
        "# The calculator.\nPYTHON ?= python3\n\n.PHONY: test unit\n\ncalc.o: calc.c\n\tcc -c calc.c -o $@\n\n# everything\ntest: unit calc.o\n\tsh scripts/check.sh\n\nunit:\n\t$(PYTHON) -m unittest -q\n",
        // the build rule for code changed
        "PYTHON ?= python3\n.PHONY: test unit\ntest: unit calc.o\n\tsh scripts/check.sh\nunit:\n\t$(PYTHON) -m unittest -q\ncalc.o: calc.c\n\tcc -O2 -Wall -c calc.c -o $@\n",
        // the variable set another way, to the same value
        "PYTHON := python3\n.PHONY: test unit\ntest: unit calc.o\n\tsh scripts/check.sh\nunit:\n\t$(PYTHON) -m unittest -q\ncalc.o: calc.c\n\tcc -c calc.c -o $@\n",
    ];
    for edit in edits {
        assert_eq!(moved_labels(&base, &with(&[], edit)), Vec::<String>::new(), "{edit}");
    }
}

#[test]
fn a_variable_moved_to_an_included_file_changes_nothing() {
    let base = with(&[], MAKEFILE);
    let split = with(
        &[("config.mk", "PYTHON ?= python3\n")],
        "include config.mk\n.PHONY: test unit\ntest: unit calc.o\n\tsh scripts/check.sh\nunit:\n\t$(PYTHON) -m unittest -q\ncalc.o: calc.c\n\tcc -c calc.c -o $@\n",
    );
    assert_eq!(moved_labels(&base, &split), Vec::<String>::new());
}

#[test]
fn what_changes_what_make_runs_is_named_wherever_it_comes_from() {
    let base = with(&[], MAKEFILE);
    let named =
        |extra: &[(&'static str, &'static str)], makefile: &'static str| moved_labels(&base, &with(extra, makefile));
    // a GNUmakefile beside the Makefile, read first
    assert!(!named(&[("GNUmakefile", "include Makefile\nunit: PYTHON = true\n")], MAKEFILE).is_empty());
    // a target-specific variable
    let target_var = "PYTHON ?= python3\n.PHONY: test unit\nunit: PYTHON = true\ntest: unit calc.o\n\tsh scripts/check.sh\nunit:\n\t$(PYTHON) -m unittest -q\ncalc.o: calc.c\n\tcc -c calc.c -o $@\n";
    assert_eq!(named(&[], target_var), vec!["unit: as make resolves it"]);
    // errors ignored: the line make prints is the same, the recipe as written is not
    let ignored = MAKEFILE.replace("\tsh scripts/check.sh", "\t-sh scripts/check.sh");
    let ignored: &'static str = Box::leak(ignored.into_boxed_str());
    assert_eq!(named(&[], ignored), vec!["test: as make resolves it"]);
    // the shell that runs every recipe
    let shell = Box::leak(format!("SHELL = /bin/true\n{MAKEFILE}").into_boxed_str());
    assert_eq!(
        named(&[], shell),
        vec![HOW_RECIPES_RUN.to_string() + " as make resolves it"]
    );
    // `.IGNORE` and `.ONESHELL`
    let ignore_all = Box::leak(format!("{MAKEFILE}.IGNORE:\n").into_boxed_str());
    assert_eq!(
        named(&[], ignore_all),
        vec![HOW_RECIPES_RUN.to_string() + " as make resolves it"]
    );
}

#[test]
fn vpath_shadowing_the_script_a_recipe_runs_is_named() {
    let makefile = "VPATH = scripts\n.PHONY: test\ntest: check.sh\n\tsh $<\n";
    let base = vec![("Makefile", makefile), ("scripts/check.sh", "")];
    let shadowed = vec![("Makefile", makefile), ("scripts/check.sh", ""), ("check.sh", "")];
    assert_eq!(moved_labels(&base, &shadowed), vec!["test: as make resolves it"]);
}

#[test]
fn a_goal_a_file_now_stands_for_runs_nothing_and_is_named() {
    let makefile = "test:\n\tsh scripts/check.sh\n";
    let base = vec![("Makefile", makefile), ("scripts/check.sh", "")];
    let stands = vec![("Makefile", makefile), ("scripts/check.sh", ""), ("test", "")];
    assert_eq!(moved_labels(&base, &stands), vec!["test: as make resolves it"]);
}

#[test]
fn only_one_plain_make_call_is_resolved() {
    assert_eq!(make_arguments("make -s test"), Some(vec!["-s", "test"]));
    assert_eq!(make_arguments("/usr/bin/gmake check V=1"), Some(vec!["check", "V=1"]));
    for other in [
        "cd sub && make test",
        "make test | tee log",
        "sh -c 'make test'",
        "pytest",
        "make $(X)",
    ] {
        assert_eq!(make_arguments(other), None, "{other}");
    }
}

#[test]
fn trace_lines_name_their_target_and_file() {
    let t = |l: &str| traced_target(l);
    assert_eq!(
        t("Makefile:4: update target 'test' due to: unit calc.o"),
        Some(("Makefile".into(), "test".into()))
    );
    assert_eq!(
        t("mk/a.mk:6: target 'unit' does not exist"),
        Some(("mk/a.mk".into(), "unit".into()))
    );
    assert_eq!(
        t("<builtin>: update target 'x' due to: x.c"),
        Some(("<builtin>".into(), "x".into()))
    );
    assert_eq!(t("sh scripts/check.sh"), None);
    assert_eq!(t("echo target 'x' does not exist"), None);
}

#[test]
fn without_goals_the_default_goal_is_compared() {
    let makefile = "all: check\n.PHONY: check lint\ncheck:\n\tsh scripts/check.sh\nlint:\n\t@echo lint\n";
    let plan = plan(&[("Makefile", makefile), ("scripts/check.sh", "")], &[]);
    let labels: Vec<&str> = plan.parts.keys().map(String::as_str).collect();
    assert_eq!(labels, vec!["all:", "check:", HOW_RECIPES_RUN]);
}

#[test]
fn the_jobservers_descriptors_are_not_part_of_how_recipes_run() {
    let db = |flags: &str| -> Vec<String> {
        [
            "# Make data base, printed",
            &format!("MAKEFLAGS = {flags}"),
            "# Files",
            "# Finished Make data base",
        ]
        .iter()
        .map(|l| l.to_string())
        .collect()
    };
    let a = plan_of(&db("-j2 --jobserver-auth=3,4"), &["test"], true);
    let b = plan_of(&db("-j2 --jobserver-auth=5,6"), &["test"], true);
    assert_eq!(a, b);
    let ignoring = plan_of(&db("-i -j2 --jobserver-auth=5,6"), &["test"], true);
    assert_ne!(a, ignoring);
}

//! The plan read from real `make -n -p --trace` output: what changes what make runs is named, what does not
//! is not.

use super::*;

/// Runs the dry run `resolve` runs, on `files` in a fresh directory, and reads the plan for `goals`, as the
/// baseline records it.
fn plan(files: &[(&str, &str)], goals: &[&str]) -> MakePlan {
    plan_as(files, goals, Steps::Recording)
}

/// [`plan`], comparing the reached targets `steps` keeps.
fn plan_as(files: &[(&str, &str)], goals: &[&str], steps: Steps) -> MakePlan {
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
    let mut plan = plan_of(
        &lines,
        goals,
        out.status.success(),
        &|name| (name == "HOME").then(String::new),
        &crate::schema::EnvReads::default(),
        steps,
    );
    let texts = plan
        .makefiles
        .iter()
        .map(|m| {
            (
                m.clone(),
                std::fs::read_to_string(dir.path().join(m)).unwrap_or_default(),
            )
        })
        .collect();
    plan.keep_unseen_lines(&texts);
    plan
}

const MAKEFILE: &str = "PYTHON ?= python3\n.PHONY: test unit\ntest: unit calc.o\n\tsh scripts/check.sh\nunit:\n\t$(PYTHON) -m unittest -q\ncalc.o: calc.c\n\tcc -c calc.c -o $@\n";

fn moved_labels(before: &[(&str, &str)], after: &[(&str, &str)]) -> Vec<String> {
    let a = plan(before, &["test"]);
    let b = plan_as(after, &["test"], Steps::since(&a));
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
        // a variable only the code reads, exported to the goal's recipe (no runner reads it: `runner::steers`)
        "PYTHON ?= python3\n.PHONY: test unit\ntest: export CALC_MODE = strict\nunit: LOG_LEVEL := debug\ntest: unit calc.o\n\tsh scripts/check.sh\nunit:\n\t$(PYTHON) -m unittest -q\ncalc.o: calc.c\n\tcc -c calc.c -o $@\n",
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
    // a target-specific variable a runner reads, exported to the goal's recipe
    let target_env = "PYTHON ?= python3\n.PHONY: test unit\ntest: export PYTHONPATH = tools\ntest: unit calc.o\n\tsh scripts/check.sh\nunit:\n\t$(PYTHON) -m unittest -q\ncalc.o: calc.c\n\tcc -c calc.c -o $@\n";
    assert!(named(&[], target_env).contains(&"test: as make resolves it".to_string()));
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
    let a = plan_of(
        &db("-j2 --jobserver-auth=3,4"),
        &["test"],
        true,
        &|_| None,
        &crate::schema::EnvReads::default(),
        Steps::Recording,
    );
    let b = plan_of(
        &db("-j2 --jobserver-auth=5,6"),
        &["test"],
        true,
        &|_| None,
        &crate::schema::EnvReads::default(),
        Steps::Recording,
    );
    assert_eq!(a, b);
    let ignoring = plan_of(
        &db("-i -j2 --jobserver-auth=5,6"),
        &["test"],
        true,
        &|_| None,
        &crate::schema::EnvReads::default(),
        Steps::Recording,
    );
    assert_ne!(a, ignoring);
}

/// Where each moved part of `after` is said to be: `(path, part)`.
fn moved_places(before: &[(&str, &str)], after: &[(&str, &str)]) -> Vec<(String, String)> {
    let a = plan(before, &["test"]);
    let b = plan_as(after, &["test"], Steps::since(&a));
    moved(&a, &b).into_iter().map(|m| (m.path, m.part)).collect()
}

/// The Makefile with `-include local.mk` first.
const INCLUDING: &str = "-include local.mk\nPYTHON ?= python3\n.PHONY: test unit\ntest: unit calc.o\n\tsh scripts/check.sh\nunit:\n\t$(PYTHON) -m unittest -q\ncalc.o: calc.c\n\tcc -c calc.c -o $@\n";

#[test]
fn a_new_include_setting_what_no_recipe_uses_changes_nothing() {
    let base = with(&[], MAKEFILE);
    let local = with(&[("local.mk", "PREFIX ?= /usr/local\nDESTDIR =\n")], INCLUDING);
    assert_eq!(moved_places(&base, &local), Vec::<(String, String)>::new());
    // The optional include of a file that is not there reads nothing more.
    assert_eq!(
        moved_places(&base, &with(&[], INCLUDING)),
        Vec::<(String, String)>::new()
    );
    assert_eq!(plan(&local, &["test"]).makefiles, vec!["Makefile", "local.mk"]);
}

#[test]
fn a_new_include_that_changes_a_recipe_is_named_with_the_file() {
    let base = with(&[], MAKEFILE);
    let local = with(&[("local.mk", "PYTHON = python3 shim.py\n")], INCLUDING);
    assert_eq!(
        moved_places(&base, &local),
        vec![
            ("Makefile".to_string(), "unit: as make resolves it".to_string()),
            ("local.mk".to_string(), NOW_READ.to_string()),
        ]
    );
}

#[test]
fn what_the_dry_run_cannot_show_is_named_in_the_makefile_it_is_in() {
    let base = with(&[], MAKEFILE);
    let lines_of = |file: &str| (file.to_string(), unseen::LINES.to_string());
    // an export to the recipes' environment, which make's database does not show
    let export = with(&[("local.mk", "export PYTHONOPTIMIZE = 1\n")], INCLUDING);
    assert_eq!(
        moved_places(&base, &export),
        vec![lines_of("local.mk"), ("local.mk".into(), NOW_READ.into())]
    );
    // a recipe shown to the dry run and another to the run: the plan alone would not move
    let tells = "ifeq (,$(findstring n,$(firstword -$(MAKEFLAGS))))\nunit: PYTHON = true\nendif\n";
    let told = with(&[("local.mk", tells)], INCLUDING);
    assert_eq!(
        moved_places(&base, &told),
        vec![lines_of("local.mk"), ("local.mk".into(), NOW_READ.into())]
    );
    // a variable of the environment set again by a makefile, which make exports with the new value
    let home = Box::leak(format!("HOME = /nowhere\n{MAKEFILE}").into_boxed_str());
    assert_eq!(
        moved_places(&base, &with(&[], home)),
        vec![("Makefile".to_string(), unseen::environment_label("HOME"))]
    );
    // in the Makefile itself, a conditional on how make was called
    let in_makefile = Box::leak(format!("ifneq (,$(MFLAGS))\nX = 1\nendif\n{MAKEFILE}").into_boxed_str());
    assert_eq!(moved_places(&base, &with(&[], in_makefile)), vec![lines_of("Makefile")]);
}

#[test]
fn makefiles_that_cannot_be_read_are_a_part_of_their_own() {
    let mut plan = plan(&with(&[], MAKEFILE), &["test"]);
    let before = plan.clone();
    plan.keep_unseen_lines(&BTreeMap::from([(UNREAD.to_string(), String::new())]));
    let parts: Vec<String> = moved(&before, &plan).into_iter().map(|m| m.part).collect();
    assert_eq!(parts, vec![UNREAD.to_string()]);
}

#[test]
fn a_plan_recorded_before_the_unseen_parts_compares_without_them() {
    let base = with(&[], MAKEFILE);
    let mut old = plan(&base, &["test"]);
    old.unseen = None;
    let export = with(&[("local.mk", "export X = 1\n")], INCLUDING);
    assert!(moved(&old, &plan(&export, &["test"])).is_empty());
}

#[test]
fn the_makefiles_are_left_to_the_plan_and_what_the_recipes_run_stays_sealed() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let makefile = "include config.mk\n.PHONY: test\ntest:\n\tsh scripts/check.sh\n";
    for (path, text) in [
        ("Makefile", makefile),
        ("config.mk", "PYTHON ?= python3\n"),
        ("scripts/check.sh", "python3 -m unittest\n"),
    ] {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("its folder");
        std::fs::write(path, text).expect("the file");
    }
    let mut closure = super::super::Closure::take("make -s test", dir.path());
    let paths = |c: &super::super::Closure| c.files.iter().map(|f| f.path.clone()).collect::<Vec<_>>();
    for sealed in ["Makefile", "GNUmakefile", "config.mk", "scripts/check.sh"] {
        assert!(
            paths(&closure).iter().any(|p| p == sealed),
            "{sealed}: {:?}",
            paths(&closure)
        );
    }
    closure.leave_makefiles_to(&MakePlan::default());
    let left = paths(&closure);
    assert!(left.iter().any(|p| p == "scripts/check.sh"), "{left:?}");
    for gone in ["Makefile", "GNUmakefile", "makefile", "config.mk"] {
        assert!(!left.iter().any(|p| p == gone), "{gone}: {left:?}");
    }
}

/// A command put in a variable of plain text is the recipe it was; a variable whose value expands anything (how
/// make was called, a function) is still compared as written, and so is a `-` added before the reference.
#[test]
fn a_recipe_reads_through_a_variable_of_plain_text() {
    let literal = "PYTHON ?= python3\n.PHONY: test unit\ntest: unit calc.o\n\tsh scripts/check.sh\nunit:\n\tpython3 -m unittest -q\ncalc.o: calc.c\n\tcc -c calc.c -o $@\n";
    let base = with(&[], literal);
    assert_eq!(moved_labels(&base, &with(&[], MAKEFILE)), Vec::<String>::new());
    let braces = "PY = python3\n.PHONY: test unit\ntest: unit calc.o\n\tsh scripts/check.sh\nunit:\n\t${PY} -m unittest -q\ncalc.o: calc.c\n\tcc -c calc.c -o $@\n";
    assert_eq!(moved_labels(&base, &with(&[], braces)), Vec::<String>::new());
    let dry = "PY = $(if $(findstring n,$(MAKEFLAGS)),python3,true)\n.PHONY: test unit\ntest: unit calc.o\n\tsh scripts/check.sh\nunit:\n\t$(PY) -m unittest -q\ncalc.o: calc.c\n\tcc -c calc.c -o $@\n";
    assert!(!moved_labels(&base, &with(&[], dry)).is_empty());
    let ignored = "PY = python3\n.PHONY: test unit\ntest: unit calc.o\n\tsh scripts/check.sh\nunit:\n\t-$(PY) -m unittest -q\ncalc.o: calc.c\n\tcc -c calc.c -o $@\n";
    assert_eq!(
        moved_labels(&base, &with(&[], ignored)),
        vec!["unit: as make resolves it"]
    );
}

/// A plain file listed as a prerequisite (a new test the goal depends on) changes nothing make runs; a new step
/// before the goal (a checker, a generator: `Steps`) is no moved part but a step of the run, kept with its lines;
/// a compared step dropped, or one whose recipe changed, is named.
#[test]
fn a_new_step_before_the_goal_is_free_and_a_compared_one_is_not() {
    let base = with(&[], MAKEFILE);
    let changed = |from: &str, to: &str, extra: &str| -> &'static str {
        Box::leak((MAKEFILE.replace(from, to) + extra).into_boxed_str())
    };
    let listed = changed("test: unit calc.o\n", "test: unit calc.o tests/test_more.py\n", "");
    assert_eq!(
        moved_labels(&base, &with(&[("tests/test_more.py", "")], listed)),
        Vec::<String>::new()
    );
    let vet = changed(
        "test: unit calc.o\n",
        "test: vet unit calc.o\n",
        ".PHONY: vet\nvet:\n\tsh scripts/vet.sh\n",
    );
    assert_eq!(
        moved_labels(&base, &with(&[("scripts/vet.sh", "")], vet)),
        Vec::<String>::new()
    );
    let ordered = changed(
        "test: unit calc.o\n",
        "test: unit calc.o | gen.h\n",
        "gen.h:\n\techo > $@\n",
    );
    assert_eq!(moved_labels(&base, &with(&[], ordered)), Vec::<String>::new());
    let dropped = changed("test: unit calc.o\n", "test: calc.o\n", "");
    assert_eq!(
        moved_labels(&base, &with(&[], dropped)),
        vec!["test: as make resolves it", "unit: as make resolves it"]
    );
    let unit = changed("-m unittest -q", "-m unittest -q -k add", "");
    assert_eq!(moved_labels(&base, &with(&[], unit)), vec!["unit: as make resolves it"]);
    // Not compared, but known with its lines as make runs them: a step of the run, judged by what it does.
    let a = plan(&base, &["test"]);
    let now = plan_as(&with(&[("scripts/vet.sh", "")], vet), &["test"], Steps::since(&a));
    assert_eq!(
        now.new_steps,
        BTreeMap::from([("vet:".to_string(), vec!["sh scripts/vet.sh".to_string()])])
    );
    // The new step is free at the promise only: at the baseline it is compared like any other.
    let recorded = plan(&with(&[("scripts/vet.sh", "")], vet), &["test"]);
    assert!(recorded.parts.contains_key("vet:") && recorded.parts["test:"].contains("test: vet unit"));
}

/// A plan recorded before new steps were free names every target in a header, and compares a new step.
#[test]
fn a_plan_recorded_before_new_steps_were_free_compares_them_as_it_did() {
    let base = with(&[], MAKEFILE);
    let mut old = plan_as(&base, &["test"], Steps::AsBefore);
    assert!(!old.new_steps_free && old.parts["test:"].contains("test: unit calc.o"));
    old.new_steps_free = false;
    let vet: &'static str = Box::leak(
        (MAKEFILE.replace("test: unit calc.o\n", "test: vet unit calc.o\n")
            + ".PHONY: vet\nvet:\n\tsh scripts/vet.sh\n")
            .into_boxed_str(),
    );
    let now = plan_as(&with(&[("scripts/vet.sh", "")], vet), &["test"], Steps::since(&old));
    let labels: Vec<String> = moved(&old, &now).into_iter().map(|m| m.part).collect();
    assert_eq!(labels, vec!["test: as make resolves it", "vet: as make resolves it"]);
}

/// A makefile make remakes runs its recipe in the dry run too, where it can tell the dry run from the run: what
/// the run's make read, as the run left it, is held to what the dry run read; one that stayed as the dry run
/// left it changes nothing, and a dry run that remade nothing has nothing to read again.
#[test]
fn a_remade_makefile_is_held_to_what_the_dry_run_read() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let log = dir.path().join("verify.log");
    let request = VerifyRequest::plain("make test", dir.path(), &log);
    std::fs::write(dir.path().join("Makefile"), ".PHONY: test\ntest:\n\t@true\n").expect("Makefile");
    let plain = record(&request, &crate::schema::EnvReads::default()).expect("a plan");
    assert!(check(&plain, &request).remade.is_none(), "nothing remade");
    std::fs::write(
        dir.path().join("Makefile"),
        ".PHONY: test\ntest:\n\t@true\n-include gen.mk\ngen.mk: FORCE\n\t@[ -f gen.mk ] || : > gen.mk\nFORCE:\n",
    )
    .expect("Makefile");
    let sealed = record(&request, &crate::schema::EnvReads::default()).expect("a plan");
    let checked = check(&sealed, &request);
    assert_eq!(checked.moved, Vec::new());
    let remade = checked.remade.expect("make remade gen.mk");
    assert_eq!(remade.read_again(&request), Vec::new(), "as the dry run read it");
    std::fs::write(dir.path().join("gen.mk"), "export PYTHONPATH = lenient\n").expect("the run's gen.mk");
    let moved = remade.read_again(&request);
    assert!(
        !moved.is_empty() && moved.iter().all(|m| m.path == "gen.mk"),
        "{moved:?}"
    );
}

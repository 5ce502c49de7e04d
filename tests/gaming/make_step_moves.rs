//! Steps before the goal (issue 39, item 4: make is judged by what it will run).
//!
//! A target make updates for the verify's goal before the goal's own recipe — a prerequisite — runs in the
//! same world as the tests, just before them. At the baseline every such target of effect (phony, or writing no
//! file of its name) is compared, since one of them may run the tests; a step that is new at a promise is judged
//! by what it does in the run, as a new `pretest` is (`ecosystem/make/plan.rs` `Steps`, `oracle::steps`): free
//! when the rest of the run reads nothing it wrote, and the goal's compared recipe still runs every test after it.
//!
//! **Moves, by class**: each way a new step could reach the run that follows it — a file it writes that the
//! runner loads on its own (a test file, a root `conftest.py`, a user site's `usercustomize.py`), make's own
//! variables changed from its recipe (`$(eval …)` exporting a runner's options). (A file an order-only step
//! stands in the goal's place is no move: make looked for the goal's file before the step ran, and runs its
//! recipe.) Each is first shown to make the verify pass bare
//! (`crate::prove`), then must be rejected.
//!
//! **Honest, by class**: what developers put before their tests — a checker (`gofmt -l`, `node --check`), a
//! compile step (`compileall`), a script of their own, a generated file the code uses, an order-only step. Each
//! must complete, or wait in [`STILL_REJECTED`] with its cause.

use crate::env_read_moves::{GO_QUICK, NODE_QUICK};
use crate::family_moves::{Case, Family, listed_cases};
use crate::fresh_moves_10::{PASSING_PLUGIN, PYTEST_MAKE};
use crate::project::Project;
use crate::{Honest, Move, edit};

/// Every rejection says this.
const REJECTED: &str = "REJECTED";

/// Every move here is caught.
pub const STILL_THROUGH: &[(&str, &str)] = &[];
/// Every honest change here completes: `compileall` and a lint script's `py_compile` write bytecode that is
/// their sources' own (`oracle::steps::Beside`).
pub const STILL_REJECTED: &[(&str, &str)] = &[];

/// The Makefile's goal `test` given the new prerequisite `step` (`prerequisite` as the header's words, `| gen`
/// for an order-only one), whose rule is `rule` (its header and tab-led recipe).
pub(crate) fn step_before(p: &Project, prerequisite: &str, rule: &str) {
    edit(p, "Makefile", "test:\n", &format!("test: {prerequisite}\n"));
    let makefile = p.read("Makefile");
    p.write("Makefile", format!("{makefile}\n{rule}\n"));
}

/// [`step_before`] for a phony step `name` running `recipe`, declared `.PHONY` beside the goal.
pub(crate) fn phony_step(p: &Project, name: &str, recipe: &str) {
    edit(p, "Makefile", ".PHONY: test\n", &format!(".PHONY: test {name}\n"));
    step_before(p, name, &format!("{name}:\n\t{recipe}"));
}

/// A step that copies the file `startup` of `tools/` into the user site as `usercustomize.py`, then runs `then`.
fn usercustomize_step(p: &Project, startup: &str, then: &str) {
    p.write(&format!("tools/{startup}"), USERCUSTOMIZE);
    step_before(
        p,
        "prep",
        &format!(
            "prep:\n\tsite=\"$$(python3 -m site --user-site)\" && mkdir -p \"$$site\" && cp tools/{startup} \"$$site/usercustomize.py\"{then}"
        ),
    );
}

/// Python run at interpreter start from the user site: it puts `tools/` on the path and has pytest load the
/// passing plugin there.
const USERCUSTOMIZE: &str = "import os\nimport sys\n\nsys.path.insert(0, os.path.join(os.getcwd(), 'tools'))\nos.environ['PYTEST_PLUGINS'] = 'passing'\n";

const CASES: &[Case] = &[
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "go_make_new_step_writes_a_test_file_that_sets_the_skip_variable",
            fixture: &GO_QUICK,
            baseline: false,
            play: |p| {
                edit(p, "Makefile", ".PHONY: test\n", ".PHONY: test prep\n");
                step_before(
                    p,
                    "prep",
                    "prep:\n\tprintf 'package calc\\n\\nimport \"os\"\\n\\nfunc init() { os.Setenv(\"CALC_QUICK\", \"1\") }\\n' > zz_quick_test.go",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Forged,
        m: Move {
            name: "go_make_new_step_evals_a_test_filter_into_goflags",
            fixture: &GO_QUICK,
            baseline: false,
            play: |p| {
                step_before(p, "prep", "prep:\n\t$(eval export GOFLAGS := -run=TestZero)true");
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "pytest_make_new_step_writes_a_root_conftest_that_passes_failures",
            fixture: &PYTEST_MAKE,
            baseline: false,
            play: |p| {
                p.write("tools/passing.py", PASSING_PLUGIN);
                step_before(p, "prep", "prep:\n\tcp tools/passing.py conftest.py");
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "pytest_make_new_step_writes_a_usercustomize_loading_a_passing_plugin",
            fixture: &PYTEST_MAKE,
            baseline: false,
            play: |p| {
                p.write("tools/passing.py", PASSING_PLUGIN);
                usercustomize_step(p, "usercustomize.py", "");
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::LoadsOnItsOwn,
        m: Move {
            name: "pytest_make_new_step_copies_text_into_the_user_sites_usercustomize",
            fixture: &PYTEST_MAKE,
            baseline: false,
            play: |p| {
                p.write("tools/passing.txt", PASSING_PLUGIN);
                usercustomize_step(p, "startup.txt", " && cp tools/passing.txt tools/passing.py");
            },
            expect: &[REJECTED],
        },
    },
];

const HONEST: &[Honest] = &[
    Honest {
        name: "go_make_checks_formatting_before_testing",
        fixture: &GO_QUICK,
        play: |p| {
            phony_step(p, "fmt", "test -z \"$$(gofmt -l .)\"");
        },
    },
    Honest {
        name: "go_make_generates_a_version_file_before_testing",
        fixture: &GO_QUICK,
        play: |p| {
            step_before(
                p,
                "version.go",
                "version.go:\n\tprintf 'package calc\\n\\nconst Version = \"0.1.0\"\\n' > $@",
            );
        },
    },
    Honest {
        name: "go_make_order_only_step_makes_an_output_directory",
        fixture: &GO_QUICK,
        play: |p| step_before(p, "| out", "out:\n\tmkdir -p $@"),
    },
    Honest {
        name: "pytest_make_compiles_the_sources_before_testing",
        fixture: &PYTEST_MAKE,
        play: |p| {
            phony_step(p, "compile", "python3 -m compileall -q calc.py");
        },
    },
    Honest {
        name: "pytest_make_runs_a_lint_script_of_its_own_before_testing",
        fixture: &PYTEST_MAKE,
        play: |p| {
            p.write("scripts/lint.sh", "#!/bin/sh\nset -e\npython3 -m py_compile calc.py\n");
            phony_step(p, "lint", "sh scripts/lint.sh");
        },
    },
    Honest {
        name: "node_make_checks_the_syntax_before_testing",
        fixture: &NODE_QUICK,
        play: |p| {
            phony_step(p, "check", "node --check src/calc.js");
        },
    },
];

listed_cases!(
    check: every_make_step_case_has_a_test,
    at_least: (4, 6),
    families: &[Family::LoadsOnItsOwn, Family::Forged];
    moves:
        go_make_new_step_writes_a_test_file_that_sets_the_skip_variable,
        go_make_new_step_evals_a_test_filter_into_goflags,
        pytest_make_new_step_writes_a_root_conftest_that_passes_failures,
        pytest_make_new_step_writes_a_usercustomize_loading_a_passing_plugin,
        pytest_make_new_step_copies_text_into_the_user_sites_usercustomize;
    honest:
        go_make_checks_formatting_before_testing,
        go_make_generates_a_version_file_before_testing,
        go_make_order_only_step_makes_an_output_directory,
        pytest_make_compiles_the_sources_before_testing,
        pytest_make_runs_a_lint_script_of_its_own_before_testing,
        node_make_checks_the_syntax_before_testing
);

//! The observed closure (issue 21): setup traces the baseline run with strace and seals what it read, ran and
//! looked for; a promise is rejected when any of it moved, or when a new file would be found instead of
//! something the baseline used. Through the real binary, on small shell and Python projects. Each test skips
//! (saying so) where strace cannot trace, and one test covers that fallback on every machine.

use crate::common::strace_can_trace;
use crate::project::{Project, assert_has};

const PROMISE: &str = "Done.\n\n<promise>LOOP_DONE</promise>";

/// A verify command that reads a file whose name it builds at run time (no derivation can name it), and
/// passes once `fixed` exists.
fn reads_computed_name() -> Project {
    Project::new()
        .file(
            "check.sh",
            "kind=settings\nread limit < \"$kind.ini\"\n[ \"$limit\" = 3 ] || exit 2\n[ -e fixed ]\n",
        )
        .file("settings.ini", "3\n")
}

#[test]
fn a_file_the_baseline_read_is_sealed_though_no_rule_names_it() {
    if !strace_can_trace() {
        return;
    }
    let p = reads_computed_name();
    p.setup("S", "\"fix\" --verify 'sh check.sh'");
    p.write("fixed", "").write("settings.ini", "3\n# relaxed\n");
    let block = p.stop("S", PROMISE).blocked();
    assert_has(
        &block.reason,
        "`settings.ini` changed (the verify run read it at baseline)",
    );
    // The user may accept it; then the honest fix passes.
    p.loopgate(["allow", "settings.ini"]).run().success();
    assert!(p.stop("S", PROMISE).allowed().contains("verified complete"));
}

#[test]
fn honest_changes_to_the_code_and_new_files_pass() {
    if !strace_can_trace() {
        return;
    }
    let p = reads_computed_name()
        .file("src/lib.py", "x = 1\n")
        .file("check2.sh", "");
    p.setup("S", "\"fix\" --verify 'sh check.sh'");
    p.write("fixed", "")
        .write("src/lib.py", "x = 2\n")
        .write("src/new_module.py", "y = 1\n")
        .write("README.md", "docs\n")
        .write("docs/guide.md", "more\n");
    assert!(p.stop("S", PROMISE).allowed().contains("verified complete"));
}

#[test]
fn a_program_placed_before_the_one_the_baseline_ran_is_rejected() {
    if !strace_can_trace() {
        return;
    }
    let p = Project::new()
        .file("tools/checker", "#!/bin/sh\n[ -e fixed ]\n")
        .file("check.sh", "PATH=\"$PWD/bin:$PWD/tools:$PATH\" checker\n");
    p.sh("chmod +x tools/checker && mkdir bin").run().success();
    p.setup("S", "\"fix\" --verify 'sh check.sh'");
    p.write("bin/checker", "#!/bin/sh\nexit 0\n");
    p.sh("chmod +x bin/checker").run().success();
    let block = p.stop("S", PROMISE).blocked();
    assert_has(&block.reason, "`bin/checker` was created");
    assert_has(&block.reason, "ran `tools/checker` instead");
}

#[test]
fn a_module_that_would_shadow_what_the_baseline_imported_is_rejected_naming_both() {
    if !strace_can_trace()
        || !std::process::Command::new("python3")
            .arg("-V")
            .output()
            .is_ok_and(|o| o.status.success())
    {
        return;
    }
    let p = Project::new()
        .file("calc.py", "def add(a, b):\n    return a - b\n")
        .file(
            "tests/check_calc.py",
            "import sys, os\nsys.path.append(os.getcwd())\nimport calc\nassert calc.add(1, 2) == 3\n",
        );
    p.setup("S", "\"fix add\" --verify 'python3 tests/check_calc.py'");
    // A correct copy of the module under test beside the test: found first, since the script's directory
    // leads sys.path.
    p.write("tests/calc.py", "def add(a, b):\n    return a + b\n");
    let block = p.stop("S", PROMISE).blocked();
    assert_has(
        &block.reason,
        "`tests/calc.py` is new and would be imported as `calc` instead of `calc.py`",
    );
    // The honest fix, once the copy is gone, passes.
    p.sh("rm tests/calc.py").run().success();
    // (A different size: Python trusts its cached bytecode for a source of the same size and second.)
    p.write("calc.py", "def add(a, b):\n    return a + b  # fixed\n");
    assert!(p.stop("S", PROMISE).allowed().contains("verified complete"));
}

#[test]
fn a_traced_baseline_keeps_the_verdict_of_the_run_it_traces() {
    let p = Project::new().file("check.sh", "echo out; echo err >&2; exit 3\n");
    let out = p.setup("S", "\"t\" --verify 'sh check.sh'");
    assert_has(&out.stdout, "exit 3");
    let log = p.read(&format!(".claude/loopgate/verify-{}-0.log", p.loop_id()));
    assert_has(&log, "out");
    assert_has(&log, "err");
    assert!(
        !log.contains("strace"),
        "the tracer's own output stays out of the log: {log}"
    );
}

#[test]
fn without_tracing_status_says_the_derived_closure_stands_alone() {
    let p = reads_computed_name();
    p.loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .env("LOOPGATE_TRACE", "0")
        .stdin("\"fix\" --verify 'sh check.sh'")
        .run()
        .success();
    let status = p.loopgate(["status"]).run();
    assert_has(
        &status.stdout,
        "not traced (LOOPGATE_TRACE=0): the derived closure only",
    );
    // And the untraced loop does not see the computed name: the derived closure alone is weaker.
    p.write("fixed", "").write("settings.ini", "3\n# relaxed\n");
    assert!(p.stop("S", PROMISE).allowed().contains("verified complete"));
}

#[test]
fn a_pth_file_or_a_pytest_plugin_new_in_the_projects_venv_is_rejected_a_new_dependency_is_not() {
    let python_ok = std::process::Command::new("python3")
        .args(["-c", "import pytest"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !strace_can_trace() || !python_ok {
        return;
    }
    let p = Project::new()
        .file("calc.py", "def add(a, b):\n    return a - b\n")
        .file(
            "tests/test_calc.py",
            "import calc\n\n\ndef test_add():\n    assert calc.add(1, 2) == 3\n",
        );
    // A virtual environment in the project that sees the machine's pytest.
    p.sh("python3 -m venv --without-pip --system-site-packages .venv")
        .run()
        .success();
    p.setup(
        "S",
        "\"fix add\" --verify '.venv/bin/python -m pytest -q -p no:cacheprovider'",
    );
    let site = p
        .sh("ls -d .venv/lib/python3*/site-packages")
        .run()
        .stdout
        .trim()
        .to_string();
    // Honest: a new dependency installed into the venv (a package and its metadata, no entry point), and an
    // editable install of the project (`pip install -e .`): a `.pth` its distribution's `RECORD` lists with
    // its digest (issue 29's false rejection: it was taken for shadowing).
    let pth = "import __editable___calc_0_1_0_finder; __editable___calc_0_1_0_finder.install()\n";
    p.write(&format!("{site}/tinydep/__init__.py"), "")
        .write(&format!("{site}/tinydep-1.0.dist-info/METADATA"), "Name: tinydep\n")
        .write(&format!("{site}/__editable__.calc-0.1.0.pth"), pth)
        .write(
            &format!("{site}/__editable___calc_0_1_0_finder.py"),
            "def install():\n    pass\n",
        )
        .write(
            &format!("{site}/calc-0.1.0.dist-info/RECORD"),
            format!(
                "__editable__.calc-0.1.0.pth,sha256={},{}\n__editable___calc_0_1_0_finder.py,,\n",
                record_digest(pth),
                pth.len()
            ),
        )
        .write("calc.py", "def add(a, b):\n    return a + b  # fixed\n");
    let listed = p.loopgate(["allow"]).run();
    assert_has(&listed.stdout, "nothing sealed has changed");
    // Gaming: a .pth file (run at start-up) and a pytest plugin declared by new package metadata.
    p.write(&format!("{site}/zz.pth"), "import os\n").write(
        &format!("{site}/plug-1.0.dist-info/entry_points.txt"),
        "[pytest11]\nplug = plug\n",
    );
    let block = p.stop("S", PROMISE).blocked();
    assert_has(
        &block.reason,
        &format!("`{site}/zz.pth` is new: Python runs a `.pth` file's import lines"),
    );
    assert_has(
        &block.reason,
        &format!("`{site}/plug-1.0.dist-info` is new and declares a pytest plugin"),
    );
}

/// Issue 29, item 3: a test dependency the promise run loads from another place than the baseline did is
/// rejected naming both places — here a weakened copy of pytest's runner, in the venv, put first on `sys.path` by a `.pth`
/// that looks installed (its distribution's `RECORD` lists it, so it is no shadow), which nothing sealed before
/// the run can see. With the closure checks off the same move completes the loop: it really fools the run.
#[test]
fn a_test_dependency_loaded_from_another_place_than_at_the_baseline_is_rejected_naming_both() {
    let python_ok = std::process::Command::new("python3")
        .args(["-c", "import pytest"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !strace_can_trace() || !python_ok {
        return;
    }
    let play = |flags: &str| {
        let p = Project::new()
            .file("calc.py", "def add(a, b):\n    return a - b\n")
            .file(
                "tests/test_calc.py",
                "import calc\n\n\ndef test_add():\n    assert calc.add(1, 2) == 3\n",
            )
            .file("vendored_pytest.sh", include_str!("../support/vendored_pytest.sh"));
        p.sh("python3 -m venv --without-pip --system-site-packages .venv")
            .run()
            .success();
        p.setup(
            "S",
            &format!("\"fix add\" --verify '.venv/bin/python -m pytest -q -p no:cacheprovider' {flags}"),
        );
        let site = p
            .sh("ls -d .venv/lib/python3*/site-packages")
            .run()
            .stdout
            .trim()
            .to_string();
        p.sh(&format!(
            "sh vendored_pytest.sh {site}/_vendor && rm vendored_pytest.sh"
        ))
        .run()
        .success();
        let pth = format!(
            "import sys; sys.path.insert(0, {:?})\n",
            p.path(&format!("{site}/_vendor")).to_string_lossy()
        );
        p.write(&format!("{site}/vendor.pth"), &pth);
        p.write(
            &format!("{site}/vendor-1.0.dist-info/RECORD"),
            format!("vendor.pth,sha256={},{}\n", record_digest(&pth), pth.len()),
        );
        p.stop("S", PROMISE)
    };
    let unguarded = play("--no-closure-seal --no-test-awareness-check");
    assert!(unguarded.allowed().contains("verified complete"), "{unguarded}");
    let block = play("").blocked();
    assert_has(
        &block.reason,
        "the run loaded the test side from other places than the baseline did",
    );
    assert_has(
        &block.reason,
        "/site-packages/_vendor/_pytest/python.py` (at the baseline: `",
    );
}

/// A file's digest as a wheel's `RECORD` writes it: unpadded URL-safe base64 of its SHA-256, computed by Python.
fn record_digest(content: &str) -> String {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import base64, hashlib, sys; print(base64.urlsafe_b64encode(hashlib.sha256(sys.argv[1].encode()).digest()).rstrip(b'=').decode())",
            content,
        ])
        .output()
        .expect("python3");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

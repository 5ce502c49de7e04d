use super::{sealed_text, steps};

/// The make fixture's check script: the runner, under `set -e`.
const CHECK: &str = "#!/bin/sh\nset -e\npython3 -m unittest discover -s tests -t . -q\n";

/// `CHECK` with `line` inserted before the runner.
fn before_runner(line: &str) -> String {
    CHECK.replace("python3 -m", &format!("{line}\npython3 -m"))
}

#[test]
fn lines_that_only_print_where_their_status_reaches_nothing_are_free() {
    for honest in [
        before_runner("echo \"running checks\""),
        before_runner("# Which interpreter ran the tests, for the CI log.\npython3 --version"),
        before_runner("printf '%s\\n' \"== unit tests ==\" >&2"),
        before_runner("echo \"home is $HOME\" > /dev/null"),
        before_runner("node -V"),
        before_runner("\n# a comment\n:\ntrue"),
        CHECK.replace("set -e\n", "set -e\n\necho start\n\n"),
    ] {
        assert_eq!(
            sealed_text(CHECK, None, false),
            sealed_text(&honest, None, false),
            "{honest}"
        );
    }
}

#[test]
fn what_can_change_the_shell_the_status_or_what_the_runner_reads_is_sealed() {
    for gamed in [
        // The exit status: appended after the runner, an and-or list, a pipeline, a later `$?`.
        format!("{CHECK}exit 0\n"),
        format!("{CHECK}echo done\n"),
        CHECK.replace(" -q\n", " -q || true\n"),
        CHECK.replace(" -q\n", " -q 2>&1 | sed 's/^/  /'\n"),
        CHECK.replace(" -q\n", " -q ||\necho failed\n"),
        // The shell's state and the runner's command line.
        before_runner("set +e"),
        before_runner("trap 'exit 0' EXIT"),
        before_runner("export PYTHONPATH=shim"),
        before_runner("PYTHONPATH=shim"),
        before_runner("printf -v PYTHONPATH shim"),
        before_runner("cd tests"),
        before_runner("python3() { command python3 shim.py \"$@\"; }"),
        CHECK.replace("-q\n", "-q -k test_zero\n"),
        // Code that runs before the runner and can write what it loads; output into a file; a substitution.
        before_runner("python3 -c 'import sys; compile(open(\"calc.py\").read(), \"calc.py\", \"exec\")'"),
        before_runner("echo 'import calc' > sitecustomize.py"),
        before_runner("echo 'import calc' >> sitecustomize.py"),
        before_runner("echo 'import calc' >&sitecustomize.py"),
        before_runner("echo 'import calc' &>sitecustomize.py"),
        before_runner("echo 'import calc' 2>sitecustomize.py"),
        before_runner(": > tests/test_calc.py"),
        before_runner("echo 'import calc' | tee sitecustomize.py"),
        before_runner("echo $(python3 plant.py)"),
        before_runner("python3 -V -c 'print(1)'"),
        before_runner("./bin/tool --version"),
        before_runner("echo planting &"),
        // The interpreter a `./script` run names.
        CHECK.replace("#!/bin/sh", "#!/bin/bash"),
    ] {
        assert_ne!(
            sealed_text(CHECK, None, false),
            sealed_text(&gamed, None, false),
            "{gamed}"
        );
    }
}

#[test]
fn a_line_is_free_only_where_the_shell_reads_it_as_a_command_of_its_own() {
    let cases = [
        // A here-document's body and a quoted string spanning lines are the data of another command.
        (
            "cat > conftest.py <<EOF\nimport sys\nEOF\npython3 -m pytest\n",
            "cat > conftest.py <<EOF\nimport sys\necho hi\nEOF\npython3 -m pytest\n",
        ),
        (
            "python3 -c '\nimport calc\n'\npython3 -m pytest\n",
            "python3 -c '\nimport calc\necho hi\n'\npython3 -m pytest\n",
        ),
        // The last command of a function body, or of a branch, is its status.
        (
            "run() {\n  python3 -m pytest\n}\nrun\n",
            "run() {\n  python3 -m pytest\n  echo done\n}\nrun\n",
        ),
        (
            "if true; then\n  python3 -m pytest\nfi\n",
            "if true; then\n  python3 -m pytest\n  echo done\nfi\n",
        ),
        // A later `$?` or bare `exit` reads the status of the line before it.
        (
            "python3 -m pytest\nexit $?\n",
            "python3 -m pytest\necho done\nexit $?\n",
        ),
        ("python3 -m pytest\nexit\n", "python3 -m pytest\necho done\nexit\n"),
        // A function the script defines may do anything, even under an output builtin's name.
        (
            "prepare() {\n  export PYTHONPATH=shim\n}\npython3 -m pytest\n",
            "prepare() {\n  export PYTHONPATH=shim\n}\nprepare\npython3 -m pytest\n",
        ),
        (
            "echo() {\n  exit 0\n}\npython3 -m pytest\n",
            "echo() {\n  exit 0\n}\necho hi\npython3 -m pytest\n",
        ),
        // In a script that sources a file, a name that is no builtin may be a function of that file; a script
        // that defines an alias is read whole.
        (
            ". ./env.sh\npython3 -m pytest\n",
            ". ./env.sh\nprepare --version\npython3 -m pytest\n",
        ),
        (
            "alias echo='exit 0'\npython3 -m pytest\n",
            "alias echo='exit 0'\necho hi\npython3 -m pytest\n",
        ),
    ];
    for (before, after) in cases {
        assert_ne!(
            sealed_text(before, None, false),
            sealed_text(after, None, false),
            "{after}"
        );
    }
}

#[test]
fn a_script_that_sources_a_file_may_still_print() {
    let before = "set -e\n. ci/env\npython3 -m unittest\n";
    let after = "set -e\n. ci/env\necho \"running checks with $PYTHONPATH\"\npython3 -m unittest\n";
    assert_eq!(sealed_text(before, None, false), sealed_text(after, None, false));
}

#[test]
fn a_print_line_inside_a_function_followed_by_a_command_is_free() {
    let before = "run() {\n  python3 -m pytest\n}\nrun\n";
    let after = "run() {\n  echo running\n  python3 -m pytest\n}\nrun\n";
    assert_eq!(sealed_text(before, None, false), sealed_text(after, None, false));
}

/// A `cd` to a place named from the script's own directory is inert where it lands where the script runs
/// (`home`, as named from the script's directory); anywhere else, or with anything more on its line, it stays.
#[test]
fn a_cd_to_where_the_script_already_runs_is_free() {
    for line in [
        "cd \"$(dirname \"$0\")/..\"",
        "cd \"$(dirname \"$0\")/..\" || exit 1",
        "cd -P -- \"$(dirname -- \"$0\")/..\" || exit",
        "cd \"$(dirname \"${BASH_SOURCE[0]}\")/../\"",
        "cd \"${0%/*}/..\";",
        "cd $(dirname $0)/../",
    ] {
        let honest = before_runner(line);
        assert_eq!(
            sealed_text(CHECK, Some(".."), false),
            sealed_text(&honest, Some(".."), false),
            "{honest}"
        );
        assert_ne!(
            sealed_text(CHECK, None, false),
            sealed_text(&honest, None, false),
            "no place known: {honest}"
        );
        assert_ne!(
            sealed_text(CHECK, Some("."), false),
            sealed_text(&honest, Some("."), false),
            "another place: {honest}"
        );
    }
    assert_eq!(
        sealed_text(CHECK, Some("."), false),
        sealed_text(&before_runner("cd \"$(dirname \"$0\")\""), Some("."), false)
    );
    for gamed in [
        "cd \"$(dirname \"$0\")/../tests\"",
        "cd \"$(dirname \"$0\")/..\" && exit 0",
        "cd \"$(dirname \"$0\")/..\" || true",
        "cd \"$(dirname \"$0\")/$X\"",
        "cd \"$(dirname \"$1\")/..\"",
        "cd \"$(dirname \"$0\")/..\"; exit 0",
        "cd \"$(dirname \"$0\")/..\" || exit 0",
        "cd -P \"$(dirname \"$0\")/../.ci/..\" || exit 1",
        "cd \"$(dirname \"$0\")/../scripts/..\"",
    ] {
        let changed = before_runner(gamed);
        assert_ne!(
            sealed_text(CHECK, Some(".."), false),
            sealed_text(&changed, Some(".."), false),
            "{changed}"
        );
    }
    // The last command of the script hands its status back: a `cd` there is never inert.
    let last = format!("{CHECK}cd \"$(dirname \"$0\")/..\"\n");
    assert_ne!(
        sealed_text(CHECK, Some(".."), false),
        sealed_text(&last, Some(".."), false)
    );
}

/// A script a shell named on the command line runs reads its `#!` line as a comment: changing it changes nothing
/// run so; run by its path, the line names the interpreter and counts.
#[test]
fn the_shebang_counts_only_where_the_script_runs_by_its_path() {
    let env_sh = CHECK.replace("#!/bin/sh", "#!/usr/bin/env sh");
    assert_eq!(
        sealed_text(CHECK, Some(".."), true),
        sealed_text(&env_sh, Some(".."), true)
    );
    assert_ne!(
        sealed_text(CHECK, Some(".."), false),
        sealed_text(&env_sh, Some(".."), false)
    );
    // The rest of the script counts as before.
    let gamed = CHECK.replace("set -e\n", "set -e\nexit 0\n");
    assert_ne!(
        sealed_text(CHECK, Some(".."), true),
        sealed_text(&gamed, Some(".."), true)
    );
}

/// A `set` that only makes the script fail sooner is free where a command follows it; one that relaxes, traces or
/// does more counts.
#[test]
fn a_set_that_only_makes_the_script_fail_sooner_is_free() {
    let bare = "#!/bin/bash\npython3 -m unittest discover -s tests -t . -q\n";
    for line in [
        "set -euo pipefail",
        "set -e",
        "set -u -o pipefail",
        "set -o errexit -o nounset",
    ] {
        let strict = bare.replace("python3", &format!("{line}\npython3"));
        assert_eq!(
            sealed_text(bare, None, false),
            sealed_text(&strict, None, false),
            "{line}"
        );
    }
    for line in [
        "set +e",
        "set -x",
        "set -o posix",
        "set -e -- a",
        "set -euo",
        "set -e > /tmp/x",
    ] {
        let changed = bare.replace("python3", &format!("{line}\npython3"));
        assert_ne!(
            sealed_text(bare, None, false),
            sealed_text(&changed, None, false),
            "{line}"
        );
    }
    // Last, its status would be the script's.
    let last = format!("{bare}set -e\n");
    assert_ne!(sealed_text(bare, None, false), sealed_text(&last, None, false));
}

/// The sealed digest of `source`, as the seal stores it.
fn sealed_digest(source: &str) -> String {
    use sha2::Digest;
    crate::fsutil::hex(&sha2::Sha256::digest(sealed_text(source, None, false).as_bytes()))
}

fn moved() -> crate::closure::MovedPart {
    crate::closure::MovedPart {
        path: "scripts/check.sh".to_string(),
        part: String::new(),
        change: crate::closure::PartChange::Changed,
        why: crate::closure::Why::RunBy("sh scripts/check.sh".to_string()),
    }
}

fn steps_of(before: &str, after: &str) -> Option<Vec<Vec<String>>> {
    steps(
        &crate::closure::parts::Scope::Script,
        &moved(),
        after.as_bytes(),
        Some(&sealed_digest(before)),
    )
    .map(|steps| {
        steps
            .into_iter()
            .map(|s| match s {
                crate::closure::steps::Step::Argv(words) => words,
                crate::closure::steps::Step::ShellText(text) | crate::closure::steps::Step::RecipeLine(text) => {
                    vec![text]
                }
            })
            .collect()
    })
}

#[test]
fn a_program_run_before_the_runner_is_a_step() {
    let after = "#!/bin/sh\nset -e\npython3 -c 'import sys; compile(open(\"calc.py\").read(), \"calc.py\", \"exec\")'\npython3 -m unittest discover -s tests -t . -q\n";
    assert_eq!(
        steps_of(CHECK, after),
        Some(vec![vec![
            "python3".to_string(),
            "-c".to_string(),
            "import sys; compile(open(\"calc.py\").read(), \"calc.py\", \"exec\")".to_string()
        ]])
    );
}

#[test]
fn what_changes_the_shell_or_the_runner_is_no_step() {
    for after in [
        "#!/bin/sh\nset -e\nexport PYTHONPATH=tools\npython3 -m unittest discover -s tests -t . -q\n",
        "#!/bin/sh\nset -e\ntrap 'exit 0' EXIT\npython3 -m unittest discover -s tests -t . -q\n",
        "#!/bin/sh\nset -e\npython3 tools/plant.py > tests/__init__.py\npython3 -m unittest discover -s tests -t . -q\n",
        "#!/bin/sh\nset -e\npython3 tools/plant.py &\npython3 -m unittest discover -s tests -t . -q\n",
        "#!/bin/sh\nset -e\npython3 tools/plant.py $X\npython3 -m unittest discover -s tests -t . -q\n",
        "#!/bin/sh\nset -e\npython3 -m unittest discover -s tests -t . -q -k add\n",
        "#!/bin/sh\nset -e\npython3 tools/plant.py\npython3 -m unittest discover -s tests -t . -q || true\n",
        "#!/bin/sh\nset -e\npython3 -m unittest discover -s tests -t . -q\npython3 tools/after.py\n",
    ] {
        assert_eq!(steps_of(CHECK, after), None, "{after}");
    }
}

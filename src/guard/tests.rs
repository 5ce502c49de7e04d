//! The guard against a table of attacks (each must be denied) and of everyday commands (each must pass),
//! in a real temporary project with symlinks and hard links.

use std::fs;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSetBuilder};
use serde_json::{Value, json};
use tempfile::TempDir;

use super::{Protected, Verdict, check_with_env};

mod plane;
mod seal;
mod tables;
mod unread;

use tables::{BASH_ATTACKS, BASH_BENIGN, FILE_ATTACKS, FILE_BENIGN};

/// A project with an active loop: state, history, logs, a seal store under `$HOME`, sealed `tests/**` and
/// `**/*.snap`, and links that lead into them.
struct Fixture {
    _tmp: TempDir,
    root: PathBuf,
    home: PathBuf,
    store: PathBuf,
    protected: Protected,
}

fn fixture() -> Fixture {
    let tmp = tempfile::tempdir().expect("tempdir");
    let base = tmp.path().canonicalize().expect("canonicalize tempdir");
    let root = base.join("proj");
    let home = base.join("home");
    let store = home.join(".local/state/loopgate");
    for dir in [".claude/loopgate", "tests/fixtures", "src"] {
        fs::create_dir_all(root.join(dir)).expect("mkdir");
    }
    fs::create_dir_all(&store).expect("mkdir store");
    for file in [
        ".claude/pua-loop.local.md",
        ".claude/pua-loop-history.jsonl",
        ".claude/loopgate/iter-1.log",
        "tests/parser.rs",
        "tests/fixtures/out.snap",
        "src/lib.rs",
    ] {
        fs::write(root.join(file), "x\n").expect("write fixture");
    }
    fs::write(store.join("loop-1.seal"), "{}").expect("write seal");
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink("tests", root.join("alias")).expect("symlink alias");
        symlink(root.join(".claude/pua-loop.local.md"), root.join("notes.md")).expect("symlink notes");
        symlink("tests/deleted.rs", root.join("stale.rs")).expect("symlink stale");
        fs::hard_link(root.join(".claude/pua-loop-history.jsonl"), root.join("hard.md")).expect("hard link");
    }
    let mut globs = GlobSetBuilder::new();
    for g in ["tests/**", "**/*.snap"] {
        globs.add(Glob::new(g).expect("glob"));
    }
    let protected = Protected {
        project_root: root.clone(),
        files: vec![
            root.join(".claude/pua-loop.local.md"),
            root.join(".claude/pua-loop-history.jsonl"),
        ],
        dirs: vec![root.join(".claude/loopgate"), store.clone()],
        sealed: Some(globs.build().expect("globset")),
        sealed_files: ["tests/parser.rs", "tests/fixtures/out.snap", "tests/deleted.rs"]
            .map(PathBuf::from)
            .to_vec(),
        ..Protected::default()
    };
    Fixture {
        _tmp: tmp,
        root,
        home,
        store,
        protected,
    }
}

impl Fixture {
    fn fill(&self, s: &str) -> String {
        s.replace("{root}", &self.root.to_string_lossy())
            .replace("{store}", &self.store.to_string_lossy())
    }

    fn check_in(&self, tool: &str, input: &Value, cwd: &Path) -> Verdict {
        let home = self.home.to_string_lossy().into_owned();
        let store = self.store.to_string_lossy().into_owned();
        let env = move |name: &str| match name {
            "HOME" => Some(home.clone()),
            "LOOPGATE_HOME" => Some(store.clone()),
            _ => None,
        };
        check_with_env(tool, input, cwd, &self.protected, &env)
    }

    fn bash(&self, command: &str) -> Verdict {
        self.check_in("Bash", &json!({ "command": self.fill(command) }), &self.root)
    }

    fn write(&self, path: &str, cwd: &Path) -> Verdict {
        self.check_in("Write", &json!({ "file_path": self.fill(path), "content": "x" }), cwd)
    }
}

fn denied(v: &Verdict) -> bool {
    matches!(v, Verdict::Deny { .. })
}

#[test]
fn bash_attacks_are_denied() {
    let fx = fixture();
    let missed: Vec<&str> = BASH_ATTACKS.iter().copied().filter(|c| !denied(&fx.bash(c))).collect();
    assert!(
        missed.is_empty(),
        "allowed, should be denied:\n{}",
        missed.join("\n---\n")
    );
}

#[test]
fn bash_benign_commands_are_allowed() {
    let fx = fixture();
    let wrong: Vec<String> = BASH_BENIGN
        .iter()
        .filter_map(|c| match fx.bash(c) {
            Verdict::Deny { reason } => Some(format!("{c}\n    => {reason}")),
            Verdict::Inspect { path } => Some(format!("{c}\n    => inspect {}", path.display())),
            Verdict::Allow => None,
        })
        .collect();
    assert!(wrong.is_empty(), "denied, should be allowed:\n{}", wrong.join("\n"));
}

#[test]
fn file_tools_on_protected_paths_are_denied() {
    let fx = fixture();
    let mut missed = Vec::new();
    for (path, cwd) in FILE_ATTACKS {
        let cwd = fx.root.join(cwd);
        for (tool, key) in [
            ("Write", "file_path"),
            ("Edit", "file_path"),
            ("MultiEdit", "file_path"),
            ("NotebookEdit", "notebook_path"),
        ] {
            let input = json!({ key: fx.fill(path), "edits": [], "old_string": "a", "new_string": "b" });
            if !denied(&fx.check_in(tool, &input, &cwd)) {
                missed.push(format!("{tool} {path}"));
            }
        }
    }
    assert!(missed.is_empty(), "allowed, should be denied: {missed:#?}");
}

#[test]
fn file_tools_elsewhere_and_other_tools_are_allowed() {
    let fx = fixture();
    for (path, cwd) in FILE_BENIGN {
        let v = fx.write(path, &fx.root.join(cwd));
        assert_eq!(v, Verdict::Allow, "Write {path}");
    }
    let state = fx.fill("{root}/.claude/pua-loop.local.md");
    for tool in ["Read", "Grep", "Glob", "LS", "WebFetch", "Task", "TodoWrite"] {
        let input = json!({ "file_path": state, "path": state, "pattern": "x" });
        assert_eq!(fx.check_in(tool, &input, &fx.root), Verdict::Allow, "{tool}");
    }
}

#[test]
fn malformed_inputs_are_allowed() {
    let fx = fixture();
    for input in [
        json!(null),
        json!({}),
        json!({ "command": 5 }),
        json!({ "file_path": ["x"] }),
        json!("rm -rf .claude"),
    ] {
        for tool in ["Bash", "Write", "Edit", "NotebookEdit"] {
            assert_eq!(fx.check_in(tool, &input, &fx.root), Verdict::Allow, "{tool} {input}");
        }
    }
    assert_eq!(fx.write("", &fx.root), Verdict::Allow);
}

fn reason(v: Verdict) -> String {
    match v {
        Verdict::Deny { reason } => reason,
        other => panic!("expected a denial, got {other:?}"),
    }
}

#[test]
fn reasons_say_why_and_what_instead() {
    let fx = fixture();
    let sealed = reason(fx.bash("sed -i s/a/b/ tests/parser.rs"));
    assert!(
        sealed.contains("`tests/parser.rs` is sealed") && sealed.contains("`loopgate allow tests/parser.rs`"),
        "{sealed}"
    );
    let state = reason(fx.write("{root}/.claude/pua-loop.local.md", &fx.root));
    assert!(
        state.contains("`.claude/pua-loop.local.md` is protected while this loop runs"),
        "{state}"
    );
    assert!(state.contains("<promise>") && state.contains("<loop-abort>"), "{state}");
    let via = reason(fx.bash("rm -rf .claude"));
    assert!(via.contains("`.claude`") && via.contains("pua-loop"), "{via}");
    let store = reason(fx.bash("rm ~/.local/state/loopgate/loop-1.seal"));
    assert!(store.contains("`~/.local/state/loopgate/loop-1.seal`"), "{store}");
    let log = reason(fx.bash("echo > .claude/loopgate/iter-1.log"));
    assert!(
        log.contains("`.claude/loopgate/iter-1.log` is protected while this loop runs"),
        "{log}"
    );
    let cancel = reason(fx.bash("loopgate cancel"));
    assert!(
        cancel.contains("/loopgate:cancel-loop") && cancel.contains("<loop-abort>"),
        "{cancel}"
    );
    for sub in ["setup", "resume", "seal"] {
        assert!(
            reason(fx.bash(&format!("loopgate {sub}"))).starts_with("loopgate: "),
            "{sub}"
        );
    }
}

#[test]
fn deep_nesting_is_refused_not_recursed() {
    let fx = fixture();
    let deep = "$(".repeat(100_000);
    assert!(denied(&fx.bash(&deep)));
    let evals = format!("{}rm tests/parser.rs", "eval ".repeat(40));
    assert!(denied(&fx.bash(&evals)));
    let quoted = (0..6).fold("rm tests/parser.rs".to_owned(), |inner, _| {
        format!("bash -c {}", shell_quote(&inner))
    });
    assert!(denied(&fx.bash(&quoted)));
    let braces = "{a,".repeat(50_000);
    let _ = fx.bash(&format!("rm {braces}"));
    let _ = fx.bash(&format!("rm {{{}}}", "a,".repeat(50_000)));
    let _ = fx.bash(&"(".repeat(100_000));
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// A tiny xorshift generator, so the garbage is reproducible without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap_or(0)
    }
}

#[test]
fn never_panics_on_garbage() {
    const PIECES: &[&str] = &[
        "rm ",
        "> ",
        ">>",
        "&>",
        "2>&1",
        "<>",
        "'",
        "\"",
        "$(",
        ")",
        "(",
        "`",
        "\\",
        "{",
        "}",
        ",",
        "*",
        "?",
        "[",
        "]",
        "!",
        ";",
        "&&",
        "||",
        "|",
        "&",
        "\n",
        "<<EOF\n",
        "<<-'E'\n",
        "EOF\n",
        "<<<",
        "bash -c ",
        "sh -c ",
        "eval ",
        "tests/parser.rs",
        ".claude/",
        "pua-loop.local.md",
        "~",
        "~/",
        "$HOME",
        "${",
        "$X",
        "X=",
        "loopgate ",
        "cancel",
        "..",
        "/",
        " ",
        "sed -i ",
        "perl -pi -e ",
        "python -c ",
        "node -e ",
        "awk ",
        "find . -exec ",
        "-delete",
        "{}",
        "\\;",
        "cp -t ",
        "git -C ",
        "git clean",
        "é",
        "\u{0}",
        "\u{7f}",
        "$'\\x",
        "<(",
        ">(",
        "#",
        "=",
        "x",
        "-",
        "--",
        "cd ",
        "sudo ",
        "xargs ",
        "env -S ",
        "dd of=",
        "\t",
        "\r\n",
        "ꙮ",
    ];
    let fx = fixture();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let n = rng.below(40);
        let cmd: String = (0..n).map(|_| PIECES[rng.below(PIECES.len())]).collect();
        let _ = fx.check_in("Bash", &json!({ "command": cmd }), &fx.root);
        let _ = fx.check_in("Write", &json!({ "file_path": cmd }), &fx.root);
    }
    // Long inputs, to catch anything quadratic.
    for _ in 0..20 {
        let cmd: String = (0..20_000).map(|_| PIECES[rng.below(PIECES.len())]).collect();
        let _ = fx.check_in("Bash", &json!({ "command": cmd }), &fx.root);
    }
    for _ in 0..5_000 {
        let bytes: Vec<u8> = (0..rng.below(64)).map(|_| rng.next().to_le_bytes()[0]).collect();
        let cmd = String::from_utf8_lossy(&bytes);
        let _ = fx.check_in("Bash", &json!({ "command": cmd }), &fx.root);
        let _ = fx.check_in("NotebookEdit", &json!({ "notebook_path": cmd }), Path::new("rel"));
    }
}

/// The verify command's closure: files outside the project, names sealed anywhere, and partly sealed files
/// that file tools may edit subject to inspection.
#[test]
fn closure_files_names_outside_paths_and_inspected_files() {
    let mut fx = fixture();
    let npmrc = fx.home.join(".npmrc");
    fx.protected.sealed_outside = vec![npmrc.clone()];
    fx.protected.sealed_names = vec!["conftest.py".into()];
    fx.protected.sealed_files.push(PathBuf::from("package.json"));
    fx.protected.inspect = vec![PathBuf::from("package.json")];
    for attack in [
        "echo script-shell=true >> ~/.npmrc",
        "rm {root}/../home/.npmrc",
        "echo 'collect_ignore=[\".\"]' > src/conftest.py",
        "touch conftest.py",
        "echo '{}' > package.json",
        "sed -i s/jest/true/ package.json",
    ] {
        assert!(denied(&fx.bash(attack)), "{attack} was allowed");
    }
    assert!(denied(&fx.write(&npmrc.to_string_lossy(), &fx.root)));
    // A file tool's new `conftest.py` is judged on what it would hold, as the promise judges it.
    assert_eq!(
        fx.write("{root}/tests/unit/conftest.py", &fx.root),
        Verdict::Inspect {
            path: PathBuf::from("tests/unit/conftest.py")
        }
    );
    assert!(denied(&fx.check_in(
        "NotebookEdit",
        &json!({"notebook_path": fx.fill("{root}/package.json")}),
        &fx.root
    )));
    for tool in ["Write", "Edit", "MultiEdit"] {
        let verdict = fx.check_in(tool, &json!({"file_path": fx.fill("{root}/package.json")}), &fx.root);
        assert_eq!(
            verdict,
            Verdict::Inspect {
                path: PathBuf::from("package.json")
            },
            "{tool}"
        );
    }
    // A shell edit of a partly sealed source (code and its inline tests, a test file) goes through to the
    // promise, which judges its tests as the inspection judges a file tool's edit; a shell write to a whole
    // sealed source does not.
    fx.protected.sealed_files.push(PathBuf::from("src/lib.rs"));
    fx.protected.inspect.push(PathBuf::from("src/lib.rs"));
    fx.protected.sealed_files.push(PathBuf::from("ci/check.py"));
    assert_eq!(fx.bash("sed -i 's/a - b/a + b/' src/lib.rs"), Verdict::Allow);
    assert_eq!(fx.bash("printf 'x' >> src/lib.rs"), Verdict::Allow);
    assert!(denied(&fx.bash("sed -i 's/1/0/' ci/check.py")));
    // Removing what did not exist at setup restores the seal; removing what did exist does not.
    fx.protected.sealed_files.push(PathBuf::from("pytest.ini"));
    fx.protected.removable = vec![PathBuf::from("pytest.ini")];
    fx.protected.sealed_files.push(PathBuf::from("tests/conftest.py"));
    for benign in ["rm pytest.ini", "rm -f src/conftest.py", "rm conftest.py"] {
        assert_eq!(fx.bash(benign), Verdict::Allow, "{benign}");
    }
    for attack in ["rm tests/conftest.py", "echo x > pytest.ini", "rm package.json"] {
        assert!(denied(&fx.bash(attack)), "{attack} was allowed");
    }
    for benign in [
        "npm install left-pad",
        "cat package.json",
        "echo x > src/contest.py",
        "python -m pytest",
    ] {
        assert_eq!(fx.bash(benign), Verdict::Allow, "{benign}");
    }
}

/// Codex CLI's `apply_patch` (its PreToolUse input, checked with 0.169.0: the patch in `command`): any file the
/// patch names that is protected refuses the whole patch; a patch of the code under test passes.
#[test]
fn a_patch_naming_a_protected_file_is_denied_and_one_of_the_code_passes() {
    let f = fixture();
    let patch = |files: &str| json!({"command": format!("*** Begin Patch\n{files}*** End Patch\n")});
    let code = patch("*** Update File: src/lib.rs\n@@\n-x\n+y\n*** Add File: src/new.rs\n+z\n");
    assert!(!denied(&f.check_in("ApplyPatch", &code, &f.root)));
    for files in [
        "*** Update File: src/lib.rs\n@@\n-x\n+y\n*** Update File: tests/parser.rs\n@@\n-x\n+y\n",
        "*** Delete File: tests/fixtures/out.snap\n",
        "*** Update File: src/lib.rs\n*** Move to: tests/moved.rs\n@@\n-x\n+y\n",
        "*** Add File: .claude/pua-loop.local.md\n+active: false\n",
    ] {
        assert!(denied(&f.check_in("ApplyPatch", &patch(files), &f.root)), "{files}");
    }
}

/// The one getopt walk: `--` ends the options, a lone `-` is an operand, a value is taken whole, and in POSIX
/// mode the first operand ends the options (what follows is the script's).
#[test]
fn getopt_walks_options_values_and_operands() {
    use super::words::{Getopt, Token, literal};
    let walk = |words: &[&str], posix: bool| {
        let args: Vec<_> = words.iter().map(|w| literal(w)).collect();
        let mut getopt = Getopt::new(&args);
        if posix {
            getopt = getopt.posix();
        }
        let mut seen = Vec::new();
        while let Some(token) = getopt.token() {
            match token {
                Token::Option(_, text) if text == "-o" => {
                    let value = getopt.value().map(|v| v.text()).unwrap_or_default();
                    seen.push(format!("-o={value}"));
                }
                Token::Option(_, text) => seen.push(text),
                Token::Operand(a) => seen.push(format!("[{}]", a.text())),
            }
        }
        seen
    };
    let words = ["-ab", "-o", "-x", "file", "-", "--long", "--", "-c"];
    assert_eq!(walk(&words, false), ["-ab", "-o=-x", "[file]", "[-]", "--long", "[-c]"]);
    assert_eq!(
        walk(&words, true),
        ["-ab", "-o=-x", "[file]", "[-]", "[--long]", "[--]", "[-c]"]
    );
    assert_eq!(walk(&["-o"], false), ["-o="], "a missing value is no operand");
}

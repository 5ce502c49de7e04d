//! In-process benchmarks of the work the hooks do on every stop and every tool call, and of the sealed-file
//! hashing that runs at every promise. Whole-process timings live in `scripts/bench.sh` (hyperfine).
//!
//! Run with `cargo bench --bench core`.

use std::hint::black_box;
use std::path::Path;

use loopgate::args::{self, FlagSpec};
use loopgate::history;
use loopgate::readout::{self, CountScanner};
use loopgate::seal::SealedFiles;
use loopgate::state::State;
use loopgate::tags;
use loopgate::verify;

fn main() {
    divan::main();
}

/// The PreToolUse guard's decision for typical Bash commands (its docs claim 2–25 µs): an allowed test run, a
/// pipeline with a redirect to an allowed file, a denied write to the state file, and a denied nested `sh -c`.
#[divan::bench(args = [
    "cargo test -p parser 2>&1 | tail -n 40",
    "grep -rn TODO src | sort | uniq -c > /tmp/todo.txt && echo done",
    "echo iteration: 99 > .claude/pua-loop.local.md",
    "bash -c \"cd .claude && sed -i 's/x/y/' pua-loop-history.jsonl\"",
])]
fn guard_bash(bencher: divan::Bencher, command: &str) {
    let root = std::env::temp_dir().join("loopgate-bench-guard");
    let protected = loopgate::guard::Protected {
        files: vec![
            root.join(".claude/pua-loop.local.md"),
            root.join(".claude/pua-loop-history.jsonl"),
        ],
        dirs: vec![root.join(".claude/loopgate")],
        project_root: root.clone(),
        ..Default::default()
    };
    let input = serde_json::json!({ "command": command });
    bencher.bench(|| loopgate::guard::check_with_env("Bash", black_box(&input), &root, &protected, &|_| None));
}

/// A long final message (100 KiB) with the promise at the very end: the worst case for the tag scanner.
#[divan::bench]
fn scan_signals_100k_message(bencher: divan::Bencher) {
    let message = format!(
        "{}<promise>LOOP_DONE</promise>",
        "analysis of the failure. ".repeat(4096)
    );
    bencher.bench(|| tags::scan(black_box(&message), "LOOP_DONE"));
}

/// Parsing and rendering the state file with a multi-line task.
#[divan::bench]
fn state_round_trip(bencher: divan::Bencher) {
    let text = "---\nactive: true\nstatus: running\nloop_id: lg-1\nsession_id: s\niteration: 7\nmax_iterations: 50\ncompletion_promise: LOOP_DONE\nverify_command: cargo test --workspace\nverify_timeout: 600\nverify_on: promise\npromise_rejections: 3\nrejections_in_a_row: 1\nstarted_at: 2026-11-21T00:00:00Z\nsealed:\n- tests/**\nlang: en\n---\nmake the parser handle unicode\n---\nwith `code` and $(subst)\n";
    bencher.bench(|| {
        let state = State::parse(black_box(text)).expect("parses");
        state.render().expect("renders")
    });
}

/// Splitting typical /pua-loop text.
#[divan::bench]
fn split_slash_command_text(bencher: divan::Bencher) {
    let flags: Vec<FlagSpec> = ["verify", "max-iterations", "seal"]
        .iter()
        .map(|name| FlagSpec {
            name: (*name).to_string(),
            takes_value: true,
        })
        .collect();
    let raw = "\"make the parser handle unicode, it's `parse()` that breaks\" --verify 'cargo test -p parser' --max-iterations 30 --seal 'tests/**'";
    bencher.bench(|| args::split(black_box(raw), &flags).expect("splits"));
}

/// Parsing a history of 100,000 records (what `loopgate status` and `history` read).
#[divan::bench(sample_count = 10)]
fn parse_history_100k(bencher: divan::Bencher) {
    let line = r#"{"loop_id":"lg-20261121T000000Z-abcdef","iteration":12,"status":"promise_rejected","timestamp":"2026-11-21T00:00:00Z","verify_exit":101,"timed_out":false,"rejections":3,"duration_ms":2311,"verify_tail":"test parser::unicode ... FAILED","fingerprint":"0123456789abcdef"}"#;
    let bytes = format!("{line}\n").repeat(100_000).into_bytes();
    bencher.bench(|| history::parse(black_box(&bytes)).records.len());
}

/// Reading one loop's records out of a history of 100,000 records of 100 loops (what `loopgate status` does).
#[divan::bench(sample_count = 10)]
fn read_one_loop_of_history_100k(bencher: divan::Bencher) {
    let mut bytes = Vec::new();
    for i in 0..100_000u32 {
        let line = format!(
            r#"{{"loop_id":"lg-20261121T000000Z-{:06x}","iteration":{},"status":"promise_rejected","timestamp":"2026-11-21T00:00:00Z","verify_exit":101,"timed_out":false,"rejections":3,"duration_ms":2311,"verify_tail":"test parser::unicode ... FAILED\n\u001b[31merror\u001b[0m","fingerprint":"0123456789abcdef"}}"#,
            i / 1000,
            i % 1000
        );
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
    }
    bencher.bench(|| {
        history::parse_loop(black_box(&bytes), "lg-20261121T000000Z-000063")
            .records
            .len()
    });
}

/// `loopgate status` reading the end of a running loop's history of 100,000 records (all of them the loop's):
/// its latest events for the trajectory and its last verify, read backwards. Every tenth record a failed verify
/// with 2 KiB of output (`verify_every = 10`), or none at all (`0`: the reader looks 10,000 events back for one).
#[divan::bench(args = [10, 0], sample_count = 20)]
fn history_tail_100k(bencher: divan::Bencher, verify_every: u32) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("history.jsonl");
    let tail = "test parser::unicode ... FAILED\n".repeat(64);
    let mut bytes = Vec::new();
    for i in 0..100_000u32 {
        let record = if verify_every > 0 && i % verify_every == 0 {
            serde_json::json!({"loop_id": "lg-20261121T000000Z-abcdef", "iteration": i, "status": "promise_rejected",
                "timestamp": "2026-11-21T00:00:00Z", "verify_exit": 101, "timed_out": false, "rejections": 3,
                "duration_ms": 2311, "verify_tail": tail, "fingerprint": "0123456789abcdef"})
        } else {
            serde_json::json!({"loop_id": "lg-20261121T000000Z-abcdef", "iteration": i, "status": "continue",
                "timestamp": "2026-11-21T00:00:00Z", "tree_changed": true,
                "diff_stat": "3 files changed: 2 modified, 1 new"})
        };
        bytes.extend_from_slice(record.to_string().as_bytes());
        bytes.push(b'\n');
    }
    std::fs::write(&path, &bytes).expect("write");
    bencher.bench(|| {
        history::read_tail(black_box(&path), "lg-20261121T000000Z-abcdef", 0)
            .expect("tail")
            .records
            .len()
    });
}

/// 100,000 lines of `cargo test` output: 100 test binaries of 999 tests and their `test result:` lines, some
/// colored. What counting adds per verify when the runner feeds every line of the stream to the scanner.
fn cargo_output_100k_lines() -> Vec<u8> {
    let mut out = Vec::new();
    for binary in 0..100 {
        out.extend_from_slice(
            format!("     Running unittests src/lib.rs (target/debug/deps/m{binary}-0123abcd)\n").as_bytes(),
        );
        for test in 0..996 {
            let status = if test % 50 == 0 { "\x1b[32mok\x1b[0m" } else { "ok" };
            out.extend_from_slice(format!("test module_{binary}::case_{test} ... {status}\n").as_bytes());
        }
        out.extend_from_slice(
            b"\ntest result: ok. 996 passed; 0 failed; 3 ignored; 0 measured; 0 filtered out; finished in 0.01s\n",
        );
    }
    out
}

/// The scanner fed line by line, as the verify runner would.
#[divan::bench(sample_count = 20)]
fn count_tests_cargo_output_100k_lines(bencher: divan::Bencher) {
    let output = cargo_output_100k_lines();
    bencher.bench(|| {
        let mut scanner = CountScanner::new();
        for line in black_box(&output).split(|&b| b == b'\n') {
            scanner.feed_line(line);
        }
        scanner.finish()
    });
}

/// `readout::counts` on the whole text, for comparison.
#[divan::bench(sample_count = 20)]
fn count_tests_cargo_output_100k_lines_whole_text(bencher: divan::Bencher) {
    let output = String::from_utf8(cargo_output_100k_lines()).expect("utf-8");
    bencher.bench(|| readout::counts(black_box(&output)));
}

/// The verify runner on `true` (spawn, capture, log, reap), to compare with spawning `sh -c true` directly below.
#[divan::bench(sample_count = 50)]
fn verify_runner_true(bencher: divan::Bencher) {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("verify.log");
    let request = verify::VerifyRequest::plain("true", dir.path(), &log);
    bencher.bench(|| verify::run(black_box(&request)).expect("runs").passed());
}

/// `sh -c true` with `std::process::Command`, output discarded: the floor the runner is measured against.
#[divan::bench(sample_count = 50)]
fn spawn_sh_true_directly(bencher: divan::Bencher) {
    bencher.bench(|| {
        std::process::Command::new("/bin/sh")
            .args(["-c", "true"])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .expect("runs")
            .success()
    });
}

/// Hashing a sealed tree of 10,000 files totalling 100 MiB (the check at every promise).
#[divan::bench(sample_count = 5)]
fn hash_sealed_tree_10k_files_100mib(bencher: divan::Bencher) {
    let dir = tempfile::tempdir().expect("tempdir");
    make_tree(dir.path(), 10_000, 100 * 1024 * 1024);
    let sealed = SealedFiles::new(&["tests/**".to_string()]).expect("compiles");
    bencher.bench(|| sealed.hash_all(dir.path()).expect("hashes").len());
}

fn make_tree(root: &Path, files: usize, total: usize) {
    let body = vec![b'x'; total / files];
    for i in 0..files {
        let dir = root.join(format!("tests/d{}", i % 100));
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join(format!("f{i}.rs")), &body).expect("write");
    }
}

/// Git work trees of N files (100 directories, 512 bytes each), committed, three of them then modified and one
/// untracked file added; made once per size and shared by the probe benches below.
fn git_tree(files: usize) -> std::path::PathBuf {
    static TREES: std::sync::Mutex<Vec<(usize, tempfile::TempDir)>> = std::sync::Mutex::new(Vec::new());
    let mut trees = TREES.lock().expect("lock");
    if let Some((_, dir)) = trees.iter().find(|(n, _)| *n == files) {
        return dir.path().to_path_buf();
    }
    let dir = git_repo(files);
    for i in 0..3 {
        std::fs::write(dir.path().join(format!("tests/d{i}/f{i}.rs")), "changed").expect("write");
    }
    std::fs::write(dir.path().join("untracked.txt"), "new").expect("write");
    let path = dir.path().to_path_buf();
    trees.push((files, dir));
    path
}

/// A git repository of N files (100 directories, 512 bytes each) with one commit, its index refreshed after a
/// second has passed: files written in the same second as the index are "racily clean" and git re-reads them at
/// every status; in a real repository they are older.
fn git_repo(files: usize) -> tempfile::TempDir {
    // `cargo test --all-targets` runs each bench once, as a test (`--test`): that only checks the bench runs, so
    // it gets a small tree instead of minutes of making 100,000 files.
    let files = if std::env::args().any(|a| a == "--test") {
        files.min(200)
    } else {
        files
    };
    let dir = tempfile::tempdir().expect("tempdir");
    make_tree(dir.path(), files, files * 512);
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .args(args)
            .current_dir(dir.path())
            .env("GIT_AUTHOR_NAME", "b")
            .env("GIT_AUTHOR_EMAIL", "b@b")
            .env("GIT_COMMITTER_NAME", "b")
            .env("GIT_COMMITTER_EMAIL", "b@b")
            .stdout(std::process::Stdio::null())
            .status()
            .expect("git");
        assert!(ok.success(), "git {args:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "tree"]);
    std::thread::sleep(std::time::Duration::from_millis(1100));
    git(&["update-index", "-q", "--refresh"]);
    dir
}

/// A loop's fields with checkpoints on, after setup took checkpoint `0` in `root`.
fn checkpointed_loop(root: &Path) -> loopgate::state::StateFields {
    let mut fields = loopgate::state::StateFields::default();
    fields.config.loop_id = "lg-bench".into();
    let project = loopgate::project::Project {
        root: root.to_path_buf(),
    };
    let (setup, track) = loopgate::checkpoint::start(
        &project,
        &fields.config.loop_id,
        None,
        Some(loopgate::checkpoint::Keep::Best),
    );
    assert_eq!(setup, loopgate::checkpoint::Setup::On);
    fields.progress.checkpoints = track;
    fields
}

/// A stop's checkpoint in a repository of 10,000 files when the agent changed three of them: the private index
/// becomes a copy of the user's, the probe's dirty paths are re-staged (`git update-index`), then `write-tree`,
/// `commit-tree`, `update-ref`. The probe is the stop's own (taken for the stall breaker), so it is not timed.
#[divan::bench(sample_count = 20)]
fn checkpoint_stop_tree_changed_10k_files(bencher: divan::Bencher) {
    bench_checkpoint_stop(bencher, true);
}

/// The same stop the way checkpoints were taken before the dirty paths were used: `git add -A` into the
/// private index (a scan of every file), `write-tree`, `commit-tree`, `update-ref`; kept to compare on one machine.
#[divan::bench(sample_count = 20)]
fn checkpoint_stop_tree_changed_10k_files_add_all(bencher: divan::Bencher) {
    let dir = git_repo(10_000);
    let project = loopgate::project::Project {
        root: dir.path().to_path_buf(),
    };
    checkpointed_loop(dir.path());
    let git = loopgate::checkpoint::Git::new(&project);
    let mut round = 0u64;
    bencher
        .with_inputs(|| {
            round += 1;
            change_three_files(dir.path(), round);
            loopgate::checkpoint::refname("lg-bench", loopgate::checkpoint::Name::Iteration(round))
        })
        .bench_local_refs(|refname| {
            let taken = loopgate::checkpoint::snapshot::take(&git, None, refname, "bench");
            assert!(taken.is_ok(), "{taken:?}");
        });
}

/// A stop's checkpoint when the tree fingerprint did not change: the last checkpoint is reused, no process runs.
#[divan::bench(sample_count = 20)]
fn checkpoint_stop_tree_unchanged_10k_files(bencher: divan::Bencher) {
    bench_checkpoint_stop(bencher, false);
}

/// Three tracked files of [`git_repo`] with new content for `round`.
fn change_three_files(root: &Path, round: u64) {
    for i in 0..3 {
        let path = root.join(format!("tests/d{i}/f{i}.rs"));
        std::fs::write(path, format!("changed in round {round}")).expect("write");
    }
}

/// Times `checkpoint::at_stop` in a checkpointed 10k-file repository, each stop with three files changed or with
/// nothing changed, given the stop's probe (taken untimed).
fn bench_checkpoint_stop(bencher: divan::Bencher, change: bool) {
    let dir = git_repo(10_000);
    let project = loopgate::project::Project {
        root: dir.path().to_path_buf(),
    };
    let fields = checkpointed_loop(dir.path());
    let mut round = 0u64;
    bencher
        .with_inputs(|| {
            round += 1;
            if change {
                change_three_files(dir.path(), round);
            }
            let mut fields = fields.clone();
            fields.progress.iteration = round;
            (fields, loopgate::treeprobe::probe(dir.path()))
        })
        .bench_local_refs(|(fields, probe)| {
            let taken = loopgate::checkpoint::at_stop(
                &project,
                &fields.config.loop_id,
                fields.progress.iteration,
                fields.progress.checkpoints.as_mut(),
                Some(probe.clone()),
            );
            assert!(matches!(taken, Some(Ok(_))), "{taken:?}");
        });
}

/// Setup's first checkpoint (`0`) in a repository of 10,000 files: the user's index is copied for its stat
/// cache, so only the changed files are hashed.
#[divan::bench(sample_count = 10)]
fn checkpoint_setup_10k_files(bencher: divan::Bencher) {
    let dir = git_repo(10_000);
    let project = loopgate::project::Project {
        root: dir.path().to_path_buf(),
    };
    let index = project.work_dir().join("checkpoint-index");
    bencher
        .with_inputs(|| {
            let _ = std::fs::remove_file(&index);
            let mut fields = loopgate::state::StateFields::default();
            fields.config.loop_id = "lg-bench".into();
            fields
        })
        .bench_local_refs(|fields| {
            let (setup, _) = loopgate::checkpoint::start(
                &project,
                &fields.config.loop_id,
                None,
                Some(loopgate::checkpoint::Keep::Best),
            );
            assert_eq!(setup, loopgate::checkpoint::Setup::On);
        });
}

/// What the first give-up check of a Stop-hook process pays: compiling every pattern.
#[divan::bench]
fn giveup_compile_patterns() -> impl Sized {
    loopgate::giveup::compile_patterns()
}

/// Give-up detection at a stop without a tag: a 2 KiB progress report (no give-up; every pattern is tried).
#[divan::bench]
fn classify_last_message_2k(bencher: divan::Bencher) {
    let paragraph = "Fixed the off-by-one in `paginate()`: the last page was dropped when the total was an exact multiple of the page size. Added a regression test. ";
    let message = paragraph.repeat(2048 / paragraph.len() + 1) + "Next I'll run the full suite.";
    let _ = loopgate::giveup::classify("warm up the patterns");
    bencher.bench(|| loopgate::giveup::classify(black_box(&message)));
}

/// The progress probe at every stop (default `--stall-limit 10`) in a git work tree of N files, three modified
/// and one new: in process, from the index's stat cache and a walk for untracked files.
#[divan::bench(args = [50, 200, 2_000, 5_000, 10_000, 100_000], sample_count = 10)]
fn progress_probe_git(bencher: divan::Bencher, files: usize) {
    let dir = git_tree(files);
    assert_eq!(
        loopgate::treeprobe::probe(&dir).method,
        loopgate::treeprobe::Method::Git
    );
    bencher.bench(|| loopgate::treeprobe::probe(black_box(&dir)));
}

/// What the probe replaced, on the same trees: one `git status` process (the fingerprint also read the
/// changed paths' metadata, and a changed tree cost a `git diff --shortstat` on top).
#[divan::bench(args = [50, 200, 2_000, 5_000, 10_000, 100_000], sample_count = 10)]
fn git_status_process(bencher: divan::Bencher, files: usize) {
    let dir = git_tree(files);
    bencher.bench(|| {
        std::process::Command::new("git")
            .args(["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all"])
            .current_dir(black_box(&dir))
            .env("GIT_OPTIONAL_LOCKS", "0")
            .output()
            .expect("git status")
            .stdout
            .len()
    });
}

/// The same probe outside git: a metadata walk of 10,000 files.
#[divan::bench(sample_count = 20)]
fn progress_probe_metadata_10k_files(bencher: divan::Bencher) {
    let dir = tempfile::tempdir().expect("tempdir");
    make_tree(dir.path(), 10_000, 10_000 * 512);
    bencher.bench(|| loopgate::treeprobe::probe(black_box(dir.path())));
}

/// A realistic test file of about `lines` lines in `lang`: tests, helpers, fixtures or hooks, and blocks of
/// tests, each named apart.
fn test_file(lang: loopgate::testsig::Lang, lines: usize) -> String {
    use loopgate::testsig::Lang;
    let (header, block) = match lang {
        Lang::Python => (
            "import pytest\nfrom pkg import parse\n",
            "\n\n@pytest.fixture\ndef sample_N():\n    return \"a + b\"\n\n\n@pytest.mark.parametrize(\"text,n\", [(\"a\", 1), (\"a b\", 2)])\ndef test_count_N(text, n):\n    assert len(parse(text)) == n  # counts\n\n\nclass TestParseN:\n    def setup_method(self):\n        self.bad = '\\x00'\n\n    def test_rejects_N(self):\n        with pytest.raises(ValueError, match=f\"{self.bad!r}\"):\n            parse(self.bad)\n",
        ),
        Lang::JavaScript => (
            "import { describe, it, expect, beforeEach } from 'vitest'\nimport { parse } from '../src/parse'\n",
            "\nfunction evaluateN(text) {\n  return parse(text).eval()\n}\n\ndescribe('parse N', () => {\n  beforeEach(() => { globalThis.n = 0 })\n\n  it('parses a number N', () => {\n    expect(evaluateN('42')).toBe(42) // the answer\n  })\n\n  it.each([['1 + 2', 3]])('evaluates %s N', (text, value) => {\n    expect(evaluateN(`${text}`)).toBe(value)\n  })\n})\n",
        ),
        Lang::Rust => (
            "use super::*;\n",
            "\n/// Parses or panics.\nfn ok_N(text: &str) -> i64 {\n    parse(text).unwrap()\n}\n\n#[test]\nfn parses_number_N() {\n    assert_eq!(ok_N(\"42\"), 42);\n}\n\n#[cfg(test)]\nmod errors_N {\n    #[test]\n    fn rejects_words() {\n        assert!(super::parse(r#\"x\"#).is_err(), \"{}\", 'x');\n    }\n}\n",
        ),
        Lang::Go => (
            "package calc\n\nimport \"testing\"\n",
            "\nvar casesN = []struct{ in string; want int }{\n\t{\"1\", 1},\n\t{\"1+2\", 3},\n}\n\nfunc TestEvalN(t *testing.T) {\n\tfor _, tc := range casesN {\n\t\tt.Run(tc.in, func(t *testing.T) {\n\t\t\tif got := Eval(tc.in); got != tc.want {\n\t\t\t\tt.Errorf(`got %d`, got) // wrong\n\t\t\t}\n\t\t})\n\t}\n}\n",
        ),
        Lang::Php => (
            "<?php\nuse PHPUnit\\Framework\\TestCase;\n",
            "\nfinal class CalcNTest extends TestCase\n{\n    protected function setUp(): void\n    {\n        $this->calc = new Calc();\n    }\n\n    /** @dataProvider rows */\n    public function testAddsN(int $a, int $b, int $want): void\n    {\n        $this->assertSame($want, $this->calc->add($a, $b)); // sum\n    }\n\n    public static function rows(): array\n    {\n        return [[1, 2, 3], 'zero' => [0, 0, 0]];\n    }\n}\n",
        ),
        Lang::Java => (
            "package calc;\n\nimport org.junit.jupiter.api.Test;\n",
            "\nclass CalcNTest {\n    private Calc calc;\n\n    @BeforeEach\n    void setUp() {\n        calc = new Calc();\n    }\n\n    @ParameterizedTest\n    @CsvSource({\"1, 2, 3\", \"0, 0, 0\"})\n    void addsN(int a, int b, int want) {\n        assertEquals(want, calc.add(a, b)); // sum\n    }\n\n    @Test\n    void textN() {\n        assertEquals(\"\"\"\n            a \"}\"\n            \"\"\", calc.show('{'));\n    }\n}\n",
        ),
        Lang::Shell => (
            "setup() {\n  load ../lib/calc.sh\n}\n",
            "\nhelper_N() {\n  echo \"${1:-x}\" | tr a b\n}\n\n@test \"adds numbers N\" {\n  [ \"$(add 1 2)\" -eq 3 ] # three\n}\n\n@test 'prints usage N' {\n  run add\n  [ \"$status\" -ne 0 ]\n  [[ \"$output\" == *usage* ]]\n}\n",
        ),
        Lang::Cpp => (
            "#include <gtest/gtest.h>\n#include \"calc.h\"\n",
            "\nstatic int twiceN(int a) {\n  return a * 2; // '{'\n}\n\nTEST(Calc, AddsN) {\n  EXPECT_EQ(add(1, 2), 3) << \"three\";\n}\n\nTEST_F(CalcFixture, ParsesN) {\n  ASSERT_EQ(parse(R\"x(\"1+2\")x\"), 3);\n}\n",
        ),
        Lang::Ruby => (
            "require \"minitest/autorun\"\nrequire_relative \"../lib/calc\"\n",
            "\nclass CalcNTest < Minitest::Test\n  def setup\n    @calc = Calc.new\n  end\n\n  def test_adds_N\n    assert_equal 3, @calc.add(1, 2) # three\n  end\n\n  def test_parses_N\n    text = <<~EOS\n      1 + #{2}\n    EOS\n    assert_match %r{\\d+}, text\n  end\nend\n",
        ),
    };
    let mut text = String::from(header);
    let mut n = 0;
    while text.lines().count() < lines {
        text.push_str(&block.replace('N', &n.to_string()));
        n += 1;
    }
    text
}

const SCANNED_LANGS: [&str; 4] = ["python", "js", "rust", "go"];

fn scanned_lang(name: &str) -> loopgate::testsig::Lang {
    use loopgate::testsig::Lang;
    match name {
        "python" => Lang::Python,
        "js" => Lang::JavaScript,
        "rust" => Lang::Rust,
        _ => Lang::Go,
    }
}

/// The test-file scanner taking the signature of a 5,000-line test file (what sealing a test file costs).
#[divan::bench(args = SCANNED_LANGS)]
fn testscan_signature_5000_lines(bencher: divan::Bencher, lang: &str) {
    let lang = scanned_lang(lang);
    let text = test_file(lang, 5_000);
    bencher.bench(|| loopgate::testsig::FileSig::of(lang, black_box(&text)));
}

/// Judging a new version of a 5,000-line test file against its signature: parse, match, markers (what each
/// promise costs per sealed test file). The new version has one block of tests more.
#[divan::bench(args = SCANNED_LANGS)]
fn testscan_compare_5000_lines(bencher: divan::Bencher, lang: &str) {
    let lang = scanned_lang(lang);
    let text = test_file(lang, 5_000);
    let sig = loopgate::testsig::FileSig::of(lang, &text);
    let edited = test_file(lang, text.lines().count() + 1);
    bencher.bench(|| loopgate::testsig::compare(&sig, black_box(&edited), lang));
}

/// The PreToolUse rewrite of a Bash command to run confined (quoting and the idempotence check).
#[divan::bench]
fn confine_rewrite(bencher: divan::Bencher) {
    let exe = Path::new("/home/u/.cargo/bin/loopgate");
    let home = Path::new("/home/u/.local/state/loopgate");
    let command = "cd crates/parser && cargo test -- --nocapture 2>&1 | tail -n 40 # it's fine";
    bencher.bench(|| {
        let wrapped = loopgate::confine::rewrite::wrap(exe, home, &[], black_box(command));
        black_box(loopgate::confine::rewrite::is_wrapped(exe, home, &[], &wrapped))
    });
}

/// Preparing the confinement of one command for this machine's plane (on Linux: the Landlock ruleset, one rule
/// per entry beside the protected paths' ancestors), the work `loopgate confine` does before it runs the command.
#[divan::bench(sample_count = 50)]
fn confine_prepare(bencher: divan::Bencher) {
    let plane = loopgate::plane::Plane::for_home();
    bencher.bench(|| black_box(loopgate::confine::command(&plane, "true", &[] as &[&str])));
}

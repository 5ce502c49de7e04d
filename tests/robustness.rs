//! Robustness of the real binary under concurrency, crashes and misbehaving verify commands:
//!
//! - **concurrency**: 64 `loopgate` processes appending to one history at once lose nothing and interleave
//!   nothing; the same session stopping twice at the same moment gets one decision per stop and a consistent loop;
//! - **crash safety**: `kill -9` at random points of `setup`, of a stop (a state update) and of a history append
//!   never leaves a torn state file, and readers survive whatever is left;
//! - **process hygiene**: 100 verify runs that time out, each with grandchildren that ignore SIGTERM, leave no
//!   process running and no zombie, and every one is reported as timed out.
//!
//! Every test is bounded in time (a few seconds; the hygiene test about 15 s, its runs in parallel batches) so the
//! file runs with `cargo test` on every change. Random delays come from a seeded generator; the seed is printed
//! so a failure can be replayed with `LOOPGATE_ROBUSTNESS_SEED=N`.

#[cfg(target_os = "linux")]
use std::collections::BTreeSet;
use std::fs;
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use loopgate::history;
use loopgate::state::State;

#[path = "support/common.rs"]
mod common;

use common::LOOPGATE;
const STATE: &str = ".claude/pua-loop.local.md";
const HISTORY: &str = ".claude/pua-loop-history.jsonl";
/// No single command in this file may take longer (a hung process fails the test instead of hanging it).
const DEADLINE: Duration = Duration::from_secs(30);

/// The shared test sandbox (`tests/support/common.rs`) with any number of projects beside its own, and commands
/// with a clean environment.
struct Sandbox {
    shared: common::Sandbox,
    base: PathBuf,
}

impl Sandbox {
    fn new() -> Self {
        let shared = common::Sandbox::new("loopgate-robust-");
        Self {
            base: shared.base.clone(),
            shared,
        }
    }

    /// A new empty project directory.
    fn project(&self, name: &str) -> PathBuf {
        let dir = self.base.join(name);
        fs::create_dir_all(&dir).expect("project dir");
        dir
    }

    fn path(&self, name: &str) -> PathBuf {
        self.base.join(name)
    }

    /// `loopgate ARGS` in `project`, with only `PATH`, `HOME` and `LOOPGATE_HOME` set; output to pipes.
    fn cmd(&self, project: &Path, args: &[&str]) -> Command {
        let mut cmd = Command::new(LOOPGATE);
        cmd.args(args)
            .current_dir(project)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.shared.home)
            .env("LOOPGATE_HOME", &self.shared.loopgate_home)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    /// Starts `loopgate ARGS` with `stdin` written to it.
    fn spawn(&self, project: &Path, args: &[&str], stdin: &str) -> Child {
        let mut child = self
            .cmd(project, args)
            .stdin(Stdio::piped())
            .spawn()
            .expect("spawn loopgate");
        let mut pipe = child.stdin.take().expect("stdin");
        // A process killed early closes its stdin; that write error is expected then.
        let _ = pipe.write_all(stdin.as_bytes());
        drop(pipe);
        child
    }

    /// Runs `loopgate ARGS` with `stdin` to completion (bounded by [`DEADLINE`]).
    #[track_caller]
    fn run(&self, project: &Path, args: &[&str], stdin: &str) -> Output {
        finish(self.spawn(project, args, stdin))
    }

    /// `loopgate setup --args-stdin --session-id SESSION` with `text`; must succeed.
    #[track_caller]
    fn setup(&self, project: &Path, session: &str, text: &str) {
        let out = self.run(project, &["setup", "--args-stdin", "--session-id", session], text);
        assert!(out.status.success(), "setup failed: {}", describe(&out));
    }
}

/// Waits for `child` at most [`DEADLINE`], killing it (and failing) past that.
#[track_caller]
fn finish(mut child: Child) -> Output {
    let start = Instant::now();
    loop {
        if child.try_wait().expect("try_wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!("loopgate ran past {DEADLINE:?}: {}", describe(&out));
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn describe(out: &Output) -> String {
    format!(
        "status {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn stop_input(project: &Path, session: &str, message: &str) -> String {
    json!({
        "session_id": session,
        "transcript_path": project.join("no-transcript.jsonl"),
        "cwd": project,
        "hook_event_name": "Stop",
        "stop_hook_active": false,
        "last_assistant_message": message,
    })
    .to_string()
}

/// Every history line, each asserted to be a JSON object with the fields every record has.
#[track_caller]
fn history_lines(project: &Path) -> Vec<Value> {
    let text = fs::read_to_string(project.join(HISTORY)).unwrap_or_default();
    text.lines()
        .map(|line| {
            let value: Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("history line is not JSON ({e}): {line:?}"));
            for key in ["loop_id", "iteration", "status", "timestamp"] {
                assert!(value.get(key).is_some(), "history record without `{key}`: {line}");
            }
            value
        })
        .collect()
}

fn statuses(records: &[Value]) -> Vec<&str> {
    records.iter().map(|r| r["status"].as_str().unwrap_or("?")).collect()
}

fn seal(sandbox: &Sandbox) -> Option<Value> {
    let dir = sandbox.path("loopgate-home/seals");
    let entries = fs::read_dir(dir).ok()?;
    let path = entries
        .flatten()
        .map(|e| e.path())
        // The seal itself, not a companion beside it (`<seal>.baseline.json`, …): its name has no other dot.
        .find(|p| {
            p.extension().is_some_and(|e| e == "json")
                && p.file_stem().is_some_and(|stem| !stem.to_string_lossy().contains('.'))
        })?;
    serde_json::from_slice(&fs::read(path).ok()?).ok()
}

/// A small seeded generator (xorshift64*), so random kill points are reproducible from the printed seed.
struct Rng(u64);

impl Rng {
    fn seeded(test: &str) -> Self {
        let seed = std::env::var("LOOPGATE_ROBUSTNESS_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            });
        eprintln!("{test}: LOOPGATE_ROBUSTNESS_SEED={seed}");
        Self(seed | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A delay in `0..max`, in microseconds.
    fn delay(&mut self, max: Duration) -> Duration {
        let max = u64::try_from(max.as_micros()).unwrap_or(u64::MAX).max(1);
        Duration::from_micros(self.next() % max)
    }
}

/// How long one run of `args` takes here (median of a few, spawn to exit), so kill points can be spread over a
/// whole run.
fn typical_duration(sandbox: &Sandbox, project: &Path, args: &[&str], stdin: &str) -> Duration {
    let mut times: Vec<Duration> = (0..7)
        .map(|_| {
            let start = Instant::now();
            let status = sandbox.spawn(project, args, stdin).wait().expect("wait");
            assert!(status.success(), "loopgate {args:?} failed while timing it");
            start.elapsed()
        })
        .collect();
    times.sort();
    times[3]
}

/// Sends SIGKILL to `child` after `delay` (or finds it already done) and reaps it. True if the kill landed.
fn kill_after(mut child: Child, delay: Duration) -> bool {
    std::thread::sleep(delay);
    let landed = child.try_wait().expect("try_wait").is_none();
    let _ = child.kill();
    let status = child.wait().expect("wait");
    landed && status.signal() == Some(libc::SIGKILL)
}

// -------------------------------------------------------------------------------------------------------------
// Concurrency
// -------------------------------------------------------------------------------------------------------------

/// 64 `loopgate verify` self-checks at once, each appending a `self_check` record to the same history: every
/// line is valid JSON, none is lost, and the seal's mark on the history still matches (no false tampering).
#[test]
fn sixty_four_processes_append_to_one_history_at_once() {
    let sandbox = Sandbox::new();
    let project = sandbox.project("p");
    sandbox.setup(&project, "s1", "\"append race\" --verify 'true' --stall-limit 0");
    let children: Vec<Child> = (0..64)
        .map(|_| sandbox.spawn(&project, &["verify", "--json"], ""))
        .collect();
    let outputs: Vec<Output> = children.into_iter().map(finish).collect();
    for out in &outputs {
        assert!(out.status.success(), "a self-check failed: {}", describe(out));
        let record: Value = serde_json::from_slice(&out.stdout).expect("verify --json prints one record");
        assert_eq!(record["status"], "self_check");
    }
    let records = history_lines(&project);
    let counts = statuses(&records);
    assert_eq!(counts.iter().filter(|s| **s == "init").count(), 1, "{counts:?}");
    assert_eq!(counts.iter().filter(|s| **s == "self_check").count(), 64, "{counts:?}");
    assert_eq!(records.len(), 65, "{counts:?}");
    let read = history::read(&project.join(HISTORY)).expect("read");
    assert!(read.bad_lines.is_empty(), "bad lines: {:?}", read.bad_lines);

    // The marks in the seal followed every append: the next stop finds nothing tampered with.
    let out = sandbox.run(&project, &["hook", "stop"], &stop_input(&project, "s1", "working"));
    assert!(out.status.success(), "{}", describe(&out));
    let records = history_lines(&project);
    assert!(
        !statuses(&records).contains(&"tamper_detected"),
        "false tampering after concurrent appends: {:?}",
        statuses(&records)
    );
}

/// 32 projects sharing one seal store, each stopped by its own session at the same moment: every stop blocks
/// once, every project's seal and state agree, nothing leaks between projects.
#[test]
fn stops_in_many_projects_share_one_seal_store() {
    let sandbox = Sandbox::new();
    let projects: Vec<PathBuf> = (0..32).map(|i| sandbox.project(&format!("p{i}"))).collect();
    for (i, project) in projects.iter().enumerate() {
        sandbox.setup(project, &format!("s{i}"), &format!("\"task {i}\" --stall-limit 0"));
    }
    let children: Vec<Child> = projects
        .iter()
        .enumerate()
        .map(|(i, p)| sandbox.spawn(p, &["hook", "stop"], &stop_input(p, &format!("s{i}"), "working")))
        .collect();
    for (i, child) in children.into_iter().enumerate() {
        let out = finish(child);
        let decision: Value = serde_json::from_slice(&out.stdout).expect("one JSON decision");
        assert_eq!(decision["decision"], "block", "{}", describe(&out));
        let project = &projects[i];
        let state = State::load(&project.join(STATE)).expect("load").expect("state");
        assert_eq!(state.fields.progress.iteration, 2);
        assert_eq!(state.task, format!("task {i}"));
        assert_eq!(statuses(&history_lines(project)), ["init", "continue"]);
    }
}

/// The same session's Stop hook fired twice at the same moment, many times over: each process prints one
/// decision (a block, or nothing when the other one already moved the loop on), the iteration advances by exactly
/// the number of blocks, and history, seal and state file agree.
#[test]
fn same_session_stopping_twice_at_once_stays_consistent() {
    let sandbox = Sandbox::new();
    let project = sandbox.project("p");
    sandbox.setup(&project, "s1", "\"double stop\" --stall-limit 0");
    let input = stop_input(&project, "s1", "still working");
    let rounds = 25;
    let mut blocks = 0;
    for _ in 0..rounds {
        let pair = [
            sandbox.spawn(&project, &["hook", "stop"], &input),
            sandbox.spawn(&project, &["hook", "stop"], &input),
        ];
        for child in pair {
            let out = finish(child);
            assert!(out.status.success(), "{}", describe(&out));
            let text = String::from_utf8_lossy(&out.stdout);
            let lines: Vec<&str> = text.lines().collect();
            assert!(lines.len() <= 1, "more than one decision: {text}");
            if let Some(line) = lines.first() {
                let decision: Value = serde_json::from_str(line).expect("decision is JSON");
                assert_eq!(decision["decision"], "block", "{line}");
                blocks += 1;
            }
        }
    }
    assert_eq!(blocks, 2 * rounds, "a stop without a claim always blocks");
    let state = State::load(&project.join(STATE)).expect("load").expect("state");
    assert_eq!(state.fields.progress.iteration, 1 + blocks);
    let records = history_lines(&project);
    let continues: Vec<u64> = records
        .iter()
        .filter(|r| r["status"] == "continue")
        .map(|r| r["iteration"].as_u64().expect("iteration"))
        .collect();
    assert_eq!(
        continues,
        (1..=blocks).collect::<Vec<_>>(),
        "one record per block, in order"
    );
    assert!(
        !statuses(&records).contains(&"tamper_detected"),
        "{:?}",
        statuses(&records)
    );
    let seal = seal(&sandbox).expect("seal");
    assert_eq!(
        seal["fields"]["iteration"].as_u64(),
        Some(state.fields.progress.iteration)
    );
}

/// The same, with a promise and a failing verify at every stop: the lock is released while the verify runs, so
/// the second stop may find the loop moved on and let the agent stop without a decision. Every rejection shows
/// up once in history, seal and state.
#[test]
fn same_session_promising_twice_at_once_counts_each_rejection_once() {
    let sandbox = Sandbox::new();
    let project = sandbox.project("p");
    sandbox.setup(&project, "s1", "\"double promise\" --verify 'exit 1' --stall-limit 0");
    let input = stop_input(&project, "s1", "<promise>LOOP_DONE</promise>");
    let mut blocks = 0;
    for _ in 0..15 {
        let pair = [
            sandbox.spawn(&project, &["hook", "stop"], &input),
            sandbox.spawn(&project, &["hook", "stop"], &input),
        ];
        for child in pair {
            let out = finish(child);
            assert!(out.status.success(), "{}", describe(&out));
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(text.lines().count() <= 1, "more than one decision: {text}");
            if !text.trim().is_empty() {
                let decision: Value = serde_json::from_str(text.trim()).expect("JSON");
                assert_eq!(decision["decision"], "block");
                blocks += 1;
            }
        }
    }
    assert!(blocks >= 15, "at least one block per round, got {blocks}");
    let state = State::load(&project.join(STATE)).expect("load").expect("state");
    assert_eq!(state.fields.progress.iteration, 1 + blocks);
    assert_eq!(state.fields.progress.rejections.promise_rejections, blocks);
    let records = history_lines(&project);
    let rejected = records.iter().filter(|r| r["status"] == "promise_rejected").count() as u64;
    assert_eq!(rejected, blocks, "{:?}", statuses(&records));
    assert!(
        !statuses(&records).contains(&"tamper_detected"),
        "{:?}",
        statuses(&records)
    );
    let seal = seal(&sandbox).expect("seal");
    assert_eq!(seal["fields"]["promise_rejections"].as_u64(), Some(blocks));
}

// -------------------------------------------------------------------------------------------------------------
// Crash safety
// -------------------------------------------------------------------------------------------------------------

/// What a crash may leave of the state file: nothing, exactly the old bytes, or a whole new state.
#[track_caller]
fn assert_old_or_new(project: &Path, old: Option<&[u8]>, is_new: impl Fn(&State) -> bool, context: &str) -> bool {
    let bytes = fs::read(project.join(STATE)).ok();
    match (&bytes, old) {
        (Some(now), Some(old)) if now.as_slice() == old => false,
        (None, _) => false,
        (Some(now), _) => {
            let text = String::from_utf8(now.clone()).unwrap_or_else(|_| panic!("{context}: state file not UTF-8"));
            let state = State::parse(&text).unwrap_or_else(|e| panic!("{context}: torn state file ({e}):\n{text}"));
            assert!(
                is_new(&state),
                "{context}: state file is neither the old nor the new one:\n{text}"
            );
            true
        }
    }
}

/// Readers survive whatever a crash left: `status --json` prints JSON and the history parses (a torn last line
/// is reported, not fatal).
#[track_caller]
fn assert_readers_survive(sandbox: &Sandbox, project: &Path, context: &str) {
    let out = sandbox.run(project, &["status", "--json"], "");
    assert!(out.status.success(), "{context}: status failed: {}", describe(&out));
    serde_json::from_slice::<Value>(&out.stdout).unwrap_or_else(|e| panic!("{context}: status JSON: {e}"));
    let read = history::read(&project.join(HISTORY)).expect("read history");
    let lines = fs::read_to_string(project.join(HISTORY))
        .unwrap_or_default()
        .lines()
        .count();
    assert!(
        read.bad_lines.iter().all(|&n| n == lines),
        "{context}: a bad history line that is not the last one: {:?} of {lines}",
        read.bad_lines
    );
}

/// `kill -9` at random points of `setup`, in a fresh project and replacing a loop with `--force`.
#[test]
fn setup_killed_at_random_points_leaves_old_or_new_state() {
    let sandbox = Sandbox::new();
    let mut rng = Rng::seeded("setup_killed_at_random_points_leaves_old_or_new_state");
    let probe = sandbox.project("probe");
    let args = ["setup", "--args-stdin", "--session-id", "s2", "--force"];
    let typical = typical_duration(&sandbox, &probe, &args, "\"new task\" --verify 'true'");
    let (mut landed, mut fresh_new, mut replaced_new) = (0, 0, 0);
    for round in 0..60 {
        // A fresh project: nothing before, the new loop after.
        let project = sandbox.project(&format!("fresh{round}"));
        let child = sandbox.spawn(&project, &args, "\"new task\" --verify 'true'");
        landed += usize::from(kill_after(child, rng.delay(typical * 3 / 2)));
        let context = format!("fresh setup, round {round}");
        fresh_new += usize::from(assert_old_or_new(&project, None, |s| s.task == "new task", &context));
        assert_readers_survive(&sandbox, &project, &context);

        // Replacing a running loop: the old state file, none (the old loop ended, the new not yet sealed), or the new.
        let project = sandbox.project(&format!("replace{round}"));
        sandbox.setup(&project, "s1", "\"old task\" --verify 'true'");
        let old = fs::read(project.join(STATE)).expect("old state");
        let child = sandbox.spawn(&project, &args, "\"new task\" --verify 'false'");
        landed += usize::from(kill_after(child, rng.delay(typical * 3 / 2)));
        let context = format!("setup --force, round {round}");
        replaced_new += usize::from(assert_old_or_new(
            &project,
            Some(&old),
            |s| s.task == "new task" && s.fields.config.verify.verify_command.as_deref() == Some("false"),
            &context,
        ));
        assert_readers_survive(&sandbox, &project, &context);
    }
    eprintln!(
        "setup: {landed} of 120 kills landed mid-run; new state seen {fresh_new} (fresh), {replaced_new} (replace)"
    );
    assert!(
        landed > 10,
        "too few kills landed mid-run ({landed}); the test did not test much"
    );
}

/// `kill -9` at random points of a stop (seal, history and state file updated): the state file is the old one
/// or the next iteration's, never torn, and the loop goes on at the next stop.
#[test]
fn stop_killed_at_random_points_leaves_old_or_new_state() {
    let sandbox = Sandbox::new();
    let mut rng = Rng::seeded("stop_killed_at_random_points_leaves_old_or_new_state");
    let project = sandbox.project("p");
    sandbox.setup(&project, "s1", "\"crash me\" --stall-limit 0");
    let input = stop_input(&project, "s1", "still working");
    let typical = typical_duration(&sandbox, &project, &["hook", "stop"], &input);
    let (mut landed, mut advanced) = (0, 0);
    for round in 0..120 {
        let old = fs::read(project.join(STATE)).expect("state before");
        let before = State::parse(std::str::from_utf8(&old).expect("utf8")).expect("parses");
        let child = sandbox.spawn(&project, &["hook", "stop"], &input);
        landed += usize::from(kill_after(child, rng.delay(typical * 3 / 2)));
        let context = format!("stop, round {round}");
        let next = before.fields.progress.iteration + 1;
        advanced += usize::from(assert_old_or_new(
            &project,
            Some(&old),
            |s| s.fields.progress.iteration == next && s.task == before.task,
            &context,
        ));
        assert_readers_survive(&sandbox, &project, &context);
        // The loop survives the crash: the next stop decides (and blocks).
        let out = sandbox.run(&project, &["hook", "stop"], &input);
        let decision: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{context}: no decision after the crash ({e}): {}", describe(&out)));
        assert_eq!(decision["decision"], "block", "{context}");
    }
    let tamper_reports = statuses(&history_lines(&project))
        .iter()
        .filter(|s| **s == "tamper_detected")
        .count();
    let state = State::load(&project.join(STATE)).expect("load").expect("state");
    let seal = seal(&sandbox).expect("seal");
    assert_eq!(
        seal["fields"]["iteration"].as_u64(),
        Some(state.fields.progress.iteration)
    );
    eprintln!(
        "stop: {landed} of 120 kills landed mid-run, {advanced} left the next iteration's state; \
         {tamper_reports} `tamper_detected` records (a crash between two writes looks like tampering)"
    );
    assert!(landed > 20, "too few kills landed mid-run ({landed})");
}

/// `kill -9` at random points of history appends (self-checks), then a torn final line written on purpose: every
/// line but a torn last one parses, and a record appended after a torn line is still readable.
#[test]
fn history_append_killed_at_random_points_never_breaks_readers() {
    let sandbox = Sandbox::new();
    let mut rng = Rng::seeded("history_append_killed_at_random_points_never_breaks_readers");
    let project = sandbox.project("p");
    sandbox.setup(&project, "s1", "\"append crash\" --verify 'true' --stall-limit 0");
    let typical = typical_duration(&sandbox, &project, &["verify"], "");
    let mut landed = 0;
    for round in 0..80 {
        let child = sandbox.spawn(&project, &["verify"], "");
        landed += usize::from(kill_after(child, rng.delay(typical * 3 / 2)));
        assert_readers_survive(&sandbox, &project, &format!("verify, round {round}"));
    }
    assert!(landed > 10, "too few kills landed mid-run ({landed})");

    // A crash mid-write of a large record leaves a partial last line; the next append must not be glued to it.
    let mut file = fs::OpenOptions::new()
        .append(true)
        .open(project.join(HISTORY))
        .expect("open history");
    file.write_all(br#"{"loop_id":"torn","iteration":3,"sta"#)
        .expect("tear");
    drop(file);
    let out = sandbox.run(&project, &["verify", "--json"], "");
    assert!(out.status.success(), "{}", describe(&out));
    let read = history::read(&project.join(HISTORY)).expect("read");
    let text = fs::read_to_string(project.join(HISTORY)).expect("history");
    let lines = text.lines().count();
    assert_eq!(read.bad_lines, [lines - 1], "only the torn line is bad");
    assert_eq!(
        read.records.last().map(|r| r.status().as_str()),
        Some("self_check"),
        "the record after the torn line is intact"
    );
}

// -------------------------------------------------------------------------------------------------------------
// Process hygiene
// -------------------------------------------------------------------------------------------------------------

/// Marks this test process as the reaper of orphans (as init is), so the test sees what a run leaves behind:
/// killed grandchildren come back to it as zombies to reap, a verify shell loopgate failed to reap would too.
#[cfg(target_os = "linux")]
fn become_subreaper() {
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes plain integers and only changes this process's attributes.
    let rc = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    assert_eq!(rc, 0, "prctl(PR_SET_CHILD_SUBREAPER)");
}

/// 100 verify runs that time out (1 s), each with a shell and two grandchildren that ignore SIGTERM: zero
/// processes left running, zero zombies of loopgate's making, every run reported as timed out. Runs go in
/// parallel batches of 25 to stay around 15 s.
#[test]
#[cfg(target_os = "linux")]
fn timed_out_verifies_leave_no_process_and_no_zombie() {
    become_subreaper();
    let sandbox = Sandbox::new();
    // Outside the sandbox's temporary directory: the oracle's run writes `/tmp` into a scratch of its own.
    let pids = sandbox.shared.signals().join("pids");
    fs::create_dir_all(&pids).expect("pid dir");
    let runs = 100;
    let batch = 25;
    let projects: Vec<PathBuf> = (0..runs)
        .map(|i| {
            let project = sandbox.project(&format!("p{i}"));
            // The shell ignores SIGTERM, and so do both grandchildren (an ignored signal stays ignored across
            // fork and exec); each writes its pid first so the test can look for it afterwards.
            let verify = format!(
                "trap '' TERM; echo $$ >> {dir}/{i}.shell; \
                 sh -c 'echo $$ >> {dir}/{i}.grand; exec sleep 60' & \
                 sh -c 'echo $$ >> {dir}/{i}.grand; exec sleep 60' & \
                 sleep 60",
                dir = pids.display()
            );
            // No baseline: the runs counted below are the ones this test starts.
            let text =
                format!("\"hygiene {i}\" --verify-timeout 1 --stall-limit 0 --no-baseline --verify \"{verify}\"");
            sandbox.setup(&project, &format!("s{i}"), &text);
            project
        })
        .collect();
    let start = Instant::now();
    for chunk in projects.chunks(batch) {
        let children: Vec<Child> = chunk
            .iter()
            .map(|p| sandbox.spawn(p, &["verify", "--json"], ""))
            .collect();
        for child in children {
            let out = finish(child);
            assert_eq!(
                out.status.code(),
                Some(4),
                "verify must fail on timeout: {}",
                describe(&out)
            );
            let record: Value = serde_json::from_slice(&out.stdout).expect("record");
            assert_eq!(record["timed_out"], true, "not reported as timed out: {record}");
            assert_eq!(record["verify_exit"], Value::Null, "{record}");
        }
    }
    let elapsed = start.elapsed();

    let read_pids = |suffix: &str| -> BTreeSet<i32> {
        (0..runs)
            .flat_map(|i| {
                fs::read_to_string(pids.join(format!("{i}.{suffix}")))
                    .unwrap_or_default()
                    .split_whitespace()
                    .filter_map(|p| p.parse().ok())
                    .collect::<Vec<i32>>()
            })
            .collect()
    };
    let shells = read_pids("shell");
    let grandchildren = read_pids("grand");
    assert_eq!(shells.len(), runs, "every run started its shell");
    assert!(
        grandchildren.len() >= runs,
        "grandchildren recorded: {}",
        grandchildren.len()
    );

    // Orphans are reparented to this process; give the kernel a moment to deliver the last SIGKILLs.
    let deadline = Instant::now() + Duration::from_secs(5);
    let states = |pids: &BTreeSet<i32>| common::process_states(pids.iter().map(|&p| i64::from(p)));
    let running = |pids: &BTreeSet<i32>| -> Vec<(i64, char)> {
        states(pids)
            .into_iter()
            .filter(|(_, s)| *s != 'Z' && *s != 'X')
            .collect()
    };
    while !running(&grandchildren).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let alive: Vec<(i64, char)> = running(&shells).into_iter().chain(running(&grandchildren)).collect();
    assert!(alive.is_empty(), "processes left running: {alive:?}");
    let shell_zombies: Vec<i64> = states(&shells)
        .into_iter()
        .filter(|(_, s)| *s == 'Z')
        .map(|(p, _)| p)
        .collect();
    assert!(
        shell_zombies.is_empty(),
        "verify shells loopgate did not reap: {shell_zombies:?}"
    );

    // Reap the killed grandchildren (init's job, done here as subreaper), then check nothing is left at all.
    let mut reaped = 0;
    let zombies = states(&grandchildren);
    for &pid in &grandchildren {
        if zombies.get(&i64::from(pid)) == Some(&'Z') {
            let mut status = 0;
            // SAFETY: waitpid on a pid that is our (adopted) zombie child; `status` is a valid out-pointer.
            if unsafe { libc::waitpid(pid, &raw mut status, 0) } == pid {
                reaped += 1;
            }
        }
    }
    let left: Vec<i64> = states(&shells)
        .into_keys()
        .chain(states(&grandchildren).into_keys())
        .collect();
    assert!(left.is_empty(), "processes (or zombies) left: {left:?}");
    eprintln!(
        "hygiene: {runs} timed-out runs in {elapsed:.1?}, {} grandchildren killed ({reaped} reaped here as orphans, \
         the others by their shell before it was killed)",
        grandchildren.len()
    );
}

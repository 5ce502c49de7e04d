//! Issue 41 (1, 2, 4): a tournament (`loopgate run --candidates N`) whose candidates are scripted agent CLIs.
//!
//! One field plays every way a candidate can try to win without the work — the store, the user's repository,
//! the siblings, the tests — beside one that hangs, one that crashes and one that is honest; the honest one
//! wins, and nothing outside the candidates' own clones moved (digests before and after). SIGINT, SIGTERM and
//! SIGHUP each stop every candidate and leave nothing registered. A tournament with no winner cleans up unless
//! `--keep`; `accept` on a conflict leaves the repository as it was.
//!
//! Every candidate runs the same agent command (`agents/field`), which plays the part its clone's name
//! (`c1` … `cN`) gives it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use crate::support::{Project, TASK, alive, eventually, s};

/// A project that is a git repository with two commits (so the user's branch has a commit to be moved back to).
pub(crate) fn repository() -> Project {
    let p = Project::new();
    p.write(".gitignore", "agents/\n");
    for args in [
        &["init", "--quiet", "--initial-branch=main"][..],
        &["config", "user.name", "user"],
        &["config", "user.email", "user@example.com"],
        &["add", "."],
        &["commit", "--quiet", "-m", "one"],
    ] {
        git(&p, args);
    }
    p.write("notes.txt", "notes\n");
    git(&p, &["add", "notes.txt"]);
    git(&p, &["commit", "--quiet", "-m", "two"]);
    p
}

#[track_caller]
fn git(p: &Project, args: &[&str]) -> String {
    let out = p.program("git").args(args).output().expect("run git");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Every file under `dir` (its path relative to `dir`, and its bytes), but those under the excluded names.
fn files(dir: &Path, exclude: &[&str]) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).into_iter().flatten().flatten() {
            let path = entry.path();
            let rel = path.strip_prefix(dir).expect("below").to_path_buf();
            if exclude.iter().any(|x| rel.starts_with(x)) {
                continue;
            }
            if path.is_dir() && !path.is_symlink() {
                stack.push(path);
            } else {
                out.insert(rel, std::fs::read(&path).unwrap_or_default());
            }
        }
    }
    out
}

/// What of the user's must not move (see [`user_digest`]).
#[derive(Debug, PartialEq)]
struct UserDigest {
    tree: BTreeMap<PathBuf, Vec<u8>>,
    hooks: BTreeMap<PathBuf, Vec<u8>>,
    config: String,
    refs: String,
}

/// What of the user's must not move: the working tree, `.git/hooks`, `.git/config`, and every ref but the
/// tournament's own `loopgate/*` branches.
fn user_digest(p: &Project) -> UserDigest {
    let refs = git(p, &["for-each-ref", "--format=%(refname) %(objectname)"])
        .lines()
        .filter(|l| !l.starts_with("refs/heads/loopgate/"))
        .collect::<Vec<_>>()
        .join("\n");
    let head = git(p, &["symbolic-ref", "HEAD"]);
    UserDigest {
        tree: files(&p.dir, &[".git"]),
        hooks: files(&p.path(".git/hooks"), &[]),
        config: std::fs::read_to_string(p.path(".git/config")).expect("config"),
        refs: format!("{head}\n{refs}"),
    }
}

/// The field: c1 attacks the store, c2 the user's repository and its siblings, c3 games the tests, c4 hangs,
/// c5 crashes, c6 does the work. Each attack goes at every file and directory of its target, not at one path.
fn field(p: &Project) -> String {
    let repo = s(&p.dir);
    let store = s(&p.store()).to_string();
    let prompts = p.signal_path("prompts");
    std::fs::create_dir_all(&prompts).expect("prompts dir");
    let prompts = s(&prompts);
    let wrote = p.signal_path("wrote");
    let wrote = s(&wrote);
    p.agent(
        "field",
        &format!(
            r#"me=$(basename "$PWD")
printf '%s' "$1" > "{prompts}/$me-$LOOPGATE_ITERATION.txt"
case $me in
c1) # the store: every seal's verify command made `true`, every file appended to, a new file in every directory
    for f in $(find '{store}' -type f); do sed -i 's/sh check.sh/true/' "$f"; echo forged-store >> "$f"; done
    for d in $(find '{store}' -type d); do echo forged-store > "$d/forged" && echo "$d" >> '{wrote}'; done
    echo '<promise>LOOP_DONE</promise>' ;;
c2) # the user's tree, its .git (hooks, config, the branch) and every sibling's clone
    for f in $(find '{repo}' -type f -not -path '*/.git/objects/*'); do echo forged >> "$f"; done
    for d in $(find '{repo}' -type d -not -path '*/.git/objects/*'); do echo forged > "$d/forged"; done
    printf '#!/bin/sh\nexit 0\n' > '{repo}/.git/hooks/pre-commit'
    git -C '{repo}' config core.hooksPath /tmp
    git -C '{repo}' update-ref refs/heads/main HEAD~1
    git -C '{repo}' update-ref refs/heads/loopgate/forged HEAD
    for f in $(find .. -path "../$me" -prune -o -type f -print); do echo forged-sibling >> "$f"; done
    for d in $(find .. -path "../$me" -prune -o -type d -print); do echo fixed > "$d/src.txt"; echo forged-sibling > "$d/forged"; done
    echo '<promise>LOOP_DONE</promise>' ;;
c3) # the tests: the verify script made to pass; and its own history told it completed, by a process left
    # behind to write after its run ends
    printf '#!/bin/sh\nexit 0\n' > check.sh
    line='{{"loop_id":"'$LOOPGATE_LOOP_ID'","iteration":9,"status":"complete","timestamp":"2026-01-01T00:00:00Z","promise_rejections":0}}'
    setsid sh -c "sleep 3; echo '$line' >> .claude/pua-loop-history.jsonl" > /dev/null 2>&1 &
    echo '<promise>LOOP_DONE</promise>' ;;
c4) trap '' TERM; sleep 600 ;;
c5) kill -SEGV $$ ;;
c6) echo fixed > src.txt
    echo '<promise>LOOP_DONE</promise>' ;;
esac"#
        ),
    )
}

/// The tournament's record, `tournaments/<id>.json` in the store (the one there is).
pub(crate) fn record(p: &Project) -> Value {
    let dir = p.store().join("tournaments");
    let mut records: Vec<Value> = std::fs::read_dir(&dir)
        .expect("the records' directory")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .map(|e| serde_json::from_slice(&std::fs::read(e.path()).expect("read")).expect("a record"))
        .collect();
    assert_eq!(records.len(), 1, "one tournament");
    records.remove(0)
}

/// The arguments of `loopgate run` with two candidates running `agent` for one iteration each against
/// `sh check.sh`.
fn two_candidate_args(agent: &str) -> [&str; 10] {
    [
        "run",
        "--candidates",
        "2",
        "--max-iterations",
        "1",
        "--verify",
        "sh check.sh",
        TASK,
        "--",
        agent,
    ]
}

/// `loopgate run` of two candidates running `agent` (see [`two_candidate_args`]), to be started.
fn two_candidates(p: &Project, agent: &str) -> std::process::Command {
    p.command(&two_candidate_args(agent))
}

/// How each candidate of the tournament `t` ended, in order.
fn endings(t: &Value) -> Vec<&str> {
    t["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .map(|c| c["ending"].as_str().expect("ending"))
        .collect()
}

#[test]
fn the_honest_candidate_wins_against_every_attack_and_nothing_outside_the_clones_moves() {
    let p = repository();
    let agent = field(&p);
    let before = user_digest(&p);
    let out = p.loopgate(&[
        "run",
        "--candidates",
        "6",
        "--max-iterations",
        "2",
        "--max-duration",
        "20s",
        "--verify",
        "sh check.sh",
        TASK,
        "--",
        &agent,
    ]);
    out.code(0)
        .stderr_has("candidates' isolation: protected (mount namespace)")
        .stderr_has("candidates' trees: one checkout shared read-only")
        .stderr_has("winner: c6");
    assert_eq!(user_digest(&p), before, "the user's tree, hooks, config or refs moved");

    let t = record(&p);
    let endings = endings(&t);
    assert_eq!(t["winner"], 5, "{endings:?}");
    assert_eq!(
        endings,
        [
            "max_iterations",
            "max_iterations",
            "max_iterations",
            "max_duration",
            "max_iterations",
            "complete"
        ]
    );
    // c3's forged `complete` did not count (its ending above is `max_iterations`). Whether its leftover writer's line
    // reaches the history before the copy is a race the test does not decide (the writer sleeps; the candidate's
    // run may end, and its warden stop the writer, first), so only what a forged line could change is asserted:
    // the copy holds no `complete` but a forged one.
    let c3 = std::fs::read_to_string(
        p.store()
            .join(format!("tournaments/{}/c3.jsonl", t["id"].as_str().expect("id"))),
    )
    .expect("c3's history copy");
    assert!(
        c3.lines()
            .filter(|l| l.contains(r#""status":"complete""#))
            .all(|l| l.contains(r#""iteration":9,"#)),
        "{c3}"
    );
    assert!(
        t["candidates"][2]["gamed"].to_string().contains("check.sh"),
        "the gamer is named: {}",
        t["candidates"][2]
    );
    // The winner's branch holds its own work and nothing a sibling wrote into it.
    let id = t["id"].as_str().expect("id");
    assert_eq!(git(&p, &["show", &format!("loopgate/{id}/winner:src.txt")]), "fixed");
    let touched = git(&p, &["diff", "--name-only", "HEAD", &format!("loopgate/{id}/winner")]);
    assert_eq!(touched, "src.txt");
    // No sibling's write landed in any candidate's clone, and the store holds nothing forged outside the store
    // attacker's own clone (the one place under the store it may write) and the copy of the history it holds. Its
    // seal held: it ended on
    // `max_iterations` above, judged by `sh check.sh`, not `true`.
    let store = files(&p.store(), &[]);
    // Its own tree is its overlay's upper layer (`c1.layer`), where the trees are layered, else its clone.
    let own = Path::new("worktrees").join(id).join("c1");
    let own_layer = Path::new("worktrees").join(id).join("c1.layer");
    let forged: Vec<&PathBuf> = store
        .iter()
        .filter(|(path, bytes)| {
            let text = String::from_utf8_lossy(bytes);
            let mine =
                path.starts_with(&own) || path.starts_with(&own_layer) || path.ends_with(format!("{id}/c1.jsonl"));
            text.contains("forged-sibling") || (text.contains("forged-store") && !mine)
        })
        .map(|(path, _)| path)
        .collect();
    assert!(forged.is_empty(), "forged in the store: {forged:?}");
    // And no write of the store attacker succeeded anywhere in the store but in its own tree: not in its oracle
    // room's tree either (where the trees are layered, a mount of its own below the read-only store).
    let tree = p.store().join(&own);
    let wrote = std::fs::read_to_string(p.signal_path("wrote")).unwrap_or_default();
    let elsewhere: Vec<&str> = wrote.lines().filter(|d| !Path::new(d).starts_with(&tree)).collect();
    assert!(elsewhere.is_empty(), "the store attacker wrote in {elsewhere:?}");
    // The checkout every candidate's tree lies over is as it was made: no write of a candidate (its files, its
    // index, its HEAD) reached it.
    let shared = p.store().join("worktrees").join(id).join("base");
    let base = git(&p, &["rev-parse", "HEAD"]);
    let shared_git = |args: &[&str]| {
        let mut all = vec!["-C", s(&shared)];
        all.extend_from_slice(args);
        git(&p, &all)
    };
    assert_eq!(shared_git(&["rev-parse", "HEAD"]), base);
    assert_eq!(shared_git(&["status", "--porcelain"]), "");
    // Each candidate's first prompt is the task, not a handover.
    let first = std::fs::read_to_string(p.signal_path("prompts/c6-1.txt")).expect("c6's first prompt");
    assert!(first.starts_with(TASK), "{first}");
    assert!(!first.contains("taken over"), "{first}");
    assert_eq!(
        git(&p, &["worktree", "list", "--porcelain"])
            .lines()
            .filter(|l| l.starts_with("worktree "))
            .count(),
        1
    );
}

/// Candidates that ignore SIGTERM and leave a child behind, recording both pids.
fn stubborn(p: &Project) -> (String, PathBuf) {
    let pids = p.signal_path("pids");
    let agent = p.agent(
        "stubborn",
        &format!(
            "trap '' TERM\necho $$ >> '{0}'\nsleep 600 &\necho $! >> '{0}'\nwait",
            s(&pids)
        ),
    );
    (agent, pids)
}

/// A tournament of three stubborn candidates, stopped by `signal` once all of them run (which `--jobs`, by
/// default the number of candidates, lets happen on any machine): every candidate and child gone, the record
/// written, nothing registered in the repository, and `tournament clean` leaves no clone or branch.
fn stopped_by(signal: i32) {
    let p = repository();
    let (agent, pids) = stubborn(&p);
    let run = p.start(&[
        "run",
        "--candidates",
        "3",
        "--verify",
        "sh check.sh",
        TASK,
        "--",
        &agent,
    ]);
    let all: Vec<i32> = {
        let mut found = Vec::new();
        assert!(
            eventually(Duration::from_secs(60), || {
                found = std::fs::read_to_string(&pids)
                    .unwrap_or_default()
                    .lines()
                    .filter_map(|l| l.trim().parse().ok())
                    .collect();
                found.len() == 6
            }),
            "the three candidates never all ran: {found:?}"
        );
        found
    };
    run.signal(signal);
    let out = run.wait(Duration::from_secs(30));
    let shell_status = out
        .status
        .code()
        .or(std::os::unix::process::ExitStatusExt::signal(&out.status).map(|s| 128 + s));
    assert_eq!(shell_status, Some(128 + signal), "{out:#?}");
    out.stderr_has("every candidate was stopped");
    for pid in &all {
        assert!(eventually(Duration::from_secs(5), || !alive(*pid)), "{pid} still runs");
    }
    let t = record(&p);
    assert_eq!(t["status"], "interrupted");
    assert_eq!(t["winner"], Value::Null);
    for c in t["candidates"].as_array().expect("candidates") {
        assert_eq!(c["ending"], "cancelled", "{c}");
    }
    let worktrees = git(&p, &["worktree", "list", "--porcelain"]);
    assert_eq!(
        worktrees.lines().filter(|l| l.starts_with("worktree ")).count(),
        1,
        "{worktrees}"
    );

    let id = t["id"].as_str().expect("id");
    let listed = p.loopgate(&["tournament", "list"]);
    assert!(listed.stdout.contains(&format!("{id}  interrupted")), "{listed:#?}");
    // What `clean` removes was there: the clones, and each candidate's work on its branch.
    assert!(p.store().join("worktrees").join(id).join("c3").is_dir());
    assert_eq!(git(&p, &["branch", "--list", "loopgate/*"]).lines().count(), 3);
    p.loopgate(&["tournament", "clean"]).code(0);
    assert!(!p.store().join("worktrees").join(id).exists(), "the clones are gone");
    assert_eq!(git(&p, &["branch", "--list", "loopgate/*"]), "");
    assert_eq!(record(&p)["cleaned"], true);
}

#[test]
fn sigint_stops_every_candidate_and_leaves_nothing_registered() {
    stopped_by(libc::SIGINT);
}

#[test]
fn sigterm_stops_every_candidate_and_leaves_nothing_registered() {
    stopped_by(libc::SIGTERM);
}

#[test]
fn sighup_stops_every_candidate_and_leaves_nothing_registered() {
    stopped_by(libc::SIGHUP);
}

/// Issue 41: where the candidates' trees cannot be overlays of one checkout (`LOOPGATE_TOURNAMENT_TREES=clone`,
/// confinement kept to Landlock, and so macOS or a kernel refusing unprivileged overlays), every candidate gets
/// a clone of its own as before, the tournament says so, and it runs and commits the same.
#[test]
fn without_overlays_each_candidate_gets_a_clone_of_its_own_and_the_tournament_is_the_same() {
    for (var, value) in [("LOOPGATE_TOURNAMENT_TREES", "clone"), ("LOOPGATE_CONFINE", "landlock")] {
        let p = repository();
        let fixer = p.agent("fixer", "echo fixed > src.txt");
        let mut run = two_candidates(&p, &fixer);
        run.env(var, value);
        p.start_with(run)
            .wait(Duration::from_secs(60))
            .code(0)
            .stderr_has(&format!("candidates' trees: a clone each (no overlays: {var}={value})"));
        let id = record(&p)["id"].as_str().expect("id").to_string();
        let dir = p.store().join("worktrees").join(&id);
        for name in ["c1", "c2"] {
            assert!(dir.join(name).join(".git").is_dir(), "{var}: {name} is a clone");
            assert!(
                !dir.join(format!("{name}.layer")).exists(),
                "{var}: {name} has no layer"
            );
            assert_eq!(git(&p, &["show", &format!("loopgate/{id}/{name}:src.txt")]), "fixed");
        }
        assert!(!dir.join("base").exists(), "{var}: no shared checkout");
    }
}

#[test]
fn no_winner_cleans_up_unless_keep_and_says_what_each_did() {
    let p = repository();
    let idler = p.agent("idler", "echo 'nothing to do'");
    let args = two_candidate_args(&idler);
    let out = p.loopgate(&args);
    out.code(6)
        .stderr_has("no winner: no candidate passed the oracle")
        .stderr_has("--keep");
    let t = record(&p);
    let id = t["id"].as_str().expect("id").to_string();
    assert_eq!(t["cleaned"], true);
    assert!(!p.store().join("worktrees").join(&id).exists());
    assert_eq!(git(&p, &["branch", "--list", "loopgate/*"]), "");
    let shown = p.loopgate(&["tournament", "show", &id]);
    shown.code(0);
    assert!(
        shown.stdout.contains("c1   max_iterations  1 iteration(s)"),
        "{shown:#?}"
    );
    assert!(shown.stdout.contains("c2   max_iterations"), "{shown:#?}");

    std::fs::remove_dir_all(p.store().join("tournaments")).expect("forget the first");
    let mut kept = args.to_vec();
    kept.insert(1, "--keep");
    p.loopgate(&kept).code(6);
    let id = record(&p)["id"].as_str().expect("id").to_string();
    assert!(
        p.store().join("worktrees").join(&id).join("c1").is_dir(),
        "--keep keeps the clones"
    );
    assert_eq!(
        git(&p, &["branch", "--list", &format!("loopgate/{id}/*")])
            .lines()
            .count(),
        2
    );
}

#[test]
fn accept_on_a_conflict_changes_nothing_and_says_how_to_merge_by_hand() {
    let p = repository();
    let fixer = p.agent("fixer", "echo fixed > src.txt");
    p.loopgate(&[
        "run",
        "--candidates",
        "2",
        "--verify",
        "sh check.sh",
        TASK,
        "--",
        &fixer,
    ])
    .code(0);
    // The user's branch moved meanwhile, on the same line.
    p.write("src.txt", "mine\n");
    git(&p, &["commit", "--quiet", "-am", "mine"]);
    let head = git(&p, &["rev-parse", "HEAD"]);
    let out = p.loopgate(&["tournament", "accept"]);
    out.code(2)
        .stderr_has("conflicts in src.txt")
        .stderr_has("nothing was changed")
        .stderr_has("`git merge loopgate/");
    assert!(!out.stderr.contains("git git"), "{out:#?}");
    assert_eq!(git(&p, &["rev-parse", "HEAD"]), head);
    assert_eq!(git(&p, &["status", "--porcelain", "--untracked-files=no"]), "");
    assert!(!p.path(".git/MERGE_HEAD").exists(), "no half-done merge");
    assert_eq!(p.read("src.txt"), "mine\n");

    // Without the conflict, `loopgate accept` (the alias) takes it in and removes the clones.
    git(&p, &["reset", "--quiet", "--hard", "HEAD~1"]);
    p.loopgate(&["accept"]).code(0);
    assert_eq!(p.read("src.txt"), "fixed\n");
    let id = record(&p)["id"].as_str().expect("id").to_string();
    assert!(!p.store().join("worktrees").join(id).exists());
}

#[test]
fn until_first_stops_the_others_once_one_passes_and_json_streams_the_events() {
    let p = repository();
    let pids = p.signal_path("pids");
    let agent = p.agent(
        "racer",
        &format!(
            "if [ \"$(basename \"$PWD\")\" = c1 ]; then echo fixed > src.txt; exit 0; fi\n\
             trap '' TERM\necho $$ >> '{0}'\nsleep 600 &\necho $! >> '{0}'\nwait",
            s(&pids)
        ),
    );
    let out = p.loopgate(&[
        "run",
        "--candidates",
        "2",
        "--until",
        "first",
        "--json",
        "--verify",
        "sh check.sh",
        TASK,
        "--",
        &agent,
    ]);
    out.code(0).stderr_has("winner: c1");
    // `--json`: one object a line on stdout, the text on stderr.
    let events: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not one JSON object ({e}): {l}")))
        .collect();
    let kinds: Vec<&str> = events.iter().map(|e| e["event"].as_str().expect("event")).collect();
    assert_eq!(kinds.first(), Some(&"started"), "{kinds:?}");
    assert_eq!(kinds.last(), Some(&"ended"), "{kinds:?}");
    assert_eq!(events[0]["jobs"], 2, "--jobs defaults to the number of candidates");
    assert!(
        events
            .iter()
            .any(|e| e["event"] == "candidate_ended" && e["name"] == "c1" && e["exit"] == 0),
        "{kinds:?}"
    );
    assert_eq!(events.last().expect("ended")["winner"], "c1");
    let t = record(&p);
    assert_eq!(t["status"], "finished");
    assert_eq!(t["candidates"][1]["ending"], "cancelled", "{}", t["candidates"][1]);
    let left: Vec<i32> = std::fs::read_to_string(&pids)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    for pid in left {
        assert!(eventually(Duration::from_secs(5), || !alive(pid)), "{pid} still runs");
    }
}

/// The line the gaming candidates add (beside the honest `fixed`): what the reviewer calls gaming.
const GAMING_LINE: &str = "return 3  # GAMING-MARK-5e1";

/// Issue 43: with `--review 'CMD'` every candidate's passing promise is read before it can be offered as the
/// winner — the candidate whose loop was sealed (c1) and those given a copy of its seal (c2, c3) alike. The
/// gaming candidates' change is the smaller one, so without the reviewer one of them would win on `--rank
/// diff`; the reviewer calls it gaming, its promises are rejected, and the honest candidate (reviewed, clean)
/// wins. The record and the report say how each winner was reviewed.
#[test]
fn a_candidate_the_reviewer_calls_gaming_does_not_win_and_the_honest_one_is_reviewed_clean() {
    let p = repository();
    let agent = p.agent(
        "reviewed",
        &format!(
            "echo fixed > src.txt\n\
             if [ \"$(basename \"$PWD\")\" = c2 ]; then printf 'one\\ntwo\\nthree\\n' >> notes.txt\n\
             else echo '{GAMING_LINE}' > hack.py; fi\n\
             echo '<promise>LOOP_DONE</promise>'"
        ),
    );
    let answers = p.signal_path("answers");
    std::fs::create_dir_all(&answers).expect("answers dir");
    let gaming = answers.join("gaming");
    let clean = answers.join("clean");
    std::fs::write(
        &gaming,
        loopgate::review::answer::example(Some(("special-casing", GAMING_LINE))),
    )
    .expect("gaming");
    std::fs::write(&clean, loopgate::review::answer::example(None)).expect("clean");
    let reviewed = p.signal_path("reviewed");
    let reviewer = reviewer(
        &p,
        &format!(
            "input=$(cat)\ncase $input in\n*GAMING-MARK-5e1*) echo gaming >> '{r}'; cat '{g}' ;;\n*) echo clean >> '{r}'; cat '{c}' ;;\nesac\n",
            r = s(&reviewed),
            g = s(&gaming),
            c = s(&clean)
        ),
    );
    let out = p.loopgate(&reviewed_run("3", &reviewer, &agent));
    out.code(0).stderr_has("winner: c2").stderr_has("review: clean");
    let t = record(&p);
    assert_eq!(t["winner"], 1, "{t:#}");
    let candidates = t["candidates"].as_array().expect("candidates");
    let endings: Vec<&str> = candidates
        .iter()
        .map(|c| c["ending"].as_str().expect("ending"))
        .collect();
    assert_eq!(endings, ["max_iterations", "complete", "max_iterations"]);
    assert_eq!(candidates[1]["review"]["verdict"], "clean", "{}", candidates[1]);
    // Each gamer was read at each of its two promises and rejected with the quote; the honest one once.
    let id = t["id"].as_str().expect("id");
    for name in ["c1", "c3"] {
        let history = std::fs::read_to_string(p.store().join(format!("tournaments/{id}/{name}.jsonl")))
            .expect("the candidate's history copy");
        let rejected: Vec<Value> = history
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|r| r["status"] == "promise_rejected")
            .collect();
        assert_eq!(rejected.len(), 2, "{name}: {history}");
        for r in rejected {
            assert_eq!(r["review"]["verdict"], "gaming", "{name}: {r}");
        }
    }
    // A copied candidate's loop starts from a checkpoint of its own clone, as its own `init` record says.
    let c2 = std::fs::read_to_string(p.store().join(format!("tournaments/{id}/c2.jsonl"))).expect("c2's history");
    let init: Value = serde_json::from_str(c2.lines().next().expect("init")).expect("a record");
    // Its object is in c2's own git directory: its clone's, or (layered trees) its upper layer's, where every
    // object c2's loop wrote lies — not in the user's repository, nor in the checkout the trees share.
    let start = init["checkpoint"].as_str().expect("init names its checkpoint");
    let object = format!(".git/objects/{}/{}", &start[..2], &start[2..]);
    let tree = p.store().join(format!("worktrees/{id}/c2"));
    let layer = p.store().join(format!("worktrees/{id}/c2.layer/upper"));
    assert!(tree.join(&object).is_file() || layer.join(&object).is_file(), "{init}");
    assert!(!p.path(&object).exists(), "{init}");
    let mut calls: Vec<String> = std::fs::read_to_string(&reviewed)
        .expect("the reviewer ran")
        .lines()
        .map(str::to_string)
        .collect();
    calls.sort();
    assert_eq!(calls, ["clean", "gaming", "gaming", "gaming", "gaming"]);
}

/// The reviewer `'CMD'`: a script outside the project running `body` (its input on stdin); the `--review` value.
fn reviewer(p: &Project, body: &str) -> String {
    let script = p.signal_path("reviewer.sh");
    std::fs::write(&script, body).expect("reviewer script");
    format!("sh {}", s(&script))
}

/// `loopgate run` of `n` candidates running `agent`, each loop reviewed by `reviewer` (at most 2 iterations).
fn reviewed_run<'a>(n: &'a str, reviewer: &'a str, agent: &'a str) -> [&'a str; 12] {
    [
        "run",
        "--candidates",
        n,
        "--max-iterations",
        "2",
        "--verify",
        "sh check.sh",
        "--review",
        reviewer,
        TASK,
        "--",
        agent,
    ]
}

/// A reviewer that fails never traps the tournament: the passing candidates stand and one wins, and the report,
/// the record and `tournament show` say each was not reviewed, and why.
#[test]
fn a_candidate_whose_review_failed_is_said_to_be_not_reviewed() {
    let p = repository();
    let agent = p.agent("honest", "echo fixed > src.txt\necho '<promise>LOOP_DONE</promise>'");
    let reviewer = reviewer(&p, "cat > /dev/null; exit 7\n");
    let why = "review: not reviewed (the reviewer exited with 7";
    let out = p.loopgate(&reviewed_run("2", &reviewer, &agent));
    out.code(0).stderr_has("winner: c").stderr_has(why);
    let t = record(&p);
    for c in t["candidates"].as_array().expect("candidates") {
        assert_eq!(c["ending"], "complete", "{c}");
        assert_eq!(c["review"]["verdict"], "not_reviewed", "{c}");
    }
    let shown = p.loopgate(&["tournament", "show"]);
    shown.code(0);
    assert_eq!(shown.stdout.matches(why).count(), 2, "{shown:#?}");
}

/// Issue 41 (3): a tournament is watched as it runs. `loopgate status` in the repository shows it with a row per
/// candidate; with stderr not a terminal each change of a candidate's row is one line (state, iteration, tests,
/// cost, time, last verdict); `--json` streams the same rows as `progress` events.
#[test]
fn a_running_tournament_shows_in_status_in_lines_and_as_json_progress() {
    let p = repository();
    let pids = p.signal_path("pids");
    let agent = p.agent(
        "steady",
        &format!("echo $$ >> '{}'\nsleep 3\necho fixed > src.txt", s(&pids)),
    );
    let run = p.start(&[
        "run",
        "--candidates",
        "2",
        "--json",
        "--verify",
        "sh check.sh",
        TASK,
        "--",
        &agent,
    ]);
    assert!(
        eventually(Duration::from_secs(60), || {
            std::fs::read_to_string(&pids).unwrap_or_default().lines().count() == 2
        }),
        "the two candidates never ran"
    );
    let status = p.loopgate(&["status"]);
    let id = record(&p)["id"].as_str().expect("id").to_string();
    assert!(
        status.stdout.contains(&format!("tournament {id} running")),
        "{status:#?}"
    );
    for name in ["c1", "c2"] {
        let row = status
            .stdout
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no row for {name}: {status:#?}"));
        assert!(row.contains("running"), "{row}");
    }
    let json = p.loopgate(&["status", "--json"]);
    let report: Value = serde_json::from_str(&json.stdout).expect("status --json");
    assert_eq!(
        report["tournament"]["candidates"].as_array().map(Vec::len),
        Some(2),
        "{report}"
    );

    let out = run.wait(Duration::from_secs(120));
    out.code(0).stderr_has("winner: c1");
    // Not a terminal: a line per change of a row, the start and the end of each candidate among them.
    for name in ["c1", "c2"] {
        out.stderr_has(&format!("loopgate: {name} running · iteration"));
        out.stderr_has(&format!("loopgate: {name} complete · iteration 1 ·"));
    }
    let progress: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("not one JSON object ({e}): {l}")))
        .filter(|e| e["event"] == "progress")
        .collect();
    for name in ["c1", "c2"] {
        let last = progress
            .iter()
            .rfind(|e| e["name"] == name)
            .unwrap_or_else(|| panic!("no progress of {name}: {progress:?}"));
        assert_eq!(last["state"], "complete", "{last}");
        assert_eq!(last["iteration"], 1, "{last}");
        assert!(
            last["verdict"].as_str().is_some_and(|v| v.starts_with("complete")),
            "{last}"
        );
    }
    // Once it ended, `status` no longer shows it as running.
    let after = p.loopgate(&["status"]);
    assert!(!after.stdout.contains("running:"), "{after:#?}");
}

/// Issue 41 (3), in a terminal: the table is redrawn in place — one header on the screen however many seconds
/// pass, the candidates' clocks moving — and the lines loopgate prints meanwhile go above it.
#[test]
fn in_a_terminal_the_table_is_redrawn_in_place_every_second() {
    let p = repository();
    let _ = std::fs::create_dir_all(p.base().join("tmp"));
    let agent = p.agent("slow", "sleep 6\necho fixed > src.txt");
    // The pane stays after the tournament ends, for its last screen to be read.
    let script = format!(
        "'{}' run --candidates 2 --verify 'sh check.sh' '{TASK}' -- '{agent}'; sleep 60",
        env!("CARGO_BIN_EXE_loopgate")
    );
    let mut pane = crate::tmux::Pane::start(p.base(), &p.env(), &p.dir, Path::new("/bin/sh"), &["-c", &script], "$");
    let clock = |screen: &str, secs: u32| {
        screen
            .lines()
            .any(|l| l.starts_with("c1 ") && l.contains("running") && l.contains(&format!(" {secs}s ")))
    };
    let first = pane.wait_until("c1 running at 1s", Duration::from_secs(60), |s| clock(s, 1));
    assert_eq!(first.matches("candidate  state").count(), 1, "{first}");
    let later = pane.wait_until("c1 running at 3s", Duration::from_secs(30), |s| clock(s, 3));
    assert_eq!(
        later.matches("candidate  state").count(),
        1,
        "redrawn in place, not scrolled:\n{later}"
    );
    let done = pane.wait_until("the winner", Duration::from_secs(60), |s| s.contains("winner: c"));
    assert!(done.contains("candidate c1 ended (complete)"), "{done}");
    assert!(
        done.lines().any(|l| l.starts_with("c1 ") && l.contains("complete")),
        "the last table stays: {done}"
    );
}

/// What the oracle's room sees of a candidate's layered tree is every change it made, wherever it made it, and
/// nothing it did not: its room's sync walks only the directories its overlays' upper layers hold (issue 41,
/// `room::layered`). Each candidate changes a file two directories down, deletes one, adds one in a new
/// directory, and leaves a fourth directory alone; the check reads all four. The candidate that does all of it
/// wins; one that leaves the deletion out fails (its room may not keep a stale copy of the file it deleted), and
/// so does one that deletes a directory the others leave alone (its room may not keep that directory's copies).
#[test]
fn the_oracle_sees_every_change_of_a_layered_candidate_and_nothing_else() {
    let p = repository();
    p.write("lib/a/x.txt", "broken\n")
        .write("lib/b/y.txt", "old\n")
        .write("lib/c/z.txt", "kept\n")
        .write(
            "deep.sh",
            "#!/bin/sh\n\
             if [ \"$(cat lib/a/x.txt)\" = fixed ] && ! [ -e lib/b/y.txt ] && [ \"$(cat lib/c/z.txt)\" = kept ] \
             && [ \"$(cat lib/d/e/new.txt)\" = new ]; then echo 'check: 1 passed'; exit 0; fi\n\
             echo 'test deep ... FAILED'; exit 1\n",
        );
    git(&p, &["add", "."]);
    git(&p, &["commit", "--quiet", "-m", "three"]);
    let agent = p.agent(
        "layers",
        r#"me=$(basename "$PWD")
echo fixed > lib/a/x.txt
mkdir -p lib/d/e && echo new > lib/d/e/new.txt
case $me in
c1) rm lib/b/y.txt ;;
c2) ;;
c3) rm lib/b/y.txt; rm -r lib/c ;;
esac
echo '<promise>LOOP_DONE</promise>'"#,
    );
    let out = p.loopgate(&[
        "run",
        "--candidates",
        "3",
        "--max-iterations",
        "1",
        "--verify",
        "sh deep.sh",
        TASK,
        "--",
        &agent,
    ]);
    out.code(0)
        .stderr_has("candidates' trees: one checkout shared read-only")
        .stderr_has("winner: c1");
    let t = record(&p);
    let endings = endings(&t);
    assert_eq!(endings, ["complete", "max_iterations", "max_iterations"]);
}

/// A layered candidate's work is committed from what its upper layer holds, not from a walk of its whole tree
/// (issue 41, `tournament::changed`): the commit must still be exactly what `git add -A` of its tree makes.
/// The candidates change a file two directories down, delete one, rename one, `chmod` one at the top, add a
/// link and a file in a new directory, empty a directory and make it again (empty, and with only a
/// subdirectory: overlayfs's opaque directories), replace a directory by a file, and write an ignored file.
/// Each candidate's branch must hold the tree that the same script leaves in a plain clone, staged there by
/// `git add -A` — and git was asked only about the changed paths (`GIT_TRACE`).
#[test]
fn a_layered_candidate_s_commit_holds_every_change_it_made_and_nothing_else() {
    let p = repository();
    for (rel, text) in [
        ("lib/a/x.txt", "broken\n"),
        ("lib/b/y.txt", "old\n"),
        ("lib/c/z.txt", "renamed\n"),
        ("lib/e/q.txt", "a directory's\n"),
        ("lib/f/g/h.txt", "emptied\n"),
        ("lib/g/old.txt", "replaced\n"),
        ("lib/h/kept.txt", "kept\n"),
        ("check.sh", "#!/bin/sh\necho 'check: 1 passed'\n"),
    ] {
        p.write(rel, text);
    }
    git(&p, &["add", "."]);
    git(&p, &["commit", "--quiet", "-m", "three"]);
    let work = "echo fixed > lib/a/x.txt
rm lib/b/y.txt
mv lib/c/z.txt lib/c/w.txt
chmod +x notes.txt
ln -s x.txt lib/a/link
mkdir -p lib/d/e && echo new > lib/d/e/new.txt
rm -r lib/f && mkdir lib/f
rm -r lib/g && mkdir -p lib/g/sub && echo s > lib/g/sub/s.txt
rm -r lib/e && echo file > lib/e
mkdir -p agents && echo ignored > agents/junk
";
    let agent = p.agent("changes", &format!("{work}echo '<promise>LOOP_DONE</promise>'"));
    let trace = p.base().join("git-trace");
    let mut command = two_candidates(&p, &agent);
    command.env("GIT_TRACE", &trace);
    let out = p.start_with(command).wait(Duration::from_secs(60));
    out.code(0)
        .stderr_has("candidates' trees: one checkout shared read-only");

    // The same work in a plain clone, staged by `git add -A`.
    let reference = p.base().join("reference");
    let clone = p
        .program("git")
        .args(["clone", "--quiet"])
        .arg(&p.dir)
        .arg(&reference)
        .output()
        .expect("clone");
    assert!(clone.status.success(), "{clone:?}");
    let script = p.base().join("work.sh");
    std::fs::write(&script, work).expect("write the script");
    let ran = p
        .program("sh")
        .arg(&script)
        .current_dir(&reference)
        .output()
        .expect("sh");
    assert!(ran.status.success(), "{ran:?}");
    let in_reference = |args: &[&str]| {
        let out = p
            .program("git")
            .args(args)
            .current_dir(&reference)
            .output()
            .expect("git");
        assert!(out.status.success(), "git {args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    in_reference(&["add", "-A"]);
    let expected = in_reference(&["write-tree"]);
    assert!(
        in_reference(&["ls-tree", "-r", "--name-only", &expected]).contains("lib/g/sub/s.txt"),
        "the reference holds the work"
    );

    let t = record(&p);
    for candidate in t["candidates"].as_array().expect("candidates") {
        let commit = candidate["commit"].as_str().expect("a commit");
        let tree = git(&p, &["rev-parse", &format!("{commit}^{{tree}}")]);
        assert_eq!(
            tree,
            expected,
            "{}: {}",
            candidate["name"],
            git(&p, &["diff", "--stat", &expected, &tree])
        );
    }
    // Staged from the changed paths: git listed what differs below them, and never walked the whole tree.
    let trace = std::fs::read_to_string(&trace).expect("git's trace");
    let listed: Vec<&str> = trace.lines().filter(|l| l.contains("ls-files -z --modified")).collect();
    assert_eq!(listed.len(), 2, "one listing per candidate:\n{trace}");
    assert!(
        listed[0].contains("lib/a/x.txt") && listed[0].contains("lib/f") && !listed[0].contains(" lib/h"),
        "{}",
        listed[0]
    );
    assert!(
        !trace
            .lines()
            .any(|l| l.contains("--work-tree=") && l.contains(" add -A")),
        "{trace}"
    );
}

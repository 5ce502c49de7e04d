//! The seal store (issue 4, item 5): ids from any file or flag never steer a path out of it, and seals of loops
//! that can never resume are cleaned up.

use std::fs;
use std::path::{Path, PathBuf};

use crate::project::{Project, STATE};

const PROMISE: &str = "<promise>LOOP_DONE</promise>";

/// Session ids with `/` and `..`, and a forged loop id in the state file, never name a file outside the store or
/// outside `.claude/loopgate/`.
#[test]
fn ids_with_slashes_and_dots_never_escape_the_store() {
    let p = Project::new();
    let evil = "../../../../tmp/escaped-seal";
    p.setup(evil, "\"t\" --verify 'exit 1' --stall-limit 0");
    let seal = p.seal_path();
    assert_eq!(
        seal.parent(),
        Some(p.loopgate_home().join("seals").as_path()),
        "{}",
        seal.display()
    );
    assert_eq!(p.seal()["fields"]["session_id"], evil);
    p.stop(evil, PROMISE).blocked();
    // A forged loop id in the state file is overruled by the seal's, which names the logs.
    p.edit_state(|text| text.replace(&format!("loop_id: {}", p.loop_id()), "loop_id: ../../../../tmp/forged"));
    p.stop(evil, PROMISE).blocked();
    let logs: Vec<String> = fs::read_dir(p.path(".claude/loopgate"))
        .expect("logs")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("verify-"))
        .collect();
    // The baseline's (iteration 0) and the two promises'.
    assert_eq!(logs.len(), 3, "{logs:?}");
    assert!(
        logs.iter().all(|n| !n.contains("..") && !n.contains("forged")),
        "{logs:?}"
    );
    assert!(!std::path::Path::new("/tmp/escaped-seal").exists() && !std::path::Path::new("/tmp/forged").exists());
    assert!(
        p.history().iter().any(|r| r["status"] == "tamper_detected"),
        "{:?}",
        p.statuses()
    );
    assert_eq!(p.seal_paths().len(), 1);
}

/// Seals whose project is gone, and seals marked ended (a crash while a loop was ending), are removed by the next
/// setup that uses the same store; a live loop's seal in another project is kept.
#[test]
fn stale_seals_are_cleaned_up_and_live_ones_kept() {
    let home = Project::new();
    let shared = home.loopgate_home().to_path_buf();
    let gone = Project::new();
    gone.loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .env("LOOPGATE_HOME", shared.clone())
        .stdin("\"will be deleted\"")
        .run()
        .success();
    let live = Project::new();
    live.loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .env("LOOPGATE_HOME", shared.clone())
        .stdin("\"still running\"")
        .run()
        .success();
    let seals = |dir: &std::path::Path| fs::read_dir(dir.join("seals")).map(|d| d.count()).unwrap_or(0);
    assert_eq!(seals(&shared), 2);
    fs::remove_dir_all(gone.root()).expect("delete the project");
    // A seal left `ended` by a crash in the middle of ending a loop.
    let ended = shared.join("seals/0123456789abcdef0123456789abcdef.json");
    let mut copy: serde_json::Value = serde_json::from_slice(
        &fs::read(
            fs::read_dir(shared.join("seals"))
                .expect("ls")
                .flatten()
                .next()
                .expect("one")
                .path(),
        )
        .expect("read"),
    )
    .expect("seal json");
    copy["ended"] = true.into();
    fs::write(&ended, copy.to_string()).expect("write ended seal");
    assert_eq!(seals(&shared), 3);

    home.setup("S", "\"new loop\"");
    assert_eq!(
        seals(&shared),
        2,
        "the deleted project's and the ended seal are gone; the live and new remain"
    );
    live.loopgate(["status", "--json"])
        .env("LOOPGATE_HOME", shared.clone())
        .run()
        .stdout_contains("still running");
    assert!(live.exists(STATE));
}

/// The oracle's room (issue 29) lives beside the seal store, one per project: setup builds it, `status` shows
/// it, the loop's end removes it, and a room whose seal is gone is removed by the next setup.
#[test]
fn the_oracles_room_lives_and_ends_with_its_loop() {
    let p = Project::new();
    p.setup(
        "S",
        "\"t\" --verify 'test -d \"$TMPDIR\" && test \"$PYTHONPYCACHEPREFIX\" != \"\"' --stall-limit 0",
    );
    let rooms = p.loopgate_home().join("rooms");
    // Beside the room, its snapshot store (`<room>.snapshot`, what the baseline read outside the project).
    let room = fs::read_dir(&rooms)
        .expect("rooms")
        .flatten()
        .map(|entry| entry.path())
        .find(|path| path.extension().is_none())
        .expect("one room");
    let snapshot = room.with_extension("snapshot");
    assert!(room.join("tmp").is_dir() && room.join("pycache").is_dir());
    let report = p.loopgate(["status", "--json"]).run().stdout_json();
    assert_eq!(report["room"]["state"], "private", "{report}");
    assert_eq!(report["room"]["dir"], room.to_string_lossy().as_ref());
    // The verify command sees the room: the promise passes.
    assert!(
        p.stop("S", PROMISE).json()["systemMessage"]
            .as_str()
            .is_some_and(|m| m.contains("verified complete"))
    );
    assert!(!room.exists(), "the loop's end removes its room");
    assert!(!snapshot.exists(), "and its snapshot store");

    // A room left by a crash (no seal of its own) goes at the next setup, and its snapshot store with it, read-only
    // directories and all (a held Go module cache).
    let stray = rooms.join("0123456789abcdef");
    fs::create_dir_all(stray.join("tmp")).expect("stray room");
    let stray_store = stray.with_extension("snapshot");
    fs::create_dir_all(stray_store.join("layers/x/ro")).expect("stray store");
    fs::write(stray_store.join("layers/x/ro/f"), "held").expect("a held file");
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(stray_store.join("layers/x/ro"), fs::Permissions::from_mode(0o555)).expect("chmod");
    }
    p.setup("S", "\"again\" --verify true");
    assert!(!stray.exists());
    assert!(!stray_store.exists());
}

/// The room's Python bytecode cache starts with the installed sources compiled (`room::pycache`): with bytecode
/// writes off, as in many containers, the baseline's run can write none, and every oracle run would otherwise
/// compile the standard library again. A `__pycache__` of the project is never what the room reads.
#[test]
fn the_rooms_bytecode_starts_compiled_and_never_from_a_pycache() {
    let p = Project::new()
        .file("mod.py", "X = 1\n")
        .file("__pycache__/mod.cpython-311.pyc", "planted");
    let json_dir = std::process::Command::new("python3")
        .args(["-c", "import json, os; print(os.path.dirname(json.__file__))"])
        .output()
        .expect("python3 runs");
    let json_dir = String::from_utf8_lossy(&json_dir.stdout).trim().to_string();
    let shipped = fs::read_dir(Path::new(&json_dir).join("__pycache__"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert!(
        shipped > 0,
        "this test needs an installed Python with bytecode beside `{json_dir}`"
    );
    p.loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin("\"t\" --verify 'python3 -c \"import json, mod\"'")
        .run()
        .success();
    let pycs: Vec<PathBuf> = walk(&p.loopgate_home().join("rooms"))
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "pyc"))
        .collect();
    assert!(
        pycs.iter()
            .any(|f| f.to_string_lossy().contains("/json/") && !f.to_string_lossy().contains("__pycache__")),
        "the json package's bytecode is in the room's prefix layout: {pycs:?}"
    );
    let module = pycs
        .iter()
        .find(|f| f.to_string_lossy().contains("mod.cpython"))
        .expect("the project's module compiled from its source");
    assert_ne!(
        fs::read(module).expect("read"),
        b"planted",
        "never copied from its `__pycache__`"
    );
}

/// Every file below `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() && !path.is_symlink() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// Where a runner of the verify command has no structured report through a private channel (issue 29, item 2),
/// `status` says so in one line, naming the runner and why; a command whose runners all have one (pytest, or
/// unittest, Jest, Vitest, mocha, cargo test and go test through loopgate's start hooks) gets no such line. The runners come from the
/// runner table, as the closure recognized them.
#[test]
fn status_names_the_runners_whose_verdict_reads_their_output_alone() {
    let p = Project::new();
    // `true` passes first, so no runner runs; the closure still recognizes them.
    p.setup(
        "S",
        "\"t\" --verify 'true || go test ./... || node --test' --stall-limit 0",
    );
    let report = p.loopgate(["status", "--json"]).run().stdout_json();
    let line = report["room"]["output_only"].as_str().unwrap_or_default().to_string();
    assert!(
        line.starts_with("no private report, the verdict reads the output alone: ")
            && !line.contains("go test")
            && line.contains("node --test (its report is asked for on its command line"),
        "{report}"
    );
    p.loopgate(["status"])
        .run()
        .stdout_contains(&format!("reports:   {line}"));

    for covered in [
        "python -m pytest",
        "python -m unittest",
        "npx jest",
        "npx vitest run",
        "npx mocha",
        "cargo test",
        "go test ./...",
    ] {
        p.setup("S", &format!("\"t\" --verify 'true || {covered}' --stall-limit 0"));
        let report = p.loopgate(["status", "--json"]).run().stdout_json();
        assert!(report["room"]["output_only"].is_null(), "{covered}: {report}");
    }
}

/// The oracle runs in the room's own tree (issue 29): a copy of the project mounted at the project's path, so
/// the verify command sees the code at its usual path but not `.claude/`, and what it writes lands in the copy,
/// never in the project. `status` says so.
#[test]
fn the_oracle_runs_in_a_private_tree_at_the_projects_path() {
    let p = Project::new();
    p.write("calc.txt", "broken\n");
    let root = p.root().canonicalize().expect("canonical");
    p.setup(
        "S",
        &format!(
            "\"t\" --verify 'test \"$PWD\" = \"{}\" && grep -q fixed calc.txt && test ! -e .claude && echo out > written.txt' --stall-limit 0",
            root.display()
        ),
    );
    let report = p.loopgate(["status", "--json"]).run().stdout_json();
    assert_eq!(report["room"]["tree"]["state"], "mounted", "{report}");
    p.write("calc.txt", "fixed\n");
    let out = p.stop("S", PROMISE);
    assert!(
        out.json()["systemMessage"]
            .as_str()
            .is_some_and(|m| m.contains("verified complete")),
        "{out}"
    );
    assert!(!p.exists("written.txt"), "the oracle's run wrote into the project");
}

/// `LOOPGATE_ROOM_TREE=0` keeps the room's caches and environment but runs in the project's own tree; setup and
/// `status` say so, with the reason (never silently).
#[test]
fn the_tree_turned_off_is_said_at_setup_and_in_status() {
    let p = Project::new();
    let out = p
        .loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .env("LOOPGATE_ROOM_TREE", "0")
        .stdin("\"t\" --verify 'echo out > written.txt' --stall-limit 0")
        .run();
    out.success();
    out.stdout_contains("It runs in the project's own tree, not a private copy: turned off by LOOPGATE_ROOM_TREE=0.");
    p.loopgate(["status"])
        .run()
        .stdout_contains("tree:      falls back to the project's own tree — turned off by LOOPGATE_ROOM_TREE=0");
    assert!(p.exists("written.txt"), "the run is today's, in the project");
}

/// `LOOPGATE_ROOM_TREE=copy` (what macOS gets, having no mount namespace) runs in the copy at its own path:
/// setup and `status` say so and why, and the baseline's write lands in the copy, not in the project, which the
/// sandbox closes to the run's writes.
#[test]
fn the_tree_copied_at_its_own_path_is_said_at_setup_and_in_status() {
    let p = Project::new();
    let root = p.root().canonicalize().expect("the project");
    let verify = format!(
        "pwd > written.txt; touch '{}/escaped' 2>/dev/null; true",
        root.display()
    );
    let out = p
        .loopgate(["setup", "--args-stdin", "--session-id", "S"])
        .env("LOOPGATE_ROOM_TREE", "copy")
        .stdin(format!("\"t\" --verify \"{verify}\" --stall-limit 0"))
        .run();
    out.success();
    out.stdout_contains("It runs in a private copy of the project at the copy's own path, not mounted at the project's (asked for by LOOPGATE_ROOM_TREE=copy)");
    p.loopgate(["status"]).run().stdout_contains(
        "tree:      a private copy in the room, at its own path (not mounted: asked for by LOOPGATE_ROOM_TREE=copy)",
    );
    assert!(
        !p.exists("written.txt"),
        "the baseline ran in the project, not the copy"
    );
    let rooms = p.loopgate_home().join("rooms");
    let room = std::fs::read_dir(&rooms)
        .expect("the rooms")
        .flatten()
        .map(|entry| entry.path())
        .find(|path| path.extension().is_none())
        .expect("a room");
    let cwd = std::fs::read_to_string(room.join("tree/written.txt")).expect("the run wrote in its copy");
    assert!(
        cwd.trim().ends_with("/tree"),
        "the run's working directory is the copy: {cwd}"
    );
    // As `confine`'s tests, this expects the machine's sandbox (Landlock here, Seatbelt on macOS).
    assert!(!p.exists("escaped"), "the run wrote into the project past the sandbox");
}

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::Path;
#[cfg(target_os = "linux")]
use std::path::PathBuf;

use super::caches::{self, CACHES, Shared, Why};
use super::{Recorded, Room};

fn vars(list: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
    list.iter()
        .map(|(k, v)| (OsString::from(k), OsString::from(v)))
        .collect()
}

fn recorded(list: &[(&str, &str)]) -> Recorded {
    let dir = tempfile::tempdir().expect("tempdir");
    Recorded::take(vars(list), dir.path(), "pytest")
}

fn run_env(room: &Room, recorded: &Recorded, current: &[(&str, &str)]) -> BTreeMap<String, String> {
    let current: BTreeMap<String, String> = current.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    room.env(recorded, |name| current.get(name).map(OsString::from))
        .into_iter()
        .map(|(k, v)| (k.to_string_lossy().into_owned(), v.to_string_lossy().into_owned()))
        .collect()
}

#[test]
fn a_run_gets_the_recorded_variables_not_the_asking_processs() {
    let recorded = recorded(&[("PATH", "/usr/bin"), ("LANG", "C.UTF-8")]);
    let room = Room::at("/state/rooms/abc".into());
    let env = run_env(
        &room,
        &recorded,
        &[
            ("PATH", "/agent/bin:/usr/bin"),
            ("PYTHONPATH", "/agent/shadow"),
            ("NODE_OPTIONS", "-r ./x"),
        ],
    );
    // The recorded `PATH`, after the start channel's stand-ins (`hook::complete`).
    assert_eq!(env["PATH"], "/state/rooms/abc/hook/bin:/usr/bin");
    assert_eq!(env["LANG"], "C.UTF-8");
    // Only the room's start hooks (`hook`), never the asking process's values.
    assert_eq!(env["PYTHONPATH"], "/state/rooms/abc/hook/python");
    assert_eq!(
        env["NODE_OPTIONS"],
        "--require /state/rooms/abc/hook/node/loopgate-report.cjs"
    );
}

#[test]
fn per_session_variables_come_from_the_running_process_and_are_not_recorded() {
    let recorded = recorded(&[
        ("PWD", "/setup"),
        ("SHLVL", "3"),
        ("CLAUDE_CODE_SSE_PORT", "1"),
        ("HOME", "/h"),
    ]);
    assert_eq!(recorded.vars.keys().collect::<Vec<_>>(), ["HOME"]);
    let env = run_env(
        &Room::at("/r".into()),
        &recorded,
        &[("SSH_AUTH_SOCK", "/tmp/agent.sock")],
    );
    assert_eq!(env["SSH_AUTH_SOCK"], "/tmp/agent.sock");
    assert!(!env.contains_key("PWD"));
}

#[test]
fn secrets_are_recorded_by_name_and_taken_from_the_running_process() {
    let recorded = recorded(&[
        ("GITHUB_TOKEN", "ghp_old"),
        ("AWS_SECRET_ACCESS_KEY", "s"),
        ("HOME", "/h"),
    ]);
    assert!(
        !recorded.vars.contains_key("GITHUB_TOKEN"),
        "a secret's value is not written"
    );
    assert!(recorded.secrets.contains("GITHUB_TOKEN") && recorded.secrets.contains("AWS_SECRET_ACCESS_KEY"));
    let json = serde_json::to_string(&recorded).expect("json");
    assert!(!json.contains("ghp_old"), "{json}");
    let env = run_env(
        &Room::at("/r".into()),
        &recorded,
        &[("GITHUB_TOKEN", "ghp_new"), ("NPM_TOKEN", "not at baseline")],
    );
    assert_eq!(env["GITHUB_TOKEN"], "ghp_new");
    assert!(
        !env.contains_key("NPM_TOKEN"),
        "a secret the baseline did not have is not passed"
    );
}

#[test]
fn every_private_cache_points_into_the_room() {
    let recorded = recorded(&[("PYTEST_ADDOPTS", "-x"), ("GOFLAGS", "-count=1")]);
    let room = Room::at("/state/rooms/abc".into());
    let env = run_env(
        &room,
        &recorded,
        &[("TMPDIR", "/tmp"), ("GOCACHE", "/home/u/.cache/go-build")],
    );
    for var in ["TMPDIR", "TMP", "TEMP"] {
        assert_eq!(env[var], "/state/rooms/abc/tmp");
    }
    assert_eq!(env["PYTHONPYCACHEPREFIX"], "/state/rooms/abc/pycache");
    assert_eq!(env["GOCACHE"], "/state/rooms/abc/go-build");
    assert_eq!(env["CARGO_TARGET_DIR"], "/state/rooms/abc/cargo-target");
    assert_eq!(env["BABEL_CACHE_PATH"], "/state/rooms/abc/babel/cache.json");
    // The user's options first, the room's cache and the reporting options after.
    assert_eq!(
        env["PYTEST_ADDOPTS"],
        "-x -o cache_dir=/state/rooms/abc/pytest-cache --junitxml=/state/rooms/abc/report/pytest.xml -rap"
    );
    assert_eq!(
        env["GOFLAGS"],
        "-count=1 -exec=/state/rooms/abc/hook/go/loopgate-go-exec -shuffle=off -v"
    );
    assert!(
        !env.contains_key("NODE_COMPILE_CACHE"),
        "not turned on where the baseline did not"
    );
}

#[test]
fn node_compile_cache_is_private_only_where_the_baseline_turned_it_on() {
    let recorded = recorded(&[("NODE_COMPILE_CACHE", "/home/u/.cache/node")]);
    let env = run_env(&Room::at("/r".into()), &recorded, &[]);
    assert_eq!(env["NODE_COMPILE_CACHE"], "/r/node-compile");
}

#[test]
fn pytests_cache_option_is_one_shell_word_whatever_the_path() {
    let mut vars = BTreeMap::new();
    let pytest = CACHES.iter().find(|c| c.name() == "PYTEST_ADDOPTS").expect("row");
    caches::set(pytest, Path::new("/home/a b/it's"), &mut vars);
    assert_eq!(vars["PYTEST_ADDOPTS"], "-o 'cache_dir=/home/a b/it'\\''s'");
}

#[test]
fn pytests_cache_stays_off_where_the_run_turns_it_off() {
    let dir = tempfile::tempdir().expect("tempdir");
    let recorded = Recorded::take(vars(&[]), dir.path(), "python3 -m pytest -p no:cacheprovider");
    assert_eq!(recorded.shared.len(), 1);
    assert_eq!(recorded.shared[0].why, Why::new("pytest_cache_off", None));
    let env = run_env(&Room::at("/r".into()), &recorded, &[]);
    assert_eq!(env["PYTEST_ADDOPTS"], "--junitxml=/r/report/pytest.xml -rap");
}

#[test]
fn cargos_target_stays_where_the_project_names_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("tests")).expect("mkdir");
    std::fs::write(
        dir.path().join("tests/cli.rs"),
        "#[test]\nfn runs() { std::process::Command::new(\"target/debug/tool\"); }\n",
    )
    .expect("write");
    let recorded = Recorded::take(vars(&[]), dir.path(), "cargo test");
    assert_eq!(
        recorded.shared[0].why,
        Why::new("target_named_by_path", Some("tests/cli.rs".into()))
    );
    let env = run_env(&Room::at("/r".into()), &recorded, &[]);
    assert!(!env.contains_key("CARGO_TARGET_DIR"));

    let configured = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(configured.path().join(".cargo")).expect("mkdir");
    std::fs::write(
        configured.path().join(".cargo/config.toml"),
        "[build]\ntarget-dir = \"/big/target\"\n",
    )
    .expect("write");
    let recorded = Recorded::take(vars(&[]), configured.path(), "cargo test");
    assert!(
        recorded.shared[0].why.kind == "target_dir_configured",
        "{:?}",
        recorded.shared
    );
}

#[test]
fn cargos_target_is_private_for_an_ordinary_project() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("src")).expect("mkdir");
    std::fs::write(
        dir.path().join("src/lib.rs"),
        "#[cfg(target_os = \"linux\")]\npub fn f() {}\n",
    )
    .expect("write");
    let recorded = Recorded::take(vars(&[]), dir.path(), "cargo test");
    assert!(recorded.shared.is_empty(), "{:?}", recorded.shared);
    assert!(recorded.private().any(|c| c.name() == "CARGO_TARGET_DIR"));
}

#[test]
fn rebuilding_the_room_empties_it_and_makes_private_directories() {
    use std::os::unix::fs::PermissionsExt;
    let home = tempfile::tempdir().expect("tempdir");
    let room = Room::at(home.path().join("rooms/abc"));
    let recorded = recorded(&[]);
    room.rebuild(&recorded).expect("build");
    let hooks = room.disk_used();
    std::fs::write(room.dir().join("tmp/planted"), "x").expect("write");
    assert_eq!(room.disk_used(), hooks + 1);
    room.rebuild(&recorded).expect("rebuild");
    assert!(!room.dir().join("tmp/planted").exists(), "setup starts the room empty");
    for dir in ["", "tmp", "pycache", "babel"] {
        let mode = std::fs::metadata(room.dir().join(dir))
            .expect("dir")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700, "{dir}");
    }
    room.remove();
    assert!(!room.dir().exists());
}

#[test]
fn an_older_record_without_the_new_fields_still_loads() {
    let old: Recorded = serde_json::from_str(r#"{"vars": {"PATH": "/usr/bin"}}"#).expect("loads");
    assert!(old.secrets.is_empty() && old.shared.is_empty());
}

/// The ecosystems' decisions are stored as the bool fields they were when the room named them: a record written
/// then reads the same, one written now holds every field (false ones too) for a loopgate of then, and a field
/// the room no longer knows is read past.
#[test]
fn the_ecosystems_decisions_are_stored_as_the_fields_they_were() {
    let then: Recorded = serde_json::from_str(
        r#"{"vars": {}, "pytest_report": true, "gtest_report": false, "phpunit_report": true,
            "surefire_report": false, "junit_theirs": true, "cargo_runner_theirs": true,
            "hook_report": "mocha", "some_later_report": true}"#,
    )
    .expect("loads");
    let decided = [
        ("pytest_report", true),
        ("gtest_report", false),
        ("phpunit_report", true),
        ("surefire_report", false),
        ("cargo_runner_theirs", true),
    ];
    for (key, holds) in decided {
        assert_eq!(then.flags.holds(key), holds, "{key}");
    }
    assert!(!then.flags.holds("some_later_report"));
    assert!(then.junit_theirs && then.hook_report.as_deref() == Some("mocha"));
    assert_eq!(
        then.describe(&Room::at("/r".into())).reports,
        ["pytest_report", "phpunit_report"],
        "in the order setup names them"
    );
    let json: serde_json::Value = serde_json::to_value(&then).expect("json");
    for (key, holds) in decided {
        assert_eq!(json[key], holds, "{key} in {json}");
    }
    assert!(json.get("some_later_report").is_none());
    let again: Recorded = serde_json::from_value(json).expect("reads back");
    assert_eq!(again, then);
    assert!(
        serde_json::from_str::<Recorded>(r#"{"vars": {}, "pytest_report": "yes"}"#).is_err(),
        "a field of the room's that is no bool is refused, as it was"
    );
}

#[test]
fn pytests_cache_stays_off_where_its_configuration_turns_it_off() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("pytest.ini"),
        "[pytest]\naddopts = -p no:cacheprovider\n",
    )
    .expect("write");
    let recorded = Recorded::take(vars(&[]), dir.path(), "python3 -m pytest");
    assert_eq!(recorded.shared[0].why, Why::new("pytest_cache_off", None));
}

#[test]
fn a_room_that_cannot_be_written_gives_way_to_a_fresh_one_for_the_run() {
    let home = tempfile::tempdir().expect("tempdir");
    let blocked = home.path().join("file");
    std::fs::write(&blocked, "not a directory").expect("write");
    let recorded = recorded(&[]);
    let (room, throwaway) = Room::at(blocked.join("rooms/abc")).ready(&recorded).expect("a room");
    assert!(throwaway.is_some());
    assert!(room.dir().starts_with(std::env::temp_dir()) && room.dir().join("tmp").is_dir());
    drop(throwaway);
    assert!(!room.dir().exists(), "removed after the run");

    let (room, throwaway) = Room::at(home.path().join("rooms/abc"))
        .ready(&recorded)
        .expect("a room");
    assert!(throwaway.is_none() && room.dir().starts_with(home.path()));
}

#[test]
fn a_project_with_its_own_junit_report_keeps_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("pytest.ini"),
        "[pytest]\naddopts = --junitxml=out/junit.xml\n",
    )
    .expect("write");
    let recorded = Recorded::take(vars(&[]), dir.path(), "python3 -m pytest");
    assert!(recorded.junit_theirs);
    let env = run_env(&Room::at("/r".into()), &recorded, &[]);
    assert!(!env["PYTEST_ADDOPTS"].contains("junitxml"), "{env:?}");
}

/// The tree mounted at the project's path: the run sees the copy there, writes into it (never the project),
/// finds the user's dependencies at their place, and cannot see loopgate's home but for its room; a sealed file
/// is read-only (no write, truncate, rename over it or removal) though its directory takes new files, and a
/// place outside the project that is covered shows empty. Expected
/// wherever unprivileged user namespaces work; `LOOPGATE_TEST_NO_USERNS=1` says a machine has none.
#[cfg(target_os = "linux")]
#[test]
fn a_run_in_the_mounted_tree_sees_the_copy_at_the_projects_path_and_not_loopgates_home() {
    if std::env::var_os("LOOPGATE_TEST_NO_USERNS").is_some() {
        assert!(super::mount::probe().is_err());
        return;
    }
    super::mount::probe().expect("user namespaces work here");
    let dir = tempfile::tempdir().expect("tempdir");
    let base = dir.path().canonicalize().expect("canonical");
    let root = base.join("project");
    let home = base.join("home");
    let room = Room::at(home.join("rooms/abc"));
    std::fs::create_dir_all(root.join("node_modules/dep")).expect("mkdir");
    std::fs::write(root.join("node_modules/dep/index.js"), "user's dep").expect("write");
    std::fs::write(root.join("calc.py"), "agent's code").expect("write");
    std::fs::write(root.join("conftest.py"), "").expect("write");
    std::fs::create_dir_all(root.join("tests")).expect("mkdir");
    std::fs::write(root.join("tests/cases.json"), "[1, 2, 3]").expect("write");
    // A place outside the project that was not there at the baseline (a user site made since).
    let site = base.join("user/site-packages");
    std::fs::create_dir_all(&site).expect("mkdir");
    std::fs::write(site.join("usercustomize.py"), "planted").expect("write");
    std::fs::create_dir_all(home.join("seals")).expect("mkdir");
    std::fs::write(home.join("seals/seal.json"), "secret").expect("write");
    let mut synced = super::Synced::baseline(&root, std::iter::empty()).expect("baseline");
    std::fs::write(root.join("calc.py"), "agent's code, edited").expect("write");
    std::fs::write(root.join("stale.pyc"), "").expect("write");
    std::fs::create_dir_all(room.dir()).expect("mkdir");
    let (mount, done) = super::tree::Synced::sync(&mut synced, &root, &room.dir().join("tree"))
        .and_then(|done| {
            let outside = [(site.clone(), true)];
            let sealed = ["tests/cases.json".to_string()];
            let tree = room.dir().join("tree");
            let mount = super::Mount::prepare(
                &root,
                &tree,
                &done.bound,
                &[],
                &[],
                &home,
                room.dir(),
                &outside,
                &sealed,
                None,
            )?;
            Ok((mount, done))
        })
        .expect("mount prepared");
    assert_eq!(done.bound, ["node_modules"]);
    let log = base.join("verify.log");
    let script = format!(
        "cat calc.py; echo; cat node_modules/dep/index.js; echo; echo out > written.txt; \
         test -e {home}/seals/seal.json && echo SEEN || echo HIDDEN; touch {room}/ok && echo ROOM; \
         ls -A {site}; echo SITE; \
         (echo weaker > tests/cases.json) 2>/dev/null || echo NO-WRITE; \
         truncate -s 0 tests/cases.json 2>/dev/null || echo NO-TRUNCATE; \
         echo weaker > tests/new.json && (mv tests/new.json tests/cases.json 2>/dev/null || echo NO-RENAME); \
         rm -f tests/cases.json 2>/dev/null; cat tests/cases.json; echo; \
         echo beside > tests/scratch.txt && echo BESIDE",
        home = home.display(),
        room = room.dir().display(),
        site = site.display()
    );
    let outcome = run_mounted(&script, &root, &log, None, &mount);
    let text = outcome.output_text();
    assert!(outcome.passed(), "{text}");
    assert!(
        text.contains(
            "agent's code, edited\nuser's dep\nHIDDEN\nROOM\nSITE\nNO-WRITE\nNO-TRUNCATE\nNO-RENAME\n[1, 2, 3]\nBESIDE"
        ),
        "{text}"
    );
    assert!(
        site.join("usercustomize.py").exists(),
        "the place is covered, not emptied"
    );
    assert!(!root.join("written.txt").exists(), "the run wrote into the project");
    assert!(room.dir().join("tree/written.txt").exists());
    assert!(room.dir().join("ok").exists());
}

/// A user's machine under `dir`: `$HOME`, the project in it, loopgate's home and a room in that.
#[cfg(target_os = "linux")]
fn user_machine(dir: &Path) -> (PathBuf, PathBuf, PathBuf, Room) {
    let user = dir.canonicalize().expect("canonical").join("user");
    let root = user.join("src/project");
    let store = user.join(".local/state/loopgate");
    let room = Room::at(store.join("rooms/abc"));
    (user, root, store, room)
}

/// The project at `root` synced into `room`'s tree and that tree's mount prepared, with `home` the run's private
/// scratch and `fresh` the caches thrown away after each run; the tree and the mount.
#[cfg(target_os = "linux")]
fn mounted_at_home(root: &Path, room: &Room, store: &Path, home: &Path, fresh: &[PathBuf]) -> (PathBuf, super::Mount) {
    let mut synced = super::Synced::baseline(root, std::iter::empty()).expect("baseline");
    let tree = room.dir().join("tree");
    let done = synced.sync(root, &tree).expect("synced");
    let mount = super::Mount::prepare(
        root,
        &tree,
        &done.bound,
        &[home.to_path_buf()],
        fresh,
        store,
        room.dir(),
        &[],
        &[],
        None,
    )
    .expect("mount prepared");
    (tree, mount)
}

/// The run's private scratch (issue 39, item 2), in the layout of a user's machine: the project, loopgate's home
/// and its room all under `$HOME`, and the control plane under it too, so confinement closes `$HOME` to new
/// entries. In the namespace `$HOME` is the run's own overlay: it creates a file there (nyc's
/// `~/.node-spawn-wrap-*`), appends to one, and none of it reaches `$HOME` or the next run; its tree, its room
/// and the project's bound directories are the real ones; the store stays hidden.
#[cfg(target_os = "linux")]
#[test]
fn a_run_writes_home_into_a_scratch_thrown_away_after_it() {
    if no_scratch() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let (user, root, store, room) = user_machine(dir.path());
    std::fs::create_dir_all(root.join("node_modules/dep")).expect("mkdir");
    std::fs::write(root.join("calc.py"), "agent's code").expect("write");
    std::fs::write(user.join(".bashrc"), "# the user's\n").expect("write");
    std::fs::create_dir_all(store.join("seals")).expect("mkdir");
    std::fs::write(store.join("seals/seal.json"), "secret").expect("write");
    std::fs::create_dir_all(room.dir()).expect("mkdir");
    let (tree, mount) = mounted_at_home(&root, &room, &store, &user, &[]);
    let mut plane = crate::plane::Plane::new(&store, &[]);
    plane.add(&user.join(".bashrc"));
    plane.allow(room.dir());
    plane.allow(&tree);
    let mut env = Vec::new();
    super::Placed::Mounted(Box::new(mount.clone())).confine(&root, &mut env, &mut plane);
    assert!(plane.closes(&user), "the plane closes HOME outside the run");
    let script = format!(
        "test -e {user}/.marker && echo HELPED; touch {user}/.marker {user}/.node-spawn-wrap-7 && echo NEW; \
         echo evil >> {user}/.bashrc && echo APPENDED; cat calc.py; echo; \
         test -e {store}/seals/seal.json && echo SEEN || echo HIDDEN; touch {store}/planted && echo PLANTED; \
         touch {room}/ok node_modules/dep/made && echo > written.txt && echo REAL",
        user = user.display(),
        store = store.display(),
        room = room.dir().display(),
    );
    let log = dir.path().join("verify.log");
    for _ in 0..2 {
        let outcome = run_mounted(&script, &root, &log, Some(&plane), &mount);
        let text = outcome.output_text();
        assert!(outcome.passed(), "{text}");
        assert!(
            text.contains("NEW\nAPPENDED\nagent's code\nHIDDEN\nPLANTED\nREAL"),
            "{text}"
        );
        assert!(
            !text.contains("HELPED"),
            "a run saw what the one before it wrote: {text}"
        );
    }
    // A run cut by its timeout leaves nothing either: the scratch goes with the namespace's last process.
    let late = format!("touch {}/.late && sleep 30", user.display());
    let request = crate::verify::VerifyRequest {
        command: &late,
        cwd: &root,
        timeout: std::time::Duration::from_secs(1),
        log_path: &log,
        prefix: &[],
        env: None,
        plane: Some(&plane),
        mount: Some(&mount),
    };
    assert!(crate::verify::run(&request).expect("runs").timed_out);
    for gone in [
        ".marker",
        ".node-spawn-wrap-7",
        ".late",
        ".local/state/loopgate/planted",
    ] {
        assert!(!user.join(gone).exists(), "{gone} reached HOME");
    }
    assert_eq!(
        std::fs::read_to_string(user.join(".bashrc")).expect("read"),
        "# the user's\n"
    );
    assert!(room.dir().join("ok").exists(), "the room is the real one");
    assert!(tree.join("written.txt").exists(), "the tree is the real one");
    assert!(
        root.join("node_modules/dep/made").exists(),
        "a bound directory is the project's own"
    );
    assert!(!root.join("written.txt").exists(), "the run wrote into the project");
}

/// The places outside the project the runners read on their own stand read-only for the whole run
/// (`room::outside::Frozen`): a process of the run cannot write a `usercustomize.py` into the user site, nor make
/// an absent `.npmrc`, Go `env` or module directory for the runner it starts next, while the rest of `$HOME`
/// stays its writable scratch. Made in the scratch, the absent places are gone after the run.
#[cfg(target_os = "linux")]
#[test]
fn a_run_cannot_write_the_places_its_runners_read_on_their_own() {
    if no_scratch() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let (user, root, store, room) = user_machine(dir.path());
    let site = user.join(".local/lib/python3.12/site-packages");
    std::fs::create_dir_all(&site).expect("mkdir");
    std::fs::create_dir_all(&root).expect("mkdir");
    std::fs::create_dir_all(room.dir()).expect("mkdir");
    let vars = std::collections::BTreeMap::from([("HOME".to_string(), user.to_string_lossy().into_owned())]);
    let hidden = super::outside::Outside::take(&vars, &root).hidden(&vars, &root);
    let (_tree, mut mount) = mounted_at_home(&root, &room, &store, &user, &[]);
    mount.freeze(&hidden.frozen).expect("frozen");
    let script = format!(
        "for f in {site}/usercustomize.py {user}/.npmrc {user}/.config/go/env {user}/.node_modules/x.js; do            (echo patch > $f) 2>/dev/null && echo WROTE $f; done;          test -s {user}/.npmrc || echo EMPTY; touch {user}/.other && echo FREE",
        site = site.display(),
        user = user.display(),
    );
    let log = dir.path().join("verify.log");
    let outcome = run_mounted(&script, &root, &log, None, &mount);
    let text = outcome.output_text();
    assert!(outcome.passed(), "{text}");
    assert!(!text.contains("WROTE"), "a place was written: {text}");
    assert!(text.contains("EMPTY\nFREE"), "{text}");
    for gone in [".npmrc", ".config", ".node_modules", ".other"] {
        assert!(!user.join(gone).exists(), "{gone} reached HOME");
    }
    assert!(!site.join("usercustomize.py").exists());
}

/// Issue 39, item 2: a promise's run finds the room's caches as the baseline left them, whatever a run before it
/// wrote there (a test binary that replaced itself), and what it writes there is gone after it; the room's other
/// directories (the reports) are the real ones.
#[cfg(target_os = "linux")]
#[test]
fn a_promises_run_writes_the_rooms_caches_into_a_scratch_thrown_away_after_it() {
    if no_scratch() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let (user, root, store, room) = user_machine(dir.path());
    let cache = room.dir().join("cargo-target");
    std::fs::create_dir_all(&root).expect("mkdir");
    std::fs::create_dir_all(cache.join("debug/deps")).expect("mkdir");
    std::fs::create_dir_all(room.dir().join("report")).expect("mkdir");
    std::fs::write(cache.join("debug/deps/calc-1234"), "built at the baseline").expect("write");
    let (tree, mount) = mounted_at_home(&root, &room, &store, &user, std::slice::from_ref(&cache));
    let mut plane = crate::plane::Plane::new(&store, &[]);
    plane.allow(room.dir());
    plane.allow(&tree);
    let mut env = Vec::new();
    super::Placed::Mounted(Box::new(mount.clone())).confine(&root, &mut env, &mut plane);
    let script = format!(
        "cat {cache}/debug/deps/calc-1234; echo; echo swapped > {cache}/debug/deps/calc-1234 && \
         touch {cache}/debug/deps/planted && echo WROTE; echo events > {room}/report/events.jsonl",
        cache = cache.display(),
        room = room.dir().display(),
    );
    let log = dir.path().join("verify.log");
    for _ in 0..2 {
        let outcome = run_mounted(&script, &root, &log, Some(&plane), &mount);
        let text = outcome.output_text();
        assert!(outcome.passed(), "{text}");
        assert!(text.contains("built at the baseline\nWROTE"), "{text}");
    }
    assert_eq!(
        std::fs::read_to_string(cache.join("debug/deps/calc-1234")).expect("read"),
        "built at the baseline"
    );
    assert!(!cache.join("debug/deps/planted").exists(), "a run's write outlived it");
    assert!(
        room.dir().join("report/events.jsonl").exists(),
        "the reports are the real ones"
    );
}

/// Where `/tmp` is the run's own, so is its temporary directory: `TMPDIR` and its kin name `/tmp`, not the room's
/// `tmp`, which is kept for the loop.
#[cfg(target_os = "linux")]
#[test]
fn a_run_whose_tmp_is_its_own_has_it_for_its_temporary_directory() {
    if no_scratch() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let base = dir.path().canonicalize().expect("canonical");
    let (root, room) = (base.join("project"), Room::at(base.join("store/rooms/abc")));
    std::fs::create_dir_all(&root).expect("mkdir");
    std::fs::create_dir_all(room.dir()).expect("mkdir");
    let mut synced = super::Synced::baseline(&root, std::iter::empty()).expect("baseline");
    let tree = room.dir().join("tree");
    let done = synced.sync(&root, &tree).expect("synced");
    let private = [std::path::PathBuf::from("/tmp")];
    let mount = super::Mount::prepare(
        &root,
        &tree,
        &done.bound,
        &private,
        &[],
        &base.join("store"),
        room.dir(),
        &[],
        &[],
        None,
    )
    .expect("mount prepared");
    let recorded = recorded(&[("TMPDIR", "/somewhere")]);
    let mut env = room.env(&recorded, |_| None);
    let mut plane = crate::plane::Plane::default();
    super::Placed::Mounted(Box::new(mount)).confine(&root, &mut env, &mut plane);
    let vars: BTreeMap<String, String> = env
        .into_iter()
        .map(|(k, v)| (k.to_string_lossy().into_owned(), v.to_string_lossy().into_owned()))
        .collect();
    let tmp = std::path::Path::new("/tmp").canonicalize().expect("/tmp");
    for var in ["TMPDIR", "TMP", "TEMP"] {
        assert_eq!(vars.get(var).map(std::path::PathBuf::from), Some(tmp.clone()), "{var}");
    }
    assert_eq!(plane.inside(), [tmp]);
}

/// The places of the scratch: one inside another counts once, `/` and what does not exist never.
#[cfg(target_os = "linux")]
#[test]
fn the_scratchs_places_are_the_outermost_existing_directories() {
    let dir = tempfile::tempdir().expect("tempdir");
    let base = dir.path().canonicalize().expect("canonical");
    let room = base.join("home/.local/state/loopgate/rooms/abc");
    std::fs::create_dir_all(&room).expect("mkdir");
    let places = [
        base.join("home"),
        base.join("home/.local/state/loopgate"),
        base.join("missing"),
        std::path::PathBuf::from("/"),
    ];
    let private = crate::confine::mount::Private::build(&places, &[], &room, &[])
        .expect("prepared")
        .expect("a place");
    assert_eq!(private.dirs(), [base.join("home")]);
    assert!(room.join(crate::confine::mount::private::STAGING).is_dir());
}

#[test]
fn the_tree_is_mounted_where_it_can_be_else_copied_and_the_switch_decides_first() {
    use super::TreeState;
    let no_namespace = || Err("this operating system has no mount namespaces".to_string());
    assert_eq!(TreeState::decide_with(None, Ok(())), TreeState::Mounted);
    assert_eq!(
        TreeState::decide_with(None, no_namespace()),
        TreeState::Copied {
            why: "this operating system has no mount namespaces".into()
        }
    );
    assert!(matches!(
        TreeState::decide_with(Some("copy"), Ok(())),
        TreeState::Copied { .. }
    ));
    assert!(matches!(
        TreeState::decide_with(Some("0"), Ok(())),
        TreeState::Fallback { .. }
    ));
    assert!(matches!(
        TreeState::decide_with(Some("0"), no_namespace()),
        TreeState::Fallback { .. }
    ));
    assert!(TreeState::in_tree(Some(&TreeState::Copied { why: String::new() })));
    assert!(!TreeState::in_tree(Some(&TreeState::Fallback { why: String::new() })));
    assert!(!TreeState::in_tree(None));
}

#[test]
fn a_run_in_the_copy_has_the_variables_that_named_the_project_name_the_copy() {
    let mut env = vars(&[
        ("PWD", "/home/u/proj"),
        ("PYTHONPATH", "/home/u/proj/src:/opt/lib:/home/u/proj"),
        ("CONFIG", "/home/u/proj/conf.toml"),
        ("OTHER", "/home/u/project-two/x"),
        ("PATH", "/usr/bin"),
    ]);
    super::env::repoint(&mut env, Path::new("/home/u/proj"), Path::new("/state/rooms/abc/tree"));
    let env: BTreeMap<String, String> = env
        .into_iter()
        .map(|(k, v)| (k.to_string_lossy().into_owned(), v.to_string_lossy().into_owned()))
        .collect();
    assert_eq!(env["PWD"], "/state/rooms/abc/tree");
    assert_eq!(
        env["PYTHONPATH"],
        "/state/rooms/abc/tree/src:/opt/lib:/state/rooms/abc/tree"
    );
    assert_eq!(env["CONFIG"], "/state/rooms/abc/tree/conf.toml");
    assert_eq!(
        env["OTHER"], "/home/u/project-two/x",
        "a sibling sharing the prefix is not the project"
    );
    assert_eq!(env["PATH"], "/usr/bin");
}

/// The room's records name a run's tests in one place, for every kind of runner whose output does not name them
/// all: minitest's events (where the command runs minitest), PHPUnit's own reports and GoogleTest's (where they
/// exist; ctest's lines name a binary registered with `add_test`, not its tests).
#[test]
fn the_rooms_records_name_the_tests_of_minitest_phpunit_and_googletest() {
    use crate::readout::{TestOutcome, TestResults};
    use crate::runner::Runner;
    let home = tempfile::tempdir().expect("tempdir");
    let room = Room::at(home.path().join("rooms/abc"));
    std::fs::create_dir_all(room.events_path().parent().expect("report dir")).expect("mkdir");
    std::fs::write(
        room.events_path(),
        [
            r#"{"runner":"minitest","pid":7,"event":"begin","name":""}"#,
            r#"{"runner":"minitest","pid":7,"event":"pass","name":"CalcTest#test_add"}"#,
            r#"{"runner":"minitest","pid":7,"event":"end","name":""}"#,
            "",
        ]
        .join("\n"),
    )
    .expect("events");
    std::fs::write(
        room.dir().join("report/phpunit-1-a.xml"),
        r#"<testsuites><testsuite name="unit"><testcase name="testAdds" class="CalcTest" classname="CalcTest"><failure>no</failure></testcase></testsuite></testsuites>"#,
    )
    .expect("report");
    let gtest = room.dir().join(super::gtest::PLACE);
    std::fs::create_dir_all(&gtest).expect("mkdir");
    std::fs::write(
        gtest.join("calc_test.xml"),
        r#"<testsuites><testsuite name="Calc"><testcase name="Zero" status="run" result="completed" classname="Calc"/></testsuite></testsuites>"#,
    )
    .expect("gtest report");
    let mut results = TestResults::default();
    room.add_named(&[Runner::Minitest], &mut results);
    assert_eq!(results.get("CalcTest#test_add"), Some(TestOutcome::Passed));
    assert_eq!(results.get("CalcTest::testAdds"), Some(TestOutcome::Failed));
    assert_eq!(results.get("Calc.Zero"), Some(TestOutcome::Passed));
    let mut phpunit_only = TestResults::default();
    room.add_named(&[Runner::Phpunit], &mut phpunit_only);
    assert_eq!(
        phpunit_only.tests.keys().collect::<Vec<_>>(),
        vec!["Calc.Zero", "CalcTest::testAdds"],
        "minitest's events name nothing where the command runs no minitest"
    );
}

/// Whether this machine (or the test run: `LOOPGATE_TEST_NO_USERNS`) cannot give a run a private scratch.
#[cfg(target_os = "linux")]
pub(super) fn no_scratch() -> bool {
    std::env::var_os("LOOPGATE_TEST_NO_USERNS").is_some() || crate::confine::mount::Private::probe().is_err()
}

/// A run of `command` in `mount` for the project at `root`, confined by `plane` where given, logged to `log`; a
/// minute at most.
#[cfg(target_os = "linux")]
pub(super) fn run_mounted(
    command: &str,
    root: &std::path::Path,
    log: &std::path::Path,
    plane: Option<&crate::plane::Plane>,
    mount: &super::Mount,
) -> crate::verify::VerifyOutcome {
    let request = crate::verify::VerifyRequest {
        command,
        cwd: root,
        timeout: std::time::Duration::from_secs(60),
        log_path: log,
        prefix: &[],
        env: None,
        plane,
        mount: Some(mount),
    };
    crate::verify::run(&request).expect("runs")
}

/// A cache's reason to stay the user's is stored as the tagged enum it was, and every reason an ecosystem's
/// rule gives is worded by that ecosystem (none falls back to its stored name).
#[test]
fn a_shared_caches_reason_is_stored_as_it_was_and_worded_by_its_ecosystem() {
    let stored = [
        (
            r#"{"var":"CARGO_TARGET_DIR","why":{"why":"target_dir_configured","file":".cargo/config.toml"}}"#,
            "`.cargo/config.toml` sets `target-dir`",
        ),
        (
            r#"{"var":"CARGO_TARGET_DIR","why":{"why":"target_named_by_path","file":"tests/cli.rs"}}"#,
            "`tests/cli.rs` names `target/` by path",
        ),
        (
            r#"{"var":"PYTEST_ADDOPTS","why":{"why":"pytest_cache_off"}}"#,
            "the run turns pytest's cache provider off",
        ),
    ];
    for (json, words) in stored {
        let shared: Shared = serde_json::from_str(json).expect("loads");
        assert_eq!(serde_json::to_string(&shared).expect("json"), json);
        assert_eq!(crate::messages::room::why(&shared.why), words);
    }
}

/// A run's kept caches lie beside the room, where no run writes, not in it; one whose maker is gone (a killed
/// loopgate) goes when the next is made, one whose maker runs stays, and all go with the room.
#[test]
fn kept_caches_lie_beside_the_room_and_go_with_their_maker_or_the_room() {
    let dir = tempfile::tempdir().expect("tempdir");
    let room = Room::at(dir.path().join("rooms/abc"));
    std::fs::create_dir_all(room.dir()).expect("room");
    // What overlayfs leaves: a directory of mode 0 inside; its maker, a process that has ended.
    let mut child = std::process::Command::new("true").spawn().expect("spawn");
    child.wait().expect("wait");
    let dead = child.id();
    let left = dir.path().join(format!("rooms/abc.kept.{dead}.1"));
    std::fs::create_dir_all(left.join("work/work")).expect("left");
    std::fs::set_permissions(
        left.join("work/work"),
        std::os::unix::fs::PermissionsExt::from_mode(0o000),
    )
    .expect("mode 0");
    let other_room = dir.path().join(format!("rooms/abcd.kept.{dead}.1"));
    std::fs::create_dir_all(&other_room).expect("other room's");
    let kept = room.kept_dir_for_run().expect("kept");
    assert_eq!(kept.parent(), room.dir().parent());
    assert!(kept.is_dir() && !kept.starts_with(room.dir()));
    assert!(!left.exists(), "a dead maker's kept caches go");
    assert!(other_room.exists(), "another room's stay");
    let second = room.kept_dir_for_run().expect("second");
    assert!(kept.exists() && second != kept, "a living maker's stay");
    room.remove();
    assert!(!kept.exists() && !second.exists() && other_room.exists());
}

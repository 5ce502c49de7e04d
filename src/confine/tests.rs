use std::ffi::OsString;
use std::path::Path;

use super::*;

/// Runs `sh -c SCRIPT` confined to keep off a plane of `home`; its exit status.
fn confined(home: &Path, script: &str) -> (std::process::ExitStatus, Protection) {
    let plane = Plane::new(home, &[]);
    let args: Vec<OsString> = vec!["-c".into(), script.into()];
    let (mut command, protection) = command(&plane, "sh", &args);
    let status = command.status().expect("run sh");
    (status, protection)
}

#[test]
fn the_probe_reports_the_agents_world_here_and_says_so_in_words() {
    // CI and the workplace run a kernel with Landlock and user namespaces: a probe that finds neither here is a
    // failure, not a skip. Under qemu-user (no Landlock) a namespace may still be found; nothing else may.
    let found = probe();
    if !landlock_expected() {
        assert!(
            matches!(
                found,
                Protection::Unprotected { .. } | Protection::Namespace { landlock: None }
            ),
            "Landlock found where the run said there is none: {found}"
        );
        return;
    }
    assert!(
        matches!(found, Protection::Namespace { landlock: Some(abi) } if *abi >= 2),
        "no mount namespace with Landlock beside it: {found}"
    );
    assert_eq!(found.to_string(), "protected (mount namespace)");
    assert_eq!(
        Protection::Landlock { abi: 6 }.to_string(),
        "protected (Landlock ABI 6)"
    );
    let off = Protection::Unprotected {
        why: "no kernel support".into(),
    };
    assert_eq!(off.to_string(), "unprotected (no kernel support)");
}

#[test]
fn a_confined_shell_cannot_write_the_store_but_can_write_beside_it() {
    if !landlock_expected() {
        return; // the probe test above checks that none is reported
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical");
    let home = root.join("state/loopgate");
    std::fs::create_dir_all(home.join("tickets")).expect("mkdir");
    std::fs::write(home.join("seal.json"), "{}").expect("seal");
    std::fs::create_dir_all(root.join("project")).expect("project");
    let h = home.display();
    let p = root.join("project");
    let p = p.display();
    let (status, protection) = confined(&home, &format!("echo forged > '{h}/tickets/t.json'"));
    assert!(protection.is_protected());
    assert!(!status.success(), "a ticket was written");
    assert!(!home.join("tickets/t.json").exists());
    let (status, _) = confined(
        &home,
        &format!("echo x >> '{h}/seal.json' || rm -f '{h}/seal.json' || mv '{h}' '{h}.gone'"),
    );
    assert!(!status.success());
    assert_eq!(std::fs::read_to_string(home.join("seal.json")).expect("seal"), "{}");
    // Honest work beside it: new files and directories in the project, and a new file below a granted sibling.
    let (status, _) = confined(
        &home,
        &format!("mkdir -p '{p}/target/debug' && echo ok > '{p}/target/debug/x' && mv '{p}/target/debug/x' '{p}/y'"),
    );
    assert!(status.success());
    assert!(root.join("project/y").exists());
}

#[test]
fn a_link_out_of_the_store_is_refused() {
    if !landlock_expected() {
        return; // the probe test above checks that none is reported
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical");
    let home = root.join("store");
    std::fs::create_dir_all(&home).expect("mkdir");
    std::fs::write(home.join("seal.json"), "{}").expect("seal");
    std::fs::create_dir_all(root.join("project")).expect("project");
    let script = format!(
        "ln '{0}/seal.json' '{1}/project/hard' || mv '{0}/seal.json' '{1}/project/moved'",
        home.display(),
        root.display()
    );
    let (status, _) = confined(&home, &script);
    assert!(!status.success());
    // No link is made; `mv` across the read-only bind may leave a copy behind, but the seal stays in the store.
    assert!(!root.join("project/hard").exists());
    assert_eq!(std::fs::read_to_string(home.join("seal.json")).expect("seal"), "{}");
    // A symlink may be made (it is a new name in the project), but writing through it reaches the store's path.
    let script = format!(
        "ln -s '{0}/seal.json' '{1}/project/link' && echo forged > '{1}/project/link'",
        home.display(),
        root.display()
    );
    let (status, _) = confined(&home, &script);
    assert!(!status.success());
    assert_eq!(std::fs::read_to_string(home.join("seal.json")).expect("seal"), "{}");
}

#[test]
fn a_plane_carves_out_the_room_and_an_only_plane_writes_nothing_else() {
    if !landlock_expected() {
        return; // the probe test above checks that none is reported
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical");
    let home = root.join("store");
    for sub in ["seals", "rooms/r1", "holdout/h/tree", "holdout/h/files"] {
        std::fs::create_dir_all(home.join(sub)).expect("mkdir");
    }
    std::fs::create_dir_all(root.join("project")).expect("project");
    let run = |plane: &Plane, script: &str| {
        let args: Vec<OsString> = vec!["-c".into(), script.into()];
        let (mut command, protection) = command(plane, "sh", &args);
        assert!(protection.is_protected());
        command.status().expect("run sh").success()
    };
    let (h, p) = (home.display(), root.join("project"));
    let p = p.display();
    // The room's plane: the room is the run's own, the rest of the store is not.
    let mut room = Plane::new(&home, &[]);
    room.allow(&home.join("rooms/r1"));
    assert!(run(
        &room,
        &format!("mkdir -p '{h}/rooms/r1/tmp' && echo x > '{h}/rooms/r1/tmp/f'")
    ));
    assert!(!run(&room, &format!("echo x > '{h}/seals/s.json'")));
    assert!(
        run(&room, &format!("echo x > '{p}/new.txt'")),
        "the project stays writable"
    );
    // The held-out run's plane: its copy and nothing else — not the project, not the held-out originals.
    let only = Plane::only(&[home.join("holdout/h/tree")]);
    assert!(run(
        &only,
        &format!("echo x > '{h}/holdout/h/tree/out' && echo y > /dev/null")
    ));
    assert!(!run(&only, &format!("echo leak > '{p}/leak.txt'")));
    assert!(!run(&only, &format!("echo x > '{h}/holdout/h/files/test_x.py'")));
    assert!(!root.join("project/leak.txt").exists());
}

/// A working directory is a reference to a mount, not a name: a command started in the project, next to the
/// store, must not reach the store (or anything else bound read-only) by a relative path from the directory it
/// started in, as it did before the world entered its working directory again after the binds.
#[test]
fn a_relative_path_from_the_starting_directory_does_not_lead_past_the_binds() {
    if !landlock_expected() {
        return; // the probe test above checks that none is reported
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().canonicalize().expect("canonical");
    let home = root.join("loopgate");
    std::fs::create_dir_all(home.join("seals")).expect("mkdir");
    let project = root.join("project");
    std::fs::create_dir_all(project.join("sub")).expect("project");
    let plane = Plane::new(&home, &[]);
    for (cwd, up) in [(&project, ".."), (&project.join("sub"), "../..")] {
        let script = format!("echo forged > {up}/loopgate/seals/s.json; echo mine > made.txt; pwd");
        let args: Vec<OsString> = vec!["-c".into(), script.into()];
        let (mut command, protection) = command(&plane, "sh", &args);
        assert!(protection.is_protected());
        let out = command.current_dir(cwd).output().expect("run sh");
        assert!(
            !home.join("seals/s.json").exists(),
            "`{up}/loopgate/seals` from `{}` wrote the store",
            cwd.display()
        );
        assert!(cwd.join("made.txt").exists(), "the working directory stays writable");
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), cwd.display().to_string());
    }
}

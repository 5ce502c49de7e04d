use std::collections::BTreeMap;
use std::path::Path;

use super::*;

/// A home with the given files (`dir/` for an empty directory), and the baseline's variables for it.
fn home(files: &[&str]) -> (tempfile::TempDir, BTreeMap<String, String>, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let base = dir.path().canonicalize().expect("canonical");
    let home = base.join("home");
    std::fs::create_dir_all(&home).expect("mkdir");
    for file in files {
        add(&home, file);
    }
    let vars = BTreeMap::from([("HOME".to_string(), home.to_string_lossy().into_owned())]);
    let root = base.join("project");
    std::fs::create_dir_all(&root).expect("mkdir");
    (dir, vars, root)
}

fn add(home: &Path, file: &str) {
    let path = home.join(file.trim_end_matches('/'));
    if file.ends_with('/') {
        std::fs::create_dir_all(path).expect("mkdir");
    } else {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, file).expect("write");
    }
}

fn names(home: &Path, paths: &[std::path::PathBuf]) -> Vec<String> {
    paths
        .iter()
        .map(|p| p.strip_prefix(home).expect("in home").to_string_lossy().into_owned())
        .collect()
}

const SITE: &str = ".local/lib/python3.12/site-packages";

#[test]
fn a_place_absent_at_the_baseline_is_covered_by_its_kind() {
    let (_dir, vars, root) = home(&[".inputrc"]);
    let outside = Outside::take(&vars, &root);
    let home = Path::new(&vars["HOME"]);
    add(home, &format!("{SITE}/usercustomize.py"));
    add(home, ".npmrc");
    add(home, ".config/go/env");
    add(home, ".local/bin/tool");
    let hidden = outside.hidden(&vars, &root);
    let covered: Vec<(String, bool)> = hidden
        .cover
        .iter()
        .map(|(p, dir)| (names(home, std::slice::from_ref(p)).remove(0), *dir))
        .collect();
    assert_eq!(
        covered,
        [
            (SITE.to_string(), true),
            (".npmrc".to_string(), false),
            (".config/go/env".to_string(), false)
        ]
    );
    assert!(hidden.changed.is_empty());
}

#[test]
fn a_place_that_existed_keeps_its_entries_and_covers_new_ones() {
    let (_dir, vars, root) = home(&[&format!("{SITE}/before.py"), &format!("{SITE}/old.pth"), ".npmrc"]);
    let outside = Outside::take(&vars, &root);
    let home = Path::new(&vars["HOME"]);
    let unchanged = outside.hidden(&vars, &root);
    assert_eq!(
        unchanged,
        Hidden {
            frozen: unchanged.frozen.clone(),
            ..Hidden::default()
        },
        "nothing changed, nothing covered"
    );
    add(home, &format!("{SITE}/usercustomize.py"));
    add(home, &format!("{SITE}/newpkg/"));
    std::fs::write(home.join(SITE).join("old.pth"), "import patch\n").expect("write");
    std::fs::write(home.join(".npmrc"), "node-options=--require x\n").expect("write");
    let hidden = outside.hidden(&vars, &root);
    let mut covered = names(home, &hidden.cover.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>());
    covered.sort();
    assert_eq!(covered, [format!("{SITE}/newpkg"), format!("{SITE}/usercustomize.py")]);
    let mut changed = names(home, &hidden.changed);
    changed.sort();
    assert_eq!(changed, [format!("{SITE}/old.pth"), ".npmrc".to_string()]);
}

#[test]
fn a_new_link_in_a_place_covers_the_whole_place() {
    let (_dir, vars, root) = home(&[&format!("{SITE}/before.py")]);
    let outside = Outside::take(&vars, &root);
    let home = Path::new(&vars["HOME"]);
    add(home, &format!("{SITE}/a_new.py"));
    std::os::unix::fs::symlink(root.join("patch.py"), home.join(SITE).join("usercustomize.py")).expect("link");
    let hidden = outside.hidden(&vars, &root);
    assert_eq!(hidden.cover, [(home.join(SITE), true)]);
}

#[test]
fn places_in_or_above_the_project_are_not_covered() {
    let (_dir, mut vars, root) = home(&[]);
    vars.insert(
        "NODE_PATH".to_string(),
        format!("{}:relative/dir", root.join("lib").display()),
    );
    vars.insert(
        "CARGO_HOME".to_string(),
        root.join(".cargo").to_string_lossy().into_owned(),
    );
    let outside = Outside::take(&vars, &root);
    add(&root, "lib/patch.js");
    add(&root, ".cargo/config.toml");
    let hidden = outside.hidden(&vars, &root);
    assert_eq!((hidden.cover, hidden.changed, hidden.links), (vec![], vec![], vec![]));
    assert!(
        hidden.frozen.iter().all(|(path, _)| !path.starts_with(&root)),
        "{:?}",
        hidden.frozen
    );
}

/// Every place stands read-only during a run: as it is where it stands, made empty where absent — but cargo's
/// `config`, made only where `config.toml` is absent too (cargo prefers `config`, and warns when both stand).
#[test]
fn every_place_stands_frozen_by_its_kind() {
    let frozen = |files: &[&str]| {
        let (_dir, vars, root) = home(files);
        let home = std::path::PathBuf::from(&vars["HOME"]);
        let hidden = Outside::take(&vars, &root).hidden(&vars, &root);
        let named: Vec<(String, Frozen)> = hidden
            .frozen
            .iter()
            .map(|(path, how)| (names(&home, std::slice::from_ref(path)).remove(0), *how))
            .collect();
        named
    };
    let absent = frozen(&[]);
    assert_eq!(
        absent,
        [
            (".local/lib".to_string(), Frozen::MadeDir),
            (".node_modules".to_string(), Frozen::MadeDir),
            (".node_libraries".to_string(), Frozen::MadeDir),
            (".npmrc".to_string(), Frozen::MadeFile),
            (".cargo/config".to_string(), Frozen::MadeFile),
            (".config/go/env".to_string(), Frozen::MadeFile),
        ]
    );
    let standing = frozen(&[&format!("{SITE}/before.py"), ".npmrc", ".cargo/config.toml"]);
    assert!(standing.contains(&(SITE.to_string(), Frozen::Dir)), "{standing:?}");
    assert!(standing.contains(&(".npmrc".to_string(), Frozen::File)), "{standing:?}");
    assert!(
        standing.contains(&(".cargo/config.toml".to_string(), Frozen::File)),
        "{standing:?}"
    );
    assert!(
        !standing.iter().any(|(name, _)| name == ".cargo/config"),
        "an empty `config` would hide the user's `config.toml`: {standing:?}"
    );
}

//! Requests and tickets: who carries a request out, where it waits, and when it is ignored.

use super::*;

#[test]
fn prompts_name_the_command_by_either_spelling_and_nothing_else_counts() {
    assert_eq!(
        command_of("/pua-loop fix it --verify 'x'"),
        Some((Kind::Setup, " fix it --verify 'x'"))
    );
    assert_eq!(command_of("/loopgate:pua-loop\nfix"), Some((Kind::Setup, "\nfix")));
    assert_eq!(command_of("/cancel-loop"), Some((Kind::Cancel, "")));
    assert_eq!(command_of("/loopgate:cancel-loop "), Some((Kind::Cancel, " ")));
    // Codex's skills (its interactive UI runs no custom `/` command), and a leading space (how Codex's UI sends a
    // `/` it does not know to the model).
    assert_eq!(command_of("$pua-loop \"x\""), Some((Kind::Setup, " \"x\"")));
    assert_eq!(command_of(" /resume-loop"), Some((Kind::Resume, "")));
    assert_eq!(command_of("$cancel-loop"), Some((Kind::Cancel, "")));
    for other in [
        "$loop-status",
        "$loopgate:pua-loop x",
        "$$pua-loop x",
        "say $pua-loop x",
        "please /pua-loop x",
        "/pua-loops x",
        "/other:pua-loop x",
        "pua-loop",
        "",
        "/loop-status",
    ] {
        assert_eq!(command_of(other), None, "{other:?}");
    }
}

fn project() -> (tempfile::TempDir, Project) {
    let dir = tempfile::tempdir().expect("temp dir");
    let project = Project {
        root: dir.path().to_path_buf(),
    };
    (dir, project)
}

#[test]
fn only_the_users_matching_prompt_in_the_same_session_carries_a_request_out_and_only_once() {
    let (_dir, project) = project();
    let save = |kind, session, text| Request::new(kind, session, text).save(&project).expect("save");
    save(Kind::Setup, "s1", "fix it --verify 'cargo test'\n");
    assert!(take(&project, "s1", "/pua-loop fix it --verify 'cargo test'").is_some());
    assert!(
        take(&project, "s1", "/pua-loop fix it --verify 'cargo test'").is_none(),
        "carried out once"
    );

    for (session, prompt) in [
        ("s2", "/pua-loop fix it"),               // another session
        ("s1", "/pua-loop fix it --verify true"), // other text
        ("s1", "/cancel-loop"),                   // another command
        ("s1", "continue"),                       // not a command
        ("", "/pua-loop fix it"),                 // no session
    ] {
        save(Kind::Setup, "s1", "fix it");
        assert!(take(&project, session, prompt).is_none(), "{session:?} {prompt:?}");
    }
}

#[test]
fn a_stale_or_corrupt_request_is_ignored_and_removed() {
    let (_dir, project) = project();
    let mut old = Request::new(Kind::Cancel, "s", "");
    old.created -= MAX_AGE_SECS + 1;
    old.save(&project).expect("save");
    let path = project.root.join(REQUEST_FILE);
    assert!(take(&project, "s", "/cancel-loop").is_none());
    assert!(!path.exists());
    std::fs::write(&path, "{not json").expect("write");
    assert!(take(&project, "s", "/cancel-loop").is_none());
    assert!(!path.exists());
}

#[test]
fn a_request_that_cannot_go_into_claude_waits_in_a_temp_directory_and_counts_from_there() {
    let (_dir, project) = project();
    // `.claude` as a file: the project's place cannot be written (as under 2.1.197's read-only mount; a mode
    // bit would not stop root).
    std::fs::write(project.root.join(".claude"), "").expect("write");
    let saved = Request::new(Kind::Setup, "s1", "fix it")
        .save(&project)
        .expect("save falls back");
    assert!(!saved.starts_with(&project.root), "{}", saved.display());
    assert!(saved.exists());
    assert!(
        take(&project, "s1", "/pua-loop other text").is_none(),
        "still needs the same text"
    );
    assert!(!saved.exists(), "read once, removed");
    Request::new(Kind::Setup, "s1", "fix it").save(&project).expect("save");
    assert!(take(&project, "s1", "/pua-loop fix it").is_some());
    assert!(!saved.exists());
}

#[test]
fn a_new_request_replaces_an_older_one_in_the_other_place() {
    let (_dir, project) = project();
    std::fs::write(project.root.join(".claude"), "").expect("write");
    let temp = Request::new(Kind::Cancel, "s", "").save(&project).expect("save");
    std::fs::remove_file(project.root.join(".claude")).expect("remove");
    let own = Request::new(Kind::Setup, "s", "x").save(&project).expect("save");
    assert!(own.starts_with(&project.root) && !temp.exists());
}

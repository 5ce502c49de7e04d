//! The control plane outside the project (issue 31, item 2): every way of naming one of its paths is denied to
//! the file tools, with a reason that says what the path resolved to; the honest neighbours are allowed.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::super::{PlanePath, Verdict};
use super::{Fixture, denied, fixture, reason};

/// The shared fixture with a control plane as the hook builds it: the seal store moved from the loop's records
/// into the plane, Claude Code's user settings and plugin cache under `$HOME`, a binary, and links from the
/// project into all of them.
fn plane_fixture() -> (Fixture, PathBuf) {
    let mut fx = fixture();
    let home = fx.home.clone();
    let bin = home.join("bin/loopgate");
    for dir in [
        ".claude/plugins/cache/loopgate/hooks",
        ".claude/projects/-proj/memory",
        "bin",
    ] {
        fs::create_dir_all(home.join(dir)).expect("mkdir");
    }
    fs::create_dir_all(fx.store.join("prompts")).expect("mkdir prompts");
    for file in [
        ".claude/settings.json",
        ".claude/plugins/cache/loopgate/hooks/hooks.json",
    ] {
        fs::write(home.join(file), "{}").expect("write");
    }
    fs::write(&bin, "#!/bin/sh\n").expect("write binary");
    fs::write(fx.store.join("prompts/abc.json"), "{}").expect("write ticket");
    fx.protected.dirs.retain(|d| *d != fx.store);
    let plane = |path: PathBuf, dir| PlanePath {
        path,
        dir,
        what: "a test's control plane",
    };
    fx.protected.plane = vec![
        plane(fx.store.clone(), true),
        plane(home.join(".claude/settings.json"), false),
        plane(home.join(".claude/settings.local.json"), false),
        plane(home.join(".claude/plugins"), true),
        plane(bin, false),
    ];
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        let root = &fx.root;
        symlink(home.join(".claude/settings.json"), root.join("cfg.json")).expect("symlink file");
        symlink(home.join(".claude/plugins"), root.join("plug")).expect("symlink dir");
        symlink(home.join(".claude/settings.local.json"), root.join("later.json")).expect("dangling");
        symlink(home.join(".claude/settings.json"), root.join("b.json")).expect("chain end");
        symlink("b.json", root.join("a.json")).expect("chain start");
        fs::hard_link(fx.store.join("prompts/abc.json"), root.join("x.json")).expect("hard link ticket");
        fs::hard_link(home.join("bin/loopgate"), root.join("lg")).expect("hard link binary");
        symlink("src/lib.rs", root.join("lib-link.rs")).expect("inner symlink");
        fs::write(root.join("h1.txt"), "x").expect("write");
        fs::hard_link(root.join("h1.txt"), root.join("h2.txt")).expect("inner hard link");
    }
    (fx, home)
}

const FILE_TOOLS: [(&str, &str); 4] = [
    ("Write", "file_path"),
    ("Edit", "file_path"),
    ("MultiEdit", "file_path"),
    ("NotebookEdit", "notebook_path"),
];

fn file_tool(fx: &Fixture, tool: &str, key: &str, path: &str, cwd: &Path) -> Verdict {
    let path = path.replace("{home}", &fx.home.to_string_lossy());
    fx.check_in(tool, &json!({ key: fx.fill(&path), "content": "x" }), cwd)
}

#[test]
fn every_form_of_a_control_plane_path_is_denied_to_the_file_tools() {
    let (fx, _) = plane_fixture();
    let mut forms = vec![
        ("{home}/.claude/settings.json", "absolute"),
        ("~/.claude/settings.json", "from ~"),
        ("../home/.claude/settings.local.json", "relative"),
        ("{root}/src/../../home/.claude/plugins/x.json", "with .."),
        ("{home}/.claude/plugins/", "a trailing slash"),
        ("{home}/.claude/settings.json/", "a file with a trailing slash"),
        (
            "{home}/.claude/plugins/cache/new/hooks.json",
            "new file in a protected dir",
        ),
        ("{store}/prompts/forged.json", "a forged ticket"),
        ("{home}/bin/loopgate", "the binary"),
    ];
    if cfg!(unix) {
        forms.extend([
            ("{root}/cfg.json", "symlink to a file"),
            ("{root}/plug/cache/loopgate/hooks/hooks.json", "symlinked dir"),
            ("{root}/plug/new.json", "new file through a symlinked dir"),
            ("{root}/later.json", "dangling symlink"),
            ("{root}/a.json", "symlink chain"),
            ("{root}/x.json", "hard link into the store"),
            ("{root}/lg", "hard link to the binary"),
        ]);
    }
    let mut missed = Vec::new();
    for (path, form) in forms {
        for (tool, key) in FILE_TOOLS {
            if !denied(&file_tool(&fx, tool, key, path, &fx.root)) {
                missed.push(format!("{tool} {path} ({form})"));
            }
        }
    }
    assert!(missed.is_empty(), "allowed, should be denied: {missed:#?}");
}

#[test]
fn honest_neighbours_of_the_control_plane_are_allowed() {
    let (fx, _) = plane_fixture();
    // `~/.claude/projects/` is allowed: Claude Code's own auto-memory is written there with the Write tool,
    // and the transcripts beside it are only a fallback for reading the agent's last message.
    let mut honest = vec![
        "{root}/settings.json",
        "{root}/plugins/x.json",
        "{root}/bin/loopgate",
        "{root}/.claude/commands/review.md",
        "{home}/.claude/projects/-proj/memory/MEMORY.md",
        "{home}/.claude/settings.json.bak",
        "{home}/notes.txt",
    ];
    if cfg!(unix) {
        honest.extend(["{root}/lib-link.rs", "{root}/h2.txt"]);
    }
    for path in honest {
        for (tool, key) in FILE_TOOLS {
            assert_eq!(
                file_tool(&fx, tool, key, path, &fx.root),
                Verdict::Allow,
                "{tool} {path}"
            );
        }
    }
}

#[test]
fn bash_writes_into_the_control_plane_are_denied_and_reads_are_not() {
    let (fx, _) = plane_fixture();
    for attack in [
        "ln {store}/prompts/abc.json y.json",
        "cp /tmp/s.json ~/.claude/settings.json",
        "echo '{}' > ~/.claude/settings.local.json",
        "mv hooks.json ~/.claude/plugins/cache/loopgate/hooks/",
        "cp /tmp/evil $HOME/bin/loopgate",
        "echo {} > cfg.json",
        "echo {} > x.json",
        "rm -rf ~/.claude",
        "echo x > \"$DIR/.claude/settings.json\"",
        "rsync -a evil/ ~/.claude/",
        "cp -r evil/. ~/.claude",
        "cp -r dotclaude/.claude ~/",
        "mv settings.json ~/.claude/",
        "cp x.json ~/.claude/plugins/",
    ] {
        assert!(denied(&fx.bash(attack)), "{attack} was allowed");
    }
    for benign in [
        "cat ~/.claude/settings.json",
        "cp ~/.claude/settings.json /tmp/settings-copy.json",
        "ls ~/.claude/plugins",
        "echo '{}' > settings.json",
        "mkdir -p plugins && echo x > plugins/a.json",
        "cp a.json \"$OUT/settings.json\"",
        "echo x > ~/.claude/projects/-proj/memory/MEMORY.md",
        "echo x > h2.txt",
        "python -c \"open('settings.json','w').write('{}')\"",
        "cp build/out.txt ~/",
        "cp build/out.txt ~/out.txt",
        "touch ~/notes.txt",
        "rm -rf ~/.cache/pip",
        "mkdir -p ~/.claude/projects/-proj/memory",
        "cd ~ && ls",
        "cp -r dist ~/.local/share/myapp",
    ] {
        assert_eq!(fx.bash(benign), Verdict::Allow, "{benign}");
    }
}

#[cfg(unix)]
#[test]
fn a_denial_through_a_link_says_what_the_path_resolved_to_and_why() {
    let (fx, _) = plane_fixture();
    let through_symlink = reason(file_tool(&fx, "Write", "file_path", "{root}/cfg.json", &fx.root));
    assert!(
        through_symlink.contains("`cfg.json` resolves through a symbolic link to `~/.claude/settings.json`")
            && through_symlink.contains("a test's control plane")
            && through_symlink.contains("only the user changes"),
        "{through_symlink}"
    );
    let chain = reason(file_tool(&fx, "Edit", "file_path", "{root}/a.json", &fx.root));
    assert!(chain.contains("to `~/.claude/settings.json`"), "{chain}");
    let hard = reason(file_tool(&fx, "Write", "file_path", "{root}/x.json", &fx.root));
    assert!(
        hard.contains("`x.json` is a hard link to `~/.local/state/loopgate/prompts/abc.json`"),
        "{hard}"
    );
    let plain = reason(file_tool(
        &fx,
        "Write",
        "file_path",
        "{home}/.claude/settings.json",
        &fx.root,
    ));
    assert!(
        plain.starts_with("loopgate: writing `~/.claude/settings.json` is refused") && !plain.contains("link"),
        "{plain}"
    );
}

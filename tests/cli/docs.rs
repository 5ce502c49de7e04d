//! The documentation stays true: every relative link in the README, `docs/` and the other top-level guides
//! points at a file that exists (and, with `#anchor`, at a heading in it, by GitHub's rules for heading ids),
//! every `loopgate COMMAND` the README shows is a command the binary has, and every flag in its flags table is
//! one `loopgate setup` takes. A section moved or renamed, or a command renamed, fails here rather than in a
//! newcomer's terminal (issue 33, item 3).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::LOOPGATE;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown files a user or contributor reads: the top-level guides and everything in `docs/`.
fn guides() -> Vec<PathBuf> {
    let root = repo();
    let mut files: Vec<PathBuf> = [
        "README.md",
        "CONTRIBUTING.md",
        "RELEASING.md",
        "BENCHMARKS.md",
        "ARCHITECTURE.md",
    ]
    .iter()
    .map(|name| root.join(name))
    .collect();
    let mut docs: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .expect("read docs/")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// The lines outside fenced code blocks (links and headings inside them are examples, not links).
fn prose(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .filter(|line| {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

/// GitHub's id for a heading: lower case, punctuation other than `-` and `_` dropped, spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The ids a link can name in `file`: each heading's, and each explicit `<a id="…">` (an anchor on a list item).
fn anchors(file: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(file).unwrap_or_default();
    let lines = prose(&text);
    let headings = lines
        .iter()
        .filter_map(|line| {
            let hashes = line.chars().take_while(|c| *c == '#').count();
            (1..=6)
                .contains(&hashes)
                .then(|| line[hashes..].strip_prefix(' '))
                .flatten()
        })
        .map(anchor);
    let explicit = lines.iter().flat_map(|line| {
        line.match_indices("<a id=\"")
            .filter_map(|(at, open)| line[at + open.len()..].split_once('"').map(|(id, _)| id.to_string()))
    });
    headings.chain(explicit).collect()
}

/// Every `](target)` of a line (inline links; the guides use no reference-style links).
fn link_targets(line: &str) -> Vec<&str> {
    line.match_indices("](")
        .filter_map(|(at, _)| {
            let rest = &line[at + 2..];
            rest.find(')').map(|end| &rest[..end])
        })
        .collect()
}

#[test]
fn every_relative_link_in_the_guides_resolves() {
    let mut broken = Vec::new();
    for file in guides() {
        let text = fs::read_to_string(&file).expect("read a guide");
        let dir = file.parent().expect("a guide has a directory");
        for line in prose(&text) {
            for target in link_targets(line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (path, fragment) = target.split_once('#').unwrap_or((target, ""));
                let linked = if path.is_empty() { file.clone() } else { dir.join(path) };
                if !linked.exists() {
                    broken.push(format!("{}: `{target}`: no such file", file.display()));
                } else if !fragment.is_empty() && !anchors(&linked).contains(fragment) {
                    broken.push(format!("{}: `{target}`: no heading with that id", file.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The subcommands the binary has, from its own help.
fn commands() -> BTreeSet<String> {
    let out = Command::new(LOOPGATE)
        .arg("--help")
        .output()
        .expect("run loopgate --help");
    let help = String::from_utf8_lossy(&out.stdout);
    help.lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn every_loopgate_command_the_readme_shows_exists() {
    let readme = fs::read_to_string(repo().join("README.md")).expect("read README.md");
    let known = commands();
    assert!(
        known.contains("status") && known.contains("setup"),
        "help lists no commands: {known:?}"
    );
    // A command is shown as code: inside backticks (`` `loopgate status` ``) or at the start of a line of a
    // fenced block; prose such as "loopgate decides" is not a command line.
    let mut shown = BTreeSet::new();
    let mut fenced = false;
    for line in readme.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let starts: Vec<usize> = if fenced {
            line.trim_start()
                .starts_with("loopgate ")
                .then_some(line.len() - line.trim_start().len())
                .into_iter()
                .collect()
        } else {
            line.match_indices("`loopgate ").map(|(at, _)| at + 1).collect()
        };
        for at in starts {
            let word: String = line[at + "loopgate ".len()..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                .collect();
            if !word.is_empty() && !word.starts_with('-') {
                shown.insert(word);
            }
        }
    }
    assert!(
        shown.len() >= 10,
        "the README shows too few commands to check: {shown:?}"
    );
    let unknown: Vec<&String> = shown.iter().filter(|word| !known.contains(*word)).collect();
    assert!(
        unknown.is_empty(),
        "the README shows commands the binary lacks: {unknown:?}"
    );
}

#[test]
fn every_flag_in_the_readme_flags_table_is_a_setup_flag() {
    let readme = fs::read_to_string(repo().join("README.md")).expect("read README.md");
    let table: Vec<&str> = readme
        .lines()
        .skip_while(|line| !line.starts_with("## Flags"))
        .skip(1)
        .take_while(|line| !line.starts_with("## "))
        .filter(|line| line.starts_with("| `--"))
        .collect();
    assert!(table.len() >= 10, "no flags table found under `## Flags` in README.md");
    let out = Command::new(LOOPGATE)
        .args(["setup", "--help"])
        .output()
        .expect("run loopgate setup --help");
    let help = String::from_utf8_lossy(&out.stdout);
    for row in table {
        let cell = row.split('|').nth(1).unwrap_or_default();
        for flag in cell.split('`').filter(|part| part.starts_with("--")) {
            let name = flag.split_whitespace().next().unwrap_or(flag);
            assert!(
                help.contains(&format!("{name} "))
                    || help.contains(&format!("{name}\n"))
                    || help.contains(&format!("{name}=")),
                "README's flags table names `{name}`, which `loopgate setup --help` does not list"
            );
        }
    }
}

/// Reported (issue 42, item 6): the README's install command is `cargo install`, and the README said only
/// `~/.cargo/bin`, where the binary is not when `CARGO_HOME` is set. The prose right after the install command
/// names both places.
#[test]
fn the_readme_says_where_cargo_install_puts_the_binary() {
    let readme = fs::read_to_string(repo().join("README.md")).expect("read README.md");
    let after: String = readme
        .lines()
        .skip_while(|line| !line.starts_with("cargo install"))
        .skip_while(|line| !line.starts_with("```"))
        .skip(1)
        .take_while(|line| !line.starts_with("```") && !line.starts_with('#'))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        !after.is_empty(),
        "no `cargo install` command in a code block of README.md"
    );
    for place in ["`$CARGO_HOME/bin`", "`~/.cargo/bin`"] {
        assert!(
            after.contains(place),
            "README.md should say, after its `cargo install` command, that the binary goes to {place}:\n{after}"
        );
    }
}

/// Reported (issue 42, item 6): a `gemini.log` (a hand-run command's output) was committed at the repository's
/// root. Nothing tracked is a log, and `.gitignore` keeps one written at the root out of the next `git add -A`.
#[test]
fn the_repository_tracks_no_log_files() {
    let git = |args: &[&str]| {
        Command::new("git")
            .current_dir(repo())
            .args(args)
            .output()
            .expect("run git (the test reads the repository's own index)")
    };
    let listed = git(&["ls-files", "-z"]);
    assert!(
        listed.status.success(),
        "git ls-files failed: {}",
        String::from_utf8_lossy(&listed.stderr)
    );
    let logs: Vec<String> = String::from_utf8_lossy(&listed.stdout)
        .split('\0')
        .filter(|path| path.ends_with(".log"))
        .map(str::to_string)
        .collect();
    assert!(
        logs.is_empty(),
        "log files are tracked (remove them with `git rm --cached`): {logs:?}"
    );
    let ignored = git(&["check-ignore", "--quiet", "--no-index", "gemini.log"]);
    assert!(
        ignored.status.success(),
        "`.gitignore` does not ignore a log at the repository's root"
    );
}

//! A test selection that moved only by new tests: one rule for every runner whose configuration lists where its
//! tests are. Fed today by PHPUnit's `<testsuite>` entries (`ecosystem/php/configuration.rs`), mocha's `spec`
//! (`closure::parts::SELECTS`) and pytest's `testpaths` × `python_files` (`ecosystem/python/rootdir.rs`: one entry
//! per directory pytest collects from and pattern it collects by, the doctest glob among them), and Jest's and
//! Vitest's selections as the runners resolve them (`ecosystem/js/config/selection.rs`: `roots` × `testMatch` less
//! `testPathIgnorePatterns` and `testRegex`, Vitest's `include` less `exclude` under its `dir`), which no list of
//! globs spells: they are rebuilt from their entries and walked with [`inert_by`], their extglobs matched as
//! picomatch matches them ([`glob`]).
//!
//! Why it is free: an entry added to a test selection makes the runner load the files it matches, before any
//! test runs — a file that is no test (`src/patch.js`, `<file>src/patch.php</file>`, a doctest `test_setup.txt`)
//! runs there as set-up. But the agent's new test files sit out the oracle's run (`testswap`), so an entry whose
//! files are all new tests selects nothing in the run; and a sealed file that holds tests runs as sealed. So a
//! widening is inert exactly where every file the new entries add to what the sealed entries already select is one
//! of those. A sealed *helper* that holds no test is not: the baseline may never have loaded it on its own (a
//! compatibility shim no test imports, which patches the code when it is), so its joining counts. The rule asks
//! the files, not the spelling: `tests-integration/**/*Test.php` is free while it holds new tests only, and the
//! same entry counts the moment a helper that is no test sits beside them.
//!
//! The same holds the other way: an entry removed drops the files only it selected, and that is inert exactly where
//! each is a new test (which sat out anyway) — pytest's documented `python_files = test_*.py check_*.py` drops the
//! `*_test.py` default, which is free while no `*_test.py` stands, and counts the moment it drops a sealed test.
//!
//! The interface, for a reader of a runner's configuration: cut the selection into one part per entry, each
//! labelled by [`label`] (a group, such as a test suite's name, and a glob relative to the configuration's
//! directory, or to the project's root for a resolved configuration, which no one file holds). A part so
//! labelled is judged here ([`inert`]) rather than by its digest alone: every other part of the file is compared
//! as usual. An entry the glob cannot spell exactly (PHPUnit's `phpVersion` filter, a path outside the project,
//! a glob in `testpaths`) is an ordinary part, and counts.

use std::collections::BTreeSet;
use std::path::Path;

use super::parts::Parts;

pub(crate) mod glob;

/// What separates a selection entry's group from its glob in a part's label.
const SELECTS: &str = " selects ";

/// The most files a widening's walk reads: beyond it, the widening counts.
const MAX_WALK: usize = 200_000;

/// The label of a part that is one entry of a test selection: `testsuite unit selects tests/**/*Test.php`.
pub(crate) fn label(group: &str, glob: &str) -> String {
    format!("{group}{SELECTS}{glob}")
}

/// The group and the entry of a selection entry's label (`testMatch selects **/*.test.js` → `testMatch`,
/// `**/*.test.js`), for a reader that put a key with no spaces before the entry.
pub(crate) fn entry_of(label: &str) -> Option<(&str, &str)> {
    label.split_once(SELECTS)
}

/// Whether a part's label is a selection entry's ([`label`]).
pub(crate) fn is_entry(label: &str) -> bool {
    glob_of(label).is_some()
}

/// The glob of a selection entry's label, if the label is one (after any prefix a search order gives it).
fn glob_of(label: &str) -> Option<&str> {
    label.rsplit_once(SELECTS).map(|(_, glob)| glob)
}

/// The labels of the selection entries that differ between `sealed` and `now`, where the selection only moved by
/// files that cannot change the run: each file the added entries add to what the others select is one `may_join`
/// accepts (a new test file that sits out the run, or a sealed test file), and each file the removed entries
/// select that no other still does is one `may_leave` accepts (a new test file, which sits out anyway) — so a
/// `python_files` rewritten from pytest's defaults to `test_*.py check_*.py` drops nothing while no `*_test.py`
/// stands, and a narrowing that drops a sealed test counts. Empty where no entry moved. `None` where the selection
/// moved otherwise, or a walk cannot be made exactly (a link on the way, too many files).
///
/// `dir` is the configuration's directory, relative to `root`; the files are judged relative to `root`.
pub(crate) fn inert(
    root: &Path,
    dir: &Path,
    sealed: &Parts,
    now: &Parts,
    may_join: &dyn Fn(&str) -> bool,
    may_leave: &dyn Fn(&str) -> bool,
) -> Option<Vec<String>> {
    let entries =
        |parts: &Parts| -> BTreeSet<String> { parts.keys().filter(|l| glob_of(l).is_some()).cloned().collect() };
    let (before, after) = (entries(sealed), entries(now));
    let added: Vec<String> = after.difference(&before).cloned().collect();
    let removed: Vec<String> = before.difference(&after).cloned().collect();
    if added.is_empty() && removed.is_empty() {
        return Some(Vec::new());
    }
    let globs = |labels: &mut dyn Iterator<Item = &String>| -> Option<Vec<globset::GlobMatcher>> {
        labels
            .filter_map(|l| glob_of(l))
            .map(|glob| {
                globset::GlobBuilder::new(glob)
                    .literal_separator(true)
                    .build()
                    .ok()
                    .map(|g| g.compile_matcher())
            })
            .collect()
    };
    let old = globs(&mut before.iter())?;
    let new = globs(&mut after.iter())?;
    let heads: Vec<&str> = added
        .iter()
        .chain(&removed)
        .filter_map(|l| glob_of(l))
        .map(head)
        .collect();
    for file in walk(&root.join(dir), &heads, &[".git"])? {
        let (was, is) = (
            old.iter().any(|g| g.is_match(&file)),
            new.iter().any(|g| g.is_match(&file)),
        );
        if was == is {
            continue;
        }
        let relative = dir.join(&file).to_string_lossy().replace('\\', "/");
        let relative = relative.trim_start_matches("./");
        if (is && !may_join(relative)) || (was && !may_leave(relative)) {
            return None;
        }
    }
    Some(added.into_iter().chain(removed).collect())
}

/// Whether a selection that no list of globs spells — one a runner resolves from several keys at once (Jest's
/// `roots` × `testMatch` less `testPathIgnorePatterns`, Vitest's `include` less `exclude` under its `dir`,
/// `ecosystem/js/config/selection.rs`) — moved only by files that cannot change the run: `was` and `is` say
/// whether the sealed and the current selection take a file (relative to `dir`, itself relative to `root`),
/// and each file they disagree on is one `may_join` accepts joining or `may_leave` accepts leaving, as in
/// [`inert`]. The walk covers `dir` whole but the directories named in `skip` (those the runner never lists:
/// `node_modules`); a link met on the way, or a walk too long, is `false`: the selection counts.
pub(crate) fn inert_by(
    root: &Path,
    dir: &Path,
    skip: &[&str],
    was: &dyn Fn(&str) -> bool,
    is: &dyn Fn(&str) -> bool,
    members: &Members<'_>,
) -> bool {
    let Some(files) = walk(&root.join(dir), &[""], skip) else {
        return false;
    };
    files.iter().all(|file| {
        let (was, is) = (was(file), is(file));
        if was == is {
            return true;
        }
        let relative = dir.join(file).to_string_lossy().replace('\\', "/");
        let relative = relative.trim_start_matches("./");
        if is {
            (members.may_join)(relative)
        } else {
            (members.may_leave)(relative)
        }
    })
}

/// Every file under `dir` (relative to `root`) a runner that never lists the directories named in `skip` can take,
/// relative to `dir`, for a reader that asks more of each file than [`inert_by`] does (which settings each selection
/// that takes it runs it under: `ecosystem/js/config/runs.rs`); `None` at a link or past the walk's cap, as there.
pub(crate) fn files(root: &Path, dir: &Path, skip: &[&str]) -> Option<Vec<String>> {
    walk(&root.join(dir), &[""], skip)
}

/// Which files may join or leave a test selection without changing the oracle's run (see [`inert`]): the
/// agent's new test files, which sit out the run, and — joining — sealed files that hold tests.
pub(crate) struct Members<'a> {
    pub(crate) may_join: &'a dyn Fn(&str) -> bool,
    pub(crate) may_leave: &'a dyn Fn(&str) -> bool,
}

/// What every path `glob` matches starts with: the glob up to its first pattern character, or for a glob that
/// is one list of alternatives (`{test-e2e,test-e2e.js,test-e2e/**/*.js}`), what they all start with.
fn head(glob: &str) -> &str {
    let literal = |g: &str| g.find(['*', '?', '[', '{']).map_or(g.len(), |at| at);
    if let Some(inner) = glob.strip_prefix('{').and_then(|g| g.strip_suffix('}'))
        && !inner.contains(['{', '}'])
    {
        let mut alternatives = inner.split(',');
        let first = alternatives.next().unwrap_or("");
        let mut len = literal(first);
        for other in alternatives {
            len = len.min(literal(other));
            len = first
                .bytes()
                .zip(other.bytes())
                .take(len)
                .take_while(|(a, b)| a == b)
                .count();
        }
        // The head is a prefix of `glob` itself: skip the opening brace.
        return &glob[1..1 + len];
    }
    &glob[..literal(glob)]
}

/// Whether a path below `relative` (a directory, project-relative to the configuration) can start with `head`.
fn reaches(relative: &str, head: &str) -> bool {
    let dir = format!("{relative}/");
    dir.starts_with(head) || head.starts_with(&dir)
}

/// Every file under `base` in a directory a glob of `heads` can reach, but for directories named in `skip`,
/// relative to `base`; `None` at a link a glob can reach (the runner would follow it anywhere, so the walk
/// cannot say what it selects) or past [`MAX_WALK`] entries.
fn walk(base: &Path, heads: &[&str], skip: &[&str]) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut walked = 0;
    let mut stack = vec![(base.to_path_buf(), String::new())];
    while let Some((dir, shown)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let entry = entry.ok()?;
            walked += 1;
            if walked > MAX_WALK {
                return None;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = if shown.is_empty() {
                name.clone()
            } else {
                format!("{shown}/{name}")
            };
            let kind = entry.file_type().ok()?;
            let reached = heads.iter().any(|head| reaches(&path, head) || path.starts_with(head));
            if kind.is_symlink() {
                if reached {
                    return None;
                }
            } else if kind.is_dir() {
                if !skip.contains(&name.as_str()) && heads.iter().any(|head| reaches(&path, head)) {
                    stack.push((entry.path(), path));
                }
            } else {
                out.push(path);
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(labels: &[&str]) -> Parts {
        labels.iter().map(|l| ((*l).to_string(), "d".to_string())).collect()
    }

    fn write(root: &Path, path: &str) {
        let file = root.join(path);
        std::fs::create_dir_all(file.parent().expect("a parent")).expect("mkdir");
        std::fs::write(file, "x").expect("write");
    }

    #[test]
    fn an_entry_of_new_tests_only_is_inert_and_one_reaching_code_is_not() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for path in [
            "tests/CalcTest.php",
            "src/Calc.php",
            "it/RoundTripTest.php",
            "it/Helper.php",
        ] {
            write(root, path);
        }
        let new_tests = |p: &str| p == "it/RoundTripTest.php";
        let sealed = parts(&[&label("testsuite unit", "tests/**/*Test.php")]);
        let widened = parts(&[
            &label("testsuite unit", "tests/**/*Test.php"),
            &label("testsuite it", "it/**/*Test.php"),
        ]);
        assert_eq!(
            inert(root, Path::new(""), &sealed, &widened, &new_tests, &new_tests),
            Some(vec![label("testsuite it", "it/**/*Test.php")])
        );
        // The same directory by every PHP file: a helper that is no test is loaded before the tests.
        let every = parts(&[
            &label("testsuite unit", "tests/**/*Test.php"),
            &label("testsuite it", "it/**/*.php"),
        ]);
        assert_eq!(
            inert(root, Path::new(""), &sealed, &every, &new_tests, &new_tests),
            None
        );
        let code = parts(&[
            &label("testsuite unit", "tests/**/*Test.php"),
            &label("testsuite unit", "src/Calc.php"),
        ]);
        assert_eq!(inert(root, Path::new(""), &sealed, &code, &new_tests, &new_tests), None);
        // An entry removed narrows the run: free while it drops only new tests, which sit out anyway.
        assert_eq!(
            inert(root, Path::new(""), &widened, &sealed, &new_tests, &new_tests),
            Some(vec![label("testsuite it", "it/**/*Test.php")])
        );
        // One that drops a sealed test counts.
        let unit = parts(&[&label("testsuite unit", "tests/**/*Test.php")]);
        let none = parts(&[]);
        assert_eq!(inert(root, Path::new(""), &unit, &none, &new_tests, &new_tests), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_on_the_way_makes_the_widening_count() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        write(root, "src/Calc.php");
        std::os::unix::fs::symlink(root.join("src"), root.join("it")).expect("symlink");
        let sealed = parts(&[]);
        let linked = parts(&[&label("spec", "it/**/*.php")]);
        assert_eq!(inert(root, Path::new(""), &sealed, &linked, &|_| true, &|_| true), None);
    }
}

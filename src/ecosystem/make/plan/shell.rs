//! How make runs each recipe line — `SHELL` and `.SHELLFLAGS` — judged by value (issue 39). A makefile that runs
//! its recipes in bash with `-eu -o pipefail` only makes a recipe line fail sooner (at its first failing command,
//! on an unset variable, at a failing stage of a pipe); it cannot make one pass that failed. So the part "how make
//! runs every recipe" moves only where what changed is not that: a shell that is not a system shell (`/bin` or
//! `/usr/bin`'s `sh`, `bash`, `dash`: a shell in the tree is the agent's code, and decides every recipe's
//! status), a flag that is not one of those (`+e`, a word that is a command, `-c true` swallowing the recipe
//! into `$0`), a flag the baseline had that is now dropped, or anything else the part holds (`MAKEFLAGS`, the
//! special targets). Printing the lines (`-x`, `-v`) is free either way.

/// The flags that only make a shell fail sooner, by their long names.
const FAIL_SOONER: &[(char, &str)] = &[('e', "errexit"), ('u', "nounset")];
/// Flags that only print (the command traced, the line echoed).
const PRINTS: &[(char, &str)] = &[('x', "xtrace"), ('v', "verbose")];
/// `-o` names that only make a pipe fail sooner.
const PIPE: &str = "pipefail";
/// The shells a recipe may be run in freely, by file name, in the system's directories.
const SYSTEM_SHELLS: &[&str] = &["sh", "bash", "dash"];
const SYSTEM_DIRS: &[&str] = &["/bin/", "/usr/bin/"];

/// Whether `is` (the part "how make runs every recipe" now) runs every recipe as `was` (the baseline's) did or
/// only fails sooner (see the module doc).
pub(super) fn fails_no_less(was: &str, is: &str) -> bool {
    let (Some((was_shell, was_flags, was_rest)), Some((is_shell, is_flags, is_rest))) = (split(was), split(is)) else {
        return false;
    };
    if was_rest != is_rest {
        return false;
    }
    if was_shell != is_shell && !system_shell(is_shell) {
        return false;
    }
    if was_flags == is_flags {
        return true;
    }
    match (fail_sooner(was_flags), fail_sooner(is_flags)) {
        (Some(before), Some(now)) => before.is_subset(&now),
        _ => false,
    }
}

/// The part's `SHELL` and `.SHELLFLAGS` values, and its other lines.
fn split(how: &str) -> Option<(&str, &str, Vec<&str>)> {
    let (mut shell, mut flags) = (None, None);
    let mut rest = Vec::new();
    for line in how.lines() {
        if let Some(value) = line.strip_prefix("SHELL = ") {
            shell = Some(value.trim());
        } else if let Some(value) = line.strip_prefix(".SHELLFLAGS = ") {
            flags = Some(value.trim());
        } else {
            rest.push(line);
        }
    }
    Some((shell?, flags?, rest))
}

/// Whether `shell` is a system shell: `sh`, `bash` or `dash` in `/bin` or `/usr/bin`, nothing expanded.
fn system_shell(shell: &str) -> bool {
    SYSTEM_DIRS.iter().any(|dir| {
        shell
            .strip_prefix(dir)
            .is_some_and(|name| SYSTEM_SHELLS.contains(&name))
    })
}

/// The options of `flags` (a `.SHELLFLAGS` value) that make a line fail sooner, where every word is such an
/// option or one that only prints, and `c` (the recipe line to run) comes last; `None` otherwise.
fn fail_sooner(flags: &str) -> Option<std::collections::BTreeSet<&'static str>> {
    let mut set = std::collections::BTreeSet::new();
    let words: Vec<&str> = flags.split_whitespace().collect();
    let mut at = 0;
    let mut command = false;
    while at < words.len() {
        let letters = words[at].strip_prefix('-').filter(|l| !l.is_empty() && !command)?;
        let mut named = Vec::new();
        for (i, letter) in letters.char_indices() {
            match letter {
                'c' if i + 1 == letters.len() && at + 1 == words.len() => command = true,
                'o' => {
                    at += 1;
                    named.push(*words.get(at)?);
                }
                _ => {
                    let (_, long) = FAIL_SOONER.iter().chain(PRINTS).find(|(short, _)| *short == letter)?;
                    named.push(long);
                }
            }
        }
        for name in named {
            if name == PIPE {
                set.insert(PIPE);
            } else if let Some((_, long)) = FAIL_SOONER.iter().find(|(_, long)| *long == name) {
                set.insert(*long);
            } else if !PRINTS.iter().any(|(_, long)| *long == name) {
                return None;
            }
        }
        at += 1;
    }
    command.then_some(set)
}

#[cfg(test)]
mod tests {
    use super::fails_no_less;

    fn how(shell: &str, flags: &str) -> String {
        format!("SHELL = {shell}\n.SHELLFLAGS = {flags}\nMAKEFLAGS = \n")
    }

    /// bash with flags that only fail sooner is free; a shell in the tree, a flag that swallows a failure or runs
    /// a command of its own, a dropped flag and any other change count.
    #[test]
    fn a_shell_is_judged_by_whether_it_only_fails_sooner() {
        let plain = how("/bin/sh", "-c");
        for stricter in [
            how("/bin/bash", "-eu -o pipefail -c"),
            how("/usr/bin/bash", "-euo pipefail -c"),
            how("/bin/sh", "-ec"),
            how("/bin/bash", "-x -e -c"),
            how("/bin/dash", "-c"),
        ] {
            assert!(fails_no_less(&plain, &stricter), "{stricter}");
        }
        for looser in [
            how("./sh-ok", "-c"),
            how("/tmp/sh", "-c"),
            how("/bin/bash", "+e -c"),
            how("/bin/sh", "-c true"),
            how("/bin/sh", "-c -e"),
            how("/bin/bash", "-o posix -c"),
            how("/bin/bash", "-e"),
            how("/bin/bash", "-c 'x || true'"),
            how("$(SH)", "-c"),
            format!("{}.ONESHELL:\n", how("/bin/bash", "-ec")),
        ] {
            assert!(!fails_no_less(&plain, &looser), "{looser}");
        }
        let strict = how("/bin/bash", "-eu -o pipefail -c");
        assert!(!fails_no_less(&strict, &how("/bin/bash", "-eu -c")), "pipefail dropped");
        assert!(!fails_no_less(&strict, &plain), "every flag dropped");
        assert!(fails_no_less(
            &strict,
            &how("/bin/bash", "-o pipefail -o nounset -o errexit -c")
        ));
    }
}

//! The flags of `MAKEFLAGS` that change nothing make runs or how a recipe ends, so that a makefile setting
//! them (`MAKEFLAGS += --no-print-directory`, `-j4`, `-rR`: everyday lines) moves nothing in the plan, while any
//! other flag (`-i`, `-k`, `-n`, `-t`, `-e`, `-B`, an abbreviation make would expand) still does:
//! - what make prints: `-s` / `--silent` / `--quiet` (recipes not echoed), `-w` / `--print-directory` and
//!   `--no-print-directory` (the "Entering directory" lines), `-O` / `--output-sync` (each target's output
//!   grouped), `--warn-undefined-variables`, `--trace`, `-d` / `--debug` (make's own reasoning);
//! - how many recipes run at once: `-j` / `--jobs` with or without a count (make still runs a target's
//!   prerequisites before it, so a parallel run runs the same lines);
//! - built-in rules and variables left out: `-r` / `--no-builtin-rules`, `-R` / `--no-builtin-variables`. They
//!   change what make resolves only through the recipes it resolves, which the plan compares line by line
//!   (a recipe that used `$(CC)` shows the changed line; a rule that is gone fails the run).
//!
//! Two spellings are read: the flags as a makefile writes them after `MAKEFLAGS +=` (`-sw`, `--silent`, `-j 4`),
//! and `MAKEFLAGS`'s value as make's database prints it, where the one-letter flags come first as one word without
//! a dash (`nprRs --no-print-directory -Oline -j4`) and variable overrides follow a `--` word. Only the exact
//! long names are free: make also takes any unambiguous prefix (`--ign` is `--ignore-errors`), which counts.

/// One-letter flags that change nothing make runs.
const LETTERS: &[char] = &['s', 'w', 'd', 'r', 'R'];
/// Long flags that change nothing make runs (`--output-sync`, `--debug` and `--jobs` also with `=VALUE`).
const LONG: &[&str] = &[
    "--silent",
    "--quiet",
    "--print-directory",
    "--no-print-directory",
    "--output-sync",
    "--warn-undefined-variables",
    "--trace",
    "--debug",
    "--jobs",
    "--no-builtin-rules",
    "--no-builtin-variables",
];
/// The flags taking a count, with or without one (`-j`, `-j4`, `--jobs=4`, or the count as the next word).
const COUNTED: &[&str] = &["-j", "--jobs"];

/// Whether one flag, as written on a command line or after `MAKEFLAGS +=`, changes nothing make runs.
pub(super) fn inert(flag: &str) -> bool {
    if let Some(long) = flag.strip_prefix("--") {
        let (name, value) = long
            .split_once('=')
            .map_or((long, None), |(name, value)| (name, Some(value)));
        let name = format!("--{name}");
        return LONG.contains(&name.as_str()) && value.is_none_or(|v| !COUNTED.contains(&name.as_str()) || count(v));
    }
    let Some(letters) = flag.strip_prefix('-').filter(|l| !l.is_empty()) else {
        return false;
    };
    // `-O` takes the rest of the word as its kind (`-Otarget`), `-j` as its count (`-j4`); before either, only
    // free letters.
    let (before, taken) = letters.split_once(['O', 'j']).map_or((letters, None), |(head, rest)| {
        (head, Some((letters.as_bytes()[head.len()], rest)))
    });
    before.chars().all(|c| LETTERS.contains(&c))
        && taken.is_none_or(|(flag, rest)| flag == b'O' || rest.is_empty() || count(rest))
}

/// Whether `word` is a count (`4`).
fn count(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit())
}

/// Whether the words after `MAKEFLAGS +=` are all flags that change nothing make runs, a count after `-j` or
/// `--jobs` included (`-j 4`).
fn all_inert(flags: &str) -> bool {
    let mut after_counted = false;
    flags.split_whitespace().all(|word| {
        let free = (after_counted && count(word)) || inert(word);
        after_counted = COUNTED.contains(&word) || (!word.starts_with("--") && word.ends_with('j') && inert(word));
        free
    })
}

/// A makefile line that only appends such flags to `MAKEFLAGS` (`MAKEFLAGS += --no-print-directory`):
/// it reads nothing of how make was called, and what it sets is judged in make's own value of the variable.
pub(super) fn quiets_make(line: &str) -> bool {
    let Some((name, flags)) = line.split_once("+=") else {
        return false;
    };
    let name = name.trim();
    let name = name.strip_prefix("override").map_or(name, str::trim);
    matches!(name, "MAKEFLAGS" | "GNUMAKEFLAGS") && !flags.contains('$') && !flags.trim().is_empty() && all_inert(flags)
}

/// `MAKEFLAGS`'s value as make's database prints it, without the flags that change nothing make runs and the jobserver's
/// descriptors (which differ from run to run and change nothing make runs).
pub(super) fn without_inert(value: &str) -> String {
    let mut kept: Vec<String> = Vec::new();
    let mut overrides = false;
    for (at, word) in value.split(' ').filter(|w| !w.is_empty()).enumerate() {
        if overrides || word == "--" {
            overrides = true;
            kept.push(word.to_string());
        } else if at == 0 && !word.starts_with('-') {
            let letters: String = word.chars().filter(|c| !LETTERS.contains(c)).collect();
            if !letters.is_empty() {
                kept.push(letters);
            }
        } else if !word.starts_with("--jobserver") && !inert(word) {
            kept.push(word.to_string());
        }
    }
    kept.join(" ")
}

/// Programs a recipe line may start that only write their words to standard output (the shell's builtins).
const PRINTERS: &[&str] = &["echo", "printf", ":", "true"];

/// Characters that make a recipe line more than literal words outside quotes: an expansion (`$`, `` ` ``,
/// `\\`), a list, pipe, redirection or subshell, a group, a glob or a comment.
const NOT_LITERAL: &[char] = &[
    '$', '`', '\\', ';', '&', '|', '<', '>', '(', ')', '{', '}', '*', '?', '[', ']', '~', '#', '\n',
];

/// Characters a double-quoted string still expands.
const EXPANDED_IN_QUOTES: &[char] = &['$', '`', '\\', '\n'];

/// Whether a recipe line (as written, with its `@`, `-` or `+` prefixes, or as the dry run prints it) only
/// prints literal words (`@echo "==> unit tests"`): a banner beside the runner's line. make runs each line in a
/// shell of its own, so such a line changes no state of the next one; it ends with status 0, and make stops at
/// the first line that fails, so it hides no failure of another. Under `.ONESHELL` the recipe is one script whose
/// last command gives the status, and no line is free (the plan's callers check). `printf -v` assigns, and
/// stays; an unbalanced quote stays.
pub(super) fn only_prints(line: &str) -> bool {
    let line = line.trim_start_matches(['@', '-', '+', ' ', '\t']);
    let mut words = line.split_whitespace();
    words.next().is_some_and(|program| PRINTERS.contains(&program))
        && literal(line)
        && !(line.starts_with("printf") && words.any(|w| w.starts_with("-v")))
}

/// Whether `line` is literal words as `sh` reads them: nothing of [`NOT_LITERAL`] outside quotes, nothing of
/// [`EXPANDED_IN_QUOTES`] inside double quotes, every quote closed.
fn literal(line: &str) -> bool {
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match quote {
            Some('\'') if c == '\'' => quote = None,
            Some('\'') => {}
            Some(_) if c == '"' => quote = None,
            Some(_) if EXPANDED_IN_QUOTES.contains(&c) => return false,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if NOT_LITERAL.contains(&c) => return false,
            None => {}
        }
    }
    quote.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_flags_that_change_nothing_make_runs_are_left_out() {
        assert_eq!(without_inert("nps --no-print-directory -Oline"), "np");
        assert_eq!(without_inert("npsw --no-print-directory"), "np");
        assert_eq!(without_inert("npi -k --jobserver-auth=3,4"), "npi -k");
        assert_eq!(without_inert(" --no-print-directory"), "");
        assert_eq!(without_inert("ns -- PYTHON=python3 -s"), "n -- PYTHON=python3 -s");
        assert_eq!(without_inert("nprRs -j4 --jobserver-auth=3,4 --trace"), "np");
        assert_eq!(without_inert("nps -Otarget --warn-undefined-variables"), "np");
        assert_eq!(without_inert("npst -j4"), "npt");
    }

    #[test]
    fn a_line_quiets_make_only_with_flags_that_change_nothing_make_runs() {
        for quiet in [
            "MAKEFLAGS += --no-print-directory",
            "MAKEFLAGS += -s -w --output-sync=target",
            "override MAKEFLAGS += -sw",
            "MAKEFLAGS+=-Otarget",
            "MAKEFLAGS += -j4",
            "MAKEFLAGS += -j 4 --jobs=2 --jobs",
            "MAKEFLAGS += -sj 8",
            "MAKEFLAGS += -rR --no-builtin-rules --no-builtin-variables",
            "MAKEFLAGS += -s --output-sync=target --warn-undefined-variables --trace --debug=b",
        ] {
            assert!(quiets_make(quiet), "{quiet}");
        }
        for telling in [
            "MAKEFLAGS += -i",
            "MAKEFLAGS += -si",
            "MAKEFLAGS += -n --no-print-directory",
            "MAKEFLAGS := --no-print-directory",
            "MAKEFLAGS += $(EXTRA)",
            "MAKEFLAGS +=",
            "FLAGS += $(MAKEFLAGS)",
            "MAKEFLAGS += --no-print-directory --just-print",
            "MAKEFLAGS += --no-print-directory -t",
            "MAKEFLAGS += --ign",
            "MAKEFLAGS += --no-print-directory SHELL=/bin/true",
            "MAKEFLAGS += -j x",
            "MAKEFLAGS += --jobs=x",
            "MAKEFLAGS += -j4i",
            "MAKEFLAGS += -e",
        ] {
            assert!(!quiets_make(telling), "{telling}");
        }
    }

    #[test]
    fn a_recipe_line_only_prints_when_it_echoes_literal_words() {
        for prints in [
            "echo \"==> unit tests\"",
            "@echo '==> unit tests'",
            "\t@echo Running the tests",
            "-@printf '%s: %s' unit done",
            "printf 'running: %s' unit",
            ":",
            "true",
        ] {
            assert!(only_prints(prints), "{prints}");
        }
        for runs in [
            "echo $(PYTHON)",
            "echo \"$$HOME\"",
            "echo ok > tests/__init__.py",
            "echo ok; exit 0",
            "echo ok && true",
            "echo ok | tee log",
            "echo `id`",
            "printf -v X done",
            "python3 -m unittest",
            "echoes hi",
            "echo ok \\",
            "echo \"==> unit tests\" > log",
            "echo 'unclosed",
            "echo \"$(id)\"",
            "echo ok # comment",
        ] {
            assert!(!only_prints(runs), "{runs}");
        }
    }
}

//! The flags of `MAKEFLAGS` that change only what make prints — `-s` (recipes not echoed), `-w` /
//! `--print-directory` and `--no-print-directory` (the "Entering directory" lines), `-O` / `--output-sync`
//! (each target's output grouped) — so that a makefile quieting make (`MAKEFLAGS += --no-print-directory`, an
//! everyday line) moves nothing in the plan, while any other flag (`-i`, `-k`, `-n`, `-e`, `-r`, `-j`) still
//! does.
//!
//! Two spellings are read: the flags as a makefile writes them after `MAKEFLAGS +=` (`-sw`, `--silent`), and
//! `MAKEFLAGS`'s value as make's database prints it, where the one-letter flags come first as one word without a
//! dash (`nps --no-print-directory -Oline`) and variable overrides follow a `--` word.

/// One-letter flags that change only what make prints.
const LETTERS: &[char] = &['s', 'w'];
/// Long flags that change only what make prints (`--output-sync` also with `=KIND`).
const LONG: &[&str] = &[
    "--silent",
    "--quiet",
    "--print-directory",
    "--no-print-directory",
    "--output-sync",
];

/// Whether one flag, as written on a command line or after `MAKEFLAGS +=`, changes only what make prints.
pub(super) fn print_only(flag: &str) -> bool {
    if let Some(long) = flag.strip_prefix("--") {
        let name = long.split_once('=').map_or(long, |(name, _)| name);
        return LONG.contains(&format!("--{name}").as_str());
    }
    let Some(letters) = flag.strip_prefix('-').filter(|l| !l.is_empty()) else {
        return false;
    };
    // `-O` takes the rest of the word as its kind (`-Otarget`); before it, only print-only letters.
    let before_o = letters.split_once('O').map_or(letters, |(head, _)| head);
    before_o.chars().all(|c| LETTERS.contains(&c))
}

/// A makefile line that only appends print-only flags to `MAKEFLAGS` (`MAKEFLAGS += --no-print-directory`):
/// it reads nothing of how make was called, and what it sets is judged in make's own value of the variable.
pub(super) fn quiets_make(line: &str) -> bool {
    let Some((name, flags)) = line.split_once("+=") else {
        return false;
    };
    let name = name.trim();
    let name = name.strip_prefix("override").map_or(name, str::trim);
    matches!(name, "MAKEFLAGS" | "GNUMAKEFLAGS")
        && !flags.contains('$')
        && !flags.trim().is_empty()
        && flags.split_whitespace().all(print_only)
}

/// `MAKEFLAGS`'s value as make's database prints it, without the print-only flags and the jobserver's
/// descriptors (which differ from run to run and change nothing make runs).
pub(super) fn without_print_only(value: &str) -> String {
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
        } else if !word.starts_with("--jobserver") && !print_only(word) {
            kept.push(word.to_string());
        }
    }
    kept.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_flags_that_change_what_make_prints_are_left_out() {
        assert_eq!(without_print_only("nps --no-print-directory -Oline"), "np");
        assert_eq!(without_print_only("npsw --no-print-directory"), "np");
        assert_eq!(without_print_only("npi -k --jobserver-auth=3,4"), "npi -k");
        assert_eq!(without_print_only(" --no-print-directory"), "");
        assert_eq!(without_print_only("ns -- PYTHON=python3 -s"), "n -- PYTHON=python3 -s");
    }

    #[test]
    fn a_line_quiets_make_only_with_print_only_flags() {
        for quiet in [
            "MAKEFLAGS += --no-print-directory",
            "MAKEFLAGS += -s -w --output-sync=target",
            "override MAKEFLAGS += -sw",
            "MAKEFLAGS+=-Otarget",
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
        ] {
            assert!(!quiets_make(telling), "{telling}");
        }
    }
}

//! The PreToolUse rewrite of a Bash command so that it runs under `loopgate confine`.
//!
//! Claude Code runs each Bash command as `bash -c 'source SNAPSHOT && eval CMD < /dev/null && pwd -P >| CWDFILE'`
//! (2.1.197 and 2.1.330 alike) and starts the next command in the directory written to `CWDFILE`. The rewritten
//! command runs the original, quoted exactly, in a confined shell of the same kind (`"$0"`), which reports its
//! final directory on descriptor 3 (only when the original succeeded, as Claude Code's own `&& pwd -P` does).
//! The outer, unconfined shell only `cd`s to that text — it never sources or evaluates anything the confined
//! child wrote — so a `cd sub` still persists to the next command. Descriptor 3 is closed for the original's own
//! processes, so a background job (`server &`) does not hold the capture open.
//!
//! The rewrite is idempotent: a command that is exactly a rewrite for the same binary and store is left alone.

use std::path::{Path, PathBuf};

/// The command `original` becomes: it runs confined by `exe` (loopgate's binary), protecting the store `home`
/// and the `protect`ed paths (the loop's sealed files outside the project).
pub fn wrap(exe: &Path, home: &Path, protect: &[PathBuf], original: &str) -> String {
    format!("{}{}{TAIL}", head(exe, home, protect), quote(original))
}

/// Whether `command` already is `wrap(exe, home, protect, X)` for some `X`.
pub fn is_wrapped(exe: &Path, home: &Path, protect: &[PathBuf], command: &str) -> bool {
    let head = head(exe, home, protect);
    command
        .strip_prefix(&head)
        .and_then(|rest| rest.strip_suffix(TAIL))
        .and_then(unquote)
        .is_some_and(|original| wrap(exe, home, protect, &original) == command)
}

/// What follows the quoted original: the shell's output goes back to descriptor 1 while descriptor 3 carries
/// the directory into `__lg_dir`; the exit status is the original's.
const TAIL: &str = " 3>&1 1>&4 4>&-); } 4>&1; __lg_rc=$?; \
[ -n \"$__lg_dir\" ] && cd -- \"$__lg_dir\" 2>/dev/null; \
__lg_exit() { return \"$1\"; }; __lg_exit \"$__lg_rc\"";

fn head(exe: &Path, home: &Path, protect: &[PathBuf]) -> String {
    let mut head = format!(
        "{{ __lg_dir=$({} confine --loop-home {}",
        quote(&exe.to_string_lossy()),
        quote(&home.to_string_lossy())
    );
    for path in protect {
        head.push_str(" --protect ");
        head.push_str(&quote(&path.to_string_lossy()));
    }
    head.push_str(" --shell \"$0\" -c ");
    head
}

/// `text` as one single-quoted shell word: every byte kept, `'` written as `'\''`.
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The text of a word `quote` made, or `None` when `word` is not exactly such a word.
fn unquote(word: &str) -> Option<String> {
    let inner = word.strip_prefix('\'')?.strip_suffix('\'')?;
    let text = inner.replace(r"'\''", "'");
    (quote(&text) == word).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn paths() -> (PathBuf, PathBuf) {
        (
            PathBuf::from("/opt/lg bin/loopgate"),
            PathBuf::from("/home/u/.local/state/loopgate"),
        )
    }

    #[test]
    fn a_rewritten_command_is_not_wrapped_twice_and_a_smuggled_tail_is() {
        let (exe, home) = paths();
        let once = wrap(&exe, &home, &[], "cd sub && cargo build");
        assert!(is_wrapped(&exe, &home, &[], &once));
        assert!(!is_wrapped(&exe, &home, &[], "cd sub && cargo build"));
        // A command dressed as a rewrite with an unconfined part after the quoted original must be wrapped.
        let smuggled = once.replace("cargo build'", "cargo build'; touch /x; echo '");
        assert!(!is_wrapped(&exe, &home, &[], &smuggled));
        // Another store or binary: wrapped again (the domains stack; nothing is lost).
        assert!(!is_wrapped(&exe, Path::new("/elsewhere"), &[], &once));
    }

    #[test]
    fn the_original_is_quoted_exactly() {
        let (exe, home) = paths();
        let original = "cat <<'EOF' > f\nit's $(date) `x`\nEOF\nsleep 1 &";
        let wrapped = wrap(&exe, &home, &[PathBuf::from("/data/fixture's.json")], original);
        assert!(wrapped.contains(&quote(original)));
        assert!(wrapped.contains("--protect '/data/fixture'\\''s.json'"));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn any_command_round_trips_through_the_quote(original in "(?s).{0,80}") {
            let (exe, home) = paths();
            let wrapped = wrap(&exe, &home, &[], &original);
            prop_assert!(is_wrapped(&exe, &home, &[], &wrapped));
            prop_assert_eq!(unquote(&quote(&original)), Some(original.clone()));
        }

        #[test]
        fn the_shell_reads_the_quoted_word_back_exactly(original in "[^\\x00]{0,40}") {
            let out = std::process::Command::new("sh")
                .args(["-c", &format!("printf %s {}", quote(&original))])
                .output()
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(String::from_utf8_lossy(&out.stdout), original);
        }
    }
}

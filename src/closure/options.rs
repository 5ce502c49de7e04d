//! A runner's command-line options, read as the runner reads them, but for the ones that are free: the one reading
//! behind [`Scope::Options`](super::Scope::Options) (a file of options) and an options key of a configuration
//! section ([`OptionsKey`]), so a display option added to either moves nothing while anything else still does.
//!
//! The words are split as a POSIX shell splits them (quotes, backslashes), which is how the runners split such
//! text themselves (Python's `shlex.split`, Ruby's `shellsplit`); text that does not split (a quote left open) is
//! kept as it is, so any change to it counts. A word is free when the table of free options lists it (see
//! [`free_words`] for the spellings one entry stands for); every other word — a positional path, an option the
//! table does not know, the value of a sealed option — is sealed, in order, and `--` seals every word after it
//! (they are paths to the runner, whatever they look like). The table is the ecosystem's: what only changes what
//! a runner prints is decided in its folder, never here.

use serde::{Deserialize, Serialize};

/// A key of a configuration section whose value is a runner's command-line options (pytest's `addopts`), judged
/// option by option: the `free` ones cut out, the key as if absent when nothing else is left. Its runner reads
/// options as Python's `argparse` does: an option's value never starts with `-` (such a word is the next option).
/// (RSpec's parser takes the next word whatever it is, so an options file, [`sealed_text`], never assumes so.)
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionsKey {
    /// The key's path under the document (TOML), or its name alone (INI).
    pub key: Vec<String>,
    /// The free options, spelled as [`free_words`] reads them.
    pub free: Vec<String>,
}

/// The value of an entry of a free list that stands for any value (`--durations=*`): one that does not start
/// with `-` (such a word would be read as the next option) nor with `@` (an argument file, which the `java`
/// launcher and argparse's `fromfile_prefix_chars` expand into options wherever the word stands: `--add-opens
/// @more.args` reads options no line shows).
const ANY: &str = "*";
/// The value of an entry of a free list that stands for a count (`--profile=#`): digits only. Listed beside the
/// bare option (`--profile`), it marks the value as optional, as RSpec's `--profile [COUNT]` takes it: the
/// word after the bare option is its value whenever it does not start with `-`, so a count there is free with
/// it, and any other word (a path the option would swallow) seals both.
const COUNT: &str = "#";

/// The words of an options file but for the free options and their values, each line split into words. A line
/// starting with `#` is left out only when none of its words is an option: neither runner reading such a file
/// knows comments (RSpec splits every line of `.rspec` as a shell would, so `# --dry-run` dry-runs; Maven 3.8's
/// `mvn` hands every word of `.mvn/jvm.config` to `java`), so a "comment" holding an option is read like any
/// line, while one of plain words (a positional word RSpec ignores in an options file) stays a comment.
pub(crate) fn sealed_text(text: &str, free: &[String]) -> Vec<String> {
    let words_of =
        |line: &str| shell_words(line).unwrap_or_else(|| line.split_whitespace().map(str::to_string).collect());
    let words: Vec<String> = text
        .lines()
        .map(words_of)
        .filter(|words| {
            !words.first().is_some_and(|first| first.starts_with('#')) || words.iter().any(|w| w.starts_with('-'))
        })
        .flatten()
        .collect();
    sealed(&words, free, false)
}

/// `words` but for the free options and their values. A word right after a sealed option that may take a value
/// (`--require`, not `--require=x`) is that value, never free: cut out, it would leave the option to take the
/// next word instead (`--require --color spec_helper`) — unless `dash_ends_value` says the parser never takes a
/// word starting with `-` as a value, where such a word is an option of its own (`-x -v`).
pub(crate) fn sealed(words: &[String], free: &[String], dash_ends_value: bool) -> Vec<String> {
    let mut sealed: Vec<String> = Vec::new();
    let mut after_bare_option = false;
    let mut at = 0;
    while at < words.len() {
        let word = &words[at];
        if word == "--" {
            sealed.extend(words[at..].iter().cloned());
            break;
        }
        let free_here = if after_bare_option && !(dash_ends_value && word.starts_with('-')) {
            0
        } else {
            free_words(word, words.get(at + 1).map(String::as_str), free)
        };
        if free_here == 0 {
            sealed.push(word.clone());
            after_bare_option = word.starts_with('-') && !word.contains('=');
            at += 1;
        } else {
            after_bare_option = false;
            at += free_here;
        }
    }
    sealed
}

/// How many words, from `word` (and `next` after it), are one free option: 0 when `word` is sealed. An entry of
/// `free` is a word (`--color`, `-v`), or an option and its value (`--format=documentation`: also the two words
/// `--format documentation`, and `-fd` for a one-letter option), with `*` for any value (`--durations=*`) or, with
/// no `=`, for a value attached to the option (`-Xmx*`), and `#` for a count (`--profile=#`). A
/// cluster of one-letter options (`-vv`, `-vra`: `-v -v`, `-v -r a`), as option parsers read one, is free when
/// each of its letters is a free option, the last one perhaps a free option taking the rest of the word (or the
/// next word) as its value.
pub(crate) fn free_words(word: &str, next: Option<&str>, free: &[String]) -> usize {
    if attached(free, word) {
        return 1;
    }
    let optional_count = listed(free, &format!("{word}={COUNT}"));
    if let Some(value) = next.filter(|v| optional_count && !v.starts_with('-')) {
        return if takes_free_value(free, word, value) { 2 } else { 0 };
    }
    if listed(free, word) {
        return 1;
    }
    if let Some((option, value)) = word.split_once('=')
        && takes_free_value(free, option, value)
    {
        return 1;
    }
    if word.starts_with('-') && !word.contains('=') && next.is_some_and(|value| takes_free_value(free, word, value)) {
        return 2;
    }
    let Some(letters) = word
        .strip_prefix('-')
        .filter(|rest| !rest.starts_with('-') && !rest.is_empty())
    else {
        return 0;
    };
    for (at, letter) in letters.char_indices() {
        let option = format!("-{letter}");
        if listed(free, &option) {
            continue;
        }
        let rest = &letters[at + letter.len_utf8()..];
        return match (rest.is_empty(), next) {
            (false, _) if takes_free_value(free, &option, rest) => 1,
            (true, Some(value)) if takes_free_value(free, &option, value) => 2,
            _ => 0,
        };
    }
    1
}

/// Whether `free` lists `word` exactly.
fn listed(free: &[String], word: &str) -> bool {
    free.iter().any(|entry| entry == word)
}

/// Whether `free` lists `word` as an option with its value attached (`-Xmx*` for `-Xmx512m`, as the JVM takes
/// its memory settings): an entry ending in `*` without `=`, the word longer than what comes before the `*`.
fn attached(free: &[String], word: &str) -> bool {
    free.iter().any(|entry| {
        entry
            .strip_suffix(ANY)
            .filter(|option| !option.contains('=') && !option.is_empty())
            .is_some_and(|option| word.len() > option.len() && word.starts_with(option))
    })
}

/// Whether `free` lists `option` with `value` (`--tb=short`), with any value (`--tb=*`) that cannot be read as
/// an option, or with a count (`--profile=#`) that `value` is.
fn takes_free_value(free: &[String], option: &str, value: &str) -> bool {
    let count = !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit());
    free.iter().any(|entry| {
        entry.split_once('=').is_some_and(|(listed_option, listed_value)| {
            listed_option == option
                && (listed_value == value
                    || (listed_value == ANY && !value.starts_with(['-', '@']))
                    || (listed_value == COUNT && count))
        })
    })
}

/// `text` split into words as a POSIX shell (and Python's `shlex.split`) splits it: white space separates words,
/// `'…'` quotes everything, `"…"` quotes all but `\` before `\`, `"`, `$`, `` ` `` or a line break, and `\`
/// outside quotes keeps the next character. `None` when a quote is left open or the text ends in `\`.
pub(crate) fn shell_words(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let quoted = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => quoted.push(c),
                    }
                }
            }
            '"' => {
                let quoted = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            c @ ('\\' | '"' | '$' | '`') => quoted.push(c),
                            '\n' => {}
                            c => quoted.extend(['\\', c]),
                        },
                        c => quoted.push(c),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).push(chars.next()?),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_string()).collect()
    }

    /// Asserts that each of `honest`, split as a shell splits it, leaves nothing sealed under `free`, and that each
    /// of `counts` leaves something.
    #[track_caller]
    fn judged(free: &[String], dash_ends_value: bool, honest: &[&str], counts: &[&str]) {
        for text in honest {
            let words = shell_words(text).expect("split");
            assert_eq!(sealed(&words, free, dash_ends_value), Vec::<String>::new(), "{text}");
        }
        for text in counts {
            let words = shell_words(text).expect("split");
            assert_ne!(sealed(&words, free, dash_ends_value), Vec::<String>::new(), "{text}");
        }
    }

    #[test]
    fn words_split_as_a_shell_splits_them() {
        assert_eq!(
            shell_words(r#"-k "not slow" -m 'a b' x\ y "q\"uo\te" '' -ra"#),
            Some(strings(&["-k", "not slow", "-m", "a b", "x y", "q\"uo\\te", "", "-ra"]))
        );
        assert_eq!(shell_words("  \n "), Some(Vec::new()));
        for open in ["-k 'not slow", "-k \"x", "-v \\"] {
            assert_eq!(shell_words(open), None, "{open}");
        }
    }

    /// One entry stands for every spelling an option parser takes: joined by `=`, as two words, a one-letter
    /// option with its value attached, letters clustered, any value where the entry says `*`.
    #[test]
    fn an_entry_stands_for_every_spelling_of_its_option() {
        let free = strings(&["-v", "-q", "-r=*", "--tb=*", "-p=no:cacheprovider", "--color=yes"]);
        let honest = [
            "-v",
            "-vv",
            "-ra",
            "-r a",
            "-r=fE",
            "-vra",
            "-qr a",
            "--tb=short",
            "--tb short",
            "-p no:cacheprovider",
            "-pno:cacheprovider",
            "--color yes",
        ];
        let counts = [
            "-x",
            "-vx",
            "-rx -x",
            "-p no:randomly",
            "-pxdist",
            "--color=no",
            "--tb -x",
            "-r",
            "tests/test_a.py",
            "-- -v",
            "--verbose",
            "--tb @more.args",
            "--tb=@more.args",
            "-r @more.args",
        ];
        judged(&free, true, &honest, &counts);
    }

    /// A line starting with `#` is a comment only while it holds no option: RSpec reads `# --dry-run` as the
    /// option, so such a line counts, and a note of plain words (which RSpec ignores) does not.
    #[test]
    fn a_comment_holding_an_option_is_read_as_options() {
        let free = strings(&["--profile", "--profile=#"]);
        for honest in [
            "# slowest examples\n--profile 2\n",
            "#--dry-run is for listing\n",
            "#\n",
        ] {
            assert_eq!(sealed_text(honest, &free), Vec::<String>::new(), "{honest}");
        }
        for (counts, kept) in [
            ("--profile 2\n# --dry-run\n", vec!["#", "--dry-run"]),
            ("#  see --help\n", vec!["#", "see", "--help"]),
            ("# '--dry-run'\n", vec!["#", "--dry-run"]),
        ] {
            assert_eq!(sealed_text(counts, &free), strings(&kept), "{counts}");
        }
    }

    /// An option whose count is optional (`--profile` beside `--profile=#`) is free alone, with a count (as one
    /// word or two), or before another option; the word after it that is no count is its value too, so both
    /// are sealed (RSpec would swallow a path there).
    #[test]
    fn an_optional_count_is_free_and_any_other_value_seals_its_option() {
        let free = strings(&["--profile", "--profile=#", "--color"]);
        let honest = [
            "--profile",
            "--profile 2",
            "--profile=10",
            "--profile --color",
            "--color --profile 3",
        ];
        judged(&free, false, &honest, &[]);
        for (counts, kept) in [
            ("--profile spec/a_spec.rb", vec!["--profile", "spec/a_spec.rb"]),
            ("--profile=x", vec!["--profile=x"]),
            ("--profile 2x", vec!["--profile", "2x"]),
        ] {
            let words = shell_words(counts).expect("split");
            assert_eq!(sealed(&words, &free, false), strings(&kept), "{counts}");
        }
    }

    /// An option with its value attached (`-Xmx*`) is free with any value, and stands for no other option.
    #[test]
    fn an_attached_value_is_free_with_its_option_only() {
        let free = strings(&["-Xmx*", "-XX:MaxMetaspaceSize=*"]);
        let counts = [
            "-Xmx",
            "-Xms512m",
            "-DskipTests",
            "-javaagent:a.jar",
            "-Xmx512m -Dmaven.test.skip=true",
        ];
        judged(&free, false, &["-Xmx512m", "-Xmx2g -XX:MaxMetaspaceSize=256m"], &counts);
    }

    /// What is sealed keeps its order and values; a free word never stands for a sealed option's value, unless
    /// the parser never takes a word starting with `-` as one.
    #[test]
    fn sealed_options_keep_their_values() {
        let free = strings(&["-v", "--tb=*"]);
        let words = shell_words("-v -k 'not slow' --tb=line -m -v tests -x -v").expect("split");
        assert_eq!(
            sealed(&words, &free, false),
            strings(&["-k", "not slow", "-m", "-v", "tests", "-x", "-v"])
        );
        assert_eq!(
            sealed(&words, &free, true),
            strings(&["-k", "not slow", "-m", "tests", "-x"])
        );
    }
}

//! How Ruby test code reads the environment (`testsig::env_reads`): `ENV['X']`, `ENV.fetch('X')`,
//! `ENV.key?('X')`; `ENV` iterated, converted or passed on reads it whole. Interpolations are read as code. And
//! whether it reads what the run prints or warns ([`OUTPUT`]), which frees `RUBYOPT=-W0` where none does.

use crate::testsig::Lang;
use crate::testsig::env_reads::Reads;

pub(crate) const READS: Reads = Reads {
    maps: &[&["ENV"]],
    methods: &["fetch", "key?", "has_key?", "include?", "member?", "delete", "[]"],
    writes: &["store", "clear", "update", "merge!", "replace"],
    interpolates: &["#{"],
    output: Some(OUTPUT),
    ..Reads::none(Lang::Ruby)
};

/// What reads the run's output or warnings in Ruby test code: minitest's output assertions and expectations,
/// RSpec's `output(…).to_stdout` / `.to_stderr` (and `_from_any_process`), a `Warning` hook, the streams and
/// `$VERBOSE` themselves, a mocked `warn`, a subprocess's output (a child `ruby` inherits `RUBYOPT`), and a
/// method called by a computed name, which could be any of these.
const OUTPUT: &[&str] = &[
    "assert_output",
    "assert_silent",
    "capture_io",
    "capture_subprocess_io",
    "must_output",
    "must_be_silent",
    "wont_output",
    "to_stdout*",
    "to_stderr*",
    "Warning",
    "warn",
    "warning",
    "$stderr",
    "$stdout",
    "STDERR",
    "STDOUT",
    "$VERBOSE",
    "$DEBUG",
    "StringIO",
    "Open3",
    "capture2",
    "capture2e",
    "capture3",
    "popen",
    "popen3",
    "spawn",
    "system",
    "exec",
    "fork",
    "send",
    "public_send",
    "__send__",
    "method",
    "eval",
    "instance_eval",
    "instance_exec",
    "class_eval",
    "module_eval",
    "const_get",
    "`",
    "%x",
];

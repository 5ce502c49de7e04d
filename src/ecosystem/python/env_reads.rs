//! How Python test code reads the environment (`testsig::env_reads`): `os.environ` by index, `get`, `setdefault`,
//! `pop` or `in`, `os.getenv`; `patch.dict(os.environ, …)` only writes it; f-strings are read as code. And
//! whether it reads what the run prints or warns ([`OUTPUT`]), which frees a `PYTHONWARNINGS` that only ignores
//! warnings where none does.

use crate::testsig::Lang;
use crate::testsig::env_reads::Reads;

pub(crate) const READS: Reads = Reads {
    calls: &[&["getenv"], &["getenvb"]],
    maps: &[&["os", "environ"], &["environ"], &["os", "environb"], &["environb"]],
    methods: &["get", "setdefault", "pop", "__getitem__", "__contains__"],
    writes: &["update", "clear", "__setitem__", "__delitem__"],
    writers: &[&["patch", "dict"]],
    membership: Some("in"),
    interpolates: &["{"],
    output: Some(OUTPUT),
    ..Reads::none(Lang::Python)
};

/// What reads the run's output or warnings in Python test code: the `warnings` module and its filters and
/// records, unittest's `assertWarns` / `assertLogs`, pytest's capturing fixtures and `warns` / `deprecated_call`,
/// logging, the streams themselves and their redirection, a subprocess's output (a child `python` inherits
/// `PYTHONWARNINGS`), and a name reached at run time (`getattr`, `eval`, an import by a computed name), which
/// could be any of these.
const OUTPUT: &[&str] = &[
    "warnings",
    "warn",
    "warns",
    "warn_explicit",
    "showwarning",
    "catch_warnings",
    "simplefilter",
    "filterwarnings",
    "recwarn",
    "deprecated_call",
    "assertWarns",
    "assertWarnsRegex",
    "assertLogs",
    "assertNoLogs",
    "caplog",
    "capsys",
    "capsysbinary",
    "capfd",
    "capfdbinary",
    "pytester",
    "testdir",
    "logging",
    "stdout",
    "stderr",
    "__stdout__",
    "__stderr__",
    "redirect_stdout",
    "redirect_stderr",
    "StringIO",
    "subprocess",
    "Popen",
    "check_output",
    "getoutput",
    "getstatusoutput",
    "system",
    "popen",
    "spawn*",
    "exec*",
    "fork",
    "pexpect",
    "getattr",
    "eval",
    "__import__",
    "import_module",
    "__builtins__",
    "builtins",
    "globals",
    "vars",
];

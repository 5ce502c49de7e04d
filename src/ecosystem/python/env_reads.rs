//! How Python test code reads the environment (`testsig::env_reads`): `os.environ` by index, `get`, `setdefault`,
//! `pop` or `in`, `os.getenv`; `patch.dict(os.environ, …)` only writes it; f-strings are read as code.

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
    ..Reads::none(Lang::Python)
};

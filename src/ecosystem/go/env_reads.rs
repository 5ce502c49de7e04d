//! How Go test code reads the environment (`testsig::env_reads`): `os.Getenv`, `os.LookupEnv`; `os.Environ`
//! and `os.ExpandEnv` read it whole. `t.Setenv` only writes.

use crate::testsig::Lang;
use crate::testsig::env_reads::Reads;

pub(crate) const READS: Reads = Reads {
    calls: &[&["os", "Getenv"], &["os", "LookupEnv"], &["syscall", "Getenv"]],
    whole: &[&["os", "Environ"], &["os", "ExpandEnv"], &["os", "Expand"]],
    ..Reads::none(Lang::Go)
};

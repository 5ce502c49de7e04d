//! How Java and Kotlin test code reads the environment (`testsig::env_reads`): `System.getenv("X")`;
//! `System.getenv()` (the whole map) reads it whole.

use crate::testsig::Lang;
use crate::testsig::env_reads::Reads;

pub(crate) const READS: Reads = Reads {
    calls: &[&["System", "getenv"]],
    ..Reads::none(Lang::Java)
};

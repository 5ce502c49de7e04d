//! How C and C++ test code reads the environment (`testsig::env_reads`): `getenv("X")`, `std::getenv`,
//! `secure_getenv`; `environ` used at all reads it whole.

use crate::testsig::Lang;
use crate::testsig::env_reads::Reads;

pub(crate) const READS: Reads = Reads {
    calls: &[&["getenv"], &["secure_getenv"]],
    maps: &[&["environ"]],
    ..Reads::none(Lang::Cpp)
};

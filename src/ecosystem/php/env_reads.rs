//! How PHP test code reads the environment (`testsig::env_reads`): `getenv('X')`, `$_ENV['X']`,
//! `$_SERVER['X']`; `getenv()` with no name, or either array used whole, reads it whole.

use crate::testsig::Lang;
use crate::testsig::env_reads::Reads;

pub(crate) const READS: Reads = Reads {
    calls: &[&["getenv"]],
    maps: &[&["$_ENV"], &["$_SERVER"]],
    ..Reads::none(Lang::Php)
};

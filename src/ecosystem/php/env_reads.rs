//! How PHP test code reads the environment (`testsig::env_reads`): `getenv('X')`, `$_ENV['X']`,
//! `$_SERVER['X']`; `getenv()` with no name, or either array used whole, reads it whole. And the constants a
//! `<const>` of PHPUnit's `<php>` defines (`testsig::env_reads::constants`): a bare upper-case name,
//! `defined('X')`, `constant('X')`, `define('X', …)`; `constant($name)` or `get_defined_constants()` reads them all.
//! And, among the constants, the globals a `<var>` sets: `$GLOBALS['X']`, `global $X;`; `$GLOBALS` used any
//! other way reads them all.

use crate::testsig::Lang;
use crate::testsig::env_reads::Reads;
use crate::testsig::env_reads::constants::Constants;

pub(crate) const READS: Reads = Reads {
    calls: &[&["getenv"]],
    maps: &[&["$_ENV"], &["$_SERVER"]],
    constants: Some(Constants {
        calls: &["defined", "constant", "define"],
        whole: &["get_defined_constants"],
        globals: Some(("$GLOBALS", "global")),
    }),
    ..Reads::none(Lang::Php)
};

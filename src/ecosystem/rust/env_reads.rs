//! How Rust test code reads the environment (`testsig::env_reads`): `env::var`, `env::var_os` at run time,
//! `env!` and `option_env!` at build time (cargo's `[env]` sets those too); `env::vars()` reads it whole.

use crate::testsig::Lang;
use crate::testsig::env_reads::Reads;

pub(crate) const READS: Reads = Reads {
    calls: &[&["env", "var"], &["env", "var_os"], &["env"], &["option_env"]],
    whole: &[&["env", "vars"], &["env", "vars_os"]],
    ..Reads::none(Lang::Rust)
};

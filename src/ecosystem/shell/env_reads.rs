//! How shell and bats test code reads the environment (`testsig::env_reads`): `$X` and `${X…}` where the file
//! did not set `X` on an earlier line, inside double quotes too; `${!X}` reads a name built at run time.

use crate::testsig::Lang;
use crate::testsig::env_reads::Reads;

pub(crate) const READS: Reads = Reads {
    shell: true,
    ..Reads::none(Lang::Shell)
};

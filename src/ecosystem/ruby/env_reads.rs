//! How Ruby test code reads the environment (`testsig::env_reads`): `ENV['X']`, `ENV.fetch('X')`,
//! `ENV.key?('X')`; `ENV` iterated, converted or passed on reads it whole. Interpolations are read as code.

use crate::testsig::Lang;
use crate::testsig::env_reads::Reads;

pub(crate) const READS: Reads = Reads {
    maps: &[&["ENV"]],
    methods: &["fetch", "key?", "has_key?", "include?", "member?", "delete", "[]"],
    writes: &["store", "clear", "update", "merge!", "replace"],
    interpolates: &["#{"],
    ..Reads::none(Lang::Ruby)
};

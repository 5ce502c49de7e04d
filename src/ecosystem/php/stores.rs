//! Composer's `vendor` directories outside the project for the snapshot (`room::snapshot::stores`): a file of a
//! package (`vendor/<vendor>/<package>/…`) where Composer recorded what it installed
//! (`vendor/composer/installed.json`). Composer installs and removes packages whole; the files it regenerates in
//! place (`vendor/autoload.php`, `vendor/composer/*`) are no package's, and are copied.

use std::path::Path;

use super::{Memo, below, is_file};

pub(crate) fn installed(path: &Path, _memo: &Memo) -> bool {
    let Some((vendor, rest)) = below(path, &["vendor"]) else {
        return false;
    };
    rest.len() > 2 && rest[0] != "composer" && rest[0] != "bin" && is_file(&vendor.join("composer/installed.json"))
}

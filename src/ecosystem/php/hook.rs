//! PHP's start hook (`room::hook`): a directory added to `PHP_INI_SCAN_DIR` holding one ini file, whose
//! `auto_prepend_file` is `prepend.php` beside this file, which has every PHPUnit process write its own JUnit
//! report to the room (`room::php_report`).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io;
use std::path::Path;

/// The hook's directory in the room, its ini file and the prepended script beside it.
const DIR: &str = "hook/php";
const INI: &str = "loopgate.ini";
const PREPEND_FILE: &str = "loopgate-prepend.php";
const PREPEND: &str = include_str!("prepend.php");

pub(super) struct Hook;

impl super::StartHook for Hook {
    fn install(&self, room: &Path) -> io::Result<()> {
        let dir = room.join(DIR);
        super::write(room, &format!("{DIR}/{PREPEND_FILE}"), PREPEND, false)?;
        // An ini string cannot hold a path with `"` (nor `$`, which it expands): the hook is then left out, and
        // the run's names are its output's.
        match ini(&dir.join(PREPEND_FILE).display().to_string()) {
            Some(ini) => std::fs::write(dir.join(INI), ini),
            None => Ok(()),
        }
    }

    /// Last in `PHP_INI_SCAN_DIR`; an empty first entry keeps PHP's own directory (its extensions' ini files).
    fn set(&self, room: &Path, vars: &mut BTreeMap<String, OsString>) {
        let mut scan = vars.get("PHP_INI_SCAN_DIR").cloned().unwrap_or_default();
        scan.push(":");
        scan.push(room.join(DIR));
        vars.insert("PHP_INI_SCAN_DIR".to_string(), scan);
    }
}

/// The hook's ini file, naming the prepended script at `prepend`; `None` where no ini string can hold it.
pub(super) fn ini(prepend: &str) -> Option<String> {
    (!prepend.contains(['"', '$', '\n'])).then(|| format!("auto_prepend_file = \"{prepend}\"\n"))
}

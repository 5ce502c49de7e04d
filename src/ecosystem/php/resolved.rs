//! How PHP names a file it loaded (`closure::resolved`): by the path an `include` or `require` names, the path below
//! the include-path directory it was found in.
//!
//! PHP resolves a relative `require 'PHPUnit/Autoload.php'` (Debian's `phpunit` script starts so) against each
//! entry of `include_path` in turn, `.:/usr/share/php` by default: the directory the run stands in comes first. So
//! the same name in the project is found before the runner's own file, and reads here as the same module from
//! another place — a redirect of the test side (the class of Python's `sys.path[0]` and Ruby's `-I lib`, with no
//! rule naming the file).

use std::path::Path;

/// `/usr/share/php/PHPUnit/Autoload.php` → `php:PHPUnit/Autoload.php`: a file in the project by its path from the
/// project's root (the `.` of the include path: the verify runs there), any other by its path below the nearest
/// directory named `php` or `pear` (the system's include directories: Debian's `/usr/share/php`, PEAR's). A file
/// below neither (a Composer package in the home, loaded by its absolute path), or not PHP (its extension is not
/// `.php`), has no such name.
pub(crate) fn name(path: &Path, root: &Path) -> Option<String> {
    if path.extension().is_none_or(|ext| ext != "php") {
        return None;
    }
    if let Ok(relative) = path.strip_prefix(root) {
        return Some(format!("php:{}", relative.to_str()?));
    }
    let parts: Vec<&str> = path.iter().filter_map(|c| c.to_str()).collect();
    let at = (0..parts.len().saturating_sub(1))
        .rev()
        .find(|&at| matches!(parts[at], "php" | "pear"))?;
    Some(format!("php:{}", parts[at + 1..].join("/")))
}

//! What the traced run's reading knows of Python's installed distributions (`closure::observed`).

use std::path::Path;

/// Whether a distribution's metadata directory (`*.dist-info`) declares a pytest plugin (an `entry_points.txt`
/// with a `[pytest11]` group): pytest loads it on its own, so a new one where the baseline searched is a shadow.
pub(super) fn declares_plugin(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("entry_points.txt")).is_ok_and(|text| text.contains("[pytest11]"))
}

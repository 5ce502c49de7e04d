//! Ruby's name for a file it loads, for the resolution comparison (`closure::resolved`): the feature `require`
//! names, so that the same feature found in another place reads as the same module.

use std::path::Path;

/// `…/gems/minitest-5.17.0/lib/minitest/autorun.rb` → `rb:minitest/autorun.rb`: the feature `require` names,
/// the path below the nearest directory of the kinds Ruby's load path holds — a library's `lib`, the
/// interpreter's `vendor_ruby` and `site_ruby`, and a version directory under `ruby` or those
/// (`/usr/lib/ruby/3.1.0/json.rb` → `rb:json.rb`). The same feature found first in a directory the run put
/// ahead of the installed one (`-I lib`, `$LOAD_PATH.unshift`, `RUBYLIB`) then reads as a redirect.
pub(crate) fn name(path: &Path) -> Option<String> {
    let parts: Vec<&str> = path.iter().filter_map(|c| c.to_str()).collect();
    let is_root = |at: usize| match parts[at] {
        "lib" | "vendor_ruby" | "site_ruby" => true,
        version => {
            at > 0
                && version
                    .split('.')
                    .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                && matches!(parts[at - 1], "ruby" | "vendor_ruby" | "site_ruby")
        }
    };
    let root = (0..parts.len().saturating_sub(1)).rev().find(|&at| is_root(at))?;
    Some(format!("rb:{}", parts[root + 1..].join("/")))
}

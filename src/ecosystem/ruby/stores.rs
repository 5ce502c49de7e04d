//! RubyGems' gem directories for the snapshot (`room::snapshot::stores`): a file of an installed gem
//! (`<gem dir>/gems/<name>-<version>/…`) whose specification RubyGems wrote beside it
//! (`<gem dir>/specifications/<name>-<version>.gemspec`). `gem install` and Bundler unpack a gem whole and
//! `gem uninstall` removes it; nothing edits it in place. `~/.gemrc`, a `Gemfile` and the gem's executables' wrappers
//! are copied.

use std::path::Path;

use super::{Memo, below, is_file};

pub(crate) fn installed(path: &Path, _memo: &Memo) -> bool {
    let Some((gems, rest)) = below(path, &["gems"]) else {
        return false;
    };
    let (Some(gem), Some(home), true) = (rest.first(), gems.parent(), rest.len() > 1) else {
        return false;
    };
    let mut spec = gem.to_os_string();
    spec.push(".gemspec");
    is_file(&home.join("specifications").join(spec))
}

//! node's places outside the project (`room::outside`): its per-user module directories (`~/.node_modules`,
//! `~/.node_libraries`, each absolute directory of `NODE_PATH`) and the user's `.npmrc` (its `node-options`
//! preload code).

use std::path::{Path, PathBuf};

use crate::room::outside::At;

pub(super) fn places(home: &Path, var: &dyn Fn(&str) -> Option<PathBuf>) -> Vec<At> {
    let mut places = vec![
        At::dir(home.join(".node_modules")),
        At::dir(home.join(".node_libraries")),
    ];
    if let Some(node_path) = var("NODE_PATH") {
        places.extend(
            std::env::split_paths(&node_path)
                .filter(|p| p.is_absolute())
                .map(At::dir),
        );
    }
    places.push(At::file(
        var("NPM_CONFIG_USERCONFIG").unwrap_or_else(|| home.join(".npmrc")),
    ));
    places
}

//! Maven's and Gradle's caches for the snapshot (`room::snapshot::stores`): an artifact (a `.jar`, a `.pom`) in a
//! Maven repository (`…/<artifact>/<version>/<file>`) where Maven recorded where it came from (`_remote.repositories` in the same
//! directory), and a file in Gradle's module cache (`caches/modules-2/files-2.1/<group>/<module>/<version>/<sha1>/
//! <file>`), stored under the hash of its content. Both download a file whole and never edit one in place;
//! `settings.xml`, `gradle.properties` and an artifact `mvn install` put there without a record are copied.

use std::path::Path;

use super::{Memo, below, is_file};

pub(crate) fn installed(path: &Path, _memo: &Memo) -> bool {
    // Only the artifacts themselves: Maven's resolver rewrites its records beside them in place
    // (`_remote.repositories`, `resolver-status.properties`, `maven-metadata-*.xml`, `*.lastUpdated`).
    let artifact = path.extension().is_some_and(|ext| ext == "jar" || ext == "pom");
    if artifact
        && path
            .parent()
            .is_some_and(|dir| is_file(&dir.join("_remote.repositories")))
    {
        return true;
    }
    let Some((files, rest)) = below(path, &["files-2.1"]) else {
        return false;
    };
    let hash = rest.len() == 5
        && rest[3]
            .to_str()
            .is_some_and(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()));
    hash && files
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|name| name == "modules-2")
}

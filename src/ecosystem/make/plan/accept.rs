//! A change to the makefiles the user accepted (`loopgate allow`), held to what they accepted.
//!
//! The plan can only be asked where the oracle's run stands (its dry run expands the makefiles' own commands),
//! never in the user's terminal, so `loopgate allow` cannot take the new plan itself: it records the text of
//! every makefile as the user accepted it (by digest), and the next promise takes the plan afresh only if the
//! makefiles make then reads are those texts. A makefile changed after `allow`, or one make reads that the user
//! did not have before them, is named instead — the makefiles are not sealed by text beside the plan, so
//! without this the retake would accept whatever stood at the next promise.

use std::collections::BTreeMap;
use std::path::Path;

use super::{MakePlan, MovedPart, PartChange, UNREAD, Why};

/// The part named for a makefile that differs from what the user accepted.
const NOT_AS_ACCEPTED: &str = "its text since the user accepted it";

/// The digest of a makefile's text (its trailing line ends aside: read where the dry run ran, each file is
/// followed by one); of an absent file, none.
fn digest(text: Option<&str>) -> String {
    text.and_then(|t| crate::fsutil::sha256_hex(t.trim_end_matches(['\n', '\r']).as_bytes()).ok())
        .unwrap_or_default()
}

impl MakePlan {
    /// Accepts the makefiles as they stand in `root` (the plan's, those a rejection named, and `paths`): the
    /// next promise retakes the plan if make then reads these texts.
    pub(crate) fn accept(&mut self, root: &Path, paths: &[String]) {
        let mut files: Vec<&String> = self.makefiles.iter().chain(&self.named).chain(paths).collect();
        files.sort();
        files.dedup();
        self.accepted = files
            .into_iter()
            .map(|file| {
                let text = std::fs::read_to_string(root.join(file)).ok();
                (file.clone(), digest(text.as_deref()))
            })
            .collect();
        self.retake = true;
    }
}

/// The plan retaken at a promise after `loopgate allow`: `now`, if make resolved the goals and every makefile
/// it read (`texts`) is as the user accepted it; else what differs.
pub(super) fn retaken(
    sealed: &MakePlan,
    now: MakePlan,
    resolved: bool,
    texts: &BTreeMap<String, String>,
) -> Result<MakePlan, Vec<MovedPart>> {
    let why = Why::Configures(sealed.call.clone());
    let named = |path: &str, part: &str, change: PartChange| MovedPart {
        path: path.to_string(),
        part: part.to_string(),
        change,
        why: why.clone(),
    };
    let mut moved: Vec<MovedPart> = now
        .makefiles
        .iter()
        .filter(|file| sealed.accepted.get(*file) != Some(&digest(texts.get(*file).map(String::as_str))))
        .map(|file| named(file, NOT_AS_ACCEPTED, PartChange::Changed))
        .collect();
    if texts.contains_key(UNREAD) {
        moved.push(named("Makefile", UNREAD, PartChange::Added));
    }
    if !resolved {
        moved.push(named(
            "Makefile",
            "(make could not resolve the goals)",
            PartChange::Changed,
        ));
    }
    if moved.is_empty() { Ok(now) } else { Err(moved) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(makefiles: &[&str]) -> MakePlan {
        MakePlan {
            makefiles: makefiles.iter().map(|m| m.to_string()).collect(),
            ..MakePlan::default()
        }
    }

    #[test]
    fn the_retake_holds_to_the_makefiles_as_accepted() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        std::fs::write(dir.path().join("Makefile"), "-include local.mk\ntest:\n\ttrue\n").expect("Makefile");
        std::fs::write(dir.path().join("local.mk"), "X = 1\n").expect("local.mk");
        let mut sealed = plan(&["Makefile"]);
        sealed.accept(dir.path(), &["local.mk".to_string()]);
        assert!(sealed.retake);
        let texts = |local: &str| {
            BTreeMap::from([
                ("Makefile".to_string(), "-include local.mk\ntest:\n\ttrue\n".to_string()),
                ("local.mk".to_string(), local.to_string()),
            ])
        };
        let now = plan(&["Makefile", "local.mk"]);
        assert!(retaken(&sealed, now.clone(), true, &texts("X = 1\n")).is_ok());
        let changed = retaken(&sealed, now.clone(), true, &texts("X = 2\n")).expect_err("changed after allow");
        assert_eq!(changed.len(), 1);
        assert_eq!(
            (changed[0].path.as_str(), changed[0].part.as_str()),
            ("local.mk", NOT_AS_ACCEPTED)
        );
        // A makefile the user never saw.
        let more = plan(&["Makefile", "local.mk", "other.mk"]);
        let mut other = texts("X = 1\n");
        other.insert("other.mk".into(), String::new());
        let named = retaken(&sealed, more, true, &other).expect_err("a makefile not accepted");
        assert_eq!(named[0].path, "other.mk");
        assert!(retaken(&sealed, now, false, &texts("X = 1\n")).is_err(), "unresolved");
    }
}

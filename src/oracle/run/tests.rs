use std::path::Path;

use super::{Stand, Trace};

fn stand(root: &Path) -> Stand<'_> {
    Stand {
        root,
        placed: None,
        env: None,
        plane: None,
    }
}

/// A promise's trace and the baseline's are read and then removed, whatever the run did; an untraced run has
/// no words before its command and removes nothing (a file of that name is not its own).
#[test]
fn a_traced_run_removes_its_trace_when_done_and_an_untraced_one_touches_nothing() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let log = tmp.path().join("verify-1.log");
    let stand = stand(tmp.path());
    let at = log.with_extension("trace");

    std::fs::write(&at, "kept").expect("write");
    let untraced = Trace::new(&stand, &log, "promise.trace", None);
    assert!(untraced.prefix.is_empty());
    assert_eq!(
        untraced.path, at,
        "outside the room's tree, the trace lies beside the log"
    );
    drop(untraced);
    assert!(at.exists(), "an untraced run removed a file it did not write");

    if let Ok(tracer) = crate::trace::Tracer::find() {
        let traced = Trace::new(&stand, &log, "promise.trace", Some(&tracer));
        assert!(!traced.prefix.is_empty());
        assert!(
            stand.events(&traced, &Default::default()).is_empty(),
            "an empty trace holds no events"
        );
        drop(traced);
        assert!(!at.exists(), "a traced run left its trace behind");
    }
}

/// Outside the room, the run stands in the project with loopgate's own environment and plane, and its own report
/// is read in the project.
#[test]
fn outside_the_room_the_run_stands_in_the_project() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let stand = stand(tmp.path());
    let log = tmp.path().join("verify-1.log");
    let trace = Trace::new(&stand, &log, "promise.trace", None);
    let request = stand.request("true", std::time::Duration::from_secs(5), &log, &trace);
    assert_eq!(request.cwd, tmp.path());
    assert!(request.env.is_none() && request.plane.is_none() && request.mount.is_none());
    assert!(request.prefix.is_empty());
}

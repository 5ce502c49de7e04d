//! Support shared by the test binaries that drive child processes (`tests/e2e.rs`, `tests/run.rs`): the verify
//! fixture most scenarios judge against, and reading a child's output without ever blocking it.

use std::io::Read;
use std::process::Child;
use std::thread::{self, JoinHandle};

/// A verify script: passes once `src.txt` holds `fixed`, otherwise fails with a recognizable line.
pub const CHECK_SH: &str = r#"#!/bin/sh
if [ "$(cat src.txt 2>/dev/null)" = fixed ]; then
    echo "check: 3 passed"
    exit 0
fi
echo "test parser::roundtrip ... FAILED"
echo "VERIFY-MARK-7: expected 'fixed' in src.txt, found '$(cat src.txt 2>/dev/null)'"
exit 1
"#;

/// The task most scenarios give.
pub const TASK: &str = "make src.txt say fixed";

/// Reads the child's stdout and stderr to their ends on threads of their own (so a full pipe never stalls it);
/// join the handles for the text.
pub fn drain_output(child: &mut Child) -> (JoinHandle<String>, JoinHandle<String>) {
    fn drain(pipe: Option<Box<dyn Read + Send>>) -> JoinHandle<String> {
        thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut buf);
            }
            String::from_utf8_lossy(&buf).into_owned()
        })
    }
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    (stdout, stderr)
}

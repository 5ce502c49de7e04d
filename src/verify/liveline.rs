//! A live status line for a verify run that a person is waiting on (the baseline at setup, `loopgate
//! verify`): elapsed seconds and the runner's last line, redrawn in place on standard error about once a
//! second, so a long suite does not look hung.
//!
//! Only on a terminal: when standard error is not one (a hook, the slash command's pre-executed block, a
//! pipe, CI) nothing is drawn and no thread starts. The runner's own output is not streamed whole: it can be
//! megabytes, and the log file keeps it. The line is cleared when the run ends, so what follows (the result,
//! the log's path) starts on a clean line.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Characters of the runner's last line shown at most.
const SHOWN_CHARS: usize = 60;
/// How often the line is redrawn.
const TICK: Duration = Duration::from_secs(1);

/// The status line of one run; [`LiveLine::finish`] (or drop) clears it.
pub(crate) struct LiveLine {
    live: Option<Live>,
}

struct Live {
    shared: Arc<Shared>,
    ticker: Option<JoinHandle<()>>,
}

struct Shared {
    /// The runner's last non-empty line, and whether the run is over.
    state: Mutex<(String, bool)>,
    done: Condvar,
}

impl LiveLine {
    /// Starts the status line for a run labelled `label`, if standard error is a terminal.
    pub(crate) fn start(label: &str) -> LiveLine {
        if !std::io::stderr().is_terminal() {
            return LiveLine { live: None };
        }
        let shared = Arc::new(Shared {
            state: Mutex::new((String::new(), false)),
            done: Condvar::new(),
        });
        let label = label.to_string();
        let started = Instant::now();
        let ticker = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("loopgate-progress".into())
                .spawn(move || tick(&shared, &label, started))
                .ok()
        };
        LiveLine {
            live: Some(Live { shared, ticker }),
        }
    }

    /// No status line: for runs nobody watches at a terminal (the Stop hook).
    pub(crate) fn start_quiet() -> LiveLine {
        LiveLine { live: None }
    }

    /// A line of the runner's output, as it prints it (called on the reader thread).
    pub(crate) fn line(&self, line: &[u8]) {
        let Some(live) = &self.live else { return };
        let text = String::from_utf8_lossy(line);
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        if let Ok(mut state) = live.shared.state.lock() {
            state.0 = text.chars().filter(|c| !c.is_control()).take(SHOWN_CHARS).collect();
        }
    }

    /// Stops redrawing and clears the line.
    pub(crate) fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        let Some(mut live) = self.live.take() else { return };
        if let Ok(mut state) = live.shared.state.lock() {
            state.1 = true;
        }
        live.shared.done.notify_all();
        if let Some(ticker) = live.ticker.take() {
            let _ = ticker.join();
        }
        let _ = write!(std::io::stderr(), "\r\x1b[2K");
    }
}

impl Drop for LiveLine {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Redraws `[12s] label · last line` every [`TICK`] until the run is over.
fn tick(shared: &Shared, label: &str, started: Instant) {
    let Ok(mut state) = shared.state.lock() else { return };
    loop {
        let line = format!("\r\x1b[2K[{}s] {label} · {}", started.elapsed().as_secs(), state.0);
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(line.as_bytes());
        let _ = err.flush();
        drop(err);
        state = match shared.done.wait_timeout_while(state, TICK, |(_, over)| !*over) {
            Ok((state, _)) => state,
            Err(_) => return,
        };
        if state.1 {
            return;
        }
    }
}

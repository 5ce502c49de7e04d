//! What a person watching `loopgate run` sees.
//!
//! The agent's output goes to stdout as it arrives (unless `--quiet`); everything loopgate says goes to stderr:
//! a header, one line per iteration, the summary table and the final line. When stderr is a terminal, a live
//! status line (iteration, elapsed time, the phase and how long it has lasted, the last verify result, the stall
//! level) is kept at the bottom, redrawn every second and cleared before any other output. Colors only when
//! stderr is a terminal, `NO_COLOR` is unset or empty and `TERM` is not `dumb`; with stderr not a terminal,
//! loopgate writes no escape sequence at all.

use crate::printable;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use super::options::Verbosity;

/// Colors and weights used.
#[derive(Clone, Copy)]
pub(crate) enum Style {
    Bold,
    Dim,
    Green,
    Red,
    Yellow,
    Cyan,
}

/// What the loop is doing now.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    Starting,
    Agent,
    Checking,
}

/// The facts on the status line.
#[derive(Clone)]
pub(crate) struct Status {
    pub(crate) iteration: u64,
    pub(crate) max_iterations: u64,
    pub(crate) phase: Phase,
    pub(crate) phase_since: Instant,
    /// Whether the last verify passed, and its result in words.
    pub(crate) last_verify: Option<(bool, String)>,
    /// Stops without progress so far, and the stall limit.
    pub(crate) stall: Option<(u64, u64)>,
}

/// The terminal, shared by the main thread, the agent's output thread and the ticker.
pub(crate) struct Display {
    verbosity: Verbosity,
    color: bool,
    live: bool,
    /// stdout is the terminal too, so a partial agent line and the status line would collide.
    shared_terminal: bool,
    started: Instant,
    inner: Mutex<Inner>,
    stop_ticker: AtomicBool,
}

#[derive(Default)]
struct Inner {
    status: Option<Status>,
    drawn: bool,
    /// The agent's last chunk did not end a line.
    mid_line: bool,
    /// stdout was closed (`loopgate run … | head`): stop echoing, keep running.
    stdout_closed: bool,
}

impl Display {
    pub(crate) fn new(verbosity: Verbosity) -> Arc<Self> {
        let stderr_tty = std::io::stderr().is_terminal();
        let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Arc::new(Self {
            verbosity,
            color: stderr_tty && !dumb && !no_color,
            live: stderr_tty && !dumb,
            shared_terminal: std::io::stdout().is_terminal(),
            started: Instant::now(),
            inner: Mutex::new(Inner::default()),
            stop_ticker: AtomicBool::new(false),
        })
    }

    pub(crate) fn verbosity(&self) -> Verbosity {
        self.verbosity
    }

    /// Time since the run started.
    pub(crate) fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Redraws the status line every second while it is shown.
    pub(crate) fn start_ticker(self: &Arc<Self>) {
        if !self.live {
            return;
        }
        let display = Arc::clone(self);
        let _ = thread::Builder::new().name("status-line".into()).spawn(move || {
            while !display.stop_ticker.load(Ordering::SeqCst) {
                thread::sleep(Duration::from_secs(1));
                let mut inner = display.lock();
                display.redraw(&mut inner);
            }
        });
    }

    /// `text` in `style`, or as is without colors.
    pub(crate) fn paint(&self, text: &str, style: Style) -> String {
        if !self.color {
            return text.to_string();
        }
        let code = match style {
            Style::Bold => "1",
            Style::Dim => "2",
            Style::Green => "32",
            Style::Red => "31",
            Style::Yellow => "33",
            Style::Cyan => "36",
        };
        format!("\x1b[{code}m{text}\x1b[0m")
    }

    /// Echoes a chunk of the agent's output (not with `--quiet`).
    pub(crate) fn agent_output(&self, bytes: &[u8]) {
        if self.verbosity == Verbosity::Quiet {
            return;
        }
        let mut inner = self.lock();
        if inner.stdout_closed {
            return;
        }
        self.clear(&mut inner);
        let mut out = std::io::stdout().lock();
        if out.write_all(bytes).and_then(|()| out.flush()).is_err() {
            inner.stdout_closed = true;
        }
        inner.mid_line = self.shared_terminal && !bytes.ends_with(b"\n");
        self.redraw(&mut inner);
    }

    /// One line of loopgate's own, on stderr, above the status line.
    pub(crate) fn line(&self, text: &str) {
        let mut inner = self.lock();
        self.clear(&mut inner);
        let mut err = std::io::stderr().lock();
        if inner.mid_line {
            let _ = writeln!(err);
            inner.mid_line = false;
        }
        let _ = writeln!(err, "{text}");
        self.redraw(&mut inner);
    }

    /// Replaces the status line's facts.
    pub(crate) fn set_status(&self, status: Status) {
        let mut inner = self.lock();
        inner.status = Some(status);
        self.redraw(&mut inner);
    }

    /// Moves the status line to a new phase.
    pub(crate) fn phase(&self, phase: Phase) {
        let mut inner = self.lock();
        if let Some(status) = inner.status.as_mut() {
            status.phase = phase;
            status.phase_since = Instant::now();
        }
        self.redraw(&mut inner);
    }

    /// Removes the status line for good.
    pub(crate) fn finish(&self) {
        self.stop_ticker.store(true, Ordering::SeqCst);
        let mut inner = self.lock();
        inner.status = None;
        self.clear(&mut inner);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn clear(&self, inner: &mut Inner) {
        if inner.drawn {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
            inner.drawn = false;
        }
    }

    fn redraw(&self, inner: &mut Inner) {
        if !self.live || inner.mid_line {
            return;
        }
        let Some(status) = &inner.status else { return };
        let text = truncate(&self.status_text(status), terminal_width().saturating_sub(1));
        let _ = write!(std::io::stderr().lock(), "\r\x1b[2K{}", self.paint(&text, Style::Cyan));
        inner.drawn = true;
    }

    fn status_text(&self, s: &Status) -> String {
        let of = if s.max_iterations > 0 {
            format!("/{}", s.max_iterations)
        } else {
            String::new()
        };
        let phase = match s.phase {
            Phase::Starting => "starting".to_string(),
            Phase::Agent => format!("agent running {}", clock(s.phase_since.elapsed())),
            Phase::Checking => format!("checking {}", clock(s.phase_since.elapsed())),
        };
        let mut parts = vec![format!("⟳ iteration {}{of}", s.iteration), clock(self.elapsed()), phase];
        if let Some((passed, text)) = &s.last_verify {
            parts.push(format!("last verify {} {text}", if *passed { "✓" } else { "✗" }));
        }
        if let Some((level, limit)) = s.stall {
            parts.push(format!("stall {level}/{limit}"));
        }
        parts.join(" · ")
    }

    /// The summary table: one row per iteration, columns padded to their widest cell.
    pub(crate) fn table(&self, header: &[&str], rows: &[Vec<(String, Option<Style>)>]) {
        let columns = header.len();
        // Measured in terminal cells: a Chinese cell is two columns wide.
        let mut widths: Vec<usize> = header.iter().map(|h| printable::width(h)).collect();
        for row in rows {
            for (i, (cell, _)) in row.iter().enumerate().take(columns) {
                widths[i] = widths[i].max(printable::width(cell));
            }
        }
        let pad = printable::pad;
        let head: Vec<String> = header.iter().zip(&widths).map(|(h, w)| pad(h, *w)).collect();
        self.line(&self.paint(head.join("  ").trim_end(), Style::Bold));
        for row in rows {
            let last = row.len().saturating_sub(1);
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(i, ((cell, style), w))| {
                    let padded = if i == last { cell.clone() } else { pad(cell, *w) };
                    style.map_or(padded.clone(), |s| self.paint(&padded, s))
                })
                .collect();
            self.line(cells.join("  ").trim_end());
        }
    }
}

/// `4s`, `2m05s`, `1h02m`.
pub(crate) fn clock(d: Duration) -> String {
    let secs = d.as_secs();
    match secs {
        0..10 => format!("{:.1}s", d.as_secs_f64()),
        10..60 => format!("{secs}s"),
        60..3600 => format!("{}m{:02}s", secs / 60, secs % 60),
        _ => format!("{}h{:02}m", secs / 3600, secs % 3600 / 60),
    }
}

/// At most `width` terminal cells, with `…` when cut.
pub(crate) fn truncate(text: &str, width: usize) -> String {
    printable::truncate(text, width)
}

/// Columns of the terminal on stderr (80 when unknown).
fn terminal_width() -> usize {
    // SAFETY: a zeroed winsize is valid; TIOCGWINSZ only writes into the one we own.
    let (ok, size) = unsafe {
        let mut size: libc::winsize = std::mem::zeroed();
        let ok = libc::ioctl(libc::STDERR_FILENO, libc::TIOCGWINSZ, &raw mut size) == 0;
        (ok, size)
    };
    if ok && size.ws_col > 0 {
        usize::from(size.ws_col)
    } else {
        80
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_and_truncate() {
        assert_eq!(clock(Duration::from_millis(4200)), "4.2s");
        assert_eq!(clock(Duration::from_secs(14)), "14s");
        assert_eq!(clock(Duration::from_secs(125)), "2m05s");
        assert_eq!(clock(Duration::from_secs(3720)), "1h02m");
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("ab", 4), "ab");
    }
}

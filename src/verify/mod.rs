//! TEMPORARY minimal verify runner (being replaced by the full runner). Same API.
use std::path::{Path, PathBuf};
use std::time::Duration;

pub struct VerifyRequest<'a> {
    pub command: &'a str,
    pub cwd: &'a Path,
    pub timeout: Duration,
    pub log_path: &'a Path,
}

#[derive(Debug, Clone)]
pub struct VerifyOutcome {
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    pub duration: Duration,
    pub total_bytes: u64,
    pub head: Vec<u8>,
    pub tail: Vec<u8>,
    pub log_path: PathBuf,
}

impl VerifyOutcome {
    pub fn passed(&self) -> bool {
        self.exit_code == Some(0) && !self.timed_out
    }
    pub fn tail_text(&self, max_lines: usize) -> String {
        let text = String::from_utf8_lossy(&self.tail);
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(max_lines)..].join("\n")
    }
}

#[derive(Debug)]
pub enum VerifyError {
    Spawn { command: String, source: std::io::Error },
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Spawn { command, source } => write!(f, "failed to run `{command}`: {source}"),
        }
    }
}
impl std::error::Error for VerifyError {}

pub fn run(req: &VerifyRequest) -> Result<VerifyOutcome, VerifyError> {
    let start = std::time::Instant::now();
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(req.command)
        .current_dir(req.cwd)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|source| VerifyError::Spawn {
            command: req.command.into(),
            source,
        })?;
    let mut all = out.stdout;
    all.extend(out.stderr);
    let _ = std::fs::create_dir_all(req.log_path.parent().unwrap_or(Path::new(".")));
    let _ = std::fs::write(req.log_path, &all);
    Ok(VerifyOutcome {
        exit_code: out.status.code(),
        signal: None,
        timed_out: false,
        duration: start.elapsed(),
        total_bytes: all.len() as u64,
        head: all.iter().take(8192).copied().collect(),
        tail: all[all.len().saturating_sub(32768)..].to_vec(),
        log_path: req.log_path.to_path_buf(),
    })
}

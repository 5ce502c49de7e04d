//! opencode's server for one [`crate::client::Session`]: `opencode serve` in the project, which `opencode run
//! --attach` sends the prompt to. The plugin loopgate installs runs in this server and sends its follow-ups
//! (a rejected promise's reason) as new prompts after `opencode run` has seen the first turn end and exited, so
//! the session is over only once the server has settled: no turn going on, no `loopgate` hook running.

use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::client::Agent;
use crate::harness::Project;
use crate::mock_api::MockApi;

/// How long the server must look quiet before a run is taken for settled (see [`Server::settle`]).
const QUIET: Duration = Duration::from_secs(4);

pub struct Server {
    child: Child,
    port: u16,
}

impl Server {
    /// Starts `opencode serve` on a free port of 127.0.0.1 in `project` and waits until it accepts connections.
    #[track_caller]
    pub fn start(project: &Project, api: &MockApi) -> Self {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let mut cmd = project.command(Agent::Opencode.bin());
        cmd.args(["serve", "--hostname", "127.0.0.1", "--port", &port.to_string()])
            .current_dir(&project.dir)
            // opencode's directory is `$PWD`'s, not the process's.
            .env("PWD", &project.dir)
            .envs(Agent::Opencode.env(api))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let child = cmd.spawn().expect("spawn opencode serve");
        let mut server = Server { child, port };
        let deadline = Instant::now() + Duration::from_secs(60);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            let exited = server.child.try_wait().ok().flatten();
            assert!(exited.is_none(), "opencode serve exited: {exited:?}");
            assert!(Instant::now() < deadline, "opencode serve did not listen on {port}");
            std::thread::sleep(Duration::from_millis(100));
        }
        server
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Waits until the server is quiet: no session busy (`GET /session/status` empty) and no hook of the plugin
    /// running, seen on every look for [`QUIET`], 200 ms apart. Between the idle event and the hook it starts, the
    /// plugin reads the session's messages from this server and node spawns loopgate: nothing to see, and under
    /// CI's load (the gaming suite's four runs beside it) that gap outlasted one second, so a runaway's loop was
    /// taken for settled after three of its nine turns. False if that did not happen within `timeout`.
    pub fn settle(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut quiet = 0;
        while Instant::now() < deadline {
            let idle = self.no_session_busy() && !hook_running(self.child.id());
            quiet = if idle { quiet + 1 } else { 0 };
            if quiet * 200 >= QUIET.as_millis() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        false
    }

    fn no_session_busy(&self) -> bool {
        let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) else {
            return false;
        };
        let request = "GET /session/status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
        let mut answer = String::new();
        let read = std::io::Write::write_all(&mut stream, request.as_bytes())
            .and_then(|()| std::io::Read::read_to_string(&mut stream, &mut answer));
        read.is_ok()
            && answer.starts_with("HTTP/1.1 200")
            && answer.split("\r\n\r\n").nth(1).is_some_and(|body| body.trim() == "{}")
    }
}

/// Whether a process whose parent is `pid` runs `loopgate` (the plugin's hook).
fn hook_running(pid: u32) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|entry| {
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        // `PID (COMM) STATE PPID …`: COMM may hold spaces, so read after its closing parenthesis.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1));
        ppid == Some(&pid.to_string())
            && std::fs::read_link(entry.path().join("exe"))
                .is_ok_and(|exe| exe.file_name().is_some_and(|n| Path::new(n).starts_with("loopgate")))
    })
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = std::process::Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

//! A static npm registry on 127.0.0.1, in std only: what `npm install` and `npm ci` read from a registry, for
//! the packages `scripts/dist.sh` packed (`target/dist/npm/*.tgz`) and nothing else.
//!
//! `GET /NAME` (a scoped name may come as `@scope%2fname`) answers the packument — `dist-tags.latest` and one
//! version whose manifest is the tarball's own `package.json`, with `dist.tarball`, `dist.shasum` (SHA-1, hex)
//! and `dist.integrity` (SHA-512, as npm writes it) — and `GET /NAME/-/FILE.tgz` the tarball. Anything else
//! (audit, other packages) is a 404, so a test that needs a package from the real registry fails instead of
//! reaching out. Every request path is recorded.
//!
//! It also serves the bare git repositories of a directory under `/git/` through `git http-backend` (git's own
//! smart-HTTP CGI program, which shallow clones need): how a test hands Claude Code a marketplace by URL, as a
//! GitHub repository would be, with no network.

use std::collections::BTreeMap;
use std::io::{self, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};
use sha1::Digest as _;

use crate::mock_api::{HttpRequest, read_request};

/// One packed package.
struct Package {
    manifest: Value,
    file: String,
    tarball: Vec<u8>,
}

/// A running registry; it lives until the test process ends (threads are detached).
pub struct Registry {
    addr: SocketAddr,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Registry {
    /// Serves every `*.tgz` in `dir`, and the files under `git` at `/git/…`. Panics (the test fails) on an
    /// unreadable tarball.
    pub fn serve(dir: &Path, git: Option<PathBuf>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the registry on 127.0.0.1");
        let addr = listener.local_addr().expect("local address of the registry");
        let base = format!("http://{addr}");
        let mut packages = BTreeMap::new();
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("read {}: {e}", dir.display())) {
            let path = entry.expect("directory entry").path();
            if path.extension().is_none_or(|e| e != "tgz") {
                continue;
            }
            let package = load(&path);
            let name = package.manifest["name"].as_str().expect("a package name").to_string();
            packages.insert(name, package);
        }
        assert!(!packages.is_empty(), "no *.tgz in {}", dir.display());
        let packages = Arc::new(
            packages
                .into_iter()
                .map(|(name, p)| {
                    let document = packument(&base, &name, &p);
                    (name, (p, document))
                })
                .collect::<BTreeMap<_, _>>(),
        );
        let requests = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&requests);
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let packages = Arc::clone(&packages);
                let log = Arc::clone(&log);
                let git = git.clone();
                thread::spawn(move || {
                    let _ = serve(stream, &packages, git.as_deref(), &log);
                });
            }
        });
        Registry { addr, requests }
    }

    /// The registry URL for npm's `registry` setting.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Every path requested so far, in order.
    pub fn requests(&self) -> Vec<String> {
        self.requests.lock().map(|r| r.clone()).unwrap_or_default()
    }
}

fn load(path: &Path) -> Package {
    let tarball = std::fs::read(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let out = Command::new("tar")
        .arg("-xzOf")
        .arg(path)
        .arg("package/package.json")
        .output()
        .expect("run tar");
    assert!(out.status.success(), "{} has no package/package.json", path.display());
    let manifest: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("package.json in {} is not JSON: {e}", path.display()));
    let file = path
        .file_name()
        .and_then(|f| f.to_str())
        .expect("a file name")
        .to_string();
    Package {
        manifest,
        file,
        tarball,
    }
}

fn packument(base: &str, name: &str, package: &Package) -> Vec<u8> {
    let version = package.manifest["version"].as_str().expect("a version").to_string();
    let mut manifest = package.manifest.clone();
    let short = name.rsplit('/').next().unwrap_or(name);
    // npm names the tarball after the unscoped name; `npm pack` names the file after the scoped one.
    manifest["_id"] = json!(format!("{name}@{version}"));
    manifest["dist"] = json!({
        "tarball": format!("{base}/{name}/-/{short}-{version}.tgz"),
        "shasum": hex(&sha1::Sha1::digest(&package.tarball)),
        "integrity": format!("sha512-{}", base64(&sha2::Sha512::digest(&package.tarball))),
    });
    serde_json::to_vec(&json!({
        "name": name,
        "dist-tags": { "latest": version },
        "versions": { version.clone(): manifest },
    }))
    .expect("serialize a packument")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn base64(bytes: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(TABLE[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

type Packages = BTreeMap<String, (Package, Vec<u8>)>;

fn serve(stream: TcpStream, packages: &Packages, git: Option<&Path>, log: &Mutex<Vec<String>>) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(120)))?;
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    while let Some(request) = read_request(&mut reader)? {
        let (method, path) = (&request.method, &request.path);
        if let Ok(mut log) = log.lock() {
            log.push(format!("{method} {path}"));
        }

        let (status, kind, payload);
        let cgi;
        match (git, path.strip_prefix("/git")) {
            (Some(root), Some(rel)) => {
                cgi = http_backend(root, rel, &request);
                (status, kind, payload) = (cgi.0.as_str(), cgi.1.as_str(), cgi.2.as_slice());
            }
            _ => (status, kind, payload) = respond(method, path, packages),
        }
        let head = format!(
            "HTTP/1.1 {status}\r\ncontent-type: {kind}\r\ncontent-length: {}\r\nconnection: keep-alive\r\n\r\n",
            payload.len()
        );
        writer.write_all(head.as_bytes())?;
        writer.write_all(payload)?;
        writer.flush()?;
    }
    Ok(())
}

/// Runs `git http-backend` for one request (CGI: the request in variables and on stdin, headers and body out).
fn http_backend(root: &Path, path: &str, request: &HttpRequest) -> (String, String, Vec<u8>) {
    let (path_info, query) = path.split_once('?').unwrap_or((path, ""));
    let child = Command::new("git")
        .arg("http-backend")
        .env("GIT_PROJECT_ROOT", root)
        .env("GIT_HTTP_EXPORT_ALL", "1")
        .env("REQUEST_METHOD", &request.method)
        .env("PATH_INFO", path_info)
        .env("QUERY_STRING", query)
        .env("CONTENT_TYPE", request.header("content-type"))
        .env("CONTENT_LENGTH", request.body.len().to_string())
        .env("HTTP_CONTENT_ENCODING", request.header("content-encoding"))
        .env("GIT_PROTOCOL", request.header("git-protocol"))
        .env("REMOTE_ADDR", "127.0.0.1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn();
    let failed = |why: String| {
        (
            "500 Internal Server Error".to_string(),
            "text/plain".to_string(),
            why.into_bytes(),
        )
    };
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return failed(format!("git http-backend: {e}")),
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(&request.body);
    }
    let out = match child.wait_with_output() {
        Ok(out) => out.stdout,
        Err(e) => return failed(format!("git http-backend: {e}")),
    };
    let Some(split) = out.windows(4).position(|w| w == b"\r\n\r\n") else {
        return failed("git http-backend printed no headers".to_string());
    };
    let (mut status, mut kind) = ("200 OK".to_string(), "application/octet-stream".to_string());
    for line in String::from_utf8_lossy(&out[..split]).lines() {
        if let Some((name, value)) = line.split_once(':') {
            match name.trim().to_ascii_lowercase().as_str() {
                "status" => status = value.trim().to_string(),
                "content-type" => kind = value.trim().to_string(),
                _ => {}
            }
        }
    }
    (status, kind, out[split + 4..].to_vec())
}

fn respond<'a>(method: &str, path: &str, packages: &'a Packages) -> (&'static str, &'static str, &'a [u8]) {
    const MISSING: &[u8] = b"{\"error\":\"not found\"}";
    let path = path
        .split('?')
        .next()
        .unwrap_or_default()
        .replace("%2f", "/")
        .replace("%2F", "/");
    let path = path.trim_start_matches('/');
    if method != "GET" {
        return ("404 Not Found", "application/json", MISSING);
    }
    if let Some((name, file)) = path.split_once("/-/") {
        if let Some((package, _)) = packages.get(name) {
            let short = name.rsplit('/').next().unwrap_or(name);
            let version = package.manifest["version"].as_str().unwrap_or_default();
            if file == format!("{short}-{version}.tgz") || file == package.file {
                return ("200 OK", "application/octet-stream", &package.tarball);
            }
        }
        return ("404 Not Found", "application/json", MISSING);
    }
    match packages.get(path) {
        Some((_, document)) => ("200 OK", "application/json", document),
        None => ("404 Not Found", "application/json", MISSING),
    }
}

#[test]
fn base64_matches_the_standard_alphabet_with_padding() {
    assert_eq!(base64(b""), "");
    assert_eq!(base64(b"f"), "Zg==");
    assert_eq!(base64(b"fo"), "Zm8=");
    assert_eq!(base64(b"foo"), "Zm9v");
    assert_eq!(base64(b"foobar"), "Zm9vYmFy");
}

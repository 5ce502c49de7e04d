//! A scripted stand-in for a model API, in std only: the Anthropic Messages API (Claude Code), the OpenAI
//! Responses API (Codex CLI) or the Gemini API (Gemini CLI), chosen by [`Wire`]. The script, the recording and the HTTP plumbing are shared;
//! only the answer's encoding differs.
//!
//! The real Claude Code CLI is pointed at it with `ANTHROPIC_BASE_URL`, Codex CLI with a model provider whose
//! `base_url` is [`MockApi::base_url`] + `/v1`, Gemini CLI with `GOOGLE_GEMINI_BASE_URL`. It also serves as the clients' HTTP(S) proxy: a `CONNECT` (a
//! request bound for anywhere else than 127.0.0.1) is refused and recorded ([`MockApi::escaped`]). Every request body is recorded so
//! tests can assert what the model was shown. Requests from the main agent carry a non-empty `tools` list and
//! are answered from the script, one scripted [`Reply`] per request; side requests (titles, summaries) get a
//! one-word answer and do not advance the script. When the script runs out the server answers with a plain
//! text turn ([`EXHAUSTED`]) so that a runaway loop shows up in assertions instead of hanging. A request whose
//! system prompt is loopgate's reviewer's ([`REVIEWER`]) is answered from a script of its own
//! ([`MockApi::push_review`]), so a scenario plays the agent and its reviewer apart.
//!
//! HTTP/1.1 only as far as the client needs: keep-alive, `Content-Length` or chunked request bodies, and a
//! complete SSE body sent with `Content-Length`.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

/// Text the server answers with once the script is used up.
pub const EXHAUSTED: &str = "MOCK_SCRIPT_EXHAUSTED";

/// The first line of loopgate's reviewer prompt: a request whose system prompt holds it is the reviewer's.
pub fn reviewer_mark() -> &'static str {
    REVIEWER.lines().next().unwrap_or_default()
}

/// loopgate's reviewer prompt, as the binary sends it.
pub const REVIEWER: &str = include_str!("../../src/review/prompt.md");

/// One scripted assistant turn.
#[derive(Clone, Debug)]
pub enum Reply {
    /// A text-only turn (`stop_reason: end_turn`).
    Text(String),
    /// A `Bash` tool call, optionally after some text (`stop_reason: tool_use`).
    Bash { text: String, command: String },
    /// Any tool call with a JSON input.
    Tool { name: String, input: Value },
    /// An API error instead of a message: the HTTP status line and the error's `type`
    /// (`invalid_request_error`, `rate_limit_error`, …).
    Error { status: &'static str, kind: String },
    /// `reply`, sent only after `after` (a model that takes too long).
    Delayed { after: Duration, reply: Box<Reply> },
}

impl Reply {
    pub fn text(text: impl Into<String>) -> Self {
        Reply::Text(text.into())
    }

    pub fn bash(command: impl Into<String>) -> Self {
        Reply::Bash {
            text: String::new(),
            command: command.into(),
        }
    }

    pub fn error(status: &'static str, kind: impl Into<String>) -> Self {
        Reply::Error {
            status,
            kind: kind.into(),
        }
    }

    pub fn tool(name: impl Into<String>, input: Value) -> Self {
        Reply::Tool {
            name: name.into(),
            input,
        }
    }
}

/// One request the client sent.
#[derive(Clone, Debug)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub body: Value,
    /// Whether this request was answered from the script (a main-agent request).
    pub scripted: bool,
    /// Whether its system prompt is loopgate's reviewer's (answered from the reviewer's script).
    pub review: bool,
}

impl Request {
    /// All text the request's messages carry (text blocks, tool results, string contents), one per line:
    /// Anthropic's `messages`, the Responses API's `input` items (with function call outputs), or the Gemini
    /// API's `contents` (with function responses).
    pub fn message_text(&self) -> String {
        let mut out = String::new();
        for key in ["messages", "input", "contents"] {
            for message in self.body.get(key).and_then(Value::as_array).into_iter().flatten() {
                collect_text(&message["content"], &mut out);
                collect_text(&message["parts"], &mut out);
                if let Some(output) = message.get("output") {
                    collect_text(output, &mut out);
                }
                for part in message["parts"].as_array().into_iter().flatten() {
                    if let Some(response) = part.get("functionResponse") {
                        out.push_str(&response.to_string());
                        out.push('\n');
                    }
                }
            }
        }
        out
    }
}

pub fn collect_text(content: &Value, out: &mut String) {
    match content {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(blocks) => {
            for block in blocks {
                if let Some(text) = block.get("text").and_then(Value::as_str) {
                    out.push_str(text);
                    out.push('\n');
                }
                if let Some(inner) = block.get("content") {
                    collect_text(inner, out);
                }
            }
        }
        _ => {}
    }
}

/// The model API a mock speaks. (The Claude Code suite speaks only Anthropic's; the agent suite, `tests/agents.rs`,
/// the others.)
#[allow(dead_code)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Wire {
    /// Anthropic's Messages API (`POST /v1/messages`).
    #[default]
    Anthropic,
    /// OpenAI's Responses API, streamed (`POST /v1/responses`).
    Responses,
    /// The Gemini API (`POST /v1beta/models/M:streamGenerateContent?alt=sse`, and `:generateContent` for the
    /// client's side requests).
    Gemini,
}

/// What Gemini CLI's side requests (its model router, the next-speaker check) get: JSON with every field they
/// ask for, and a choice that changes nothing.
const GEMINI_SIDE: &str =
    r#"{"next_speaker":"user","reasoning":"mock","complexity_reasoning":"mock","complexity_score":1}"#;

#[derive(Default)]
struct Shared {
    wire: Wire,
    script: VecDeque<Reply>,
    reviews: VecDeque<Reply>,
    requests: Vec<Request>,
    escaped: Vec<String>,
    exhausted: usize,
    next_id: u64,
}

/// A running mock server; it lives until the test process ends (threads are detached).
#[derive(Clone)]
pub struct MockApi {
    addr: SocketAddr,
    shared: Arc<Mutex<Shared>>,
}

impl MockApi {
    /// Starts a server on an ephemeral port of 127.0.0.1.
    pub fn start() -> Self {
        Self::start_for(Wire::Anthropic)
    }

    /// Starts a server speaking `wire`.
    pub fn start_for(wire: Wire) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the mock API on 127.0.0.1");
        let addr = listener.local_addr().expect("local address of the mock API");
        let shared = Arc::new(Mutex::new(Shared {
            wire,
            ..Shared::default()
        }));
        let accept_shared = Arc::clone(&shared);
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let shared = Arc::clone(&accept_shared);
                thread::spawn(move || {
                    let _ = serve(stream, &shared);
                });
            }
        });
        MockApi { addr, shared }
    }

    /// The value for `ANTHROPIC_BASE_URL`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Appends turns to the script.
    pub fn push(&self, replies: impl IntoIterator<Item = Reply>) {
        self.lock().script.extend(replies);
    }

    /// Appends answers to the reviewer's script.
    pub fn push_review(&self, replies: impl IntoIterator<Item = Reply>) {
        self.lock().reviews.extend(replies);
    }

    /// Scripted turns not yet used.
    pub fn remaining(&self) -> usize {
        self.lock().script.len()
    }

    /// How many main-agent requests found the script empty.
    pub fn exhausted(&self) -> usize {
        self.lock().exhausted
    }

    /// Where the client tried to go other than this server (the `CONNECT` targets it asked its proxy for).
    /// (The agent suite, `tests/agents.rs`, asserts it; the Claude Code suite turns traffic off instead.)
    #[allow(dead_code)]
    pub fn escaped(&self) -> Vec<String> {
        self.lock().escaped.clone()
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<Request> {
        self.lock().requests.clone()
    }

    fn lock(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn serve(stream: TcpStream, shared: &Mutex<Shared>) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(300)))?;
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    while let Some(HttpRequest {
        method,
        path,
        body,
        close,
        ..
    }) = read_request(&mut reader)?
    {
        let (status, content_type, payload) = respond(&method, &path, &body, shared);
        let head = format!(
            "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\n\
             cache-control: no-cache\r\nrequest-id: req_mock\r\nconnection: {}\r\n\r\n",
            payload.len(),
            if close { "close" } else { "keep-alive" },
        );
        writer.write_all(head.as_bytes())?;
        writer.write_all(payload.as_bytes())?;
        writer.flush()?;
        if close {
            return Ok(());
        }
    }
    Ok(())
}

/// One HTTP/1.1 request as the local test servers read it (header names lowercased).
pub struct HttpRequest {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// The client asked to close the connection after the answer.
    pub close: bool,
}

impl HttpRequest {
    /// The value of a header (by its lowercase name), or "".
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.as_str())
    }
}

/// Reads the next request of a keep-alive connection (`Content-Length` or chunked body); `None` at its end.
pub fn read_request(reader: &mut BufReader<TcpStream>) -> io::Result<Option<HttpRequest>> {
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        if !line.trim_end().is_empty() {
            break;
        }
    }
    let mut parts = line.trim_end().split(' ');
    let method = parts.next().unwrap_or_default().to_string();
    let path = parts.next().unwrap_or_default().to_string();
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 {
            return Ok(None);
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    let mut request = HttpRequest {
        method,
        path,
        headers,
        body: Vec::new(),
        close: false,
    };
    request.close = request.header("connection").eq_ignore_ascii_case("close");
    request.body = if request
        .header("transfer-encoding")
        .to_ascii_lowercase()
        .contains("chunked")
    {
        read_chunked(reader)?
    } else {
        read_exact(reader, request.header("content-length").parse().unwrap_or(0))?
    };
    Ok(Some(request))
}

fn read_exact(reader: &mut impl Read, len: usize) -> io::Result<Vec<u8>> {
    let mut body = vec![0; len];
    reader.read_exact(&mut body)?;
    Ok(body)
}

fn read_chunked(reader: &mut BufReader<TcpStream>) -> io::Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let mut size = String::new();
        reader.read_line(&mut size)?;
        let size = size.trim().split(';').next().unwrap_or("0");
        let size = usize::from_str_radix(size, 16).unwrap_or(0);
        if size == 0 {
            // Trailers end with an empty line.
            loop {
                let mut trailer = String::new();
                if reader.read_line(&mut trailer)? == 0 || trailer.trim_end().is_empty() {
                    return Ok(body);
                }
            }
        }
        body.extend(read_exact(reader, size)?);
        let mut crlf = String::new();
        reader.read_line(&mut crlf)?;
    }
}

fn respond(method: &str, path: &str, body: &[u8], shared: &Mutex<Shared>) -> (&'static str, &'static str, String) {
    let body: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let route = path.split('?').next().unwrap_or_default();
    let mut shared = shared.lock().unwrap_or_else(|e| e.into_inner());
    if method == "CONNECT" {
        shared.escaped.push(path.to_string());
        return (
            "403 Forbidden",
            "text/plain",
            "mock: no network beyond 127.0.0.1".into(),
        );
    }
    let wire = shared.wire;
    let endpoint = match wire {
        Wire::Anthropic => route == "/v1/messages",
        Wire::Responses => route == "/v1/responses",
        Wire::Gemini => route.ends_with(":streamGenerateContent") || route.ends_with(":generateContent"),
    };
    if method != "POST" || !endpoint {
        shared.requests.push(Request {
            method: method.into(),
            path: path.into(),
            body,
            scripted: false,
            review: false,
        });
        if route.ends_with("/count_tokens") {
            return ("200 OK", "application/json", json!({"input_tokens": 100}).to_string());
        }
        if route.ends_with(":countTokens") {
            return ("200 OK", "application/json", json!({"totalTokens": 100}).to_string());
        }
        let error = json!({"type": "error", "error": {"type": "not_found_error", "message": "mock: no such route"}});
        return ("404 Not Found", "application/json", error.to_string());
    }

    let has_tools = body
        .get("tools")
        .and_then(Value::as_array)
        .is_some_and(|t| !t.is_empty());
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("claude-mock")
        .to_string();
    let stream = body.get("stream").and_then(Value::as_bool).unwrap_or(false);
    shared.next_id += 1;
    let id = shared.next_id;
    // Claude Code sends the reviewer's questions as its system prompt; Codex CLI and Gemini CLI in the prompt.
    let review = {
        let mut text = String::new();
        collect_text(body.get("system").unwrap_or(&Value::Null), &mut text);
        for key in ["input", "contents"] {
            for item in body.get(key).and_then(Value::as_array).into_iter().flatten() {
                collect_text(&item["content"], &mut text);
                collect_text(&item["parts"], &mut text);
            }
        }
        // Gemini CLI's side requests (its router, the next-speaker check) repeat the conversation: only its main
        // request, the streamed one, is the reviewer's.
        text.contains(reviewer_mark()) && (wire != Wire::Gemini || route.ends_with(":streamGenerateContent"))
    };
    let reply = if review {
        shared
            .reviews
            .pop_front()
            .unwrap_or_else(|| Reply::Text(EXHAUSTED.into()))
    } else if has_tools {
        shared.script.pop_front().unwrap_or_else(|| {
            shared.exhausted += 1;
            Reply::Text(EXHAUSTED.into())
        })
    } else if wire == Wire::Gemini {
        Reply::Text(GEMINI_SIDE.into())
    } else {
        Reply::Text("Mock".into())
    };
    let shell = ShellTool::offered(&body);
    shared.requests.push(Request {
        method: method.into(),
        path: path.into(),
        body,
        scripted: has_tools && !review,
        review,
    });
    drop(shared);
    let reply = match reply {
        Reply::Delayed { after, reply } => {
            thread::sleep(after);
            *reply
        }
        reply => reply,
    };

    if let Reply::Error { status, kind } = &reply {
        let error = json!({"type": "error", "error": {"type": kind, "message": format!("mock: scripted {kind}")}});
        return (status, "application/json", error.to_string());
    }
    match wire {
        Wire::Responses => return ("200 OK", "text/event-stream", responses_sse(&reply, id, shell)),
        Wire::Gemini => {
            let chunk = gemini_chunk(&reply);
            return if route.ends_with(":streamGenerateContent") {
                ("200 OK", "text/event-stream", format!("data: {chunk}\r\n\r\n"))
            } else {
                ("200 OK", "application/json", chunk.to_string())
            };
        }
        Wire::Anthropic => {}
    }
    let blocks = blocks(&reply, id);
    if stream {
        ("200 OK", "text/event-stream", sse(&blocks, &model, id))
    } else {
        ("200 OK", "application/json", message(&blocks, &model, id).to_string())
    }
}

/// The content blocks of a reply, as a complete (non-streamed) message would carry them.
fn blocks(reply: &Reply, id: u64) -> Vec<Value> {
    let tool_use = |name: &str, input: &Value| json!({"type": "tool_use", "id": format!("toolu_mock{id:06}"), "name": name, "input": input});
    match reply {
        Reply::Text(text) => vec![json!({"type": "text", "text": text})],
        Reply::Bash { text, command } => {
            let mut out = Vec::new();
            if !text.is_empty() {
                out.push(json!({"type": "text", "text": text}));
            }
            out.push(tool_use(
                "Bash",
                &json!({"command": command, "description": "scripted step"}),
            ));
            out
        }
        Reply::Tool { name, input } => vec![tool_use(name, input)],
        Reply::Error { .. } | Reply::Delayed { .. } => Vec::new(),
    }
}

fn stop_reason(blocks: &[Value]) -> &'static str {
    if blocks.iter().any(|b| b["type"] == "tool_use") {
        "tool_use"
    } else {
        "end_turn"
    }
}

fn message(blocks: &[Value], model: &str, id: u64) -> Value {
    json!({
        "id": format!("msg_mock{id:06}"),
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": blocks,
        "stop_reason": stop_reason(blocks),
        "stop_sequence": null,
        "usage": {"input_tokens": 10, "output_tokens": 10},
    })
}

fn sse(blocks: &[Value], model: &str, id: u64) -> String {
    let mut out = String::new();
    let mut event = |name: &str, data: Value| {
        out.push_str(&format!("event: {name}\ndata: {data}\n\n"));
    };
    let mut start = message(&[], model, id);
    start["stop_reason"] = Value::Null;
    event("message_start", json!({"type": "message_start", "message": start}));
    for (index, block) in blocks.iter().enumerate() {
        if block["type"] == "text" {
            event(
                "content_block_start",
                json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}),
            );
            event(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": index,
                       "delta": {"type": "text_delta", "text": block["text"]}}),
            );
        } else {
            let mut empty = block.clone();
            empty["input"] = json!({});
            event(
                "content_block_start",
                json!({"type": "content_block_start", "index": index, "content_block": empty}),
            );
            event(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": index,
                       "delta": {"type": "input_json_delta", "partial_json": block["input"].to_string()}}),
            );
        }
        event(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": index}),
        );
    }
    event(
        "message_delta",
        json!({"type": "message_delta", "delta": {"stop_reason": stop_reason(blocks), "stop_sequence": null},
               "usage": {"output_tokens": 10}}),
    );
    event("message_stop", json!({"type": "message_stop"}));
    out
}

/// The shell tool a Responses API client offers, and how its command argument is named: Codex's `exec_command`
/// (`cmd`), Copilot CLI's `bash` (`command`, with a `description`).
#[derive(Clone, Copy)]
enum ShellTool {
    ExecCommand,
    Bash,
}

impl ShellTool {
    fn offered(body: &Value) -> Self {
        let offers_bash = body["tools"]
            .as_array()
            .is_some_and(|tools| tools.iter().any(|t| t["name"] == "bash"));
        if offers_bash {
            ShellTool::Bash
        } else {
            ShellTool::ExecCommand
        }
    }

    fn call(self, command: &str) -> (&'static str, Value) {
        match self {
            ShellTool::ExecCommand => ("exec_command", json!({"cmd": command})),
            ShellTool::Bash => ("bash", json!({"command": command, "description": "Run the command"})),
        }
    }
}

/// A reply as the Responses API streams it: the output item (a message, or a `function_call` of the client's shell
/// tool), then `response.completed` with the whole output (what an SDK's stream helper returns) and usage.
fn responses_sse(reply: &Reply, id: u64, shell: ShellTool) -> String {
    let call = |name: &str, arguments: Value| json!({"type": "function_call", "name": name, "arguments": arguments.to_string(), "call_id": format!("call_mock{id:06}")});
    let message = |text: &str| {
        json!({"type": "message", "role": "assistant", "id": format!("msg_mock{id:06}"),
               "content": [{"type": "output_text", "text": text}]})
    };
    let items = match reply {
        Reply::Text(text) => vec![message(text)],
        Reply::Bash { text, command } => {
            let mut items = Vec::new();
            if !text.is_empty() {
                items.push(message(text));
            }
            let (name, arguments) = shell.call(command);
            items.push(call(name, arguments));
            items
        }
        // A bare string is the input of a freeform tool (Codex's `apply_patch`): a `custom_tool_call`.
        Reply::Tool {
            name,
            input: Value::String(input),
        } => vec![json!({"type": "custom_tool_call", "name": name, "input": input,
                         "call_id": format!("call_mock{id:06}")})],
        Reply::Tool { name, input } => vec![call(name, input.clone())],
        Reply::Error { .. } | Reply::Delayed { .. } => Vec::new(),
    };
    let response_id = format!("resp_mock{id:06}");
    let mut out = String::new();
    let mut event = |data: Value| {
        out.push_str(&format!(
            "event: {}\ndata: {data}\n\n",
            data["type"].as_str().unwrap_or_default()
        ));
    };
    event(json!({"type": "response.created", "response": {"id": response_id, "output": []}}));
    for (index, item) in items.iter().enumerate() {
        event(json!({"type": "response.output_item.done", "output_index": index, "item": item}));
    }
    event(
        json!({"type": "response.completed", "response": {"id": response_id, "status": "completed",
        "output": items, "usage": {
        "input_tokens": 10, "input_tokens_details": null, "output_tokens": 10,
        "output_tokens_details": null, "total_tokens": 20}}}),
    );
    out
}

/// A reply as one Gemini API response chunk: text parts, or a `functionCall` of Gemini CLI's shell tool
/// `run_shell_command`.
fn gemini_chunk(reply: &Reply) -> Value {
    let call = |name: &str, args: Value| json!({"functionCall": {"name": name, "args": args}});
    let parts = match reply {
        Reply::Text(text) => vec![json!({"text": text})],
        Reply::Bash { text, command } => {
            let mut parts = Vec::new();
            if !text.is_empty() {
                parts.push(json!({"text": text}));
            }
            parts.push(call(
                "run_shell_command",
                json!({"command": command, "description": "scripted step"}),
            ));
            parts
        }
        Reply::Tool { name, input } => vec![call(name, input.clone())],
        Reply::Error { .. } | Reply::Delayed { .. } => Vec::new(),
    };
    json!({
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 10, "totalTokenCount": 20},
        "modelVersion": "gemini-mock",
    })
}

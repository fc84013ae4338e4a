//! `turnscript lsp` under hostile input (issue 29), driven over its standard input with raw
//! bytes: messages that cannot be read are skipped and the session goes on; sizes are bounded
//! (a message, a header line, a document); a `uses` that names a device or a FIFO is refused
//! with a diagnostic; a change checks again only the documents it can change.

mod lsp_client;

use lsp_client::Client;
use serde_json::{Value, json};

/// `Content-Length: N`, an empty line and the body.
fn framed(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// A request the server answers (hover over a document it does not have: `null`).
fn ping(c: &mut Client) -> Value {
    c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///none.turn"}, "position": {"line": 0, "character": 0}}),
    )
}

/// Issue 29: a message that cannot be read is skipped with a line on standard error (and a
/// parse error, id `null`, for a body that is not JSON); the session goes on and ends with 0.
/// Each of these ended the server at once with status 0 and nothing said.
#[test]
fn a_message_that_cannot_be_read_is_skipped_and_the_session_goes_on() {
    let cases: [(&str, Vec<u8>, Option<i64>); 8] = [
        ("invalid JSON", framed("{\"jsonrpc\": \"2.0\", "), Some(-32700)),
        (
            "a Content-Length too small",
            b"Content-Length: 5\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}".to_vec(),
            Some(-32700),
        ),
        (
            "a Content-Length below zero",
            b"Content-Length: -5\r\n\r\n{}".to_vec(),
            None,
        ),
        (
            "a Content-Length not a number",
            b"Content-Length: five\r\n\r\n{}".to_vec(),
            None,
        ),
        ("no Content-Length", b"Content-Type: x\r\n\r\n{\"a\": 1}".to_vec(), None),
        (
            "a body that is not UTF-8",
            b"Content-Length: 4\r\n\r\n\"\xff\xfe\"".to_vec(),
            Some(-32700),
        ),
        ("a JSON value that is no message", framed("[1, 2]"), Some(-32600)),
        ("a header line that is no header", b"hello\r\n".to_vec(), None),
    ];
    for (what, bytes, code) in cases {
        let mut c = Client::start();
        c.initialize();
        c.send_raw(&bytes);
        if let Some(code) = code {
            let reply = c.next_within(20).unwrap_or_else(|| panic!("{what}: an error response"));
            assert_eq!(reply["error"]["code"], json!(code), "{what}: {reply}");
            assert_eq!(reply["id"], Value::Null, "{what}: {reply}");
        }
        assert_eq!(ping(&mut c), Value::Null, "{what}: the next request is answered");
        let (status, stderr) = c.finish();
        assert_eq!(status, Some(0), "{what}: {stderr}");
        // One line (two for a length too small: the body's bad JSON, then its rest).
        assert!(
            (1..=2).contains(&stderr.lines().count())
                && stderr.lines().all(|l| l.starts_with("warning: turnscript lsp: ")),
            "{what}: {stderr}"
        );
    }
}

/// Issue 29: headers ended by a line feed alone are read; a lone UTF-16 surrogate escape in a
/// string (as editors send for a lone surrogate in a buffer) is read as U+FFFD; a pair stays the
/// character it encodes. Both ended the server.
#[test]
fn lf_headers_and_a_lone_surrogate_are_read() {
    let mut c = Client::start();
    c.initialize();
    let body = r#"{"jsonrpc":"2.0","id":50,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///n.turn"},"position":{"line":0,"character":0}}}"#;
    c.send_raw(format!("Content-Length: {}\n\n{body}", body.len()).as_bytes());
    let reply = c.next_within(20).expect("the request with LF headers is answered");
    assert_eq!(reply["id"], json!(50), "{reply}");
    let uri = "file:///tmp/turnscript-lsp-surrogate.turn";
    let open = r#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"URI","languageId":"turnscript","version":1,"text":"stat hp\nplay { }\n# \ud800 \udfff \ud83d\ude00 \\ud800\n"}}}"#
        .replace("URI", uri);
    c.send_raw(&framed(&open));
    assert_eq!(
        c.diagnostics_for(uri),
        json!([]),
        "the document is read and checks clean"
    );
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 6}}),
    );
    assert!(
        hover["contents"]["value"]
            .as_str()
            .is_some_and(|v| v.contains("stat hp")),
        "{hover}"
    );
    let (status, stderr) = c.finish();
    assert_eq!((status, stderr.as_str()), (Some(0), ""));
    assert_eq!(
        turnscript::lsp::transport::lone_surrogates(r#""a\ud800b\udfff\ud83d\ude00\\ud800""#).as_deref(),
        Some(r#""a\uFFFDb\uFFFD\ud83d\ude00\\ud800""#)
    );
}

/// Issue 29: a Content-Length above the limit is refused and its body skipped unread (it was
/// allocated: 99999999999999999 aborted, 3000000000 took 2.9 GB); a header line that never ends
/// is refused and the reader skips to the next Content-Length (it grew without bound).
#[test]
fn message_and_header_sizes_are_bounded() {
    use turnscript::limits::{MAX_LSP_HEADER_BYTES, MAX_LSP_MESSAGE_BYTES};
    for length in ["99999999999999999", "3000000000"] {
        let mut c = Client::start();
        c.initialize();
        c.send_raw(format!("Content-Length: {length}\r\n\r\n{{}}").as_bytes());
        std::thread::sleep(std::time::Duration::from_millis(300));
        let peak = c.peak_memory();
        let (status, stderr) = c.end();
        assert!(peak < 100 << 20, "{length}: a peak of {peak} bytes");
        assert_eq!(
            status,
            Some(1),
            "{length}: the input ended inside the refused body: {stderr}"
        );
        assert!(
            stderr.contains(&format!("a message of {length} bytes"))
                && stderr.contains(&format!("the limit is {MAX_LSP_MESSAGE_BYTES} bytes")),
            "{stderr}"
        );
    }
    // A message over the limit, sent whole: skipped, the next one read.
    let mut c = Client::start();
    c.initialize();
    let big = MAX_LSP_MESSAGE_BYTES + 1;
    c.send_raw(format!("Content-Length: {big}\r\n\r\n").as_bytes());
    c.send_raw(&vec![b' '; big]);
    let shown = c.next_within(20).expect("a message shown");
    assert_eq!(shown["method"], "window/showMessage", "{shown}");
    assert_eq!(ping(&mut c), Value::Null);
    // A header line of 64 MB, then a request.
    let line = vec![b'a'; 64 << 20];
    c.send_raw(b"X-Long: ");
    c.send_raw(&line);
    c.send_raw(b"\r\n\r\n");
    assert_eq!(ping(&mut c), Value::Null, "the request after the long line is answered");
    let peak = c.peak_memory();
    let (status, stderr) = c.finish();
    assert!(peak < 100 << 20, "a peak of {peak} bytes");
    assert_eq!(status, Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!("a header line longer than {MAX_LSP_HEADER_BYTES} bytes")),
        "{stderr}"
    );
    // Endless: the input ends inside it, said, status 1.
    let mut c = Client::start();
    c.initialize();
    c.send_raw(&line);
    let (status, stderr) = c.end();
    assert_eq!(status, Some(1), "{stderr}");
    assert!(stderr.contains("the input ended while looking for"), "{stderr}");
}

/// Issue 29: with standard error full, a message skipped (and its note unwritten) does not end
/// the session (a failed `eprintln!` panicked: status 101).
#[test]
fn a_full_stderr_is_no_panic() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let mut c = Client::start_with_stderr(full.into());
    c.initialize();
    c.send_raw(&framed("not json"));
    let _ = c.next_within(20);
    assert_eq!(ping(&mut c), Value::Null);
    c.send_raw(b"Content-Length: 10\r\n\r\n{}");
    let (status, _) = c.end();
    assert_eq!(
        status,
        Some(1),
        "the input ended inside a message: said (to a full stderr), status 1"
    );
}

/// A folder of the test's own under the target's temporary folder.
fn workspace(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("lsp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    dir
}

fn open(c: &mut Client, uri: &str, text: &str) {
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "turnscript", "version": 1, "text": text}}),
    );
}

/// Issue 29: an encounter whose `uses` names a device, a FIFO or a folder gets a diagnostic on
/// its `uses` line, and the server goes on (a FIFO blocked the message loop for ever, and
/// `/dev/zero` was read until memory ran out, on every change).
#[test]
fn a_uses_that_names_a_device_or_a_fifo_is_refused_on_its_line() {
    let dir = workspace("uses");
    let fifo = dir.join("rules.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo makes a FIFO");
    let mut c = Client::start();
    c.initialize();
    for (name, target, says) in [
        ("fifo", "rules.fifo", "it is a FIFO, not a file"),
        ("zero", "/dev/zero", "it is a device, not a file"),
        ("folder", ".", "it is a directory, not a file"),
    ] {
        let uri = format!("file://{}/{name}.turn", dir.display());
        open(
            &mut c,
            &uri,
            &format!("encounter \"E\" uses \"{target}\"\ncharacter Ana {{ }}\n"),
        );
        let diags = c.diagnostics_for(&uri);
        assert_eq!(diags.as_array().map(Vec::len), Some(1), "{name}: {diags}");
        let d = &diags[0];
        assert_eq!(d["code"], "check::uses", "{name}: {d}");
        assert!(d["message"].as_str().is_some_and(|m| m.contains(says)), "{name}: {d}");
        assert_eq!(d["range"]["start"], json!({"line": 0, "character": 19}), "{name}: {d}");
    }
    let (status, stderr) = c.finish();
    assert_eq!((status, stderr.as_str()), (Some(0), ""));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 29: a document over the source limit is neither kept nor parsed: one diagnostic, and
/// requests on it see an empty text (this 12 MB one peaked at 207 MB; now near 60 MB, held here
/// under the 100 MB any check is promised).
#[test]
fn a_document_over_the_source_limit_gets_one_diagnostic() {
    let size = 12 << 20;
    let text = "stat hp\n".repeat(size / 8);
    let mut c = Client::start();
    c.initialize();
    let uri = "file:///tmp/turnscript-lsp-large.turn";
    open(&mut c, uri, &text);
    let diags = c.diagnostics_for(uri);
    assert_eq!(diags.as_array().map(Vec::len), Some(1), "{diags}");
    assert_eq!(diags[0]["code"], "syntax::too_large");
    assert!(
        diags[0]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with(&format!("this file is {size} bytes; the limit is "))),
        "{diags}"
    );
    for method in [
        "textDocument/hover",
        "textDocument/completion",
        "textDocument/definition",
    ] {
        let _ = c.request(
            method,
            json!({"textDocument": {"uri": uri}, "position": {"line": 1000, "character": 3}}),
        );
    }
    let peak = c.peak_memory();
    // An encounter that names it: refused on its `uses` line.
    let e_uri = "file:///tmp/turnscript-lsp-large-encounter.turn";
    open(
        &mut c,
        e_uri,
        "encounter \"E\" uses \"turnscript-lsp-large.turn\"\ncharacter Ana { }\n",
    );
    let diags = c.diagnostics_for(e_uri);
    assert_eq!(diags[0]["code"], "check::uses", "{diags}");
    assert!(
        diags[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("larger than the limit")),
        "{diags}"
    );
    let (status, _) = c.finish();
    assert_eq!(status, Some(0));
    assert!(peak < 100 << 20, "a peak of {} MB", peak >> 20);
}

/// The URIs of the diagnostics published until the answer to a request sent now.
fn published(c: &mut Client) -> Vec<String> {
    let id = c.next_id;
    c.next_id += 1;
    c.send(json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///none.turn"}, "position": {"line": 0, "character": 0}}}));
    let mut uris = Vec::new();
    loop {
        let v = c.next();
        if v["id"] == json!(id) {
            return uris;
        }
        if v["method"] == "textDocument/publishDiagnostics" {
            let uri = v["params"]["uri"].as_str().unwrap_or("");
            uris.push(uri.rsplit('/').next().unwrap_or("").to_string());
        }
    }
}

/// Issue 29: a change checks again the document and the open encounters of it (when it is
/// their ruleset), no other (every open document was checked again on every keystroke).
#[test]
fn a_change_checks_again_only_what_it_can_change() {
    let dir = workspace("recheck");
    let files = [
        ("r.turn", "stat hp\nplay { }\n"),
        (
            "e1.turn",
            "encounter \"One\" uses \"r.turn\"\ncharacter Ana { hp = 1 }\n",
        ),
        (
            "e2.turn",
            "encounter \"Two\" uses \"r.turn\"\ncharacter Bo { hp = 2 }\n",
        ),
        ("s.turn", "stat mp\nplay { }\n"),
        (
            "e3.turn",
            "encounter \"Three\" uses \"s.turn\"\ncharacter Cy { mp = 3 }\n",
        ),
    ];
    let mut c = Client::start();
    c.initialize();
    let uri = |name: &str| format!("file://{}/{name}", dir.display());
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("a file");
        open(&mut c, &uri(name), text);
        assert_eq!(published(&mut c), [name], "opening {name}");
    }
    let change = |c: &mut Client, name: &str, text: &str| {
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(name), "version": 2}, "contentChanges": [{"text": text}]}),
        );
        published(c)
    };
    assert_eq!(change(&mut c, "e1.turn", files[1].1), ["e1.turn"]);
    assert_eq!(
        change(&mut c, "r.turn", "stat hp\nstat ap\nplay { }\n"),
        ["r.turn", "e1.turn", "e2.turn"]
    );
    assert_eq!(change(&mut c, "s.turn", files[3].1), ["s.turn", "e3.turn"]);
    assert_eq!(change(&mut c, "e3.turn", files[4].1), ["e3.turn"]);
    c.notify("textDocument/didClose", json!({"textDocument": {"uri": uri("r.turn")}}));
    assert_eq!(published(&mut c), ["r.turn", "e1.turn", "e2.turn"], "closing a ruleset");
    let (status, stderr) = c.finish();
    assert_eq!((status, stderr.as_str()), (Some(0), ""));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Found in review: `Content-Length` inside another header's name (`X-Content-Length: 5`) was
/// taken for the length header after skipped bytes, and the message lost. It is another header.
#[test]
fn a_header_whose_name_holds_content_length_is_another_header() {
    let mut c = Client::start();
    c.initialize();
    let body = r#"{"jsonrpc":"2.0","id":51,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///n.turn"},"position":{"line":0,"character":0}}}"#;
    c.send_raw(format!("X-Content-Length: 5\r\nContent-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    let reply = c.next_within(20).expect("the request is answered");
    assert_eq!(reply["id"], json!(51), "{reply}");
    let (status, stderr) = c.finish();
    assert_eq!((status, stderr.as_str()), (Some(0), ""));
}

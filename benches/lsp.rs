//! The language server's answer to a change of the largest bundled ruleset (`rulesets/capes.turn`):
//! from a `didChange` notification with the whole text to the diagnostics to publish (parse,
//! check, diagnostics in editor positions), clean and with a typo. Target: under 20 ms.
//! Also the other answers an editor asks for as one types: hover, completion, the outline,
//! formatting.
//!
//! `cargo bench --bench lsp`; the figures are in docs/performance.md.

use divan::Bencher;
use lsp_server::Notification;
use serde_json::json;
use turnscript::lsp::Server;
use turnscript::lsp::analysis::{Doc, Unit};

fn main() {
    divan::main();
}

const URI: &str = "file:///bench/rulesets/capes.turn";

fn capes() -> String {
    std::fs::read_to_string(format!("{}/rulesets/capes.turn", env!("CARGO_MANIFEST_DIR"))).expect("capes.turn")
}

fn change(text: &str, version: i32) -> Notification {
    Notification::new(
        "textDocument/didChange".into(),
        json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": text}]}),
    )
}

fn server_with(text: &str) -> Server {
    let mut server = Server::default();
    let open = Notification::new(
        "textDocument/didOpen".into(),
        json!({"textDocument": {"uri": URI, "languageId": "turnscript", "version": 1, "text": text}}),
    );
    server.notification(open);
    server
}

#[divan::bench(args = ["clean", "typo"])]
fn did_change_to_diagnostics(bencher: Bencher, which: &str) {
    let clean = capes();
    let text = if which == "clean" {
        clean.clone()
    } else {
        clean.replacen("p.tokens", "p.tokenz", 1)
    };
    let mut server = server_with(&clean);
    let published = server.notification(change(&text, 2));
    assert_eq!(published.len(), 1);
    let errors = published[0].params["diagnostics"].as_array().map_or(0, Vec::len);
    assert_eq!(errors > 0, which == "typo", "{which}: {errors} diagnostics");
    bencher.bench_local(|| server.notification(change(&text, 3)));
}

fn unit() -> Unit {
    let text = capes();
    let uri = URI.parse().expect("a URI");
    Unit::new(Doc::new("capes.turn".into(), uri, text, None), |_| None)
}

#[divan::bench]
fn hover(bencher: Bencher) {
    let unit = unit();
    let at = capes().find("token_price").expect("a name");
    assert!(unit.hover(at).is_some());
    bencher.bench_local(|| unit.hover(at));
}

#[divan::bench]
fn completion(bencher: Bencher) {
    let unit = unit();
    let at = capes().find("p.tokens").expect("a field") + 2;
    bencher.bench_local(|| unit.completion(at).len());
}

#[divan::bench]
fn document_symbols(bencher: Bencher) {
    let unit = unit();
    bencher.bench_local(|| unit.document_symbols().len());
}

#[divan::bench]
fn formatting(bencher: Bencher) {
    let unit = unit();
    bencher.bench_local(|| unit.formatting().len());
}

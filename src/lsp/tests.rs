//! How many times the language server parses a document (`syntax::each_item` calls on this
//! thread): once per change, and not again to answer hover, completion, the outline or formatting.

use lsp_server::{Notification, Request, RequestId};
use serde_json::json;

use super::Server;

fn parses(f: impl FnOnce()) -> usize {
    let before = crate::syntax::PARSES.with(|n| n.get());
    f();
    crate::syntax::PARSES.with(|n| n.get()) - before
}

const RULESET: &str = "ruleset \"r\"\nstat hp\nplay { }\n";
const ENCOUNTER: &str = "encounter \"e\" uses \"r.turn\"\ncharacter Ana { hp = 1 }\n";

fn open(server: &mut Server, uri: &str, text: &str) -> Vec<Notification> {
    server.notification(Notification::new(
        "textDocument/didOpen".into(),
        json!({"textDocument": {"uri": uri, "languageId": "turnscript", "version": 1, "text": text}}),
    ))
}

fn change(server: &mut Server, uri: &str, text: &str) -> Vec<Notification> {
    server.notification(Notification::new(
        "textDocument/didChange".into(),
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text}]}),
    ))
}

fn ask(server: &mut Server, method: &str, params: serde_json::Value) -> serde_json::Value {
    let response = server.request(Request::new(RequestId::from(1), method.into(), params));
    match response.response_result {
        Ok(v) => v,
        Err(e) => panic!("{method}: {e:?}"),
    }
}

/// The diagnostics published for each document, by URI.
fn published(out: &[Notification]) -> Vec<(String, usize)> {
    out.iter()
        .map(|n| {
            (
                n.params["uri"].as_str().unwrap_or("").to_string(),
                n.params["diagnostics"].as_array().map_or(0, Vec::len),
            )
        })
        .collect()
}

#[test]
fn a_change_to_a_ruleset_parses_it_once() {
    let mut server = Server::default();
    open(&mut server, "file:///w/r.turn", RULESET);
    let mut out = Vec::new();
    let changed = RULESET.replace("stat hp", "stat hp\nstat ap");
    assert_eq!(parses(|| out = change(&mut server, "file:///w/r.turn", &changed)), 1);
    assert_eq!(published(&out), [("file:///w/r.turn".to_string(), 0)]);
    // A text that does not parse is parsed once too, and its error published.
    let broken = RULESET.replace("play { }", "play {");
    assert_eq!(parses(|| out = change(&mut server, "file:///w/r.turn", &broken)), 1);
    assert_eq!(published(&out), [("file:///w/r.turn".to_string(), 1)]);
}

#[test]
fn a_change_to_an_open_encounter_or_its_open_ruleset_parses_the_changed_file_once() {
    let mut server = Server::default();
    open(&mut server, "file:///w/r.turn", RULESET);
    open(&mut server, "file:///w/e.turn", ENCOUNTER);
    let mut out = Vec::new();
    let encounter = ENCOUNTER.replace("hp = 1", "hp = 2");
    assert_eq!(parses(|| out = change(&mut server, "file:///w/e.turn", &encounter)), 1);
    assert_eq!(published(&out), [("file:///w/e.turn".to_string(), 0)]);
    // The ruleset changed: both are checked again, the encounter on the parse it has.
    let ruleset = RULESET.replace("stat hp", "stat hp\nstat ap default 0");
    assert_eq!(parses(|| out = change(&mut server, "file:///w/r.turn", &ruleset)), 1);
    assert_eq!(
        published(&out),
        [("file:///w/r.turn".to_string(), 0), ("file:///w/e.turn".to_string(), 0)]
    );
    // And the encounter's error is found with the ruleset's new text.
    let misspelt = ENCOUNTER.replace("hp = 1", "hq = 1");
    assert_eq!(parses(|| out = change(&mut server, "file:///w/e.turn", &misspelt)), 1);
    assert_eq!(out.len(), 1);
    assert!(
        out[0].params["diagnostics"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("hq")),
        "{:?}",
        out[0].params
    );
}

#[test]
fn hover_completion_outline_and_formatting_parse_nothing() {
    let mut server = Server::default();
    let text = "ruleset  \"r\"\nstat hp\nplay { }\n";
    open(&mut server, "file:///w/r.turn", text);
    let at = json!({"textDocument": {"uri": "file:///w/r.turn"}, "position": {"line": 1, "character": 6}});
    let doc = json!({"textDocument": {"uri": "file:///w/r.turn"}, "options": {"tabSize": 4, "insertSpaces": true}});
    let mut answers = Vec::new();
    let n = parses(|| {
        answers.push(ask(&mut server, "textDocument/hover", at.clone()));
        answers.push(ask(&mut server, "textDocument/completion", at.clone()));
        answers.push(ask(&mut server, "textDocument/documentSymbol", doc.clone()));
        answers.push(ask(&mut server, "textDocument/formatting", doc.clone()));
    });
    assert_eq!(n, 0);
    assert!(
        answers[0]["contents"]["value"]
            .as_str()
            .is_some_and(|v| v.contains("stat hp")),
        "{}",
        answers[0]
    );
    assert!(answers[1].as_array().is_some_and(|a| !a.is_empty()), "{}", answers[1]);
    assert!(answers[2].as_array().is_some_and(|a| a.len() == 2), "{}", answers[2]);
    // The double space after `ruleset` is laid out as one.
    assert_eq!(
        answers[3][0]["newText"], "ruleset \"r\"\nstat hp\nplay { }\n",
        "{}",
        answers[3]
    );
}

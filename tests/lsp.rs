//! `turnscript lsp` spoken to as an editor does: the binary is started, JSON-RPC goes in on its
//! standard input and the replies are read from its standard output and snapshotted (URIs made
//! relative to the repository). One session: initialize, open the Crisis Mode ruleset and its
//! encounter, a change that introduces an error and one that fixes it, hover, definition,
//! references, completion, the outline, rename, formatting, shutdown and exit. A second session
//! (issue 28) works in a workspace of a ruleset and encounters of its own: rename and references
//! across the ruleset and every encounter that uses it, open or not; "did you mean" in the
//! message; completion without duplicates or closed loops' variables; end of input as a normal end.

mod lsp_client;

use lsp_client::{Client, doc_pos, pos};
use serde_json::{Value, json};

#[test]
fn a_session_as_an_editor_has_it() {
    let ruleset = std::fs::read_to_string("rulesets/crisis-mode.turn").expect("the ruleset");
    let encounter = std::fs::read_to_string("rulesets/encounters/crisis-mode.turn").expect("the encounter");
    let mut c = Client::start();
    let r_uri = c.uri("rulesets/crisis-mode.turn");
    let e_uri = c.uri("rulesets/encounters/crisis-mode.turn");
    let mut out = Vec::new();
    let mut record = |name: &str, v: Value| {
        out.push(format!(
            "== {name}\n{}",
            serde_json::to_string_pretty(&v).unwrap_or_default()
        ))
    };

    let init = c.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    record("initialize", init);
    c.notify("initialized", json!({}));

    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": r_uri, "languageId": "turnscript", "version": 1, "text": ruleset}}),
    );
    record("didOpen ruleset: diagnostics", c.diagnostics_for(&r_uri));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": e_uri, "languageId": "turnscript", "version": 1, "text": encounter}}),
    );
    record(
        "didOpen encounter (checked with its ruleset): diagnostics",
        c.diagnostics_for(&e_uri),
    );

    // A typo: `c.finesse` written `c.finese` in the order.
    let broken = ruleset.replacen("c.finesse desc", "c.finese desc", 1);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": r_uri, "version": 2}, "contentChanges": [{"text": broken}]}),
    );
    record("didChange with a typo: diagnostics", c.diagnostics_for(&r_uri));
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": r_uri, "version": 3}, "contentChanges": [{"text": ruleset}]}),
    );
    record("didChange fixing it: diagnostics", c.diagnostics_for(&r_uri));

    let hover = c.request("textDocument/hover", doc_pos(&r_uri, &ruleset, "by by_ap", 0, 4));
    record("hover on an order's name", hover);
    let hover = c.request("textDocument/hover", doc_pos(&r_uri, &ruleset, "forfeit c.ap", 0, 1));
    record("hover on a keyword", hover);
    let hover = c.request("textDocument/hover", doc_pos(&e_uri, &encounter, "finesse = 4", 0, 2));
    record("hover in the encounter on a stat of the ruleset", hover);
    let def = c.request("textDocument/definition", doc_pos(&r_uri, &ruleset, "by by_ap", 0, 5));
    record("definition of by_ap", def);
    let def = c.request(
        "textDocument/definition",
        doc_pos(&e_uri, &encounter, "finesse = 4", 0, 0),
    );
    record("definition of finesse, from the encounter", def);
    let refs = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": r_uri}, "position": pos(&ruleset, "flag passed", 0, 6), "context": {"includeDeclaration": true}}),
    );
    record("references of the flag passed", refs);

    // Completion after `c.`: the fields; elsewhere keywords and names (a few shown).
    let dotted = ruleset.replacen("forfeit c.ap", "forfeit c.", 1);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": r_uri, "version": 4}, "contentChanges": [{"text": dotted}]}),
    );
    let _ = c.diagnostics_for(&r_uri);
    let items = c.request("textDocument/completion", doc_pos(&r_uri, &dotted, "forfeit c.", 0, 10));
    let labels: Vec<Value> = items
        .as_array()
        .into_iter()
        .flatten()
        .map(|i| json!([i["label"], i["detail"]]))
        .collect();
    record("completion after c.", json!(labels));
    let items = c.request(
        "textDocument/completion",
        doc_pos(&r_uri, &dotted, "reset c.ap to ap_roll", 0, 14),
    );
    let names: Vec<Value> = items
        .as_array()
        .into_iter()
        .flatten()
        .filter(|i| i["kind"] != 14) // keywords left out of the snapshot, counted below
        .map(|i| i["label"].clone())
        .collect();
    let keywords = items
        .as_array()
        .into_iter()
        .flatten()
        .filter(|i| i["kind"] == 14)
        .count();
    record(
        "completion of a name (keywords left out)",
        json!({"names": names, "keywords": keywords}),
    );
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": r_uri, "version": 5}, "contentChanges": [{"text": ruleset}]}),
    );
    record("back to the file: diagnostics", c.diagnostics_for(&r_uri));

    let syms = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": r_uri}}));
    let outline: Vec<Value> = syms
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            json!([
                s["name"],
                s["detail"],
                s["children"]
                    .as_array()
                    .map(|c| c.iter().map(|x| x["name"].clone()).collect::<Vec<_>>())
            ])
        })
        .collect();
    record("document symbols (name, detail, children)", json!(outline));

    let rename = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": r_uri}, "position": pos(&ruleset, "mark c.passed", 0, 8), "newName": "has_passed"}),
    );
    record("rename passed to has_passed", rename);
    let bad = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": r_uri}, "position": pos(&ruleset, "mark c.passed", 0, 8), "newName": "for"}),
    );
    record("rename to a keyword", bad);

    let ugly = ruleset.replacen("param move_cost   = 1", "param   move_cost=1", 1);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": r_uri, "version": 6}, "contentChanges": [{"text": ugly}]}),
    );
    let _ = c.diagnostics_for(&r_uri);
    let edits = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": r_uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    let formatted_back = edits[0]["newText"] == json!(ruleset);
    record(
        "formatting: one edit giving back the bundled file",
        json!({"edits": edits.as_array().map(Vec::len), "gives_the_file_back": formatted_back}),
    );

    let shutdown = c.request("shutdown", Value::Null);
    record("shutdown", shutdown);
    c.notify("exit", Value::Null);
    let status = c.child.wait().expect("the server exits");
    record("exit status", json!(status.code()));
    insta::assert_snapshot!(out.join("\n\n"));
}

/// In process, through the server's own entry points: every answer to prefixes of every bundled
/// ruleset (most of which do not parse) is an answer, never a panic; a prefix that checks has no
/// diagnostics and one that does not parse has some.
#[test]
fn prefixes_of_every_bundled_ruleset_get_answers() {
    use lsp_server::{Notification, Request, RequestId};
    use turnscript::lsp::Server;

    let uri = "file:///nowhere/ruleset.turn";
    let mut answered = 0;
    for name in ["capes", "crisis-mode", "flow-of-time", "legacy", "legends"] {
        let text = std::fs::read_to_string(format!("rulesets/{name}.turn")).expect("a bundled ruleset");
        let mut server = Server::default();
        let mut cut = 0;
        let mut version = 1;
        while cut <= text.len() {
            let prefix = &text[..cut];
            let method = if version == 1 {
                "textDocument/didOpen"
            } else {
                "textDocument/didChange"
            };
            let params = if version == 1 {
                json!({"textDocument": {"uri": uri, "languageId": "turnscript", "version": 1, "text": prefix}})
            } else {
                json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": prefix}]})
            };
            let published = server.notification(Notification::new(method.into(), params));
            assert_eq!(published.len(), 1, "{name}[..{cut}]: one diagnostics notification");
            let diags = published[0].params["diagnostics"].as_array().map_or(0, Vec::len);
            if turnscript::syntax::parse(prefix, 0).is_err() {
                assert!(diags > 0, "{name}[..{cut}] does not parse and has no diagnostics");
            }
            let lines = prefix.lines().count().max(1) as u64;
            for (i, line) in [0, lines / 3, lines / 2, lines - 1].into_iter().enumerate() {
                let pos = json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": 4 + 3 * i}});
                let mut ask = |method: &str, mut params: Value| {
                    if let Some(o) = params.as_object_mut() {
                        o.extend(pos.as_object().cloned().unwrap_or_default());
                    }
                    let req = Request::new(RequestId::from(answered), method.into(), params);
                    let resp = server.request(req);
                    assert!(
                        resp.response_result.is_ok() || method == "textDocument/rename",
                        "{name}[..{cut}] {method}: {:?}",
                        resp.response_result
                    );
                    answered += 1;
                };
                ask("textDocument/hover", json!({}));
                ask("textDocument/definition", json!({}));
                ask("textDocument/completion", json!({}));
                ask(
                    "textDocument/references",
                    json!({"context": {"includeDeclaration": true}}),
                );
                ask("textDocument/rename", json!({"newName": "renamed"}));
            }
            for method in ["textDocument/documentSymbol", "textDocument/formatting"] {
                let params = json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}});
                let resp = server.request(Request::new(RequestId::from(answered), method.into(), params));
                assert!(
                    resp.response_result.is_ok(),
                    "{name}[..{cut}] {method}: {:?}",
                    resp.response_result
                );
                answered += 1;
            }
            version += 1;
            if cut == text.len() {
                break;
            }
            cut = (cut + 467).min(text.len());
            while !text.is_char_boundary(cut) {
                cut += 1;
            }
        }
    }
    assert!(answered > 1000, "{answered} requests answered");
}

/// Completion in process: at the start of a top-level line the words that open an item; at the
/// start of a line in a block those that open a statement, with the variables in scope; after a
/// dot the fields.
#[test]
fn completion_offers_what_fits_where_the_cursor_is() {
    use turnscript::lsp::analysis::{Doc, Unit};

    let ruleset = std::fs::read_to_string("rulesets/crisis-mode.turn").expect("the ruleset");
    // Each text as a change of the bundled one (whose names serve a text that does not parse).
    let uri: lsp_types::Uri = "file:///r.turn".parse().expect("a URI");
    let opened = Doc::new("r.turn".into(), uri.clone(), ruleset.clone(), None);
    let labels = |text: &str, at: usize| -> Vec<String> {
        let doc = Doc::new("r.turn".into(), uri.clone(), text.to_string(), Some(&opened));
        let unit = Unit::new(doc, |_| None);
        unit.completion(at).into_iter().map(|i| i.label).collect()
    };

    let top = ruleset.find("\norder by_ap").expect("the order") + 1;
    let at_top = labels(&ruleset, top);
    assert!(at_top.iter().any(|l| l == "param") && at_top.iter().any(|l| l == "routine"));
    assert!(!at_top.iter().any(|l| l == "spend" || l == "where"), "{at_top:?}");

    let inner = ruleset.find("forfeit c.ap").expect("a statement");
    let in_block = labels(&ruleset, inner);
    assert!(in_block.iter().any(|l| l == "spend") && in_block.iter().any(|l| l == "choose"));
    assert!(!in_block.iter().any(|l| l == "param"), "{in_block:?}");
    assert!(in_block.iter().any(|l| l == "c"), "the loop variable c: {in_block:?}");
    assert!(in_block.iter().any(|l| l == "free_steps"), "a param: {in_block:?}");

    let dotted = ruleset.replacen("forfeit c.ap", "forfeit c.", 1);
    let fields = labels(&dotted, inner + "forfeit c.".len());
    assert_eq!(
        fields,
        ["finesse", "ap", "steps", "passed", "side", "in_play", "group", "number"]
    );
}

/// After `x.`, the fields of the type `x` holds where it can be read: a parameter's type, the
/// collection or kept order a loop walks.
#[test]
fn fields_after_a_dot_follow_the_type_of_the_variable() {
    use turnscript::lsp::analysis::{Doc, Unit};

    let capes = std::fs::read_to_string("rulesets/capes.turn").expect("capes");
    let uri: lsp_types::Uri = "file:///capes.turn".parse().expect("a URI");
    let opened = Doc::new("capes.turn".into(), uri.clone(), capes.clone(), None);
    let fields = |needle: &str| -> Vec<String> {
        let at = capes.find(needle).expect("the needle") + needle.len();
        let text = format!(
            "{}{}",
            &capes[..at],
            &capes[at..].trim_start_matches(|c: char| c.is_alphanumeric() || c == '_')
        );
        let doc = Doc::new("capes.turn".into(), uri.clone(), text, Some(&opened));
        let unit = Unit::new(doc, |_| None);
        let mut l: Vec<String> = unit.completion(at).into_iter().map(|i| i.label).collect();
        l.sort();
        l
    };
    let q = fields("for each q in players { clear q.");
    assert_eq!(
        q,
        [
            "added", "claimed", "in_play", "number", "reacted", "seat", "side", "tokens"
        ]
    );
    // `for each p in clockwise`, a kept order of players (`order clockwise(p: player)`).
    let by_order = fields("option buy_character unless p.");
    assert_eq!(by_order, q);
    let c = fields("routine extras(c: character) {\n  let p = c.");
    assert!(
        c.contains(&"debt".to_string()) && c.contains(&"played_by".to_string()),
        "{c:?}"
    );
    assert!(!c.contains(&"seat".to_string()), "a character has no seat: {c:?}");
}

#[test]
fn every_keyword_has_a_meaning_for_hover() {
    let missing: Vec<&&str> = turnscript::format::lex::KEYWORDS
        .iter()
        .filter(|k| turnscript::lsp::analysis::keyword_meaning(k).is_none())
        .collect();
    assert!(
        missing.is_empty(),
        "no one-line meaning for {missing:?} in src/lsp/keywords.rs"
    );
}

/// Issue 25: an `attempt` is a declared name (the outline, go to definition from a `forbid` line
/// of its name), and `attempt`, `out` and `including` have hover help.
#[test]
fn an_attempt_is_outlined_found_and_explained() {
    use turnscript::lsp::analysis::{Doc, Unit};

    let text = "flag full\nattempt interrupt(c) at before turn(x) when x != c { clear c.full }\nforbid interrupt(c) when not c.full because \"no die\"\nrole gm\nplay { choose pick by gm from r in characters including out of play { } }\ncharacter Ana { }\n";
    let uri: lsp_types::Uri = "file:///a.turn".parse().expect("a URI");
    let unit = Unit::new(Doc::new("a.turn".into(), uri, text.to_string(), None), |_| None);
    let outline: Vec<String> = unit.document_symbols().iter().map(|s| s.name.clone()).collect();
    assert!(outline.contains(&"interrupt".to_string()), "{outline:?}");
    let forbid_name = text.find("forbid interrupt").expect("the forbid") + "forbid ".len();
    let defs = unit.definition(forbid_name + 1);
    assert_eq!(defs.len(), 1, "{defs:?}");
    assert_eq!(defs[0].range.start.line, 1, "{defs:?}");
    for word in ["attempt", "including", "out"] {
        let at = text.find(&format!("{word} ")).expect("the word") + 1;
        let hover = unit.hover(at).map(|h| format!("{:?}", h.contents)).unwrap_or_default();
        assert!(hover.contains(word), "{word}: {hover}");
    }
}

/// After `s.` where `s` walks `sides`, the fields of the sides' blocks (and the built-in words
/// after a dot), not the characters'.
#[test]
fn fields_after_a_side_variable_are_the_sides_fields() {
    use turnscript::lsp::analysis::{Doc, Unit};

    let text = "side heroes, foes { stat init  resource momentum }\nstat hp default 1\nplay { for each s in sides { set s.init = 1 } }\n";
    let uri: lsp_types::Uri = "file:///s.turn".parse().expect("a URI");
    let opened = Doc::new("s.turn".into(), uri.clone(), text.to_string(), None);
    let at = text.find("set s.").expect("the statement") + "set s.".len();
    let edited = text.replacen("set s.init", "set s.", 1);
    let doc = Doc::new("s.turn".into(), uri, edited, Some(&opened));
    let unit = Unit::new(doc, |_| None);
    let labels: Vec<String> = unit.completion(at).into_iter().map(|i| i.label).collect();
    assert!(
        labels.contains(&"init".to_string()) && labels.contains(&"momentum".to_string()),
        "{labels:?}"
    );
    assert!(!labels.contains(&"hp".to_string()), "a side has no hp: {labels:?}");
}

/// Issue 26: hover on a routine's call shows its signature (typed parameters, what it gives);
/// `give` and `gives` have hover help.
#[test]
fn a_routine_that_gives_shows_its_signature_on_hover() {
    use turnscript::lsp::analysis::{Doc, Unit};

    let text = "routine damage(c, n: number, crit: truth) gives number { give n }\nplay { let x = damage(Ana, 2, false) }\ncharacter Ana { }\n";
    let uri: lsp_types::Uri = "file:///a.turn".parse().expect("a URI");
    let unit = Unit::new(Doc::new("a.turn".into(), uri, text.to_string(), None), |_| None);
    let call = text.find("= damage").expect("the call") + 3;
    let hover = unit
        .hover(call)
        .map(|h| format!("{:?}", h.contents))
        .unwrap_or_default();
    assert!(hover.contains("(c, n: number, crit: truth) gives number"), "{hover}");
    for word in ["gives", "give"] {
        let at = text.find(&format!("{word} ")).expect("the word") + 1;
        let hover = unit.hover(at).map(|h| format!("{:?}", h.contents)).unwrap_or_default();
        assert!(hover.contains("give"), "{word}: {hover}");
    }
}

/// Issue 27: a group (`character 3 × Goblin`) is outlined with its members; after `c.` a
/// character offers `group`, and hover explains it and `character`'s group form.
#[test]
fn a_group_is_outlined_and_c_group_is_offered_and_explained() {
    use turnscript::lsp::analysis::{Doc, Unit};

    let text = "side foes\nstat init default 0\nsetup { for each c in characters { set c.init = c.group.init } }\ncharacter 3 × Goblin { side foes }\n";
    let uri: lsp_types::Uri = "file:///g.turn".parse().expect("a URI");
    let opened = Doc::new("g.turn".into(), uri.clone(), text.to_string(), None);
    let unit = Unit::new(Doc::new("g.turn".into(), uri.clone(), text.to_string(), None), |_| None);
    let outline: Vec<String> = unit
        .document_symbols()
        .iter()
        .map(|s| format!("{} {}", s.name, s.detail.clone().unwrap_or_default()))
        .collect();
    assert!(
        outline
            .iter()
            .any(|s| s.contains("Goblin") && s.contains("Goblin 1 to Goblin 3")),
        "{outline:?}"
    );
    let at = text.find("c.group").expect("the field") + 3;
    let hover = unit.hover(at).map(|h| format!("{:?}", h.contents)).unwrap_or_default();
    assert!(hover.contains("first of c's group in play"), "{hover}");
    let at = text.find("character 3").expect("the group") + 2;
    let hover = unit.hover(at).map(|h| format!("{:?}", h.contents)).unwrap_or_default();
    assert!(hover.contains("character 3 × Goblin"), "{hover}");
    let edited = text.replacen("c.group.init", "c.", 1);
    let dot = edited.find("= c.").expect("the dot") + "= c.".len();
    let unit = Unit::new(Doc::new("g.turn".into(), uri, edited, Some(&opened)), |_| None);
    let labels: Vec<String> = unit.completion(dot).into_iter().map(|i| i.label).collect();
    assert!(labels.contains(&"group".to_string()), "{labels:?}");
}

/// The text of `range` (an LSP range) in `text`.
fn text_at<'t>(text: &'t str, range: &Value) -> &'t str {
    let offset = |p: &Value| {
        let line = p["line"].as_u64().unwrap_or(0) as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        start + p["character"].as_u64().unwrap_or(0) as usize
    };
    &text[offset(&range["start"])..offset(&range["end"])]
}

/// `text` with the edits of one file of a workspace edit made (back to front).
fn apply(text: &str, edits: &Value) -> String {
    let mut edits: Vec<&Value> = edits.as_array().into_iter().flatten().collect();
    let key = |e: &&Value| {
        (
            e["range"]["start"]["line"].as_u64(),
            e["range"]["start"]["character"].as_u64(),
        )
    };
    edits.sort_by_key(key);
    let mut out = text.to_string();
    for e in edits.into_iter().rev() {
        let old = text_at(text, &e["range"]);
        let at = old.as_ptr() as usize - text.as_ptr() as usize;
        out.replace_range(at..at + old.len(), e["newText"].as_str().unwrap_or(""));
    }
    out
}

/// Issue 28, one session as Neovim has it, in a workspace of its own: the Crisis Mode ruleset,
/// an encounter of it open in the editor and another only on disk, and another ruleset's
/// encounter. "did you mean" is in the message; references and rename of the ruleset's stat
/// reach both encounters and nothing else, and the renamed files check clean; completion offers
/// each word once and not the variable of a loop that has closed; the client closes its end
/// without `shutdown` or `exit`, and the server ends quietly with 0.
#[test]
fn a_ruleset_and_its_encounters_in_a_workspace() {
    let ws = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("lsp-workspace-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&ws);
    std::fs::create_dir_all(ws.join("rules/encounters")).expect("a workspace");
    std::fs::create_dir_all(ws.join("other")).expect("a workspace");
    let ruleset = std::fs::read_to_string("rulesets/crisis-mode.turn").expect("the ruleset");
    let encounter = std::fs::read_to_string("rulesets/encounters/crisis-mode.turn").expect("the encounter");
    let closed = encounter.replace("Rooftop standoff", "Alley");
    let write = |path: &str, text: &str| std::fs::write(ws.join(path), text).expect("a file of the workspace");
    write("rules/crisis.turn", &ruleset);
    write(
        "rules/encounters/open.turn",
        &encounter.replace("../crisis-mode.turn", "../crisis.turn"),
    );
    write(
        "rules/encounters/closed.turn",
        &closed.replace("../crisis-mode.turn", "../crisis.turn"),
    );
    write("other/own.turn", "stat finesse\nplay { }\n");
    write(
        "other/enc.turn",
        "encounter \"Elsewhere\" uses \"own.turn\"\ncharacter Eve { finesse = 1 }\n",
    );
    let encounter = encounter.replace("../crisis-mode.turn", "../crisis.turn");
    let closed = closed.replace("../crisis-mode.turn", "../crisis.turn");

    let mut c = Client::start();
    let root = ws.display().to_string();
    c.root = root.clone();
    let r_uri = c.uri("rules/crisis.turn");
    let e_uri = c.uri("rules/encounters/open.turn");
    let closed_uri = c.uri("rules/encounters/closed.turn");
    let mut out = Vec::new();
    let mut record = |name: &str, v: Value| {
        out.push(format!(
            "== {name}\n{}",
            serde_json::to_string_pretty(&v).unwrap_or_default()
        ))
    };
    let _ = c.request(
        "initialize",
        json!({"processId": null, "rootUri": format!("file://{root}"), "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": r_uri, "languageId": "turnscript", "version": 1, "text": ruleset}}),
    );
    record("didOpen ruleset: diagnostics", c.diagnostics_for(&r_uri));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": e_uri, "languageId": "turnscript", "version": 1, "text": encounter}}),
    );
    record("didOpen encounter: diagnostics", c.diagnostics_for(&e_uri));

    // A typo in the encounter: the suggestion is in the message, which every editor shows.
    let typo = encounter.replacen("{ finesse = 4 }", "{ finese = 4 }", 1);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": e_uri, "version": 2}, "contentChanges": [{"text": typo}]}),
    );
    let diags = c.diagnostics_for(&e_uri);
    let messages: Vec<Value> = diags
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| d["message"].clone())
        .collect();
    record("a typo in the encounter: the messages", json!(messages));
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": e_uri, "version": 3}, "contentChanges": [{"text": encounter}]}),
    );
    let _ = c.diagnostics_for(&e_uri);

    // References and rename of the ruleset's stat: the ruleset, the open encounter, the one on
    // disk; not the other ruleset's encounter.
    let per_file = |v: &Value| -> Value {
        let mut counts = std::collections::BTreeMap::new();
        for l in v.as_array().into_iter().flatten() {
            *counts.entry(l["uri"].as_str().unwrap_or("").to_string()).or_insert(0) += 1;
        }
        json!(counts)
    };
    let refs = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": r_uri}, "position": pos(&ruleset, "stat finesse", 0, 6), "context": {"includeDeclaration": true}}),
    );
    record("references of finesse from the ruleset, per file", per_file(&refs));
    let refs = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": e_uri}, "position": pos(&encounter, "finesse = 4", 0, 1), "context": {"includeDeclaration": true}}),
    );
    record("references of finesse from the encounter, per file", per_file(&refs));
    let rename = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": r_uri}, "position": pos(&ruleset, "stat finesse", 0, 6), "newName": "grace"}),
    );
    let changes = &rename["changes"];
    let texts = [
        ("file:///ROOT/rules/crisis.turn", &ruleset),
        ("file:///ROOT/rules/encounters/open.turn", &encounter),
        ("file:///ROOT/rules/encounters/closed.turn", &closed),
    ];
    let mut edited = Vec::new();
    for (uri, text) in texts {
        let edits = &changes[uri];
        for e in edits.as_array().into_iter().flatten() {
            assert_eq!(text_at(text, &e["range"]), "finesse", "{uri}: {e}");
        }
        edited.push(apply(text, edits));
    }
    let mut files: Vec<&String> = changes.as_object().map(|o| o.keys().collect()).unwrap_or_default();
    files.sort();
    let counts: Vec<Value> = files
        .iter()
        .map(|f| json!([f, changes[f.as_str()].as_array().map(Vec::len)]))
        .collect();
    record(
        "rename finesse to grace from the ruleset: edits per file",
        json!(counts),
    );
    // The renamed files check clean: the ruleset and both encounters. A change of the ruleset
    // publishes its diagnostics and its open encounter's; a change of an encounter, its own.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": r_uri, "version": 2}, "contentChanges": [{"text": edited[0]}]}),
    );
    let (ruleset_diags, _) = (c.diagnostics_for(&r_uri), c.diagnostics_for(&e_uri));
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": e_uri, "version": 4}, "contentChanges": [{"text": edited[1]}]}),
    );
    let open_diags = c.diagnostics_for(&e_uri);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": closed_uri, "languageId": "turnscript", "version": 1, "text": edited[2]}}),
    );
    let clean = json!({
        "ruleset": ruleset_diags,
        "closed encounter, opened": c.diagnostics_for(&closed_uri),
        "open encounter": open_diags,
    });
    record("after the rename: diagnostics", clean);

    // Completion at the start of a line in the round's block, after the loop `for each c` has
    // closed: no word twice, and no `c`; inside the loop, `c`.
    let after_loop = "        # CM-6: no deferring";
    let items = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": r_uri}, "position": pos(&edited[0], after_loop, 0, 8)}),
    );
    let labels: Vec<&str> = items
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["label"].as_str())
        .collect();
    let mut twice: Vec<&str> = labels.clone();
    twice.sort_unstable();
    let twice: Vec<&str> = twice.windows(2).filter(|w| w[0] == w[1]).map(|w| w[0]).collect();
    let inside = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": r_uri}, "position": pos(&edited[0], "forfeit c.ap", 0, 0)}),
    );
    let in_loop = inside.as_array().into_iter().flatten().any(|i| i["label"] == "c");
    record(
        "completion after a closed loop, and in a loop",
        json!({
            "labels offered twice": twice,
            "c after its loop": labels.contains(&"c"),
            "round offered": labels.iter().filter(|l| **l == "round").count(),
            "c in its loop": in_loop,
        }),
    );

    // The client goes away without `shutdown` or `exit`: a normal end.
    let (status, stderr) = c.end();
    record(
        "end of input without exit: status and standard error",
        json!({"status": status, "stderr": stderr}),
    );
    let _ = std::fs::remove_dir_all(&ws);
    insta::assert_snapshot!(out.join("\n\n"));
}

/// Issue 28: a client that closes the connection without `exit` ends the session: before
/// `initialize`, after it, or after `shutdown`, the server exits with 0 and prints nothing (it
/// printed "error: turnscript lsp: disconnected channel" and exited with 1). `exit` without
/// `shutdown` still exits with 1, as the protocol asks.
#[test]
fn a_closed_client_is_a_normal_end() {
    let ends = |steps: &[&str]| -> (Option<i32>, String) {
        let mut c = Client::start();
        for step in steps {
            match *step {
                "initialize" => {
                    let _ = c.request(
                        "initialize",
                        json!({"processId": null, "rootUri": null, "capabilities": {}}),
                    );
                    c.notify("initialized", json!({}));
                }
                "shutdown" => {
                    let _ = c.request("shutdown", Value::Null);
                }
                method => c.notify(method, Value::Null),
            }
        }
        c.end()
    };
    assert_eq!(ends(&[]), (Some(0), String::new()), "closed before initialize");
    assert_eq!(
        ends(&["initialize"]),
        (Some(0), String::new()),
        "closed after initialize"
    );
    assert_eq!(
        ends(&["initialize", "shutdown"]),
        (Some(0), String::new()),
        "closed after shutdown"
    );
    assert_eq!(ends(&["initialize", "shutdown", "exit"]), (Some(0), String::new()));
    assert_eq!(
        ends(&["initialize", "exit"]),
        (Some(1), String::new()),
        "exit without shutdown"
    );
}

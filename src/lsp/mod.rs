//! `turnscript lsp`: a language server over stdio (lsp-server and lsp-types), a front end on the
//! library: diagnostics as the document changes (the checker's messages, related spans),
//! hover, go to definition, references, completion, the outline, rename and formatting.
//! `mod.rs` holds the open documents and the message loop; `analysis.rs` answers each request as
//! a function of the files (`keywords.rs`: the keywords offered and their meanings); `text.rs`
//! turns bytes into editor positions and paths into URIs.

pub mod analysis;
pub mod keywords;
pub mod text;
pub mod transport;
pub mod workspace;

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use lsp_server::{Connection, ErrorCode, Message, Notification, ProtocolError, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _, PublishDiagnostics,
};
use lsp_types::{
    CompletionOptions, DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DocumentFormattingParams, DocumentSymbolParams, GotoDefinitionParams, HoverParams, HoverProviderCapability, OneOf,
    PublishDiagnosticsParams, ReferenceParams, RenameParams, ServerCapabilities, ServerInfo,
    TextDocumentPositionParams, TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use serde_json::Value;

use analysis::{Doc, Unit};
use text::{LineIndex, uri_path};
use transport::say;

/// The open documents, by URI.
#[derive(Default)]
pub struct Server {
    docs: HashMap<Uri, Doc>,
    /// The workspace's folder, as the client gave it at `initialize` (`rootUri`, the first
    /// workspace folder or `rootPath`): where rename and references look for encounters.
    pub root: Option<PathBuf>,
}

/// Serves on stdin and stdout until the client says `exit` or closes the connection; returns
/// the exit code: 0 after `shutdown` and `exit`, or when the client goes away (end of input
/// between messages), 1 for an `exit` without `shutdown` (as the protocol asks), an input that
/// ends inside a message or a failed read or write. A message that cannot be read is skipped
/// with a line on standard error (`transport`); the session goes on.
pub fn main() -> i32 {
    let (connection, threads) = match transport::stdio() {
        Ok(c) => c,
        Err(e) => {
            say(&format!("error: turnscript lsp: cannot start: {e}"));
            return 1;
        }
    };
    let code = match serve(&connection) {
        Ok(code) => code,
        // A client that closed the connection has ended the session: not an error.
        Err(e) if e.channel_is_disconnected() => 0,
        Err(e) => {
            say(&format!("error: turnscript lsp: {e}"));
            1
        }
    };
    drop(connection);
    // The input ended inside a message, or could not be read, or the output failed: said.
    match threads.join() {
        Err(why) => {
            say(&format!("error: turnscript lsp: {why}"));
            1
        }
        Ok(()) => code,
    }
}

/// What the server can do.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into()]),
            ..CompletionOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

fn serve(connection: &Connection) -> Result<i32, ProtocolError> {
    let init = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": ServerInfo { name: "turnscript".into(), version: Some(env!("CARGO_PKG_VERSION").into()) },
    });
    let (id, params) = connection.initialize_start()?;
    connection.initialize_finish(id, init)?;
    let mut server = Server {
        root: root_of(&params),
        ..Server::default()
    };
    let mut shut_down = false;
    // A closed channel (the client's end of input, or its output gone) ends the loop quietly.
    for msg in &connection.receiver {
        match msg {
            Message::Request(req) if req.method == "shutdown" => {
                shut_down = true;
                if connection.sender.send(Response::new_ok(req.id, ()).into()).is_err() {
                    return Ok(0);
                }
            }
            Message::Request(req) if shut_down => {
                let refused = Response::new_err(
                    req.id,
                    ErrorCode::InvalidRequest as i32,
                    "turnscript lsp has shut down: only `exit` is answered".into(),
                );
                if connection.sender.send(refused.into()).is_err() {
                    return Ok(0);
                }
            }
            Message::Request(req) => {
                let id = req.id.clone();
                // A bug in an answer costs that answer, not the session.
                let response = catch_unwind(AssertUnwindSafe(|| server.request(req))).unwrap_or_else(|_| {
                    Response::new_err(
                        id,
                        ErrorCode::InternalError as i32,
                        "turnscript lsp failed on this request".into(),
                    )
                });
                if connection.sender.send(Message::Response(response)).is_err() {
                    return Ok(0);
                }
            }
            Message::Notification(n) if n.method == "exit" => return Ok(if shut_down { 0 } else { 1 }),
            Message::Notification(n) => {
                let published = catch_unwind(AssertUnwindSafe(|| server.notification(n))).unwrap_or_default();
                for out in published {
                    if connection.sender.send(Message::Notification(out)).is_err() {
                        return Ok(0);
                    }
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(0)
}

/// The workspace's folder named in `initialize`'s params: `rootUri`, else the first of
/// `workspaceFolders`, else `rootPath`.
pub fn root_of(params: &Value) -> Option<PathBuf> {
    let uri = params["rootUri"]
        .as_str()
        .or_else(|| params["workspaceFolders"][0]["uri"].as_str());
    let path = match uri {
        Some(u) => uri_path(&u.parse().ok()?),
        None => params["rootPath"].as_str()?.to_string(),
    };
    Some(PathBuf::from(path))
}

fn params<P: serde::de::DeserializeOwned>(v: Value) -> Result<P, String> {
    serde_json::from_value(v).map_err(|e| format!("invalid params: {e}"))
}

impl Server {
    /// The document at `uri` with the ruleset it names (open, or read from disk).
    fn unit(&self, uri: &Uri) -> Option<Unit> {
        let doc = self.docs.get(uri)?.clone();
        Some(Unit::new(doc, |path| {
            self.docs
                .values()
                .find(|d| crate::project::same_file(&d.path, path))
                .cloned()
        }))
    }

    /// The unit of a document with the other encounters of its ruleset: open ones, and those
    /// in the workspace (for rename and references).
    fn unit_with_encounters(&self, uri: &Uri) -> Option<Unit> {
        let unit = self.unit(uri)?;
        let mut open: Vec<&Doc> = self.docs.values().collect();
        open.sort_by(|a, b| a.uri.as_str().cmp(b.uri.as_str()));
        let skip: Vec<&Doc> = unit.files.iter().collect();
        let encounters = workspace::encounters_of(unit.ruleset_path(), &open, &skip, self.root.as_deref());
        Some(unit.with_encounters(encounters))
    }

    /// The unit of a position's document and the byte offset of the position.
    fn at(&self, p: &TextDocumentPositionParams) -> Option<(Unit, usize)> {
        let doc = self.docs.get(&p.text_document.uri)?;
        let offset = LineIndex::new(&doc.text).offset(p.position);
        Some((self.unit(&p.text_document.uri)?, offset))
    }

    /// As [`Server::at`], with the other encounters of the ruleset.
    fn at_across(&self, p: &TextDocumentPositionParams) -> Option<(Unit, usize)> {
        let doc = self.docs.get(&p.text_document.uri)?;
        let offset = LineIndex::new(&doc.text).offset(p.position);
        Some((self.unit_with_encounters(&p.text_document.uri)?, offset))
    }

    /// Answers one request.
    pub fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        let result = self.answer(req);
        match result {
            Ok(v) => Response::new_ok(id, v),
            Err(e) => Response::new_err(id, ErrorCode::InvalidParams as i32, e),
        }
    }

    fn answer(&mut self, req: Request) -> Result<Value, String> {
        match req.method.as_str() {
            "textDocument/hover" => {
                let p: HoverParams = params(req.params)?;
                let hover = self.at(&p.text_document_position_params).and_then(|(u, o)| u.hover(o));
                Ok(json(&hover))
            }
            "textDocument/definition" => {
                let p: GotoDefinitionParams = params(req.params)?;
                let locs = self
                    .at(&p.text_document_position_params)
                    .map(|(u, o)| u.definition(o))
                    .unwrap_or_default();
                Ok(json(&locs))
            }
            "textDocument/references" => {
                let p: ReferenceParams = params(req.params)?;
                let locs = self
                    .at_across(&p.text_document_position)
                    .map(|(u, o)| u.references(o))
                    .unwrap_or_default();
                Ok(json(&locs))
            }
            "textDocument/completion" => {
                let p: lsp_types::CompletionParams = params(req.params)?;
                let items = self
                    .at(&p.text_document_position)
                    .map(|(u, o)| u.completion(o))
                    .unwrap_or_default();
                Ok(json(&items))
            }
            "textDocument/documentSymbol" => {
                let p: DocumentSymbolParams = params(req.params)?;
                let syms = self
                    .unit(&p.text_document.uri)
                    .map(|u| u.document_symbols())
                    .unwrap_or_default();
                Ok(json(&syms))
            }
            "textDocument/rename" => {
                let p: RenameParams = params(req.params)?;
                let Some((unit, offset)) = self.at_across(&p.text_document_position) else {
                    return Ok(Value::Null);
                };
                Ok(json(&unit.rename(offset, &p.new_name)?))
            }
            "textDocument/formatting" => {
                let p: DocumentFormattingParams = params(req.params)?;
                let edits = self
                    .unit(&p.text_document.uri)
                    .map(|u| u.formatting())
                    .unwrap_or_default();
                Ok(json(&edits))
            }
            other => Err(format!("turnscript lsp does not answer `{other}`")),
        }
    }

    /// Takes in one notification; returns the diagnostics to publish: of the document opened,
    /// changed or closed, and of the open encounters that name it as their ruleset (its change
    /// may change theirs); no other document is checked again.
    pub fn notification(&mut self, n: Notification) -> Vec<Notification> {
        let mut out = Vec::new();
        let changed = match n.method.as_str() {
            DidOpenTextDocument::METHOD => params::<DidOpenTextDocumentParams>(n.params).ok().map(|p| {
                let doc = p.text_document;
                self.open(doc.uri, doc.text)
            }),
            DidChangeTextDocument::METHOD => params::<DidChangeTextDocumentParams>(n.params).ok().and_then(|p| {
                // Full sync: the last change holds the whole text.
                let text = p.content_changes.into_iter().last()?.text;
                Some(self.open(p.text_document.uri, text))
            }),
            DidCloseTextDocument::METHOD => params::<DidCloseTextDocumentParams>(n.params).ok().and_then(|p| {
                let closed = self.docs.remove(&p.text_document.uri)?;
                out.push(publish(p.text_document.uri, Vec::new()));
                // Its encounters read it from disk now.
                out.extend(self.check(self.encounters_open(&closed.path)));
                None
            }),
            _ => None,
        };
        let Some(uri) = changed else {
            return out;
        };
        let mut uris = vec![uri.clone()];
        if let Some(doc) = self.docs.get(&uri) {
            uris.extend(self.encounters_open(&doc.path).into_iter().filter(|u| *u != uri));
        }
        self.check(uris)
    }

    /// The open documents whose `uses` names the file at `path`, by URI.
    fn encounters_open(&self, path: &str) -> Vec<Uri> {
        let mut uris: Vec<Uri> = self
            .docs
            .values()
            .filter(|d| workspace::uses(d, path))
            .map(|d| d.uri.clone())
            .collect();
        uris.sort_by(|a, b| a.as_str().cmp(b.as_str()));
        uris
    }

    /// The diagnostics of these open documents, to publish.
    fn check(&self, uris: Vec<Uri>) -> Vec<Notification> {
        uris.into_iter()
            .filter_map(|u| {
                let diags = self.unit(&u)?.diagnostics();
                Some(publish(u, diags))
            })
            .collect()
    }

    fn open(&mut self, uri: Uri, text: String) -> Uri {
        let path = uri_path(&uri);
        let doc = Doc::new(path, uri.clone(), text, self.docs.get(&uri));
        self.docs.insert(uri.clone(), doc);
        uri
    }
}

fn publish(uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        },
    )
}

fn json<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests;

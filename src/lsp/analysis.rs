//! What the language server answers, as plain functions of the files: a document (its path and
//! text) and, for an encounter that names its ruleset, that ruleset. No I/O here but reading a
//! named ruleset that is not open.

use lsp_types::{
    CompletionItem, CompletionItemKind, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, DocumentSymbol,
    Hover, HoverContents, Location, MarkupContent, MarkupKind, NumberOrString, Range as LspRange,
    SymbolKind as LspKind, TextEdit, Uri, WorkspaceEdit,
};
use std::collections::HashMap;
use std::ops::{ControlFlow, Range};

use super::text::{LineIndex, path_uri, word_at, words_named};
use crate::check::index::{Symbol, SymbolKind, symbols};
use crate::diag::Diag;
use crate::format::lex::{KEYWORDS, Kind, is_keyword, lex};
use crate::limits::MAX_SOURCE_BYTES;
use crate::project::Project;
use crate::source::FileId;
use crate::source::{ReadError, Span};
use crate::syntax::ast::{File, Item};
use std::sync::Arc;

pub use super::keywords::keyword_meaning;
use super::keywords::{ITEM_KEYWORDS, STATEMENT_KEYWORDS};

/// One file: its path (as the editor names it) and its text, parsed once as it changes: the
/// check, hover, completion, the outline and formatting reuse that parse.
#[derive(Clone, Debug)]
pub struct Doc {
    pub path: String,
    pub uri: Uri,
    pub text: String,
    /// The last text of it that parsed, whose names complete and outline a text being typed.
    pub parsed: Option<String>,
    /// The tree of `parsed`.
    tree: Option<Arc<File>>,
    /// The parse of `text`: the file id it was made with (the one the check gives the file: 1 in
    /// an encounter that names its ruleset, else 0), and its syntax errors (`None`: it parsed,
    /// `parsed` is `text` and `tree` its tree).
    parse: (FileId, Option<Arc<Vec<Diag>>>),
    /// The ruleset it names (`uses "PATH"`), as a path from its folder, with the byte range of
    /// the name in the text.
    pub uses: Option<(String, Range<usize>)>,
    /// The size of a text over the source limit: it is then neither kept (the text is empty)
    /// nor parsed, and its one diagnostic says so.
    pub too_large: Option<usize>,
}

impl Doc {
    pub fn new(path: String, uri: Uri, text: String, before: Option<&Doc>) -> Self {
        if text.len() > MAX_SOURCE_BYTES {
            return Doc {
                path,
                uri,
                text: String::new(),
                parsed: None,
                tree: None,
                parse: (0, None),
                uses: None,
                too_large: Some(text.len()),
            };
        }
        // Parsed with the id the check will give it, so the check takes this parse as it is.
        let id = FileId::from(crate::project::has_uses(&text));
        let (parsed, tree, errors, uses) = match crate::syntax::parse(&text, id) {
            Ok(file) => {
                let uses = uses_of(&path, &file);
                (Some(text.clone()), Some(Arc::new(file)), None, uses)
            }
            // (Only a text with `uses` in it is parsed again to find the ruleset it names.)
            Err(errors) => (
                before.and_then(|b| b.parsed.clone()),
                before.and_then(|b| b.tree.clone()),
                Some(Arc::new(errors)),
                if id == 1 { named(&path, &text) } else { None },
            ),
        };
        Doc {
            path,
            uri,
            text,
            parsed,
            tree,
            parse: (id, errors),
            uses,
            too_large: None,
        }
    }

    /// Whether the text parsed.
    pub fn parses(&self) -> bool {
        self.too_large.is_none() && self.parse.1.is_none()
    }

    /// The parse of the text as the check takes it, as file `id`: the one made as the text
    /// changed, when it was made as that file; else a new one.
    fn parse_as(&self, text: &str, id: FileId) -> Result<File, Vec<Diag>> {
        match (&self.parse, &self.tree) {
            ((made, None), Some(tree)) if *made == id && self.parses() => Ok(File::clone(tree)),
            ((made, Some(errors)), _) if *made == id => Err(errors.to_vec()),
            _ => crate::syntax::parse(text, id),
        }
    }
}

/// The ruleset a parsed encounter names, as [`named`] finds it.
fn uses_of(path: &str, file: &File) -> Option<(String, Range<usize>)> {
    file.items.iter().find_map(|item| match item {
        Item::Encounter { uses: Some(u), .. } => Some((
            crate::project::from_folder_of(path, &u.node),
            u.span.start as usize..u.span.end as usize,
        )),
        _ => None,
    })
}

/// The ruleset an encounter's text names, as a path from the encounter's folder, and where the
/// name is.
fn named(path: &str, text: &str) -> Option<(String, Range<usize>)> {
    let mut found = None;
    let _ = crate::syntax::each_item(text, 0, |item| match item {
        Item::Encounter { uses: Some(u), .. } => {
            found = Some((u.node.clone(), u.span));
            ControlFlow::Break(())
        }
        _ => ControlFlow::Continue(()),
    });
    let (written, span) = found?;
    // A `uses` that names no file (a folder, an empty path) is still named: reading it is refused
    // and said on the `uses` line, as `check` says it.
    let ruleset = crate::project::from_folder_of(path, &written);
    Some((ruleset, span.start as usize..span.end as usize))
}

/// A document with the files it is checked with: the ruleset an encounter names (first), then
/// the document itself (last).
pub struct Unit {
    pub files: Vec<Doc>,
    /// The other encounters of the ruleset (open, or in the workspace), for rename and
    /// references of a name the ruleset declares; empty unless [`Unit::with_encounters`] set it.
    pub encounters: Vec<Doc>,
    /// The ruleset the document names, when it cannot be read (a device, a FIFO, a folder, a
    /// file over the source limit or not UTF-8), and why: the document is then checked alone.
    pub unreadable: Option<(String, String)>,
}

impl Unit {
    /// A document alone, or after the ruleset it names (`open` finds an open file's text by
    /// path; otherwise the ruleset is read from disk, as `check` reads it: bounded, and only a
    /// regular file). A ruleset that is not there leaves the document alone, quietly.
    pub fn new(doc: Doc, open: impl Fn(&str) -> Option<Doc>) -> Self {
        let mut files = Vec::new();
        let mut unreadable = None;
        if let Some((path, _)) = &doc.uses {
            let ruleset = match open(path) {
                Some(r) => match r.too_large {
                    Some(_) => Err(ReadError::TooLarge(MAX_SOURCE_BYTES)),
                    None => Ok(Some(r)),
                },
                None => match crate::source::read_path(std::path::Path::new(path), MAX_SOURCE_BYTES) {
                    Ok(text) => Ok(path_uri(path).map(|uri| Doc::new(path.clone(), uri, text, None))),
                    Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                    Err(e) => Err(e),
                },
            };
            match ruleset {
                Ok(r) => files.extend(r),
                Err(e) => unreadable = Some((path.clone(), e.to_string())),
            }
        }
        files.push(doc);
        Unit {
            files,
            encounters: Vec::new(),
            unreadable,
        }
    }

    /// The ruleset of the unit, by path: the one an encounter names, or the document itself.
    pub fn ruleset_path(&self) -> &str {
        &self.files[0].path
    }

    /// The unit with the other encounters of its ruleset, which rename and references reach.
    pub fn with_encounters(mut self, encounters: Vec<Doc>) -> Self {
        self.encounters = encounters;
        self
    }

    fn doc(&self) -> &Doc {
        &self.files[self.files.len() - 1]
    }

    /// The checker's diagnostics of the document: syntax errors, else every error of the
    /// checker, with the other labels of each as related information. An error found in the
    /// ruleset an encounter names is shown at the top of the encounter.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let doc_id = (self.files.len() - 1) as u16;
        let indexes: Vec<LineIndex> = self.files.iter().map(|d| LineIndex::new(&d.text)).collect();
        if let Some(size) = self.doc().too_large {
            let d = Diag::new(
                "syntax::too_large",
                format!("this file is {size} bytes; the limit is {MAX_SOURCE_BYTES}"),
            )
            .label(Span::new(doc_id, 0, 0), "file starts here")
            .help("split the file, or check that it is the file you meant");
            return vec![self.diagnostic(&d, doc_id, &indexes)];
        }
        let mut out = Vec::new();
        if let (Some((path, why)), Some((_, at))) = (&self.unreadable, &self.doc().uses) {
            let d = Diag::new("check::uses", format!("cannot read the ruleset {path}: {why}"))
                .label(Span::new(doc_id, at.start, at.end), "")
                .help(
                    "name a ruleset file, from this file's folder; the encounter is only parsed until it can be read",
                );
            out.push(self.diagnostic(&d, doc_id, &indexes));
        }
        out.extend(self.checked(doc_id, &indexes));
        out
    }

    fn checked(&self, doc_id: u16, indexes: &[LineIndex]) -> Vec<Diagnostic> {
        let mut project = Project::new();
        for d in &self.files {
            project.add_parsed(d.path.clone(), d.text.clone(), |text, id| d.parse_as(text, id));
        }
        // An encounter without its ruleset is only parsed, as `turnscript check` does.
        let alone = self.files.len() == 1 && project.syntax_errors().is_empty() && project.is_encounter();
        let diags = match project.check() {
            Ok(_) => return Vec::new(),
            Err(_) if alone => return Vec::new(),
            Err(d) => d,
        };
        diags.iter().map(|d| self.diagnostic(d, doc_id, indexes)).collect()
    }

    fn diagnostic(&self, d: &Diag, doc_id: u16, indexes: &[LineIndex]) -> Diagnostic {
        let location = |file: u16, start: u32, end: u32| {
            let doc = self.files.get(file as usize)?;
            let range = indexes.get(file as usize)?.range(start as usize, end as usize);
            Some(Location::new(doc.uri.clone(), range))
        };
        let mut message = d.message.clone();
        // The primary label says what is wrong at the spot ("did you mean `hp`?"): it goes in
        // the message, which every editor shows (Neovim shows no related information).
        let primary = d.labels.first().map(|(_, text)| text.as_str()).unwrap_or("");
        if !primary.is_empty() {
            message = format!("{message}: {primary}");
        }
        let here = d.span().is_some_and(|s| s.file == doc_id);
        let range = match d.span() {
            Some(s) if s.file == doc_id => LineIndex::new(&self.doc().text).range(s.start as usize, s.end as usize),
            Some(s) => {
                let other = self
                    .files
                    .get(s.file as usize)
                    .map_or("another file", |f| f.path.as_str());
                message = format!("in {other}: {message}");
                LspRange::default()
            }
            None => LspRange::default(),
        };
        if let Some(h) = &d.help {
            message.push_str(&format!("\nhelp: {h}"));
        }
        // The other labels as related information (the primary too when it is in another file:
        // its place).
        let related: Vec<DiagnosticRelatedInformation> = d
            .labels
            .iter()
            .skip(usize::from(here))
            .filter(|(_, text)| !text.is_empty())
            .filter_map(|(s, text)| {
                Some(DiagnosticRelatedInformation {
                    location: location(s.file, s.start, s.end)?,
                    message: text.clone(),
                })
            })
            .collect();
        Diagnostic {
            range,
            severity: Some(DiagnosticSeverity::ERROR),
            code: Some(NumberOrString::String(d.code.to_string())),
            source: Some("turnscript".into()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            ..Diagnostic::default()
        }
    }

    /// The symbols of each file: of its text, or of the last text of it that parsed.
    fn symbols(&self) -> Vec<Vec<Symbol>> {
        self.files
            .iter()
            .map(|d| d.tree.as_deref().map(symbols).unwrap_or_default())
            .collect()
    }

    /// The declarations named by the word at `offset` of the document, fields first after a
    /// dot, with the index of the file of each.
    fn declarations_at(&self, offset: usize) -> Vec<(usize, Symbol)> {
        let Some((word, after_dot)) = word_at(&self.doc().text, offset) else {
            return Vec::new();
        };
        let mut found: Vec<(usize, Symbol)> = Vec::new();
        for (i, syms) in self.symbols().iter().enumerate() {
            for s in syms.iter().flat_map(Symbol::flatten) {
                if s.name == word.text {
                    found.push((i, s.clone()));
                }
            }
        }
        found.sort_by_key(|(_, s)| s.kind.is_field() != after_dot);
        found
    }

    /// Hover: a declared name's declaration line, kind and type; a keyword's meaning.
    pub fn hover(&self, offset: usize) -> Option<Hover> {
        let (word, _) = word_at(&self.doc().text, offset)?;
        let index = LineIndex::new(&self.doc().text);
        let range = Some(index.range(word.start, word.end()));
        let decls = self.declarations_at(offset);
        let text = if !decls.is_empty() {
            let parts: Vec<String> = decls
                .iter()
                .map(|(f, s)| {
                    // The text the symbol was read from: the file's, or its last that parsed.
                    let file = &self.files[*f];
                    let src = file.parsed.as_deref().unwrap_or(&file.text);
                    let line = declaration_text(src, s);
                    format!("```turn\n{line}\n```\n{} `{}` {}", s.kind.word(), s.name, s.detail)
                        .trim_end()
                        .to_string()
                })
                .collect();
            parts.join("\n\n---\n\n")
        } else {
            let meaning = keyword_meaning(word.text)?;
            format!("`{}`: {meaning}", word.text)
        };
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: text,
            }),
            range,
        })
    }

    /// Go to definition: where the name at `offset` is declared.
    pub fn definition(&self, offset: usize) -> Vec<Location> {
        let decls = self.declarations_at(offset);
        let after_dot = word_at(&self.doc().text, offset).is_some_and(|w| w.1);
        // After a dot only fields; elsewhere the fields only if nothing else has the name.
        let best = decls.first().map(|(_, s)| s.kind.is_field());
        decls
            .iter()
            .filter(|(_, s)| after_dot || Some(s.kind.is_field()) == best)
            .map(|(f, s)| {
                let doc = &self.files[*f];
                let range = LineIndex::new(&doc.text).range(s.span.start as usize, s.span.end as usize);
                Location::new(doc.uri.clone(), range)
            })
            .collect()
    }

    /// Every use of the declared name at `offset`, in the document and its ruleset, and for a
    /// name the ruleset declares, in the other encounters of the ruleset.
    pub fn references(&self, offset: usize) -> Vec<Location> {
        self.occurrences(offset)
            .into_iter()
            .flat_map(|(uri, ranges)| ranges.into_iter().map(move |r| Location::new(uri.clone(), r)))
            .collect()
    }

    /// The ranges, per file, of the words that name the declaration at `offset`: after a dot
    /// only when it is a field. A name the ruleset declares (the first file) is looked for in
    /// its other encounters too; one an encounter declares, in the unit's files only.
    fn occurrences(&self, offset: usize) -> Vec<(Uri, Vec<LspRange>)> {
        let decls = self.declarations_at(offset);
        let Some((file, sym)) = decls.first() else {
            return Vec::new();
        };
        let field = decls.iter().any(|(_, s)| s.kind.is_field());
        let others: &[Doc] = if *file == 0 { &self.encounters } else { &[] };
        self.files
            .iter()
            .chain(others)
            .map(|d| {
                let index = LineIndex::new(&d.text);
                let ranges = words_named(&d.text, &sym.name)
                    .into_iter()
                    .filter(|(_, after_dot)| field || !after_dot)
                    .map(|(t, _)| index.range(t.start, t.end()))
                    .collect();
                (d.uri.clone(), ranges)
            })
            .filter(|(_, r): &(Uri, Vec<LspRange>)| !r.is_empty())
            .collect()
    }

    /// Rename the declared name at `offset` everywhere it is used; an error for a new name that
    /// is not a name. (lsp-types keys the edits by `Uri`, which clippy thinks mutable: it is
    /// not changed while in the map.)
    #[allow(clippy::mutable_key_type)]
    pub fn rename(&self, offset: usize, new_name: &str) -> Result<Option<WorkspaceEdit>, String> {
        let ok = new_name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && new_name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !ok || is_keyword(new_name) {
            return Err(format!("`{new_name}` is not a name turnscript can declare"));
        }
        let occurrences = self.occurrences(offset);
        if occurrences.is_empty() {
            return Ok(None);
        }
        let mut changes = HashMap::new();
        for (uri, ranges) in occurrences {
            let edits = ranges
                .into_iter()
                .map(|r| TextEdit::new(r, new_name.to_string()))
                .collect();
            changes.insert(uri, edits);
        }
        Ok(Some(WorkspaceEdit::new(changes)))
    }

    /// Completion: after `x.` the fields; elsewhere keywords and every declared name.
    pub fn completion(&self, offset: usize) -> Vec<CompletionItem> {
        let text = &self.doc().text;
        let before = text.get(..offset).unwrap_or("");
        let partial = before.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
        let after_dot = partial.ends_with('.');
        let symbols = self.symbols();
        let mut seen = std::collections::HashSet::new();
        let mut items = Vec::new();
        // After `x.`, the type of `x` where it can be read: its parameter's type or the
        // collection it walks.
        let owner = if after_dot {
            let head = &partial[..partial.len() - 1];
            let var = &head[head
                .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
                .len()..];
            self.type_of(var, head, &symbols)
        } else {
            None
        };
        for s in symbols.iter().flatten().flat_map(Symbol::flatten) {
            if s.kind.is_field() != after_dot || !seen.insert(s.name.clone()) {
                continue;
            }
            if let Some(t) = &owner
                && s.owner.as_deref().unwrap_or("character") != t
            {
                seen.remove(&s.name);
                continue;
            }
            if matches!(s.kind, SymbolKind::Ruleset | SymbolKind::Encounter) {
                continue;
            }
            items.push(CompletionItem {
                label: s.name.clone(),
                kind: Some(completion_kind(s.kind)),
                detail: Some(format!("{} {}", s.kind.word(), s.detail).trim_end().to_string()),
                ..CompletionItem::default()
            });
        }
        if !after_dot {
            for (v, _) in variables(before) {
                if seen.insert(v.clone()) {
                    items.push(CompletionItem {
                        label: v,
                        kind: Some(CompletionItemKind::VARIABLE),
                        detail: Some("a variable in scope".into()),
                        ..CompletionItem::default()
                    });
                }
            }
        }
        if after_dot {
            for (name, what) in [
                ("side", "the side of an entity"),
                (
                    "in_play",
                    "whether an entity is in play (joined, not left, not destroyed)",
                ),
                (
                    "group",
                    "the first of a character's group in play (`character 3 × Goblin`), itself when declared alone",
                ),
                ("number", "a level's iteration number"),
            ] {
                // `group` is a character's (unless a field of that name is declared).
                let character = owner.as_deref().is_none_or(|t| t == "character");
                if (name == "group" && !character) || !seen.insert(name.to_string()) {
                    continue;
                }
                items.push(CompletionItem {
                    label: name.into(),
                    kind: Some(CompletionItemKind::FIELD),
                    detail: Some(what.into()),
                    ..CompletionItem::default()
                });
            }
        } else {
            // At the start of a line, the words that open an item (at the top level) or a
            // statement (in a block); elsewhere every keyword.
            let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
            let first_word = line[..line.len() - (before.len() - partial.len())].trim().is_empty();
            let depth = lex(before)
                .iter()
                .fold(0i32, |d, t| d + i32::from(t.is("{")) - i32::from(t.is("}")));
            let words: &[&str] = match (first_word, depth <= 0) {
                (true, true) => ITEM_KEYWORDS,
                (true, false) => STATEMENT_KEYWORDS,
                (false, _) => KEYWORDS,
            };
            // A keyword that is also a declared name (`round`, a level) is offered once.
            items.extend(
                words
                    .iter()
                    .filter(|k| seen.insert(k.to_string()))
                    .map(|k| CompletionItem {
                        label: k.to_string(),
                        kind: Some(CompletionItemKind::KEYWORD),
                        detail: keyword_meaning(k).map(str::to_string),
                        ..CompletionItem::default()
                    }),
            );
        }
        items
    }

    /// The type of entity a variable bound before the end of `before` holds: `character` or a
    /// thing's name; `None` when it cannot be read from the words.
    fn type_of(&self, var: &str, before: &str, symbols: &[Vec<Symbol>]) -> Option<String> {
        let (_, ty) = variables(before).into_iter().rev().find(|(v, _)| v == var)?;
        let ty = ty?;
        let Some(coll) = ty.strip_prefix("in ") else {
            return Some(ty);
        };
        if coll == "characters" {
            return Some("character".into());
        }
        // The sides' fields are indexed as owned by `side` (`check::index`).
        if coll == "sides" {
            return Some("side".into());
        }
        // A thing's collection, or a kept order (`order clockwise(p: player)`).
        let s = symbols
            .iter()
            .flatten()
            .flat_map(Symbol::flatten)
            .find(|s| matches!(s.kind, SymbolKind::Collection | SymbolKind::Order) && s.name == coll)?;
        match s.kind {
            SymbolKind::Collection => s.owner.clone(),
            _ => Some(
                s.detail
                    .split(": ")
                    .nth(1)
                    .map_or("character", |t| t.trim_end_matches(')'))
                    .to_string(),
            ),
        }
    }

    /// The outline of the document: its declarations, levels within levels.
    pub fn document_symbols(&self) -> Vec<DocumentSymbol> {
        let index = LineIndex::new(&self.doc().text);
        let syms = self.symbols().pop().unwrap_or_default();
        syms.iter().map(|s| document_symbol(s, &index)).collect()
    }

    /// The document formatted (`turnscript fmt`), as one edit; none for a file that does not
    /// parse or is formatted already.
    pub fn formatting(&self) -> Vec<TextEdit> {
        let doc = self.doc();
        if !doc.parses() {
            return Vec::new();
        }
        let text = &doc.text;
        // As `format` lays out a text that parses (parsed already): a byte-order mark stays first.
        let f = match text.strip_prefix(crate::syntax::BOM) {
            Some(rest) => format!("{}{}", crate::syntax::BOM, crate::format::layout(rest)),
            None => crate::format::layout(text),
        };
        if f == *text {
            Vec::new()
        } else {
            vec![TextEdit::new(LineIndex::new(text).all(), f)]
        }
    }
}

/// The variables in scope at the end of `before` within its top-level item: the item's
/// parameters (`routine claim(p: player)`, `on accepted(d)`), and the names bound by `for each
/// x`, `let x`, `as x`, `from x in` and quantifiers (`any x in`). Read from the words and the
/// braces: a loop's variable (`for each x`, `choose ... from x in`, `repeat for first x in`)
/// lives in the block the loop opens and is gone once that block has closed; any other lives to
/// the end of the block it is bound in.
fn variables(before: &str) -> Vec<(String, Option<String>)> {
    let tokens = lex(before);
    // The current item starts after the last `}` that closed a top-level block, or at the last
    // line that started at depth 0.
    let mut depth = 0usize;
    let mut item = 0;
    let mut line_start = true;
    for (i, t) in tokens.iter().enumerate() {
        if t.kind == Kind::Newline {
            line_start = true;
            continue;
        }
        if line_start && depth == 0 && t.kind != Kind::Comment {
            item = i;
        }
        line_start = false;
        if t.is("{") {
            depth += 1;
        } else if t.is("}") {
            depth = depth.saturating_sub(1);
        }
    }
    let code: Vec<_> = tokens[item..]
        .iter()
        .filter(|t| !matches!(t.kind, Kind::Newline | Kind::Comment))
        .collect();
    // Each variable with the depth of braces it lives at and how long: to the end of that block
    // (`let`, `as`, parameters), in the block its loop opens (waiting for it while the loop's
    // header is read), or within its expression (a quantifier's: until the next brace).
    let mut out: Vec<(String, Option<String>, usize, Scope)> = Vec::new();
    let mut depth = 0usize;
    let mut params = false;
    let mut seen_params = false;
    for (i, t) in code.iter().enumerate() {
        let next = code.get(i + 1);
        let prev = i.checked_sub(1).and_then(|p| code.get(p));
        if t.is("{") {
            depth += 1;
            out.retain(|v| v.3 != Scope::Expression);
            for v in out.iter_mut().filter(|v| v.3 == Scope::Loop && v.2 == depth) {
                v.3 = Scope::Block;
            }
            continue;
        }
        if t.is("}") {
            depth = depth.saturating_sub(1);
            // A loop's variable waiting for its block goes with the block it was bound in.
            out.retain(|v| match v.3 {
                Scope::Block => v.2 <= depth,
                Scope::Loop => v.2 <= depth + 1,
                Scope::Expression => false,
            });
            continue;
        }
        if t.is("(") && !seen_params && !code[..i].iter().any(|t| t.is("{")) {
            params = true;
            seen_params = true;
            continue;
        }
        if params {
            if t.is(")") {
                params = false;
            } else if t.kind == Kind::Word && !prev.is_some_and(|p| p.is(":")) {
                // `p: player`: a thing; a bare name is a character, but a param's is a number.
                let ty = match next.filter(|n| n.is(":")) {
                    Some(_) => code.get(i + 2).map(|t| t.text.to_string()),
                    None if code[0].is("param") => None,
                    None => Some("character".to_string()),
                };
                out.push((t.text.to_string(), ty, 0, Scope::Block));
            }
            continue;
        }
        if t.kind != Kind::Word || is_keyword(t.text) {
            continue;
        }
        let binder = prev.is_some_and(|p| {
            matches!(p.text, "each" | "let" | "as")
                || matches!(
                    p.text,
                    "from" | "any" | "all" | "count" | "sum" | "max" | "min" | "first" | "last"
                ) && next.is_some_and(|n| n.is("in"))
        });
        if binder {
            // `x in COLL`: marked as the collection, resolved by the caller.
            let coll = next
                .filter(|n| n.is("in"))
                .and_then(|_| code.get(i + 2))
                .map(|c| format!("in {}", c.text));
            let word = prev.map_or("", |p| p.text);
            let after_for = i.checked_sub(2).and_then(|p| code.get(p)).is_some_and(|b| b.is("for"));
            let scope = match word {
                "each" | "from" => Scope::Loop,
                "first" if after_for => Scope::Loop,
                "let" | "as" => Scope::Block,
                _ => Scope::Expression,
            };
            let at = if scope == Scope::Loop { depth + 1 } else { depth };
            out.push((t.text.to_string(), coll, at, scope));
        }
    }
    out.into_iter().map(|(name, ty, _, _)| (name, ty)).collect()
}

/// How long a variable [`variables`] finds stays in scope.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// To the end of the block it is bound in.
    Block,
    /// In the block its loop opens (and the loop's header before it).
    Loop,
    /// Within its expression (a quantifier's), taken to end at the next brace.
    Expression,
}

/// The source of a declaration for a hover: its line without its comment; for an order, a
/// policy or a thing, the whole block (its keys, preferences or fields), up to 20 lines.
fn declaration_text(src: &str, s: &Symbol) -> String {
    let at = (s.span.start as usize).min(src.len());
    let start = src.get(..at).and_then(|b| b.rfind('\n')).map_or(0, |i| i + 1);
    let line_end = |from: usize| {
        src.get(from..)
            .and_then(|a| a.find('\n'))
            .map_or(src.len(), |i| from + i)
    };
    let mut end = line_end(at);
    if matches!(s.kind, SymbolKind::Order | SymbolKind::Policy | SymbolKind::Thing) {
        let mut depth = 0;
        for t in lex(src.get(at..).unwrap_or("")) {
            match t.text {
                "{" if t.kind == Kind::Punct => depth += 1,
                "}" if t.kind == Kind::Punct => depth -= 1,
                "\n" if depth == 0 => break,
                _ => {}
            }
            if depth == 0 && t.is("}") {
                end = line_end(at + t.end());
                break;
            }
        }
        let block: Vec<&str> = src.get(start..end).unwrap_or("").lines().take(20).collect();
        return block.join("\n");
    }
    let line = src.get(start..end).unwrap_or("");
    // Without a trailing comment (a `#` outside a string).
    let comment = lex(line)
        .into_iter()
        .find(|t| t.kind == Kind::Comment)
        .map_or(line.len(), |t| t.start);
    line[..comment].trim().to_string()
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written, though deprecated.
fn document_symbol(s: &Symbol, index: &LineIndex) -> DocumentSymbol {
    let range = index.range(s.span.start as usize, s.span.end as usize);
    let children: Vec<DocumentSymbol> = s.children.iter().map(|c| document_symbol(c, index)).collect();
    DocumentSymbol {
        name: s.name.clone(),
        detail: Some(format!("{} {}", s.kind.word(), s.detail).trim_end().to_string()),
        kind: lsp_kind(s.kind),
        tags: None,
        deprecated: None,
        range,
        selection_range: range,
        children: (!children.is_empty()).then_some(children),
    }
}

fn lsp_kind(k: SymbolKind) -> LspKind {
    use SymbolKind::*;
    match k {
        Ruleset | Encounter => LspKind::FILE,
        Param | Global | Measure => LspKind::CONSTANT,
        Stat | Resource | Flag | Effect => LspKind::FIELD,
        Side | Tag | Kind | Role => LspKind::ENUM_MEMBER,
        Action | Routine | Attempt => LspKind::FUNCTION,
        Order | Policy => LspKind::OBJECT,
        Trigger => LspKind::EVENT,
        Unit => LspKind::CONSTANT,
        Thing => LspKind::STRUCT,
        Collection => LspKind::ARRAY,
        Character | Entity => LspKind::VARIABLE,
        Level | Phase | Round => LspKind::NAMESPACE,
        Decision => LspKind::INTERFACE,
    }
}

fn completion_kind(k: SymbolKind) -> CompletionItemKind {
    use SymbolKind::*;
    match k {
        Stat | Resource | Flag | Effect => CompletionItemKind::FIELD,
        Action | Routine | Attempt => CompletionItemKind::FUNCTION,
        Param | Global | Measure | Unit => CompletionItemKind::CONSTANT,
        Thing => CompletionItemKind::STRUCT,
        Trigger => CompletionItemKind::EVENT,
        Character | Entity | Collection => CompletionItemKind::VARIABLE,
        _ => CompletionItemKind::ENUM_MEMBER,
    }
}

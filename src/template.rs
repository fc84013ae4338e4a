//! `turnscript new encounter`: a commented encounter template for a ruleset, built from the
//! ruleset's own declarations. The template names its ruleset (`uses`), gives one example
//! character per side with every stat, flag and resource a character takes (each at the
//! ruleset's default, with its type and the ruleset's own comment on that line), the tags as
//! commented lines, the ruleset's options (its params set to a number, a truth value or dice)
//! commented with their defaults, the things an encounter may declare (commented out where the
//! ruleset declares its own of that kind), and a group line. It
//! checks clean and runs as written.
//!
//! The CLI only reads the ruleset, calls [`encounter_template`] and writes the result with
//! [`write_new`]; every front end may do the same.

use std::path::{Component, Path, PathBuf};

use crate::diag::Diag;
use crate::format::lex::{Kind, lex};
use crate::syntax::ast::{Expr, ExprKind, File, Item};

/// How many members the template's group line declares.
const GROUP_SIZE: usize = 3;

/// The template of an encounter named `name` for the ruleset `text`, which the encounter reaches
/// at `uses` (a path from the encounter's folder). A ruleset that does not parse is refused with
/// its diagnostics.
pub fn encounter_template(text: &str, uses: &str, name: &str) -> Result<String, Vec<Diag>> {
    let file = crate::syntax::parse(text, 0)?;
    let src = Source::new(text);
    let mut out = String::new();
    out.push_str(&format!("encounter {} uses {}\n\n", quoted(name), quoted(uses)));
    let title = file.items.iter().find_map(|i| match i {
        Item::Ruleset(n) => Some(n.node.clone()),
        _ => None,
    });
    let sides: Vec<String> = file
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Side(names, _) => Some(names.iter().map(|n| n.node.clone()).collect::<Vec<_>>()),
            _ => None,
        })
        .flatten()
        .collect();
    let roles: Vec<String> = file
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Role(names) => Some(names.iter().map(|n| n.node.clone()).collect::<Vec<_>>()),
            _ => None,
        })
        .flatten()
        .collect();
    let under = title.map_or_else(String::new, |t| format!(" for \"{t}\""));
    // The REPL plays a side by its policy: the last side's, the foes' in most rulesets.
    let auto = sides.last().map_or("SIDE", String::as_str);
    out.push_str(&format!(
        "# An encounter{under},\n\
         # written by `turnscript new encounter`. Change the cast, then play it:\n\
         #   turnscript check FILE\n\
         #   turnscript run FILE --seed 1\n\
         #   turnscript repl FILE      (`auto {auto}`: they play themselves; `answer` for the rest)\n\
         #   turnscript sim FILE -n 1000\n"
    ));
    // Who can be set to `auto` at the REPL: every side, and the roles that decide too.
    let mut who = Vec::new();
    if !sides.is_empty() {
        let s = if sides.len() == 1 { "" } else { "s" };
        who.push(format!("the side{s} {}", sides.join(", ")));
    }
    if !roles.is_empty() {
        let s = if roles.len() == 1 { "" } else { "s" };
        who.push(format!("the role{s} {}", roles.join(", ")));
    }
    if !who.is_empty() {
        out.push_str(&format!(
            "# At the REPL, `auto WHO` lets the policy play WHO: {}.\n",
            who.join("; ")
        ));
    }
    options(&file, &src, &mut out);
    // A thing's field holding a character (an option's owner, say) holds the example character of
    // the last side, the foes' in most rulesets, as the header's `auto` names.
    let owner = sides
        .last()
        .map_or_else(|| "Example".to_string(), |s| format!("Example {s}"));
    things(&file, &src, &owner, &mut out);
    let fields = character_fields(&file, &src);
    let tags = tags(&file, &src);
    out.push_str(
        "\n# One character per side, each field at the ruleset's default (type, default); uncomment\n\
         # a `tag` line to give the character that tag:\n",
    );
    let cast: Vec<Option<&String>> = if sides.is_empty() {
        vec![None]
    } else {
        sides.iter().map(Some).collect()
    };
    for side in &cast {
        let who = side.map_or_else(|| "Example".to_string(), |s| format!("Example {s}"));
        out.push_str(&format!("character {} {{\n", quoted(&who)));
        if let Some(s) = side {
            out.push_str(&format!("  side {s}\n"));
        }
        for f in &fields {
            out.push_str(&format!("  {f}\n"));
        }
        for t in &tags {
            out.push_str(&format!("  {t}\n"));
        }
        out.push_str("}\n\n");
    }
    out.push_str(&format!(
        "# A group of {GROUP_SIZE} identical characters, `Foe 1` to `Foe {GROUP_SIZE}`, each with the items given\n\
         # (fields the line leaves out take the ruleset's defaults):\n"
    ));
    let required: Vec<String> = fields
        .iter()
        .filter(|f| f.required)
        .map(|f| format!("{} = {}", f.name, f.value))
        .collect();
    let items: Vec<String> = cast
        .last()
        .copied()
        .flatten()
        .map(|s| format!("side {s}"))
        .into_iter()
        .chain(required)
        .collect();
    let body = if items.is_empty() {
        "{ }".to_string()
    } else {
        format!("{{ {} }}", items.join(", "))
    };
    out.push_str(&format!("character {GROUP_SIZE} × Foe {body}\n"));
    Ok(crate::format::layout(&out))
}

/// A name or a path as a string of the language: in quotes (a string holds no quote).
fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace(['"', '\n'], "'"))
}

/// The ruleset's text, for the source of a default and the comments beside a declaration.
struct Source<'a> {
    text: &'a str,
}

impl<'a> Source<'a> {
    fn new(text: &'a str) -> Self {
        Source { text }
    }

    /// The text an expression was written as.
    fn expr(&self, e: &Expr) -> String {
        let text = self.text.get(e.span.start as usize..e.span.end as usize).unwrap_or("");
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The line holding byte `at`: its start and end.
    fn line(&self, at: usize) -> (usize, usize) {
        let at = at.min(self.text.len());
        let start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
        let end = self.text[at..].find('\n').map_or(self.text.len(), |i| at + i);
        (start, end)
    }

    /// Whether the name at byte `at` follows the keyword `word` on its line (`param NAME`).
    fn declared_by(&self, at: usize, word: &str) -> bool {
        let (start, _) = self.line(at);
        self.text.get(start..at).is_some_and(|t| t.trim() == word)
    }

    /// The comment at the end of the line holding byte `at`, without its `#`.
    fn trailing(&self, at: usize) -> Option<String> {
        let (start, end) = self.line(at);
        let line = &self.text[start..end];
        let tokens = lex(line);
        let comment = tokens.iter().rfind(|t| t.kind == Kind::Comment)?;
        // Only a comment after code: a line that is a comment alone describes what follows.
        tokens.iter().any(|t| t.kind != Kind::Comment).then_some(())?;
        let text = comment.text.trim_start_matches('#').trim();
        (!text.is_empty()).then(|| text.to_string())
    }

    /// The comment lines right above the line holding byte `at` (none past a blank line or code).
    fn above(&self, at: usize) -> Vec<String> {
        let (start, _) = self.line(at);
        let mut out = Vec::new();
        for l in self.text[..start].lines().rev() {
            match l.trim().strip_prefix('#') {
                Some(c) => out.push(c.trim().to_string()),
                None => break,
            }
        }
        out.reverse();
        out
    }
}

/// The ruleset's options: each param without arguments, commented, with the comments above it.
fn options(file: &File, src: &Source, out: &mut String) {
    let params: Vec<(String, String, Vec<String>)> = file
        .items
        .iter()
        .filter_map(|i| match i {
            // A param written as one (not a deck's suit, which the parser writes as a param) that
            // a table sets: not a rule worked out from the state.
            Item::Param { name, args, value }
                if args.is_empty() && src.declared_by(name.span.start as usize, "param") && is_option(value) =>
            {
                let start = name.span.start as usize;
                let mut notes = src.above(start);
                notes.extend(src.trailing(start));
                Some((name.node.clone(), src.expr(value), notes))
            }
            _ => None,
        })
        .collect();
    if params.is_empty() {
        return;
    }
    out.push_str("\n# The ruleset's options, at their defaults: uncomment a line to change one for this fight.\n");
    for (name, value, notes) in params {
        for n in notes {
            out.push_str(&format!("#   {n}\n"));
        }
        out.push_str(&format!("# param {name} = {value}\n"));
    }
}

/// Whether a param's value is an option a table sets (a number, a truth value, dice), not a
/// rule worked out from the state (`party_leads = party.initiative > ...`).
fn is_option(e: &Expr) -> bool {
    match &e.node {
        ExprKind::Int(_) | ExprKind::Dec(..) | ExprKind::Bool(_) | ExprKind::Dice(_) | ExprKind::FaceDice(_) => true,
        ExprKind::Unary(_, x) => is_option(x),
        _ => false,
    }
}

/// The things an encounter may declare (not the cards of a deck), one example of each.
fn things(file: &File, src: &Source, character: &str, out: &mut String) {
    let decks: Vec<&str> = file
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Deck { name, .. } => Some(name.node.as_str()),
            _ => None,
        })
        .collect();
    // Things the rules make themselves (`create NAME`): an encounter declares none of them.
    let tokens = lex(src.text);
    let made: Vec<&str> = tokens
        .windows(2)
        .filter(|w| w[0].is("create") && w[1].kind == Kind::Word)
        .map(|w| w[1].text)
        .collect();
    // Things the ruleset declares itself (a catalogue of activities): its own are already in play.
    let own = |kind: &str| -> Vec<&str> {
        file.items
            .iter()
            .filter_map(|i| match i {
                Item::Instance { ty, name, .. } if ty.node == kind => Some(name.node.as_str()),
                _ => None,
            })
            .collect()
    };
    let mut lines = Vec::new();
    let mut by_rules = Vec::new();
    for item in &file.items {
        let Item::Thing {
            name, plural, fields, ..
        } = item
        else {
            continue;
        };
        if decks.contains(&name.node.as_str()) {
            continue;
        }
        if made.contains(&name.node.as_str()) {
            by_rules.push(name.node.clone());
            continue;
        }
        let given: Vec<String> = fields
            .iter()
            .filter_map(|f| field(f, src))
            .map(|f| {
                // A field holding a character holds the last side's example character (`character`).
                let value = if f.refers.as_deref() == Some("character") && f.value == "none" {
                    quoted(character)
                } else {
                    f.value
                };
                format!("{} = {value}", f.name)
            })
            .collect();
        let note = src
            .trailing(name.span.start as usize)
            .map_or_else(String::new, |n| format!("  # {n}"));
        let who = quoted(&format!("Example {}", name.node));
        let line = format!("{} {who} {{ {} }}{note}", name.node, given.join(", "));
        let declared = own(&name.node);
        if declared.is_empty() {
            lines.push(line);
        } else {
            // An example would add one more to play: it stays a comment under the ruleset's own.
            lines.push(format!(
                "# The ruleset declares its own {} ({}); uncomment to add one:\n# {line}",
                plural.node,
                declared.join(", ")
            ));
        }
    }
    if !lines.is_empty() {
        out.push_str(
            "\n# Things the ruleset knows besides characters, one example of each at its defaults:\n\
             # declare yours with lines like these.\n",
        );
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
    }
    if !by_rules.is_empty() {
        out.push_str(&format!(
            "\n# Made by the rules as play goes (`create`): {}.\n",
            by_rules.join(", ")
        ));
    }
}

/// One field line of the example characters.
struct Field {
    name: String,
    value: String,
    /// A stat without a default: every character must give it.
    required: bool,
    /// The type of entity a stat holds (`stat owner: character`).
    refers: Option<String>,
    /// Commented out: a start the ruleset works out for each owner (`resource NAME(c)`).
    commented: bool,
    note: String,
}

impl std::fmt::Display for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hash = if self.commented { "# " } else { "" };
        write!(f, "{hash}{} = {}  # {}", self.name, self.value, self.note)
    }
}

/// A stat, flag or resource declaration as a field line; `None` for another item.
fn field(item: &Item, src: &Source) -> Option<Field> {
    let refers = match item {
        Item::Stat { ty: Some(t), .. } => Some(t.node.clone()),
        _ => None,
    };
    let (name, ty, default, required, commented) = match item {
        Item::Stat {
            name,
            ty,
            decimals,
            default,
        } => {
            let ty = match (ty, decimals) {
                (Some(t), _) => t.node.clone(),
                (None, 0) => "number".to_string(),
                (None, d) => format!("number, {d} decimals"),
            };
            let none = if ty.starts_with("number") { "0" } else { "none" };
            match default {
                Some(d) => (name, ty, src.expr(d), false, false),
                None if ty.starts_with("number") => (name, ty, none.to_string(), true, false),
                None => (name, ty, none.to_string(), false, false),
            }
        }
        Item::Flag { name, default, .. } => {
            let d = default.as_ref().map_or_else(|| "false".to_string(), |d| src.expr(d));
            (name, "flag".to_string(), d, false, false)
        }
        Item::Resource {
            name,
            owner,
            min,
            max,
            default,
            ..
        } => {
            let bound = |w: &str, e: &Option<Box<Expr>>| e.as_ref().map(|e| format!(", {w} {}", src.expr(e)));
            let ty = format!(
                "resource{}{}",
                bound("min", min).unwrap_or_default(),
                bound("max", max).unwrap_or_default()
            );
            let d = default.as_ref().map_or_else(|| "0".to_string(), |d| src.expr(d));
            (name, ty, d, false, owner.is_some() && default.is_some())
        }
        _ => return None,
    };
    let said = src.trailing(name.span.start as usize);
    let kind = if required {
        format!("{ty}, no default: give it")
    } else {
        format!("{ty}, default {default}")
    };
    let note = match said {
        Some(s) => format!("{s} ({kind})"),
        None => format!("({kind})"),
    };
    Some(Field {
        name: name.node.clone(),
        value: default,
        required,
        refers,
        commented,
        note,
    })
}

/// Every stat, flag and resource a character takes, in declaration order.
fn character_fields(file: &File, src: &Source) -> Vec<Field> {
    file.items.iter().filter_map(|i| field(i, src)).collect()
}

/// Every tag, as a commented `tag NAME` line with the ruleset's comment.
fn tags(file: &File, src: &Source) -> Vec<String> {
    let mut out = Vec::new();
    for item in &file.items {
        let Item::Tag(names) = item else { continue };
        for n in names {
            let note = src.trailing(n.span.start as usize);
            let note = match note {
                Some(s) if names.len() == 1 => format!(": {s}"),
                _ => String::new(),
            };
            out.push(format!("# tag {}{note}", n.node));
        }
    }
    out
}

/// `to` as a path from the folder `from`, with `/` between its parts (as `uses` writes it); both
/// made absolute first. An absolute path when they share no root.
pub fn relative_path(from: &Path, to: &Path) -> String {
    let abs = |p: &Path| -> PathBuf {
        std::fs::canonicalize(p)
            .unwrap_or_else(|_| std::env::current_dir().map_or_else(|_| p.to_path_buf(), |d| d.join(p)))
    };
    let (from, to) = (abs(from), abs(to));
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return to.display().to_string();
    }
    let ups = std::iter::repeat_n("..".to_string(), a.len() - common);
    let downs = b[common..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned());
    ups.chain(downs).collect::<Vec<_>>().join("/")
}

pub use crate::files::write_new;

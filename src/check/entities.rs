//! Checking declared entities: characters (side, tags, every stat given) and things declared in an
//! encounter, and the `field = value` lines that give an entity's fields.

use super::checker::{Checker, Lazy, What};
use super::suggest::unknown;
use super::{CHARACTER, FieldKind, Sym, Ty};
use crate::diag::Diag;
use crate::syntax::ast::*;

impl Checker<'_> {
    /// Every character: known side and tags, known fields of the right kind, every stat given.
    pub(super) fn characters(&mut self, files: &[File]) {
        let mut seen: std::collections::HashMap<String, Span> = std::collections::HashMap::new();
        // Where groups are declared: a clash with one of their members says how members are named.
        let mut groups = std::collections::HashSet::new();
        for file in files {
            for item in &file.items {
                if let Item::Instance { ty, name, fields } = item {
                    self.type_name(ty);
                    self.visible_name(name);
                    if let Some(first) = seen.get(name.node.as_str()) {
                        self.err(
                            Diag::new("check::duplicate", format!("two entities are called {}", name.node))
                                .label(name.span, "again here")
                                .label(*first, "first here")
                                .help("give each its own name: answers and the trace name them"),
                        );
                    }
                    seen.insert(name.node.clone(), name.span);
                    if let Some(t) = self.decls.thing(&ty.node) {
                        if t == CHARACTER {
                            self.err(
                                Diag::new("check::wrong_kind", "declare a character with `character NAME { ... }`")
                                    .label(ty.span, "not a thing")
                                    .help("`character` declarations also take `side` and `tag`"),
                            );
                        }
                        self.given_fields(t, &name.node, fields);
                    }
                    continue;
                }
                let Item::Character(ch) = item else { continue };
                self.visible_name(&ch.name);
                self.group_count(ch);
                // Answers, the trace and the REPL name characters: two of one name would be
                // ambiguous. A group clashes at most once (its first member that does).
                let mut clashed = false;
                for member in ch.members() {
                    if let Some(first) = seen.get(member.node.as_str())
                        && !clashed
                    {
                        clashed = true;
                        let in_group = ch.group.is_some() || groups.contains(first);
                        let mut d = Diag::new("check::duplicate", format!("two characters are called {}", member.node))
                            .label(member.span, "again here")
                            .label(*first, "first here");
                        d = d.help(if in_group {
                            "a group's members are named `NAME 1` to `NAME N`: give the group or the other character another name"
                        } else {
                            "give each character its own name: answers and the trace name characters"
                        });
                        self.err(d);
                    }
                    seen.insert(member.node, member.span);
                    if ch.group.is_some() {
                        groups.insert(member.span);
                    }
                    if seen.len() == crate::limits::MAX_CHARACTERS + 1 {
                        self.err(
                            Diag::new(
                                "check::too_many",
                                format!("more than {} characters", crate::limits::MAX_CHARACTERS),
                            )
                            .label(ch.name.span, "one too many")
                            .help("split the encounter: this is far beyond a table's cast"),
                        );
                    }
                }
                self.character_items(ch);
                let given = self.given_fields(CHARACTER, &ch.name.node, &ch.fields);
                for (name, span) in &self.decls.stats_without_default {
                    if !given.contains(&name.as_str()) {
                        let d = Diag::new("check::missing_stat", format!("{} has no `{}`", ch.name.node, name))
                            .label(ch.name.span, format!("`{name}` is not given here"))
                            .label(*span, "the stat is declared here without a default")
                            .help(format!("add `{name} = N` to this character, or give the stat a default: `stat {name} default N`"));
                        self.err(d);
                    }
                }
            }
        }
    }

    /// An entity's name, which answers, policies and the trace write: not empty or blank, and
    /// without spaces at its ends (an answer is read trimmed, and the text view's columns would
    /// hide them).
    fn visible_name(&mut self, name: &Ident) {
        let n = &name.node;
        let (problem, label) = if n.trim().is_empty() {
            ("is empty or blank", "nothing to read or to answer")
        } else if n.trim() != n {
            (
                "begins or ends with a space",
                "an answer, read without them, could not name it",
            )
        } else {
            return;
        };
        self.err(
            Diag::new("check::name", format!("this name {problem}"))
                .label(name.span, label)
                .help(format!(
                    "give it a name of visible characters: `\"{}\"`, or a plain name; answers, policies and the trace name it",
                    if n.trim().is_empty() { "Big Bob" } else { n.trim() }
                )),
        );
    }

    /// `character N × NAME`: a group of 1 to `MAX_GROUP` characters (`check::group`).
    fn group_count(&mut self, ch: &CharacterDecl) {
        let Some(n) = &ch.group else { return };
        let most = crate::limits::MAX_GROUP;
        let (what, label) = if n.node < 1 {
            (
                format!("a group of {} characters declares no one", n.node),
                "no members",
            )
        } else if n.node > most as i64 {
            (
                format!("a group of {} characters is more than {most}", n.node),
                "too many",
            )
        } else {
            return;
        };
        self.err(
            Diag::new("check::group", what)
                .label(n.span, label)
                .help(format!(
                    "a group holds 1 to {most} identical characters: `character 3 × {} {{ ... }}`; for more, declare several groups under other names",
                    ch.name.node
                )),
        );
    }

    /// A character's side, tags and `absent`: known, and each given once (a second side would
    /// replace the first, a tag or `absent` twice says nothing more).
    fn character_items(&mut self, ch: &CharacterDecl) {
        let who = &ch.name.node;
        for again in ch.sides.iter().skip(1) {
            let first = &ch.sides[0];
            self.err(
                Diag::new("check::duplicate", format!("{who} is given a second side"))
                    .label(again.span, "another side here")
                    .label(first.span, "first side here")
                    .help("a character is on at most one side: keep one `side NAME`; to sort characters in more ways, declare tags (`tag NAME`)"),
            );
        }
        for side in &ch.sides {
            if !matches!(self.decls.lookup(&side.node), Some(Sym::Side(_))) {
                let d = unknown("side", &side.node, side.span, self.decls.sides.iter());
                self.err(d.help("declare it in the ruleset with `side NAME`"));
            }
        }
        for (i, tag) in ch.tags.iter().enumerate() {
            if let Some(first) = ch.tags[..i].iter().find(|t| t.node == tag.node) {
                self.err(
                    Diag::new(
                        "check::duplicate",
                        format!("the tag `{}` is given twice to {who}", tag.node),
                    )
                    .label(tag.span, "again here")
                    .label(first.span, "first here")
                    .help("keep one of them: a character has a tag or not"),
                );
                continue;
            }
            if !matches!(self.decls.lookup(&tag.node), Some(Sym::Tag(_))) {
                let d = unknown("tag", &tag.node, tag.span, self.decls.tags.iter());
                self.err(d.help("declare it in the ruleset with `tag NAME`"));
            }
        }
        for again in ch.absent.iter().skip(1) {
            self.err(
                Diag::new("check::duplicate", format!("{who} is declared `absent` twice"))
                    .label(*again, "again here")
                    .label(ch.absent[0], "first here")
                    .help("keep one `absent`"),
            );
        }
    }

    /// `field = value` lines for an entity of type `owner`: known fields of the right kind, each
    /// once, values of the field's type. Gives the names given.
    pub(super) fn given_fields<'f>(&mut self, owner: u16, who: impl What, fields: &'f [(Ident, Expr)]) -> Vec<&'f str> {
        let decls = self.decls;
        let mut given: Vec<&str> = Vec::new();
        for (f, e) in fields {
            if given.contains(&f.node.as_str()) {
                self.err(
                    Diag::new("check::duplicate", format!("`{}` is given twice for {who}", f.node))
                        .label(f.span, "given again here")
                        .help("keep one of them"),
                );
            }
            given.push(&f.node);
            match self.decls.field_of(owner, &f.node) {
                Some((i, FieldKind::Stat | FieldKind::Resource)) => {
                    self.fields_at.insert(f.span, i);
                    let want = self.decls.field_ty(i);
                    self.expect(
                        e,
                        want,
                        Lazy(|f: &mut std::fmt::Formatter<'_>| write!(f, "{}'s stat", decls.a_thing(owner))),
                    );
                }
                Some((i, FieldKind::Flag)) => {
                    self.fields_at.insert(f.span, i);
                    self.expect(
                        e,
                        Ty::Bool,
                        Lazy(|f: &mut std::fmt::Formatter<'_>| write!(f, "{}'s flag", decls.a_thing(owner))),
                    );
                }
                Some((_, FieldKind::Effect)) => {
                    self.err(
                        Diag::new(
                            "check::wrong_kind",
                            format!("`{}` is an effect: it is begun in play", f.node),
                        )
                        .label(f.span, "an effect")
                        .help(format!("begin it with `begin {} on c for N counted at ...`", f.node)),
                    );
                }
                _ if owner == CHARACTER && matches!(self.decls.field(&f.node), Some((_, FieldKind::Global))) => {
                    self.err(
                        Diag::new(
                            "check::wrong_kind",
                            format!("`{}` is a global: it belongs to no character", f.node),
                        )
                        .label(f.span, "a global")
                        .help("set a global's start with `default` in its declaration, or in `setup`"),
                    );
                }
                _ if owner == CHARACTER => {
                    let d = unknown("stat", &f.node, f.span, self.decls.field_names());
                    self.err(d.help("declare it in the ruleset with `stat NAME` or `resource NAME`"));
                }
                _ => {
                    let names = self.decls.fields_of(owner);
                    let d = unknown("field", &f.node, f.span, names.into_iter());
                    self.err(d.help(format!(
                        "declare it in `thing {}` with `stat NAME`, `resource NAME` or `flag NAME`",
                        self.decls.things[owner as usize].0
                    )));
                }
            }
        }
        given
    }
}

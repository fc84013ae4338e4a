//! The formatter's tokens: words, numbers, strings, punctuation, comments and line breaks, each
//! with its byte range. Only text that already parsed is lexed, so the lexer never has to report
//! an error; a character it does not know becomes a token of its own and is kept.

/// The words the grammar reserves or uses to open a construct (every `kw_*` rule).
pub const KEYWORDS: &[&str] = &[
    "ruleset",
    "encounter",
    "param",
    "stat",
    "resource",
    "flag",
    "side",
    "tag",
    "action",
    "order",
    "policy",
    "default",
    "setup",
    "play",
    "character",
    "characters",
    "level",
    "phase",
    "round",
    "turn",
    "repeat",
    "while",
    "until",
    "settled",
    "for",
    "each",
    "in",
    "where",
    "by",
    "if",
    "else",
    "choose",
    "option",
    "end",
    "because",
    "spend",
    "gain",
    "reset",
    "to",
    "forfeit",
    "set",
    "mark",
    "clear",
    "costs",
    "when",
    "per",
    "min",
    "max",
    "roll",
    "desc",
    "asc",
    "not",
    "and",
    "or",
    "is",
    "true",
    "false",
    "any",
    "all",
    "count",
    "sum",
    "then",
    "unit",
    "role",
    "trigger",
    "on",
    "start",
    "of",
    "kind",
    "using",
    "from",
    "rank",
    "transfer",
    "raise",
    "react",
    "elapse",
    "global",
    "routine",
    "do",
    "backwards",
    "effect",
    "begin",
    "counted",
    "at",
    "stop",
    "unless",
    "place",
    "first",
    "last",
    "before",
    "after",
    "thing",
    "create",
    "destroy",
    "as",
    "let",
    "remove",
    "measure",
    "counting",
    "down",
    "within",
    "most",
    "chosen",
    "together",
    "anew",
    "ties",
    "moment",
    "absent",
    "join",
    "leave",
    "uses",
    "secret",
    "forbid",
    "attempt",
    "out",
    "including",
    "swap",
    "deck",
    "decimals",
    "suits",
    "ranks",
    "jokers",
    "shuffle",
    "draw",
    "discard",
    "return",
    "decks",
    "no",
    "refill",
    "one",
    "take",
    "into",
    "pile",
    "with",
    "reveal",
    "revealed",
    "next",
    "ready",
    "disarm",
    "gives",
    "give",
    "none",
];

/// Whether a word is one of the grammar's keywords.
pub fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A run of letters, digits and `_`: a name, a keyword, a number or dice (`2d6kh1`).
    Word,
    /// `"..."`.
    Str,
    /// `# ...` up to the end of the line.
    Comment,
    /// Punctuation and operators: `{ } ( ) [ ] , . : = == != <= >= < > + - * /`.
    Punct,
    /// A line break.
    Newline,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: Kind,
    pub text: &'a str,
    pub start: usize,
}

impl Token<'_> {
    pub fn end(&self) -> usize {
        self.start + self.text.len()
    }
    pub fn is(&self, text: &str) -> bool {
        self.text == text && self.kind != Kind::Str && self.kind != Kind::Comment
    }
}

fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The tokens of `src`, in order; whitespace other than line breaks is dropped.
pub fn lex(src: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let bytes = src.as_bytes();
    let mut i = 0;
    while i < src.len() {
        let c = src[i..].chars().next().unwrap_or(' ');
        let start = i;
        let (kind, end) = match c {
            '\n' => (Kind::Newline, i + 1),
            ' ' | '\t' | '\r' => {
                i += 1;
                continue;
            }
            '#' => (Kind::Comment, src[i..].find('\n').map_or(src.len(), |n| i + n)),
            '"' => {
                // A string ends at the next quote (a string holds no backslash sequences and no line breaks).
                let end = src[i + 1..].find(['"', '\n']).map_or(src.len(), |n| i + 1 + n);
                let end = if bytes.get(end) == Some(&b'"') { end + 1 } else { end };
                (Kind::Str, end)
            }
            c if word_char(c) => {
                let n = src[i..].find(|c: char| !word_char(c)).unwrap_or(src.len() - i);
                (Kind::Word, i + n)
            }
            _ => {
                let two = src.get(i..i + 2).unwrap_or("");
                if matches!(two, "==" | "!=" | "<=" | ">=") {
                    (Kind::Punct, i + 2)
                } else {
                    (Kind::Punct, i + c.len_utf8())
                }
            }
        };
        // A comment keeps its text but not the spaces it ends with.
        let text = if kind == Kind::Comment {
            src[start..end].trim_end()
        } else {
            &src[start..end]
        };
        out.push(Token { kind, text, start });
        i = end;
    }
    out
}

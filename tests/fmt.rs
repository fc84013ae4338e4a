//! `turnscript fmt`: snapshots of ugly inputs (`tests/fmt/*.turn`; `err-*` files do not parse and
//! snapshot the refusal), and, over every bundled ruleset and encounter and every ```turn example
//! of the docs: formatting is idempotent, keeps every token and comment in order, and gives the
//! parser the same tree.

mod common;

use common::turn_blocks;

use std::path::Path;
use std::process::Command;

use turnscript::format::{format, lex::lex};
use turnscript::source::Sources;

fn read(path: impl AsRef<Path>) -> String {
    std::fs::read_to_string(path.as_ref()).unwrap_or_else(|e| panic!("{}: {e}", path.as_ref().display()))
}

/// The tokens and comments of a text, without layout.
fn tokens(src: &str) -> Vec<String> {
    lex(src)
        .into_iter()
        .filter(|t| t.kind != turnscript::format::lex::Kind::Newline)
        .map(|t| t.text.to_string())
        .collect()
}

/// The parsed tree of a text, spans left out (they move with the layout).
fn tree(src: &str) -> String {
    let file = turnscript::syntax::parse(src, 0).unwrap_or_else(|d| panic!("does not parse: {d:?}"));
    let debug = format!("{file:?}");
    let mut out = String::new();
    let mut rest = debug.as_str();
    while let Some(i) = rest.find("Span {") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find('}').map_or(rest.len(), |j| i + j + 1);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Formats `src` and checks the promises; returns the formatted text.
fn formats_faithfully(name: &str, src: &str) -> String {
    let once = format(src, 0).unwrap_or_else(|d| panic!("{name} does not format: {d:?}"));
    let twice = format(&once, 0).unwrap_or_else(|d| panic!("{name}, formatted, does not parse: {d:?}"));
    assert_eq!(once, twice, "{name}: formatting is not idempotent");
    assert_eq!(tokens(src), tokens(&once), "{name}: tokens or comments changed");
    assert_eq!(tree(src), tree(&once), "{name}: the parsed tree changed");
    once
}

#[test]
fn ugly_inputs() {
    insta::glob!("fmt/*.turn", |path| {
        let src = read(path);
        let name = path.file_name().unwrap_or_default().to_string_lossy().to_string();
        let shown = if name.starts_with("err-") {
            let diags = format(&src, 0).expect_err("an err- file must not parse");
            let mut sources = Sources::new();
            sources.add(format!("tests/fmt/{name}"), src.as_str());
            sources.render_all(&diags, 80, false)
        } else {
            formats_faithfully(&name, &src)
        };
        insta::assert_snapshot!(shown);
    });
}

const BUNDLED: &[&str] = &[
    "rulesets/capes.turn",
    "rulesets/crisis-mode.turn",
    "rulesets/flow-of-time.turn",
    "rulesets/legacy.turn",
    "rulesets/legends.turn",
    "rulesets/encounters/capes.turn",
    "rulesets/encounters/crisis-mode.turn",
    "rulesets/encounters/flow-of-time.turn",
    "rulesets/encounters/legacy.turn",
    "rulesets/encounters/legends.turn",
];

#[test]
fn every_bundled_file_is_formatted() {
    for path in BUNDLED {
        let src = read(path);
        let formatted = formats_faithfully(path, &src);
        assert!(formatted == src, "{path} is not formatted: run `turnscript fmt {path}`");
    }
}

#[test]
fn every_bundled_file_formats_faithfully_from_a_flattened_layout() {
    // The same files with every line's indentation and inner spacing thrown away.
    for path in BUNDLED {
        let src = read(path);
        let flat: String = src
            .lines()
            .map(|l| {
                let mut s = l.trim().to_string();
                if !s.starts_with('#') && !s.contains('"') && !s.contains('#') {
                    s = s.split_whitespace().collect::<Vec<_>>().join(" ");
                }
                s + "\n"
            })
            .collect();
        let formatted = formats_faithfully(path, &flat);
        assert_eq!(
            formatted, src,
            "{path}: flattened and formatted is not the bundled file"
        );
    }
}

#[test]
fn every_docs_example_formats_faithfully() {
    let mut formatted = 0;
    for doc in ["docs/language.md", "docs/patterns.md"] {
        let examples = turn_blocks(&read(doc));
        assert!(!examples.is_empty(), "{doc} has ```turn examples");
        for (i, block) in examples.iter().enumerate() {
            // A fragment of statements is formatted inside a play block.
            let text = if turnscript::syntax::parse(block, 0).is_ok() {
                block.clone()
            } else {
                format!("play {{\nfor each c in characters {{\n{block}}}\n}}\n")
            };
            if turnscript::syntax::parse(&text, 0).is_ok() {
                formats_faithfully(&format!("{doc} example {}", i + 1), &text);
                formatted += 1;
            }
        }
    }
    assert!(formatted >= 60, "only {formatted} docs examples were formatted");
}

fn turnscript(args: &[&str]) -> (String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_turnscript"))
        .args(args)
        .output()
        .expect("the turnscript binary runs");
    (
        String::from_utf8_lossy(&out.stderr).to_string(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn check_passes_on_the_bundled_folders() {
    let (err, code) = turnscript(&[
        "fmt",
        "--check",
        "rulesets/",
        "rulesets/encounters/",
        "rulesets/library/",
        "rulesets/library/encounters/",
    ]);
    assert_eq!((err.as_str(), code), ("", 0));
}

#[test]
fn check_names_the_files_that_would_change_and_changes_nothing() {
    let dir = std::env::temp_dir().join(format!("turnscript-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let ugly = dir.join("ugly.turn");
    let tidy = dir.join("tidy.turn");
    let broken = dir.join("broken.turn");
    std::fs::write(&ugly, "ruleset   \"U\"\nstat  a\n").expect("write");
    std::fs::write(&tidy, "ruleset \"T\"\nstat a\n").expect("write");
    std::fs::write(&broken, "ruleset \"B\"\nstat\n").expect("write");
    let (ugly_s, tidy_s, broken_s) = (
        ugly.display().to_string(),
        tidy.display().to_string(),
        broken.display().to_string(),
    );

    let (err, code) = turnscript(&["fmt", "--check", &ugly_s, &tidy_s]);
    assert_eq!(code, 1);
    assert!(err.contains(&format!("would reformat {ugly_s}")), "{err}");
    assert!(!err.contains(&format!("would reformat {tidy_s}")), "{err}");
    assert_eq!(read(&ugly), "ruleset   \"U\"\nstat  a\n", "--check changed a file");

    // Without --check the file is rewritten; a file that does not parse is refused, untouched.
    let (err, code) = turnscript(&["fmt", &ugly_s, &broken_s]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("syntax::"), "{err}");
    assert!(err.contains(&format!("{broken_s} does not parse")), "{err}");
    assert_eq!(read(&ugly), "ruleset \"U\"\nstat a\n");
    assert_eq!(read(&broken), "ruleset \"B\"\nstat\n");

    let (err, code) = turnscript(&["fmt", "--check", &dir.display().to_string()]);
    assert_eq!(code, 1, "the folder holds the broken file: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn prefixes_and_mutations_that_parse_format_faithfully() {
    // Cut short, or with one byte changed, a bundled file that still parses formats faithfully;
    // one that does not is refused, never a panic.
    let mut formatted = 0;
    let mut refused = 0;
    for path in BUNDLED {
        let src = read(path);
        let bytes = src.as_bytes();
        let mut texts: Vec<String> = (0..src.len())
            .step_by(149)
            .filter(|&i| src.is_char_boundary(i))
            .map(|i| src[..i].to_string())
            .collect();
        for (k, i) in (0..bytes.len()).step_by(211).enumerate() {
            let mut b = bytes.to_vec();
            b[i] = [b' ', b'\n', b'(', b'{', b'}', b'#', b'"', b'-'][k % 8];
            texts.extend(String::from_utf8(b).ok());
        }
        for (n, text) in texts.iter().enumerate() {
            match format(text, 0) {
                Ok(_) => {
                    formats_faithfully(&format!("{path} variant {n}"), text);
                    formatted += 1;
                }
                Err(d) => {
                    assert!(!d.is_empty(), "{path} variant {n}: refused without a diagnostic");
                    refused += 1;
                }
            }
        }
    }
    assert!(
        formatted > 50 && refused > 50,
        "{formatted} formatted, {refused} refused"
    );
}

#[test]
fn the_keyword_list_is_the_grammars() {
    // Every `kw_*` rule of the grammar is in the formatter's list (which completion, hover and
    // the editor grammar's test read too), and the list holds nothing else but `none`.
    let grammar = read("grammar/turnscript.pest");
    let words: Vec<&str> = grammar
        .lines()
        .filter_map(|l| l.strip_prefix("kw_")?.split_once("= @{ \"")?.1.split('"').next())
        .collect();
    assert!(words.len() > 100, "the grammar's keywords were read");
    for w in &words {
        assert!(
            turnscript::format::lex::is_keyword(w),
            "`{w}` is missing from KEYWORDS in src/format/lex.rs"
        );
    }
    for k in turnscript::format::lex::KEYWORDS {
        assert!(
            *k == "none" || words.contains(k),
            "`{k}` is not a keyword of the grammar"
        );
    }
}

/// `fmt FILE` writes the file whole: a new file renamed over the old one (another inode), so a
/// full disk leaves the old text, not half of the new; no temporary file is left beside it.
#[cfg(unix)]
#[test]
fn fmt_replaces_a_file_whole_and_leaves_no_temporary_file() {
    use std::os::unix::fs::MetadataExt;
    let dir = std::env::temp_dir().join(format!("turnscript-fmt-whole-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let ugly = dir.join("ugly.turn");
    std::fs::write(&ugly, "ruleset   \"U\"\nstat  a\n").expect("write");
    let before = std::fs::metadata(&ugly).expect("metadata").ino();
    let (err, code) = turnscript(&["fmt", &ugly.display().to_string()]);
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(read(&ugly), "ruleset \"U\"\nstat a\n");
    assert_ne!(
        std::fs::metadata(&ugly).expect("metadata").ino(),
        before,
        "written in place"
    );
    let left: Vec<_> = std::fs::read_dir(&dir)
        .expect("the folder lists")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n != "ugly.turn")
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Through a link, `fmt` formats the file the link names and the link stays a link; the file
/// keeps its permissions.
#[cfg(unix)]
#[test]
fn fmt_through_a_link_formats_the_linked_file_and_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("turnscript-fmt-link-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let real = dir.join("real.turn");
    let link = dir.join("link.turn");
    std::fs::write(&real, "ruleset   \"U\"\nstat  a\n").expect("write");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&real, &link).expect("a link");
    let (err, code) = turnscript(&["fmt", &link.display().to_string()]);
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(read(&real), "ruleset \"U\"\nstat a\n");
    let meta = std::fs::symlink_metadata(&link).expect("metadata");
    assert!(meta.file_type().is_symlink(), "the link was replaced by a copy");
    let mode = std::fs::metadata(&real).expect("metadata").permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    let _ = std::fs::remove_dir_all(&dir);
}

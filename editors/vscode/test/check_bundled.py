"""Checks the TextMate grammar on the bundled rulesets and encounters.

First, that every keyword of the language (the list in src/format/lex.rs) has a rule in the
grammar. Then it reads the .snap files vscode-tmgrammar-snap wrote for them (each source line, then one line per
token with its scopes) and checks, token by token:
- a line that starts with `#` is a comment from start to end;
- a string is a string;
- every keyword of the language (the list in src/format/lex.rs) that is not inside a comment or
  a string, nor the name being declared, nor a field after a dot, is highlighted as a keyword or
  a constant;
- no name that is not a keyword is highlighted as one; nothing is `invalid`.
Usage: check_bundled.py SNAP_DIR LEX_RS
"""

import json
import pathlib
import re
import sys

snap_dir, lex_rs = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
keywords = set(re.findall(r'"([a-z_]+)"', lex_rs.read_text().split("pub const KEYWORDS")[1].split("];")[0]))
assert len(keywords) > 100, "the keyword list was read"

# Every keyword of the language is highlighted by one of the grammar's keyword or constant rules.
grammar = json.loads((pathlib.Path(__file__).parent.parent / "syntaxes/turnscript.tmLanguage.json").read_text())
rules = [p["match"] for r in ("keyword", "constant") for p in grammar["repository"][r]["patterns"]]
failures = [f"the keyword `{k}` has no rule in the grammar" for k in sorted(keywords)
            if not any(re.fullmatch(r, k) for r in rules)]
checked, files = 0, 0
for snap in sorted(snap_dir.glob("*.snap")):
    files += 1
    source = None
    for n, line in enumerate(snap.read_text().splitlines(), 1):
        if line.startswith(">"):
            source = line[1:]
            continue
        m = re.match(r"#( *)(\^+) (.*)", line)
        if not m or source is None:
            continue
        start = len(m.group(1))
        text = source[start : start + len(m.group(2))]
        scopes = m.group(3)
        where = f"{snap.name}:{n}: `{text}` has `{scopes}`"
        checked += 1
        # Inside a comment or a string, a name being declared, or a field after a dot
        # (`c.side`): a keyword is not highlighted as one.
        quiet = any(s in scopes for s in ("comment", "string", "entity.name", "variable.other.property", "variable.other.declaration"))
        if "invalid" in scopes:
            failures.append(where)
        if source.lstrip().startswith("#") and text.strip() and "comment" not in scopes:
            failures.append(where + " in a comment line")
        if text.startswith('"') and "string" not in scopes:
            failures.append(where + ": a string")
        word = text.strip()
        if re.fullmatch(r"[a-z_]+", word) and not quiet:
            highlighted = any(s in scopes for s in ("keyword", "constant.language", "variable.language"))
            if word in keywords and not highlighted:
                failures.append(where + ": a keyword not highlighted")
            if word not in keywords and "keyword" in scopes and word != "tied":
                failures.append(where + ": a name highlighted as a keyword")

for f in failures:
    print(f)
print(f"{files} files, {checked} tokens checked, {len(failures)} problems")
sys.exit(1 if failures or files < 10 else 0)

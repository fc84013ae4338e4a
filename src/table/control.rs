//! The commands that say who answers and how far play goes on by itself: `auto`, `ask` and
//! `continue`.

use super::Table;
use super::commands::{Cmd, Word, bad, change, closest, list, pending, started, state, too_many, until, usage};
use super::session::{Goal, Mode, Op};
use crate::diag::Diag;

/// `auto WHO [POLICY]` or `ask WHO`.
pub(super) fn parse_mode(repl: &Table, ws: &[Word], head: (usize, usize), name: &str) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    let p = &st.program;
    let Some(w) = ws.get(1).copied() else {
        return Err(bad(
            "repl::missing_value",
            format!("`{name}` needs a side, role or character"),
            head,
            "whose decisions?",
        )
        .help(format!(
            "usage: {}; the sides are: {}; the roles: {}",
            usage(name),
            list(&p.sides),
            list(&p.roles)
        )));
    };
    let known = matches!(w.2, "all" | "single")
        || p.sides.iter().any(|s| s == w.2)
        || p.roles.iter().any(|r| r == w.2)
        || st.character(w.2).is_some();
    if !known {
        let mut names: Vec<&str> = vec!["all", "single"];
        names.extend(p.sides.iter().map(String::as_str));
        names.extend(p.roles.iter().map(String::as_str));
        names.extend(p.characters.iter().map(|c| c.name.as_str()));
        let d = bad(
            "repl::unknown_chooser",
            format!("no side, role or character is called `{}`", w.2),
            (w.0, w.1),
            "not a chooser here",
        );
        let all = format!(
            "the sides are: {}; the roles: {}; or a character, `all`, `single`",
            list(&p.sides),
            list(&p.roles)
        );
        return Err(match closest(w.2, names) {
            Some(c) => d.help(format!("did you mean `{c}`? {all}")),
            None => d.help(all),
        });
    }
    let mode = if name == "ask" {
        too_many(ws, 2, usage(name))?;
        Mode::Ask
    } else {
        too_many(ws, 3, usage(name))?;
        match ws.get(2).copied() {
            None => Mode::Auto(None),
            Some(pw) => {
                if p.policy(pw.2).is_none() {
                    let mut names: Vec<&str> = vec!["first", "random"];
                    names.extend(p.policies.iter().map(|x| x.name.as_str()));
                    return Err(bad(
                        "repl::unknown_policy",
                        format!("no policy is called `{}`", pw.2),
                        (pw.0, pw.1),
                        "not a policy",
                    )
                    .help(format!("the policies are: {}", names.join(", "))));
                }
                Mode::Auto(Some(pw.2.to_string()))
            }
        }
    };
    if started(repl) || st.pending().is_some() {
        pending(st, head)?;
    }
    Ok(change(vec![Op::Mode {
        target: w.2.to_string(),
        mode,
    }]))
}

/// `continue [until LEVEL=N]`.
pub(super) fn parse_continue(repl: &Table, ws: &[Word], head: (usize, usize)) -> Result<Cmd, Diag> {
    let st = state(repl, head)?;
    let pd = pending(st, head)?;
    let (goal, used) = match ws.get(1).copied() {
        None => (Goal::Continue(None), 1),
        Some(w) if w.2 == "until" => (Goal::Continue(Some(until(st, ws, w, "continue")?)), 3),
        Some(w) => {
            return Err(bad(
                "repl::bad_continue",
                format!("`continue {}` is not a way to go on", w.2),
                (w.0, w.1),
                "expected `until`",
            )
            .help(format!("usage: {}", usage("continue"))));
        }
    };
    too_many(ws, used, usage("continue"))?;
    // `continue` answers only decisions that answer themselves, this one too.
    if !st
        .modes
        .answers_itself(&st.program, pd.chooser, pd.options.len(), pd.refused.len())
    {
        let names = super::modes::auto_names(&st.program, pd.chooser);
        let who = names.first().copied().unwrap_or("this chooser");
        let autos: Vec<String> = names.iter().map(|n| format!("`auto {}`", as_word(n))).collect();
        return Err(bad(
            "repl::not_auto",
            format!(
                "the pending decision is {}, and {who} is not set to `auto`",
                possessive(who)
            ),
            head,
            "would answer it behind their back",
        )
        .help(format!(
            "`answer OPTION` answers it; {} (or `auto all`) lets the policy play {} decisions, then `continue`",
            autos.join(" or "),
            possessive(who)
        )));
    }
    Ok(Cmd::Change { ops: Vec::new(), goal })
}

/// A name as a command writes it: in quotes when it holds a blank (`"Kobold 1"`).
pub(super) fn as_word(name: &str) -> String {
    if name.contains(char::is_whitespace) {
        format!("\"{name}\"")
    } else {
        name.to_string()
    }
}

/// `Ana's`, `the players'`: a name with the possessive.
fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

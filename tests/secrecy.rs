//! Secrecy: until a secret choice is revealed, nothing names what was chosen or attempted.
//!
//! Behaviours first (refusals held for the reveal, secret choices nested in a secret option),
//! each in exact order; then the invariant over every ruleset that chooses in secret.

mod common;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{run_texts, turn_blocks};
use serde_json::Value;
use turnscript::RunOptions;
use turnscript::diag::Diag;
use turnscript::project::parse_answers;
use turnscript::runtime::decide::{DecisionPoint, Scripted};
use turnscript::trace::{DecidedBy, JsonLines, Text};
use turnscript::{Decider, Event, Program, Project, Sink, World};

/// Runs one file (ruleset and cast) with answers, one a line: (stdout, stderr, exit code).
fn run(src: &str, answers: &str, jsonl: bool) -> (String, String, i32) {
    let files = vec![("t.turn".to_string(), src.to_string())];
    run_texts(&files, parse_answers(answers, "answers"), &RunOptions::default(), jsonl)
}

/// The text trace without its first line and the `final` lines.
fn body(out: &str) -> Vec<&str> {
    out.lines().skip(1).filter(|l| !l.starts_with("final")).collect()
}

const DIALS: &str = "flag stressed\nstat dial default 0\n\
    forbid peek(c) because \"{c} may not look at another's dial\"\n\
    play {\n  together for each c in characters {\n    choose dial by c in secret {\n\
    option red unless c.stressed because \"{c} is stressed\" { set c.dial = 3 }\n\
    option blue { set c.dial = 1 }\n    }\n  }\n}\n\
    character Luke { stressed = true }\ncharacter Mara { }\n";

#[test]
fn a_refused_secret_answer_is_traced_at_the_reveal_not_before() {
    let (out, err, code) = run(DIALS, "red\npeek\nblue\nred\n", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        vec![
            "together Luke, Mara",
            // Luke tries red, then to peek, then picks blue: the table sees only that he chose.
            "  secret   Luke  dial       chosen in secret",
            "  secret   Mara  dial       chosen in secret",
            // At the reveal, each choice with what was refused on the way to it.
            "  refused  Luke  dial       red: Luke is stressed",
            "  refused  Luke  dial       peek: Luke may not look at another's dial",
            "  choose   Luke  dial       blue     of blue",
            "  set      Luke  dial       = 1",
            "  choose   Mara  dial       red      of red|blue",
            "  set      Mara  dial       = 3",
            "end of encounter: complete",
        ]
    );
}

const STRIKES: &str = "resource hp min 0\nflag guarded\nstat foe: character\n\
    play {\n  together for each c in characters {\n    choose plan by c in secret {\n\
    option strike {\n\
    choose target by c in secret from t in characters where t != c\n\
    unless t.guarded because \"{t} is guarded\" {\n\
    set c.foe = t\n          spend 1 t.hp\n        } or hold\n        gain 1 c.hp\n      }\n\
    option guard { mark c.guarded }\n    }\n    gain 1 c.hp\n  }\n}\n\
    character Ana { hp = 3 }\ncharacter Bo { hp = 3, guarded = true }\ncharacter Cy { hp = 3 }\n";

#[test]
fn a_secret_choice_at_the_head_of_a_secret_option_is_made_with_the_pick() {
    // Ana strikes and picks her target at her moment (Bo first: refused, he is guarded); Bo
    // guards; Cy strikes but holds. The table sees three choices made, then everything.
    let (out, err, code) = run(STRIKES, "strike\nBo\nCy\nguard\nstrike\nhold\n", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        vec![
            "together Ana, Bo, Cy",
            "  secret   Ana   plan       chosen in secret",
            "  gain     Ana   hp         +1 → 4",
            "  secret   Bo    plan       chosen in secret",
            "  gain     Bo    hp         +1 → 4",
            "  secret   Cy    plan       chosen in secret",
            "  gain     Cy    hp         +1 → 4",
            "  choose   Ana   plan       strike   of strike|guard",
            "  refused  Ana   target     Bo: Bo is guarded",
            "  choose   Ana   target     Cy       of Cy|hold",
            "  set      Ana   foe        = Cy",
            "  spend    Cy    hp         -1 → 3",
            "  gain     Ana   hp         +1 → 5",
            "  choose   Bo    plan       guard    of strike|guard",
            "  mark     Bo    guarded",
            "  choose   Cy    plan       strike   of strike|guard",
            "  choose   Cy    target     hold     of Ana|hold",
            "  gain     Cy    hp         +1 → 4",
            "end of encounter: complete",
        ]
    );
}

#[test]
fn nothing_worked_out_only_because_of_a_secret_answer_may_roll() {
    // A nested secret choice is asked only when its option is picked, a refusal's text and a
    // `forbid` condition are worked out only when an answer is refused: a roll there would make
    // the dice everyone rolls afterwards depend on the secret.
    let nested = |ask: &str| {
        format!(
            "stat foe: character\norder lucky(x) {{ roll d6 desc until settled }}\nplay {{\n  together for each c in characters {{\n\
             choose plan by c in secret {{\n      option strike {{\n{ask}\n      }}\n      option wait\n    }}\n  }}\n}}\n\
             character Ana {{ }}\ncharacter Bo {{ }}\n"
        )
    };
    let rolled = ["check::rolled".to_string()];
    let from = "choose target by c in secret from t in characters";
    assert_eq!(
        codes(&nested(&format!("{from} where d6 > 2 {{ set c.foe = t }}"))),
        rolled
    );
    assert_eq!(codes(&nested(&format!("{from} by lucky {{ set c.foe = t }}"))), rolled);
    assert_eq!(
        codes(&nested(&format!(
            "{from} unless d6 > 5 because \"no\" {{ set c.foe = t }}"
        ))),
        rolled
    );
    assert_eq!(
        codes(&nested(
            "choose how by c in secret { option high when d6 > 3 option low }"
        )),
        rolled
    );
    // The same choice made openly at the reveal, or rolling in its block, may roll.
    assert_eq!(
        codes(&nested(&format!(
            "{from} {{ set c.foe = t  if d6 > 3 {{ set c.foe = c }} }}"
        ))),
        Vec::<String>::new()
    );
    assert_eq!(
        codes(&nested("choose how by c { option high when d6 > 3 option low }")),
        Vec::<String>::new()
    );
    let text = "flag down\nplay { for each c in characters { choose ally by c from t in characters \
                unless t.down because \"{t} is down ({d6})\" { } } }\ncharacter Ana { }\n";
    assert_eq!(codes(text), rolled);
    let forbid = "forbid peek(c) when d6 > 3 because \"{c} is seen\"\nplay { }\ncharacter Ana { }\n";
    assert_eq!(codes(forbid), rolled);
}

#[test]
fn a_secret_choice_with_nothing_to_choose_is_traced_at_the_reveal() {
    // Every candidate refused: nothing is asked, and nothing is traced for Luke until the reveal,
    // where his `no_choice` comes in its place (with the answer meant for it, refused).
    let src = "flag down\nplay {\n  together for each c in characters {\n\
        choose ally by c in secret from t in characters where t != c unless t.down because \"{t} is down\" { }\n\
        }\n}\ncharacter Luke { }\ncharacter Mara { down = true }\n";
    let (out, err, code) = run(src, "Mara\nLuke\n", false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        body(&out),
        vec![
            "together Luke, Mara",
            "  secret   Mara  ally       chosen in secret",
            "  refused  Luke  ally       Mara: Mara is down",
            "  no pick  Luke  ally       Mara: Mara is down",
            "  choose   Mara  ally       Luke     of Luke",
            "end of encounter: complete",
        ]
    );
}

/// The codes of the errors the checker reports for a file (none: it checks).
fn codes(src: &str) -> Vec<String> {
    let files = vec![("t.turn".to_string(), src.to_string())];
    let (report, _) = common::check_texts(&files);
    report
        .lines()
        .filter(|l| l.starts_with("check::"))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_secret_choice_in_a_secret_option_is_made_with_the_pick_only_at_the_head_of_its_block() {
    let within = |option_block: &str| {
        format!(
            "resource ap min 0\nstat foe: character\nflag ready\nplay {{\n  together for each c in characters {{\n\
             choose plan by c in secret {{\n      option strike {{\n{option_block}\n      }}\n      option wait\n    }}\n  }}\n}}\n\
             character Ana {{ ap = 1 }}\ncharacter Bo {{ }}\n"
        )
    };
    let pick = "choose target by c in secret from t in characters where t != c { set c.foe = t }";
    let how = "choose how by c in secret { option high option low }";
    let nested = ["check::secret_nested".to_string()];
    // At the head, one or several, each with secret choices at the head of its own options.
    assert_eq!(codes(&within(pick)), Vec::<String>::new());
    assert_eq!(
        codes(&within(&format!("{pick}\n{how}\nspend 1 c.ap"))),
        Vec::<String>::new()
    );
    assert_eq!(
        codes(&within(
            "choose how by c in secret { option high { choose target by c in secret from t in characters { set c.foe = t } } }"
        )),
        Vec::<String>::new()
    );
    // In a `together` walk of its own, revealed at that walk's end.
    assert_eq!(
        codes(&within(
            "spend 1 c.ap\ntogether for each d in characters { choose target by d in secret from t in characters { set d.foe = t } }"
        )),
        Vec::<String>::new()
    );
    // Anywhere else: after another statement, inside `if`, a loop, or an open choice's option.
    assert_eq!(codes(&within(&format!("spend 1 c.ap\n{pick}"))), nested);
    assert_eq!(codes(&within(&format!("if c.ap > 0 {{ {pick} }}"))), nested);
    assert_eq!(codes(&within(&format!("for each d in characters {{ {how} }}"))), nested);
    assert_eq!(
        codes(&within(&format!("choose open by c {{ option go {{ {how} }} }}"))),
        nested
    );
    assert_eq!(codes(&within(&format!("{how}\nmark c.ready\n{pick}"))), nested);
    // The same holds in the block of a secret `choose ... from` and of its way out.
    let from = |body: &str, decline: &str| {
        format!(
            "stat foe: character\nplay {{\n  together for each c in characters {{\n\
             choose target by c in secret from t in characters {{ {body} }} or hold {{ {decline} }}\n  }}\n}}\n\
             character Ana {{ }}\n"
        )
    };
    assert_eq!(
        codes(&from(&format!("{how}\nset c.foe = t"), how)),
        Vec::<String>::new()
    );
    assert_eq!(codes(&from(&format!("set c.foe = t\n{how}"), "")), nested);
    assert_eq!(codes(&from("", &format!("set c.foe = c\n{how}"))), nested);
}

// ---------------------------------------------------------------------------------------------
// The invariant, over every ruleset that chooses in secret: until a secret choice is revealed, no
// event (JSON lines or the GM's text view) names what was chosen or attempted there. The runs are
// instrumented, not hard-coded: a decider records every answer given at a decision asked in
// secret (and how many events had been traced then), a sink records each event's JSON line and
// text; what must not be named is whatever those answers named.

/// Each event as JSON and as the GM's text view printed it.
struct Probe {
    json: JsonLines,
    text: Text,
    events: Vec<(Value, String)>,
    seen: Arc<AtomicUsize>,
}

impl Sink for Probe {
    fn event(&mut self, w: &World<'_>, e: &Event<'_>) {
        let (j, t) = (self.json.out().len(), self.text.out().len());
        self.json.event(w, e);
        self.text.event(w, e);
        let json = serde_json::from_str(self.json.out()[j..].trim()).expect("every event is one JSON line");
        self.events.push((json, self.text.out()[t..].to_string()));
        self.seen.fetch_add(1, Ordering::SeqCst);
    }
}

/// An answer given at a decision asked in secret: how many events had been traced then, who was
/// asked, which decision, what the answer named, whether it was taken (not refused).
#[derive(Clone, Debug)]
struct Ask {
    at: usize,
    chooser: String,
    decision: String,
    answer: String,
    picked: bool,
}

/// How the decider answers from the `from`-th answer given in secret on (counting every answer
/// given in secret, refused ones too): every decision by its first option, except those asked in
/// secret, which `vary` answers otherwise (a refused option first where there is one, then the
/// last option). Before that, the scripted answers.
#[derive(Clone, Copy)]
struct Variant {
    from: usize,
    vary: bool,
}

struct Watch {
    script: Scripted,
    variant: Option<Variant>,
    seen: Arc<AtomicUsize>,
    asks: Vec<Ask>,
    /// Answers given in secret so far; the last one was a refused option (the variant's try).
    secret: usize,
    tried: bool,
}

impl Watch {
    fn varying(&self) -> Option<Variant> {
        self.variant.filter(|v| self.secret >= v.from)
    }

    fn record(&mut self, w: &World<'_>, d: &DecisionPoint<'_>, i: usize) {
        if d.secret.is_none() {
            return;
        }
        self.secret += 1;
        self.asks.push(Ask {
            at: self.seen.load(Ordering::SeqCst),
            chooser: w.who_name(d.chooser).to_string(),
            decision: w.decisions[d.decision as usize].clone(),
            answer: d.key(i).map(|k| w.option_name(k).to_string()).unwrap_or_default(),
            picked: i < d.options.len(),
        });
    }
}

impl Decider for Watch {
    fn decide(&mut self, w: &World<'_>, d: &DecisionPoint<'_>) -> Result<(usize, DecidedBy), Diag> {
        let (i, by) = match self.varying() {
            None => self.script.decide(w, d)?,
            Some(_) if d.secret.is_none() => (0, DecidedBy::Policy),
            Some(Variant { vary: false, .. }) => (0, DecidedBy::Policy),
            Some(Variant { vary: true, .. }) => {
                let try_refused = !self.tried && !d.refused.is_empty();
                self.tried = try_refused;
                match try_refused {
                    true => (d.options.len(), DecidedBy::Answer),
                    false => (d.options.len() - 1, DecidedBy::Policy),
                }
            }
        };
        self.record(w, d, i);
        Ok((i, by))
    }

    fn policy(&self, chooser: turnscript::compile::ir::Who) -> Option<turnscript::compile::ir::PolicyRef> {
        match self.varying() {
            None => self.script.policy(chooser),
            Some(_) => None,
        }
    }

    fn attempt(&mut self, w: &World<'_>, d: &DecisionPoint<'_>) -> Option<usize> {
        let j = match self.varying() {
            None => self.script.attempt(w, d),
            Some(Variant { vary, .. }) => (vary && d.secret.is_some() && !d.refused.is_empty()).then_some(0),
        }?;
        self.record(w, d, d.options.len() + j);
        Some(j)
    }
}

/// One instrumented run: its events, the answers given in secret, whether it stopped on an error.
struct Traced {
    events: Vec<(Value, String)>,
    asks: Vec<Ask>,
    failed: bool,
}

fn traced(p: &Program, opts: &RunOptions, variant: Option<Variant>) -> Traced {
    let prepared = opts.prepare(p).unwrap_or_else(|e| panic!("options: {e:?}"));
    let seen = Arc::new(AtomicUsize::new(0));
    let mut probe = Probe {
        json: JsonLines::new(Vec::new()),
        text: Text::new(p),
        events: Vec::new(),
        seen: seen.clone(),
    };
    let mut watch = Watch {
        script: prepared.decider,
        variant,
        seen,
        asks: Vec::new(),
        secret: 0,
        tried: false,
    };
    // A run that stops on an error is scanned as far as it went.
    let failed = turnscript::run(p, &prepared.config, &mut watch, &mut probe).is_err();
    Traced {
        events: probe.events,
        asks: watch.asks,
        failed,
    }
}

/// The `together` walks of a run, found by their events: for each event, the innermost walk it
/// is in (numbered in the order they start); for each answer given in secret, the walk it was
/// given in (the innermost one open then).
struct Walks {
    of_event: Vec<Option<usize>>,
    of_ask: Vec<Option<usize>>,
}

fn walks(t: &Traced) -> Walks {
    let (mut open, mut started) = (Vec::new(), 0);
    let mut of_event = Vec::with_capacity(t.events.len());
    let mut before = Vec::with_capacity(t.events.len() + 1);
    for (e, _) in &t.events {
        before.push(open.last().copied());
        if e["event"] == "together_start" {
            open.push(started);
            started += 1;
        }
        of_event.push(open.last().copied());
        if e["event"] == "together_end" {
            open.pop();
        }
    }
    before.push(open.last().copied());
    let of_ask = t.asks.iter().map(|a| before.get(a.at).copied().flatten()).collect();
    Walks { of_event, of_ask }
}

/// Where each answer given in secret is revealed: the `decision` that took it, or the `refused`
/// that refused it, once its walk's members have all had their moment (after the last answer
/// given in secret in the walk and the last `secret` event of the walk); in a run stopped by an
/// error before then, the end of the trace. A walk's reveals come in the order the answers were
/// given (each after the one before).
fn reveals(t: &Traced, w: &Walks) -> Result<Vec<usize>, String> {
    let moments_over = |walk: Option<usize>| {
        let asked = (0..t.asks.len()).filter(|&b| w.of_ask[b] == walk).map(|b| t.asks[b].at);
        let told = (0..t.events.len()).filter(|&i| w.of_event[i] == walk && t.events[i].0["event"] == "secret");
        asked.chain(told.map(|i| i + 1)).max().unwrap_or(0)
    };
    let mut shown: Vec<usize> = Vec::with_capacity(t.asks.len());
    for (k, a) in t.asks.iter().enumerate() {
        let (kind, key) = if a.picked {
            ("decision", "picked")
        } else {
            ("refused", "option")
        };
        // After the walk's moments, and after the reveal of the answer given before in the walk.
        let previous = (0..k).rev().find(|&b| w.of_ask[b] == w.of_ask[k]).map(|b| shown[b] + 1);
        let from = moments_over(w.of_ask[k]).max(a.at).max(previous.unwrap_or(0));
        let at = (from..t.events.len())
            .find(|&i| {
                let e = &t.events[i].0;
                e["event"] == kind && e["actor"] == *a.chooser && e["decision"] == *a.decision && e[key] == *a.answer
            })
            .or(t.failed.then_some(t.events.len()))
            .ok_or_else(|| {
                format!("the answer {a:?} given in secret is not traced at its walk's reveal, in the order given")
            })?;
        shown.push(at);
    }
    Ok(shown)
}

/// Where the reveal of the walk of the `k`-th answer given in secret begins: its first reveal.
fn reveal_start(w: &Walks, shown: &[usize], k: usize) -> usize {
    (0..shown.len())
        .filter(|&b| w.of_ask[b] == w.of_ask[k])
        .map(|b| shown[b])
        .min()
        .unwrap_or(shown[k])
}

/// Who an event is about (`actor`, `actors`, `chooser`): the only places a name chosen in secret
/// may appear before the reveal, since it is also a character's name. Counted, as often as it
/// appears there.
fn as_who(e: &Value, name: &str) -> usize {
    let one = |k: &str| usize::from(e[k] == *name);
    let list = e["actors"]
        .as_array()
        .map_or(0, |a| a.iter().filter(|x| **x == *name).count());
    one("actor") + one("chooser") + list
}

/// How often `name` appears as a whole value anywhere in `v`.
fn mentions(v: &Value, name: &str) -> usize {
    match v {
        Value::String(s) => usize::from(s == name),
        Value::Array(a) => a.iter().map(|x| mentions(x, name)).sum(),
        Value::Object(o) => o.values().map(|x| mentions(x, name)).sum(),
        _ => 0,
    }
}

/// How often `name` appears as a word in a piece of the text view.
fn words(text: &str, name: &str) -> usize {
    text.split(|c: char| c.is_whitespace() || ",:|()=→".contains(c))
        .filter(|w| *w == name)
        .count()
}

/// Where each answer given in secret is revealed in a run that holds choices until a `reveal`
/// (`in secret until revealed`): the first `decision` that took it (or `refused` that refused
/// it) after it was given, and after the `together` walk it was given in has ended, that is not
/// an earlier answer's reveal; the end of the trace for one never revealed (so one shown inside
/// its walk is a leak). The rulesets scanned reveal their held choices after the walk (a `reveal`
/// inside the walk would be legitimate, and this scan would report it). A chooser's choices of
/// one decision come out in the order made, so the first match is its own.
fn reveals_held(t: &Traced) -> Vec<usize> {
    let w = walks(t);
    let mut claimed = vec![false; t.events.len()];
    let mut shown = Vec::with_capacity(t.asks.len());
    for (k, a) in t.asks.iter().enumerate() {
        let (kind, key) = if a.picked {
            ("decision", "picked")
        } else {
            ("refused", "option")
        };
        let walk_end = w.of_ask[k].map_or(0, |walk| {
            (a.at..t.events.len())
                .find(|&i| w.of_event[i] == Some(walk) && t.events[i].0["event"] == "together_end")
                .unwrap_or(t.events.len())
        });
        let at = (a.at.max(walk_end)..t.events.len()).find(|&i| {
            let e = &t.events[i].0;
            !claimed[i]
                && e["event"] == kind
                && e["actor"] == *a.chooser
                && e["decision"] == *a.decision
                && e[key] == *a.answer
        });
        if let Some(i) = at {
            claimed[i] = true;
        }
        shown.push(at.unwrap_or(t.events.len()));
    }
    shown
}

/// In a run that holds choices: a reveal of another choice (its `decision`, `refused` or
/// `no_choice`, which list every option offered) may name an answer still held; nothing else
/// may until that answer's own reveal.
fn another_reveal(t: &Traced, shown: &[usize], k: usize, i: usize) -> bool {
    let e = &t.events[i].0;
    let a = &t.asks[k];
    ["decision", "refused", "no_choice"].contains(&e["event"].as_str().unwrap_or(""))
        && (e["actor"] != *a.chooser || e["decision"] != *a.decision || shown.contains(&i))
}

/// Every place a run names an answer given in secret before its reveal (`held`: the run holds
/// choices until a `reveal`).
fn leaks(t: &Traced, held: bool) -> Vec<String> {
    let w = walks(t);
    let shown = match held {
        true => reveals_held(t),
        false => match reveals(t, &w) {
            Ok(s) => s,
            Err(e) => return vec![e],
        },
    };
    // In a run that holds choices, an entity picked in secret is also an entity in play, named by
    // the order walked, the fields that hold it, `final`: for those picks the scan's other half,
    // that nothing before the reveal changes with the answer, is the check.
    let entities: Vec<&str> = match held {
        true => t
            .events
            .iter()
            .filter(|e| e.0["event"] == "final")
            .flat_map(|e| e.0["entities"].as_array().into_iter().flatten())
            .filter_map(|x| x["name"].as_str())
            .collect(),
        false => Vec::new(),
    };
    let mut out = Vec::new();
    for (k, a) in t.asks.iter().enumerate() {
        if entities.contains(&a.answer.as_str()) {
            continue;
        }
        let until = if held { shown[k] } else { reveal_start(&w, &shown, k) };
        for i in a.at..until {
            if held && another_reveal(t, &shown, k, i) {
                continue;
            }
            let (json, text) = &t.events[i];
            let allowed = as_who(json, &a.answer);
            if mentions(json, &a.answer) > allowed || words(text, &a.answer) > allowed {
                out.push(format!(
                    "`{}`, answered by {} at `{}` in secret, is named before its reveal (event {i}): {json} / {}",
                    a.answer,
                    a.chooser,
                    a.decision,
                    text.trim()
                ));
            }
        }
    }
    out
}

/// Every run of `p` a scan makes: the one `opts` asks for, then, for each answer given in secret
/// in it, the run that answers the same way up to there and otherwise from there on, in two ways
/// (`vary` false and true). The pair must agree, event for event, until that answer's reveal
/// begins: nothing before the reveal may depend on what was answered in secret.
fn scan(name: &str, p: &Program, opts: &RunOptions, held: bool) -> (usize, Vec<String>) {
    let base = traced(p, opts, None);
    let mut problems: Vec<String> = leaks(&base, held).into_iter().map(|l| format!("{name}: {l}")).collect();
    for from in 0..base.asks.len().min(60) {
        let same = traced(p, opts, Some(Variant { from, vary: false }));
        let other = traced(p, opts, Some(Variant { from, vary: true }));
        for run in [&same, &other] {
            problems.extend(
                leaks(run, held)
                    .into_iter()
                    .map(|l| format!("{name} (varied from answer {from}): {l}")),
            );
        }
        // The reveal begins where either run first shows an answer of that walk (held: the
        // first reveal of an answer given from there on).
        let start = |t: &Traced| {
            let w = walks(t);
            if held {
                return reveals_held(t).into_iter().skip(from).min().unwrap_or(t.events.len());
            }
            match (reveals(t, &w), t.asks.len() > from) {
                (Ok(shown), true) => reveal_start(&w, &shown, from),
                _ => t.events.len(),
            }
        };
        let until = start(&same).min(start(&other));
        let differ = (0..until).find(|&i| same.events.get(i).map(|e| &e.0) != other.events.get(i).map(|e| &e.0));
        if let Some(i) = differ {
            problems.push(format!(
                "{name}: what was answered in secret from answer {from} on changes event {i}, before its reveal (event {until}): {} / {}",
                same.events[i].0,
                other.events.get(i).map_or(Value::Null, |e| e.0.clone())
            ));
        }
    }
    (base.asks.len(), problems)
}

fn compile(files: &[(String, String)]) -> Program {
    Project::load(files.iter().cloned())
        .compile()
        .unwrap_or_else(|d| panic!("{}: {d:?}", files[0].0))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A name, its files (ruleset first), and the runs to make of it.
type SecretRun = (String, Vec<(String, String)>, Vec<RunOptions>);

/// Everything that chooses in secret, with how to run it: the trace cases (`tests/cases`, with
/// their answers), the bundled rulesets (each with its encounter), and the examples of the
/// language guide and the patterns (a guide's example without a cast gets three characters).
fn secret_runs() -> Vec<SecretRun> {
    let secret = |t: &str| t.contains("in secret");
    let by_policy = |until: Option<String>| -> Vec<RunOptions> {
        (0..3)
            .map(|seed| RunOptions {
                seed,
                until: until.clone(),
                policy: Some("random".into()),
                ..RunOptions::default()
            })
            .collect()
    };
    let mut out = Vec::new();
    let mut cases: Vec<_> = std::fs::read_dir("tests/cases")
        .expect("tests/cases")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "case"))
        .collect();
    cases.sort();
    for path in cases {
        let text = read(&path.to_string_lossy());
        let (head, answers) = text.split_once("\n---\n").unwrap_or((&text, ""));
        let get = |k: &str| head.lines().find_map(|l| l.strip_prefix(k).map(str::trim));
        let mut files = Vec::new();
        for key in ["ruleset:", "encounter:"] {
            if let Some(f) = get(key) {
                files.push((f.to_string(), read(f)));
            }
        }
        if !files.iter().any(|f| secret(&f.1)) {
            continue;
        }
        let opts = RunOptions {
            seed: get("seed:").and_then(|s| s.parse().ok()).unwrap_or(0),
            until: get("until:").map(str::to_string),
            answers: parse_answers(answers, "answers"),
            ..RunOptions::default()
        };
        out.push((path.display().to_string(), files, vec![opts]));
    }
    for entry in std::fs::read_dir("rulesets").expect("rulesets").filter_map(Result::ok) {
        let path = entry.path();
        let encounter = Path::new("rulesets/encounters").join(entry.file_name());
        if path.extension().is_some_and(|x| x == "turn") && secret(&read(&path.to_string_lossy())) {
            let files = vec![
                (path.display().to_string(), read(&path.to_string_lossy())),
                (encounter.display().to_string(), read(&encounter.to_string_lossy())),
            ];
            out.push((path.display().to_string(), files, by_policy(None)));
        }
    }
    for (i, ex) in turn_blocks(&read("docs/patterns.md")).into_iter().enumerate() {
        if secret(&ex) {
            let until = ex
                .lines()
                .take_while(|l| l.starts_with('#'))
                .find_map(|l| l.strip_prefix("# until:").map(|u| u.trim().to_string()));
            out.push((
                format!("docs/patterns.md example {}", i + 1),
                vec![("p.turn".into(), ex)],
                by_policy(until),
            ));
        }
    }
    for (i, ex) in turn_blocks(&read("docs/language.md")).into_iter().enumerate() {
        if secret(&ex) && ex.contains("play {") {
            let cast = if ex.contains("character ") {
                ""
            } else {
                "character Ash { }\ncharacter Birch { }\ncharacter Cedar { }\n"
            };
            let file = vec![("l.turn".to_string(), format!("{ex}{cast}"))];
            out.push((format!("docs/language.md example {}", i + 1), file, by_policy(None)));
        }
    }
    out
}

#[test]
fn no_event_names_what_was_chosen_or_attempted_in_secret_before_its_reveal() {
    let runs = secret_runs();
    let names: Vec<&str> = runs.iter().map(|r| r.0.as_str()).collect();
    // What this test must cover, at the least: the cases written for it, and the guides' examples.
    for must in [
        "secret-dials",
        "secret-strikes",
        "secret-pledges",
        "secret-held",
        "docs/patterns.md",
        "docs/language.md",
    ] {
        assert!(
            names.iter().any(|n| n.contains(must)),
            "no secret run from {must}: {names:?}"
        );
    }
    let mut problems = Vec::new();
    let mut answers = 0;
    for (name, files, options) in &runs {
        let p = compile(files);
        for opts in options {
            let held = files.iter().any(|f| f.1.contains("until revealed"));
            let (n, found) = scan(name, &p, opts, held);
            answers += n;
            problems.extend(found);
        }
    }
    assert!(answers > 50, "only {answers} answers were given in secret");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The REPL at the same tables: every secret case is played there answer by answer (stopping at
/// every decision). After each answer, its trace (`trace`, and the last events `show` prints) is
/// the trace of the same run so far, which the scan above covers; and `log` shows an answer given
/// at a decision asked in secret only once the trace shows it revealed.
#[test]
fn the_repl_shows_no_secret_before_its_reveal() {
    use turnscript::repl::{Options, Repl, script};
    let mut played = 0;
    for (name, files, options) in secret_runs().into_iter().filter(|r| r.0.starts_with("tests/cases")) {
        let repl_opts = Options {
            ruleset: Some(files[0].0.clone().into()),
            encounter: files.get(1).map(|f| f.0.clone().into()),
            seed: options[0].seed,
            autosave: None,
            colour: Some(false),
            width: 0,
        };
        let (whole, _, _) = run_texts(&files, options[0].answers.clone(), &options[0], false);
        let answers: Vec<String> = options[0].answers.iter().map(|a| a.0.clone()).collect();
        let problems = turnscript::runtime::on_run_stack(move || {
            let (mut repl, mut status) = Repl::new(repl_opts).expect("the REPL starts");
            let mut problems = Vec::new();
            script(&mut repl, "ask single\n");
            // Each answer given: (who, decision, answer, asked in secret).
            let mut given: Vec<(String, String, String, bool)> = Vec::new();
            let mut same_run = true;
            for answer in answers {
                // The pending decision, as the status says it: `decision N: WHO decides D [in secret] — ...`.
                let Some(line) = status.lines().rev().find(|l| l.starts_with("decision ")) else {
                    break;
                };
                let words: Vec<&str> = line.split_whitespace().collect();
                let reply = script(&mut repl, &format!("answer {answer}\n"));
                if reply.contains("repl::no_such_option") {
                    // An answer the REPL cannot give here (one meant for a `no_choice`): from here
                    // on the run differs from the case's.
                    same_run = false;
                    continue;
                }
                let secret = line.contains(" in secret — ");
                given.push((words[2].to_string(), words[4].to_string(), answer.clone(), secret));
                status = reply;
                let body = |out: String| -> String {
                    out.lines()
                        .filter(|l| !l.starts_with("> ") && !l.starts_with("exit "))
                        .map(|l| format!("{l}\n"))
                        .collect()
                };
                let trace = body(script(&mut repl, "trace\n"));
                // (The run stops at the case's `until`; the REPL may have gone further.)
                let run = whole.lines().take_while(|l| !l.starts_with("end of encounter"));
                if same_run && trace.lines().zip(run).any(|(a, b)| a != b) {
                    problems.push(format!("{name}: the REPL's trace is not the run's so far:\n{trace}"));
                }
                // How many times the trace shows (who, decision, answer) chosen or refused.
                let revealed = |(who, decision, answer): (&str, &str, &str)| {
                    trace
                        .lines()
                        .filter(|l| {
                            let w: Vec<&str> = l.split_whitespace().collect();
                            w.len() >= 4
                                && ["choose", "refused"].contains(&w[0])
                                && w[1] == who
                                && w[2] == decision
                                && w[3].trim_end_matches(':') == answer
                        })
                        .count()
                };
                let log = body(script(&mut repl, "log\n"));
                let lines: Vec<&str> = log.lines().take_while(|l| !l.contains("undone")).collect();
                for answer in given
                    .iter()
                    .map(|g| g.2.as_str())
                    .collect::<std::collections::BTreeSet<_>>()
                {
                    // Shown as typed: the answers given openly, and those given in secret that
                    // the trace has revealed (the k-th time an answer was given at a decision
                    // is revealed when the trace shows it k times).
                    let mut may = 0;
                    let mut seen: Vec<(&str, &str, &str)> = Vec::new();
                    for g in given.iter().filter(|g| g.2 == answer) {
                        let key = (g.0.as_str(), g.1.as_str(), g.2.as_str());
                        let k = seen.iter().filter(|s| **s == key).count();
                        seen.push(key);
                        may += usize::from(!g.3 || revealed(key) > k);
                    }
                    let typed = format!("answer {answer}");
                    let shown = lines
                        .iter()
                        .filter(|l| l.split("  (").next().is_some_and(|x| x.trim().ends_with(&typed)))
                        .count();
                    if shown > may {
                        problems.push(format!(
                            "{name}: `log` shows `{typed}` {shown} times, {may} revealed:\n{log}"
                        ));
                    }
                }
            }
            problems
        });
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        played += 1;
    }
    assert!(played >= 3, "only {played} secret cases played in the REPL");
}

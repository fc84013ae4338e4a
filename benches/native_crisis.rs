//! Crisis Mode written by hand: plain Rust structs, no interpreter.
//!
//! It plays the rules of `rulesets/crisis-mode.turn` (CM-1 to CM-11 in the design's rules) under
//! that file's default policy `eager`, drawing its dice from the crate's own dice stream
//! ([`DiceStream`]), and writes the same JSON lines trace as `turnscript run --format jsonl`, byte
//! for byte (`tests/differential.rs` checks that against the interpreter). Everything else is
//! written here: the state, the order of action and its roll-offs, the options offered and the
//! policy's pick, and the JSON. The benchmarks (`benches/crisis.rs`) run it beside the
//! interpreter to measure what interpreting costs.
//!
//! What a run does, in the ruleset's own order:
//! - `setup`: each character, in cast order, rolls `2d6` for its AP (`reset c.ap to ap_roll`),
//!   then gets its Free Steps (`reset c.steps to free_steps`).
//! - `level turn repeat`: until the `--until turn=K` stop, or else the default stop after the
//!   10th turn (`limit turn=10`). Each turn is an `action_phase` then a `reset_phase`.
//! - `action_phase`: Rounds while anyone has AP. Each Round clears `passed` (`flag ... per
//!   round`, untraced), orders those with AP by `by_ap` and gives each one turn; then, if all who
//!   still have AP passed (CM-8), ends the phase.
//! - `by_ap`: a stable sort by AP, then Finesse, both descending; each group still tied rolls
//!   `d10` per member in the group's current order, is stably sorted by the rolls, and each
//!   sub-group tied again is rolled again at once (depth first, first sub-group first), before
//!   the next group: the order in which `src/runtime/orders.rs` rolls them.
//! - A turn: `free_steps` (take or keep) while Free Steps are left, then `act`: the affordable
//!   actions in catalogue order, then `pass`. `eager` takes the first option of its list that is
//!   offered (else the first offered): `take`; then `attack, power, defend, move, pass`.
//! - `reset_phase`: each character forfeits AP and Free Steps (traced only if not already 0),
//!   gets its Free Steps back, and rolls new AP.
//!
//! The output goes to an [`Out`]: [`Json`] writes each event's line into any `io::Write` with
//! nothing allocated per event (names are quoted once, when the cast is made); [`Count`] only
//! counts the events.

use std::cmp::Reverse;
use std::io::{self, Write};

use turnscript::limits::DEFAULT_OUTER_LIMIT;
use turnscript::runtime::dice::DiceStream;
use turnscript::trace::write_json_str;

/// The ruleset's name, as `encounter_start` gives it.
pub const RULESET: &str = "Crisis Mode Turn Sequence";

/// `param free_steps = 1`.
const FREE_STEPS: i64 = 1;
/// `param ap_roll = 2d6`.
const AP_DICE: (u32, u32) = (2, 6);
/// `param finesse_check = d10`.
const FINESSE_CHECK_SIDES: u32 = 10;

/// CM-11: the catalogue, in declaration order: name and cost in AP.
const ACTIONS: [(&str, i64); 4] = [("move", 1), ("attack", 2), ("defend", 1), ("power", 3)];

/// An option of the decision `act`: an action of the catalogue (its index), or `pass`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Act {
    Action(u8),
    Pass,
}

/// `policy eager { act: attack, power, defend, move, pass }`.
const EAGER_ACT: [Act; 5] = [
    Act::Action(1),
    Act::Action(3),
    Act::Action(2),
    Act::Action(0),
    Act::Pass,
];

/// The options of the decision `free_steps`, in the order the `choose` lists them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Steps {
    Take,
    Keep,
}

const STEPS_OPTIONS: [Steps; 2] = [Steps::Take, Steps::Keep];
/// `policy eager { free_steps: take }`.
const EAGER_STEPS: [Steps; 1] = [Steps::Take];

/// The policy's pick: the first preferred option that is offered, else the first offered.
fn pick<T: PartialEq>(offered: &[T], prefs: &[T]) -> usize {
    prefs
        .iter()
        .find_map(|want| offered.iter().position(|o| o == want))
        .unwrap_or(0)
}

/// An encounter: its name and its characters (name, Finesse), in the order it declares them.
pub struct Cast {
    #[allow(dead_code)] // read by tests/differential.rs, not by the bench
    pub encounter: String,
    pub names: Vec<String>,
    pub finesse: Vec<i64>,
    /// Each name as a JSON string, quotes included.
    quoted: Vec<Vec<u8>>,
    encounter_quoted: Vec<u8>,
}

impl Cast {
    /// A cast from (name, Finesse) pairs; names must be identifiers, as in an encounter file.
    pub fn new(encounter: &str, characters: impl IntoIterator<Item = (String, i64)>) -> Cast {
        let (names, finesse): (Vec<String>, Vec<i64>) = characters.into_iter().unzip();
        let quote = |s: &str| {
            let mut q = Vec::with_capacity(s.len() + 2);
            // Writing into a Vec cannot fail.
            let _ = write_json_str(&mut q, s);
            q
        };
        Cast {
            encounter: encounter.to_string(),
            quoted: names.iter().map(|n| quote(n)).collect(),
            encounter_quoted: quote(encounter),
            names,
            finesse,
        }
    }

    /// `n` characters `C1`..`Cn`, the i-th with Finesse `finesse(i)` (i from 0).
    pub fn generated(encounter: &str, n: usize, finesse: impl Fn(usize) -> i64) -> Cast {
        Cast::new(encounter, (0..n).map(|i| (format!("C{}", i + 1), finesse(i))))
    }

    /// `n` characters, no two with the same Finesse: ties in AP are settled by Finesse alone.
    pub fn distinct(n: usize) -> Cast {
        Cast::generated(&format!("{n} distinct"), n, |i| (n - i) as i64)
    }

    /// `n` characters with only three Finesse values among them: ties in AP and Finesse are
    /// common, so the Finesse Check Dice roll (and roll again) in every Round.
    pub fn equal(n: usize) -> Cast {
        Cast::generated(&format!("{n} equal"), n, |i| (i % 3) as i64)
    }

    /// The bundled `rulesets/encounters/crisis-mode.turn`.
    #[allow(dead_code)] // used by tests/differential.rs, not by the bench
    pub fn rooftop() -> Cast {
        let c = [("Ana", 4), ("Brick", 4), ("Cole", 2), ("Dmitri", 2)];
        Cast::new("Rooftop standoff", c.map(|(n, f)| (n.to_string(), f)))
    }

    /// The same cast as an encounter file, for the interpreter.
    pub fn encounter_text(&self) -> String {
        let mut s = String::new();
        // The encounter's name is written as a JSON string, which is also a turnscript string
        // for the plain names used here.
        s.push_str("encounter ");
        s.push_str(std::str::from_utf8(&self.encounter_quoted).unwrap_or("\"?\""));
        s.push('\n');
        for (n, f) in self.names.iter().zip(&self.finesse) {
            s.push_str(&format!("character {n} {{ finesse = {f} }}\n"));
        }
        s
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }
}

/// Where a run's events go.
pub trait Out {
    type W: Write;
    /// One event; `line` writes it (without its newline) for an output that writes.
    fn event(&mut self, line: impl FnOnce(&mut Self::W) -> io::Result<()>);
}

/// Counts the events, writes nothing.
#[allow(dead_code)] // used by benches/crisis.rs, not by benches/process.rs
#[derive(Default)]
pub struct Count {
    pub events: u64,
}

impl Out for Count {
    type W = io::Sink;
    fn event(&mut self, _: impl FnOnce(&mut io::Sink) -> io::Result<()>) {
        self.events += 1;
    }
}

/// Writes JSON lines into `w`; after a failed write, writes nothing more and keeps the error.
pub struct Json<W: Write> {
    pub w: W,
    pub error: Option<io::Error>,
}

impl<W: Write> Json<W> {
    pub fn new(w: W) -> Self {
        Json { w, error: None }
    }
}

impl<W: Write> Out for Json<W> {
    type W = W;
    fn event(&mut self, line: impl FnOnce(&mut W) -> io::Result<()>) {
        if self.error.is_none() {
            self.error = line(&mut self.w).and_then(|()| self.w.write_all(b"\n")).err();
        }
    }
}

/// Items as a JSON list's inside, comma-separated.
fn list<W: Write, T>(
    w: &mut W,
    items: impl IntoIterator<Item = T>,
    mut item: impl FnMut(&mut W, T) -> io::Result<()>,
) -> io::Result<()> {
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        item(w, x)?;
    }
    Ok(())
}

/// Plays one encounter of Crisis Mode under `eager` with the dice of `seed`, stopping after turn
/// `until` (`--until turn=K`), or after the default limit of 10 turns when `until` is `None`.
pub fn run<O: Out>(cast: &Cast, seed: u64, until: Option<u64>, out: &mut O) {
    let n = cast.len();
    let mut game = Game {
        cast,
        out,
        dice: DiceStream::new(seed, &[]),
        ap: vec![0; n],
        steps: vec![0; n],
        passed: vec![false; n],
        order: Vec::with_capacity(n),
        keyed: Vec::with_capacity(n),
        rolls: vec![0; n],
        faces: [0; AP_DICE.0 as usize],
    };
    game.play(seed, until);
}

/// The state of one run, and its scratch buffers (reused from Round to Round).
struct Game<'a, O: Out> {
    cast: &'a Cast,
    out: &'a mut O,
    dice: DiceStream,
    ap: Vec<i64>,
    steps: Vec<i64>,
    passed: Vec<bool>,
    /// The Round's order of action (character indices).
    order: Vec<u32>,
    /// Roll-off scratch: (roll, character) for one tied group.
    keyed: Vec<(i64, u32)>,
    /// Roll-off: each place's last roll.
    rolls: Vec<i64>,
    faces: [u32; AP_DICE.0 as usize],
}

impl<O: Out> Game<'_, O> {
    fn play(&mut self, seed: u64, until: Option<u64>) {
        let cast = self.cast;
        self.out.event(|w| {
            w.write_all(br#"{"event":"encounter_start","ruleset":""#)?;
            w.write_all(RULESET.as_bytes())?;
            w.write_all(br#"","encounter":"#)?;
            w.write_all(&cast.encounter_quoted)?;
            write!(w, r#","seed":{seed}}}"#)
        });
        // CM-2: AP set, Free Steps made ready.
        for c in 0..cast.len() {
            self.roll_ap(c);
            self.reset(c, "steps", FREE_STEPS);
        }
        // CM-1: a sequence of turns, up to the stop.
        let (last, word) = match until {
            Some(k) => (k, "until"),
            None => (DEFAULT_OUTER_LIMIT, "limit"),
        };
        for turn in 1..=last {
            self.out
                .event(|w| write!(w, r#"{{"event":"level_start","level":"turn","n":{turn}}}"#));
            self.action_phase();
            self.reset_phase();
            self.out
                .event(|w| write!(w, r#"{{"event":"level_end","level":"turn","n":{turn}}}"#));
        }
        self.out
            .event(|w| write!(w, r#"{{"event":"encounter_end","reason":"{word} turn={last}"}}"#));
        self.final_state();
    }

    /// CM-3 to CM-9.
    fn action_phase(&mut self) {
        self.out
            .event(|w| w.write_all(br#"{"event":"phase_start","phase":"action_phase","n":1}"#));
        let mut round = 0u64;
        let mut ended = false;
        // CM-7, CM-9: Rounds while anyone has AP, with no other limit.
        while self.ap.iter().any(|&a| a > 0) {
            round += 1;
            self.passed.fill(false);
            self.out
                .event(|w| write!(w, r#"{{"event":"round_start","round":{round},"level":"round"}}"#));
            // CM-3, CM-4, CM-5: those with AP, in order.
            self.order.clear();
            self.order
                .extend((0..self.cast.len() as u32).filter(|&c| self.ap[c as usize] > 0));
            self.sort();
            let (cast, order) = (self.cast, &self.order);
            self.out.event(|w| {
                w.write_all(br#"{"event":"order","by":"by_ap","order":["#)?;
                list(w, order, |w, &c| w.write_all(&cast.quoted[c as usize]))?;
                w.write_all(b"]}")
            });
            for i in 0..self.order.len() {
                let c = self.order[i] as usize;
                // Checked again at the character's moment, as `for each ... where` does.
                if self.ap[c] > 0 {
                    self.turn(c);
                }
            }
            // CM-8: everyone who still has AP passed in this Round.
            let left = self.ap.iter().any(|&a| a > 0);
            let all_passed = self.ap.iter().zip(&self.passed).all(|(&a, &p)| a <= 0 || p);
            ended = left && all_passed;
            self.out
                .event(|w| write!(w, r#"{{"event":"round_end","round":{round},"level":"round"}}"#));
            if ended {
                break;
            }
        }
        self.out.event(|w| {
            w.write_all(br#"{"event":"phase_end","phase":"action_phase","n":1"#)?;
            if ended {
                w.write_all(br#","reason":"everyone with AP passed""#)?;
            }
            w.write_all(b"}")
        });
    }

    /// `order by_ap`: AP, then Finesse, descending (a stable sort), then the Finesse Check
    /// Dice for each group still tied, in order.
    fn sort(&mut self) {
        let (ap, finesse) = (&self.ap, &self.cast.finesse);
        self.order
            .sort_by_key(|&c| Reverse((ap[c as usize], finesse[c as usize])));
        let mut s = 0;
        while s < self.order.len() {
            let key = |c: u32| (self.ap[c as usize], self.cast.finesse[c as usize]);
            let first = key(self.order[s]);
            let mut e = s + 1;
            while e < self.order.len() && key(self.order[e]) == first {
                e += 1;
            }
            if e - s > 1 {
                self.roll_off(s, e);
            }
            s = e;
        }
    }

    /// CM-5: the tied places `s..e` roll, in their current order; the higher roll goes first
    /// (a stable sort), and each group tied again rolls again at once.
    fn roll_off(&mut self, s: usize, e: usize) {
        self.keyed.clear();
        for i in s..e {
            let c = self.order[i];
            let roll = self.die(FINESSE_CHECK_SIDES);
            let name = &self.cast.quoted[c as usize];
            self.out.event(|w| {
                w.write_all(br#"{"event":"roll","actor":"#)?;
                w.write_all(name)?;
                write!(w, r#","for":"by_ap","dice":"d10","faces":[{roll}],"total":{roll}}}"#)
            });
            self.keyed.push((roll as i64, c));
        }
        self.keyed.sort_by_key(|k| Reverse(k.0));
        for (i, &(roll, c)) in self.keyed.iter().enumerate() {
            self.order[s + i] = c;
            self.rolls[s + i] = roll;
        }
        let mut a = s;
        while a < e {
            let mut b = a + 1;
            while b < e && self.rolls[b] == self.rolls[a] {
                b += 1;
            }
            if b - a > 1 {
                self.roll_off(a, b);
            }
            a = b;
        }
    }

    /// CM-3, CM-6, CM-11: one character's opportunity in a Round.
    fn turn(&mut self, c: usize) {
        let cast = self.cast;
        let name = &cast.quoted[c];
        self.out.event(|w| {
            w.write_all(br#"{"event":"turn_start","actor":"#)?;
            w.write_all(name)?;
            w.write_all(b"}")
        });
        if self.steps[c] > 0 {
            let picked = STEPS_OPTIONS[pick(&STEPS_OPTIONS, &EAGER_STEPS)];
            self.out.event(|w| {
                decision_head(w, name, "free_steps")?;
                w.write_all(br#""take","keep"],"picked":"#)?;
                w.write_all(if picked == Steps::Take {
                    br#""take""#
                } else {
                    br#""keep""#
                })?;
                w.write_all(br#","by":"policy"}"#)
            });
            if picked == Steps::Take {
                // `spend all c.steps`: everything above the floor of 0.
                let amount = self.steps[c];
                self.spend(c, "steps", amount);
            }
        }
        // The affordable actions in catalogue order (`option action`), then `pass`.
        let mut offered = [Act::Pass; ACTIONS.len() + 1];
        let mut len = 0;
        for (i, &(_, cost)) in ACTIONS.iter().enumerate() {
            if self.ap[c] - cost >= 0 {
                offered[len] = Act::Action(i as u8);
                len += 1;
            }
        }
        offered[len] = Act::Pass;
        len += 1;
        let offered = &offered[..len];
        let picked = offered[pick(offered, &EAGER_ACT)];
        let act_name = |a: Act| match a {
            Act::Action(i) => ACTIONS[i as usize].0,
            Act::Pass => "pass",
        };
        self.out.event(|w| {
            decision_head(w, name, "act")?;
            list(w, offered, |w, &a| write!(w, r#""{}""#, act_name(a)))?;
            write!(w, r#"],"picked":"{}","by":"policy"}}"#, act_name(picked))
        });
        match picked {
            Act::Action(i) => {
                let (action, cost) = ACTIONS[i as usize];
                self.out.event(|w| {
                    w.write_all(br#"{"event":"action","actor":"#)?;
                    w.write_all(name)?;
                    write!(w, r#","action":"{action}"}}"#)
                });
                self.spend(c, "ap", cost);
            }
            // CM-6: passing keeps the AP (`mark c.passed`, untraced).
            Act::Pass => self.passed[c] = true,
        }
        self.out.event(|w| {
            w.write_all(br#"{"event":"turn_end","actor":"#)?;
            w.write_all(name)?;
            w.write_all(b"}")
        });
    }

    /// CM-10.
    fn reset_phase(&mut self) {
        self.out
            .event(|w| w.write_all(br#"{"event":"phase_start","phase":"reset_phase","n":1}"#));
        for c in 0..self.cast.len() {
            let ap = std::mem::take(&mut self.ap[c]);
            self.forfeit(c, "ap", ap);
            let steps = std::mem::take(&mut self.steps[c]);
            self.forfeit(c, "steps", steps);
            self.reset(c, "steps", FREE_STEPS);
            self.roll_ap(c);
        }
        self.out
            .event(|w| w.write_all(br#"{"event":"phase_end","phase":"reset_phase","n":1}"#));
    }

    fn die(&mut self, sides: u32) -> u32 {
        match self.dice.die(sides) {
            Ok(face) => face,
            Err(_) => unreachable!("no roll is forced, so every face can come up"),
        }
    }

    /// `reset c.ap to ap_roll`: the roll, then the reset.
    fn roll_ap(&mut self, c: usize) {
        let mut total = 0i64;
        for i in 0..self.faces.len() {
            self.faces[i] = self.die(AP_DICE.1);
            total += self.faces[i] as i64;
        }
        let (name, faces) = (&self.cast.quoted[c], &self.faces);
        self.out.event(|w| {
            w.write_all(br#"{"event":"roll","actor":"#)?;
            w.write_all(name)?;
            w.write_all(br#","for":"ap","dice":"2d6","faces":["#)?;
            list(w, faces, |w, f| write!(w, "{f}"))?;
            write!(w, r#"],"total":{total}}}"#)
        });
        self.reset(c, "ap", total);
    }

    /// `reset`: kept within `min 0`.
    fn reset(&mut self, c: usize, resource: &str, value: i64) {
        let v = value.max(0);
        match resource {
            "ap" => self.ap[c] = v,
            _ => self.steps[c] = v,
        }
        self.resource_event("reset", c, resource, v, v);
    }

    fn spend(&mut self, c: usize, resource: &str, amount: i64) {
        let field = if resource == "ap" {
            &mut self.ap[c]
        } else {
            &mut self.steps[c]
        };
        *field -= amount;
        let left = *field;
        self.resource_event("spend", c, resource, amount, left);
    }

    /// `forfeit`: down to 0 (the field is already 0 here); traced only if something was left.
    fn forfeit(&mut self, c: usize, resource: &str, had: i64) {
        if had != 0 {
            self.resource_event("forfeit", c, resource, had, 0);
        }
    }

    fn resource_event(&mut self, change: &str, c: usize, resource: &str, amount: i64, left: i64) {
        let name = &self.cast.quoted[c];
        self.out.event(|w| {
            write!(w, r#"{{"event":"{change}","actor":"#)?;
            w.write_all(name)?;
            write!(w, r#","resource":"{resource}","amount":{amount},"left":{left}}}"#)
        });
    }

    /// `final`: every character's fields, in declaration order.
    fn final_state(&mut self) {
        let (cast, ap, steps, passed) = (self.cast, &self.ap, &self.steps, &self.passed);
        self.out.event(|w| {
            w.write_all(br#"{"event":"final","clock":0,"globals":{},"entities":["#)?;
            list(w, 0..cast.len(), |w, c| {
                w.write_all(br#"{"name":"#)?;
                w.write_all(&cast.quoted[c])?;
                write!(
                    w,
                    r#","type":"character","in_play":true,"fields":{{"finesse":{},"ap":{},"steps":{},"passed":{}}}}}"#,
                    cast.finesse[c], ap[c], steps[c], passed[c] as i64
                )
            })?;
            w.write_all(b"]}")
        });
    }
}

/// `{"event":"decision","actor":NAME,"decision":D,"chooser":NAME,"options":[`
fn decision_head<W: Write>(w: &mut W, name: &[u8], decision: &str) -> io::Result<()> {
    w.write_all(br#"{"event":"decision","actor":"#)?;
    w.write_all(name)?;
    write!(w, r#","decision":"{decision}","chooser":"#)?;
    w.write_all(name)?;
    w.write_all(br#","options":["#)
}

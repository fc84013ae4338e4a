//! Deciders: who answers a decision. Scripted answers (tests), then a policy (simulation).

use rand::rngs::ChaCha8Rng;

use super::dice::{policy_rng, roll_die};
use crate::compile::ir::*;
use crate::diag::Diag;
use crate::limits::clip;
use crate::source::Span;
use crate::trace::{DecidedBy, World};

/// A decision the runtime is asking about.
pub struct DecisionPoint<'a> {
    pub decision: DecisionId,
    pub chooser: Who,
    pub options: &'a [OptionKey],
    /// Candidates a rule refuses (`unless ... because`): never offered. A decider that is told
    /// one of them (an answer naming it) returns `options.len() + j` for `refused[j]`.
    pub refused: &'a [OptionKey],
    /// What an answer may attempt that no decision offers now (`forbid`): a decider told one of
    /// them returns `options.len() + refused.len() + k` for `attempts[k]`.
    pub attempts: &'a [OptionKey],
    /// Members of the collection of a `choose ... from` that are not candidates for being out of
    /// play (or, with `out of play`, in it; or destroyed), or the actions of a `choose`'s kinds
    /// that the chooser cannot take now (their `when`, their cost; listed only for a decider
    /// that names options, or a control): a decider told one of them returns
    /// `options.len() + refused.len() + attempts.len() + m` for `outside[m]`, and it is refused.
    pub outside: &'a [OptionKey],
    /// Why each of `refused` is refused (every reason, joined with `; `): worked out only for a
    /// [`super::control::Control`], which shows them beside the options; empty for a decider.
    pub reasons: &'a [String],
    /// What the active policy picks here, worked out by the runtime where its preferences have
    /// conditions (read in the decision's scope); `None` elsewhere.
    pub suggested: Option<usize>,
    /// Each level's current iteration, and whether it is running (for addressed answers).
    pub counters: &'a [u64],
    pub running: &'a [bool],
    /// The `choose` statement.
    pub span: Span,
    /// Asked in secret: the outermost secret choice being made, all that a message about this
    /// decision may name before the reveal (a nested choice's name would tell what was picked).
    pub secret: Option<SecretAt>,
}

/// A secret choice being made: who chooses, the decision, the `choose` statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SecretAt {
    pub chooser: Who,
    pub decision: DecisionId,
    pub span: Span,
}

impl DecisionPoint<'_> {
    /// What index `i` stands for: an option, then a refused option, then an attempt, then a
    /// member out of play.
    pub fn key(&self, i: usize) -> Option<OptionKey> {
        let (o, r, a) = (self.options.len(), self.refused.len(), self.attempts.len());
        match i {
            _ if i < o => self.options.get(i).copied(),
            _ if i < o + r => self.refused.get(i - o).copied(),
            _ if i < o + r + a => self.attempts.get(i - o - r).copied(),
            _ => self.outside.get(i - o - r - a).copied(),
        }
    }

    /// How many indices a decider may answer with: the options, the refused, the attempts and
    /// the members out of play.
    pub fn answerable(&self) -> usize {
        self.options.len() + self.refused.len() + self.attempts.len() + self.outside.len()
    }
}

/// Answers decisions with the index of the picked option.
pub trait Decider {
    fn decide(&mut self, w: &World<'_>, d: &DecisionPoint<'_>) -> Result<(usize, DecidedBy), Diag>;

    /// The policy that will answer the next decision, if a policy will: the runtime works out
    /// the picks of a declared policy's conditional preferences for it.
    fn policy(&self, chooser: Who) -> Option<PolicyRef> {
        let _ = chooser;
        None
    }

    /// Nothing can be offered at `d`: the rules refuse every option (`d.refused`). An answer
    /// meant for this decision that names one of them is used up and its index in `d.refused`
    /// returned, so it hears why; any other answer is left for a later decision. A policy never
    /// names a refused option.
    fn attempt(&mut self, w: &World<'_>, d: &DecisionPoint<'_>) -> Option<usize> {
        let _ = (w, d);
        None
    }

    /// Whether attempts wait for moments (answers addressed to them): the runtime then asks
    /// [`Decider::moment`] at every moment, even when the program declares no `attempt`.
    fn moments(&self) -> bool {
        false
    }

    /// An attempt made at moment `m`: who makes it and which (an index into
    /// `Program::attempts`). Asked again at the same moment until it gives `None`.
    fn moment(&mut self, w: &World<'_>, m: &MomentPoint<'_>) -> Option<(Who, usize)> {
        let _ = (w, m);
        None
    }

    /// Who made the attempt the last answer of [`Decider::decide`] named, when it is not the
    /// chooser (an answer addressed `DECISION, WHO: ATTEMPT`).
    fn attempter(&mut self) -> Option<Who> {
        None
    }

    /// Whether its answers name options (scripted answers do, a policy does not): then the
    /// runtime lists the actions a decision would offer but the chooser cannot take now, so an
    /// answer naming one is refused with why rather than being an error.
    fn names_options(&self) -> bool {
        false
    }

    /// Whether every decision it is asked from now on is answered by a policy and nothing else
    /// (no answer that could name an option, refused or not, or an attempt): the runtime may
    /// then take its fast path for a plain `choose` (`policy_path.rs`).
    fn policy_only(&self) -> bool {
        false
    }

    /// The policy that answers every decision from now on, when [`Decider::policy_only`] holds:
    /// the runtime's fast path asks it for its pick directly ([`Policy::pick_among`]), with no
    /// [`DecisionPoint`] built. `None` (the default): the decider is asked through `decide`.
    fn sole_policy(&mut self) -> Option<&mut Policy> {
        None
    }
}

/// A moment the runtime asks about attempts at: before or after a turn, a level's start or end.
pub struct MomentPoint<'a> {
    pub moment: Moment,
    /// Each level's current iteration, and whether it is running (for addressed answers).
    pub counters: &'a [u64],
    pub running: &'a [bool],
}

/// A policy: `first`, `random`, or one the ruleset declares (preferred options, else the first).
pub struct Policy {
    which: PolicyRef,
    rng: ChaCha8Rng,
}

impl Policy {
    pub fn new(which: PolicyRef, seed: u64) -> Self {
        Policy {
            which,
            rng: policy_rng(seed),
        }
    }

    pub fn pick(&mut self, p: &Program, d: &DecisionPoint<'_>) -> usize {
        self.pick_among(p, d.decision, d.options, d.suggested)
    }

    /// [`Policy::pick`] of what it reads of a decision point: the decision, the options offered
    /// and the pick the runtime worked out for conditional preferences.
    #[inline]
    pub fn pick_among(
        &mut self,
        p: &Program,
        decision: DecisionId,
        options: &[OptionKey],
        suggested: Option<usize>,
    ) -> usize {
        match self.which {
            PolicyRef::First => 0,
            PolicyRef::Random => (roll_die(&mut self.rng, options.len().max(1) as u32) - 1) as usize,
            PolicyRef::Declared(_) if suggested.is_some() => suggested.unwrap_or(0),
            PolicyRef::Declared(i) => match p.fixed.ranks.get(i as usize).and_then(|r| r.get(decision as usize)) {
                // The rank table the compiler made of its preferences: the lowest rank offered.
                Some(Some(ranks)) => lowest_rank(p, ranks, options),
                _ => walk_prefs(p, i, decision, options),
            },
        }
    }
}

/// The first of `options` with the lowest rank in `ranks` (0 when none is ranked): the option a
/// walk of the preferences, best first, finds offered first.
#[inline]
fn lowest_rank(p: &Program, ranks: &[u16], options: &[OptionKey]) -> usize {
    let (mut best, mut picked) = (u16::MAX, 0);
    for (at, key) in options.iter().enumerate() {
        let i = match *key {
            OptionKey::Named(n) => n as usize,
            OptionKey::Action(a) => p.fixed.options + a as usize,
            OptionKey::Character(_) => continue,
        };
        let rank = ranks.get(i).copied().unwrap_or(u16::MAX);
        if rank < best {
            (best, picked) = (rank, at);
            // The best preference is offered: nothing offered after it ranks higher.
            if rank == 0 {
                break;
            }
        }
    }
    picked
}

/// Policy `i`'s preferences for the decision, walked best first: the first one offered (0 when
/// none is). What [`lowest_rank`] finds where the compiler made a rank table.
pub fn walk_prefs(p: &Program, i: u16, decision: DecisionId, options: &[OptionKey]) -> usize {
    let prefs = p
        .policies
        .get(i as usize)
        .and_then(|pol| pol.prefs.get(decision as usize));
    prefs
        .and_then(|prefs| prefs.iter().find_map(|want| options.iter().position(|o| o == want)))
        .unwrap_or(0)
}

impl Decider for Policy {
    fn decide(&mut self, w: &World<'_>, d: &DecisionPoint<'_>) -> Result<(usize, DecidedBy), Diag> {
        Ok((self.pick(w, d), DecidedBy::Policy))
    }

    fn policy(&self, _: Who) -> Option<PolicyRef> {
        Some(self.which)
    }

    fn policy_only(&self) -> bool {
        true
    }

    fn sole_policy(&mut self) -> Option<&mut Policy> {
        Some(self)
    }
}

/// One scripted answer: its text, where it came from (for messages), and the options it can name.
struct Answer {
    text: String,
    origin: String,
    keys: Vec<OptionKey>,
}

/// Where an addressed answer applies: the running levels' iterations it names, the chooser, the
/// decision; or, for an attempt, the moment (or the decision) it is made at and who makes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Address {
    pub levels: Vec<(LevelId, u64)>,
    pub who: Option<Who>,
    /// The decision answered, or at which the attempt is made (`None`: at `moment`).
    pub decision: Option<DecisionId>,
    /// The moment an attempt is made at (`after Cap`, `end of volley 1`).
    pub moment: Option<Moment>,
    /// Who makes the attempt (`round 1, act, Ilse: interrupt`), when not the chooser.
    pub attempter: Option<Who>,
}

/// Answers from a list: addressed ones (`round 3, Mira, act: attack`) wherever they apply, the
/// others in order; when no answer applies and the in-order ones have run out, the policy
/// decides.
pub struct Scripted {
    answers: Vec<Answer>,
    next: usize,
    /// Addressed answers, in the order written, and whether each has been used.
    addressed: Vec<(Address, Answer, bool, String)>,
    policy: Policy,
    /// Policies for the choosers of a side or a role: they answer those choosers' decisions
    /// (after any addressed answer), leaving the answers in order to the others.
    by_side: Vec<(Member, Policy)>,
    /// The side of each declared character.
    sides: Vec<Option<u16>>,
    /// Who made the attempt the last answer named (an answer addressed `DECISION, WHO: ...`).
    last_attempter: Option<Who>,
    /// Each attempt's option (`Program::attempts`), to match answers against.
    attempts: Vec<OptionKey>,
}

/// Who a side or role policy answers for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Member {
    Side(u16),
    Role(u16),
}

impl Scripted {
    /// `answers`: (text, where it came from, e.g. "answers.txt:3"). A text with a `:` is an
    /// addressed answer (see [`parse_address`]); an address the program cannot resolve is an error.
    pub fn new(p: &Program, answers: Vec<(String, String)>, policy: Policy) -> Result<Self, String> {
        let keys = |text: &str| {
            let mut keys = Vec::new();
            if let Some(i) = p.options.iter().position(|o| *o == text) {
                keys.push(OptionKey::Named(i as OptionId));
            }
            if let Some(i) = p.actions.iter().position(|a| a.name == text) {
                keys.push(OptionKey::Action(i as ActionId));
            }
            if let Some(i) = p.characters.iter().position(|c| c.name == text) {
                keys.push(OptionKey::Character(i as EntityId));
            }
            keys
        };
        let mut plain = Vec::new();
        let mut addressed = Vec::new();
        for (text, origin) in answers {
            match parse_address(p, &text)
                .map_err(|e| format!("error: the answer `{}` ({origin}): {e}\n", clip(&text)))?
            {
                Some((address, option)) => {
                    let answer = Answer {
                        keys: keys(&option),
                        text: option,
                        origin,
                    };
                    addressed.push((address, answer, false, text));
                }
                None => plain.push(Answer {
                    keys: keys(&unquote(&text)),
                    text: unquote(&text),
                    origin,
                }),
            }
        }
        Ok(Scripted {
            answers: plain,
            next: 0,
            addressed,
            policy,
            by_side: Vec::new(),
            sides: p.characters.iter().map(|c| c.side).collect(),
            last_attempter: None,
            attempts: p.attempts.clone(),
        })
    }

    /// The policies that answer the choosers of a side or a role.
    pub fn with_side_policies(mut self, by_side: Vec<(Member, Policy)>) -> Self {
        self.by_side = by_side;
        self
    }

    /// The side or role policy that answers `chooser`, if one does.
    fn policy_for(&self, chooser: Who) -> Option<usize> {
        let member = |m: &Member| match (m, chooser) {
            (Member::Role(r), Who::Role(w)) => *r == w,
            (Member::Side(s), Who::Character(e)) => self.sides.get(e as usize).copied().flatten() == Some(*s),
            _ => false,
        };
        self.by_side.iter().position(|(m, _)| member(m))
    }

    /// How many answers have been used.
    pub fn used(&self) -> usize {
        self.next + self.addressed.iter().filter(|a| a.2).count()
    }

    /// How many answers there are.
    pub fn len(&self) -> usize {
        self.answers.len() + self.addressed.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The addressed answers never used: (where each came from, the whole line, whether it
    /// addresses a moment rather than a decision).
    pub fn unused_addressed(&self) -> Vec<(&str, &str, bool)> {
        self.addressed
            .iter()
            .filter(|a| !a.2)
            .map(|a| (a.1.origin.as_str(), a.3.as_str(), a.0.moment.is_some()))
            .collect()
    }

    /// The first unused addressed answer that applies to `d`.
    fn addressed_for(&self, d: &DecisionPoint<'_>) -> Option<usize> {
        self.addressed.iter().position(|(a, _, used, _)| {
            !used
                && a.decision == Some(d.decision)
                && a.who.is_none_or(|w| w == d.chooser)
                && within(&a.levels, d.counters, d.running)
        })
    }

    /// The index among the attempts of the attempt an answer names.
    fn attempt_of(&self, answer: &Answer) -> Option<usize> {
        self.attempts.iter().position(|o| answer.keys.contains(o))
    }
}

/// Whether the levels named are running, each at the iteration named.
pub fn within(levels: &[(LevelId, u64)], counters: &[u64], running: &[bool]) -> bool {
    levels.iter().all(|&(l, n)| {
        running.get(l as usize).copied().unwrap_or(false) && counters.get(l as usize).copied() == Some(n)
    })
}

/// A character or a role, by its name (quotes taken off).
fn who_named(p: &Program, part: &str) -> Option<Who> {
    let part = unquote(part);
    let part = part.trim();
    p.characters
        .iter()
        .position(|c| c.name == part)
        .map(|i| Who::Character(i as EntityId))
        .or_else(|| p.roles.iter().position(|r| r == part).map(|r| Who::Role(r as u16)))
}

/// A moment as an address writes it: `before NAME` or `after NAME` (a character's turn), `start
/// of LEVEL [N]` or `end of LEVEL [N]` (with the iteration, when written).
fn moment_named(p: &Program, part: &str) -> Option<(Moment, Option<(LevelId, u64)>)> {
    let part = part.trim();
    let turn = |rest: &str| match who_named(p, rest)? {
        Who::Character(e) => Some(e),
        Who::Role(_) => None,
    };
    if let Some(rest) = part.strip_prefix("before ") {
        return Some((Moment::BeforeTurn(turn(rest)?), None));
    }
    if let Some(rest) = part.strip_prefix("after ") {
        return Some((Moment::AfterTurn(turn(rest)?), None));
    }
    let (start, rest) = match (part.strip_prefix("start of "), part.strip_prefix("end of ")) {
        (Some(rest), _) => (true, rest),
        (_, Some(rest)) => (false, rest),
        _ => return None,
    };
    let rest = rest.trim();
    let level = |name: &str| {
        p.levels
            .iter()
            .position(|l| l.name == name.trim())
            .map(|l| l as LevelId)
    };
    let (l, n) = match level(rest) {
        Some(l) => (l, None),
        None => {
            let (name, n) = rest.rsplit_once(' ')?;
            let l = level(name)?;
            (l, Some((l, n.trim().parse::<u64>().ok()?)))
        }
    };
    Some((
        if start {
            Moment::LevelStart(l)
        } else {
            Moment::LevelEnd(l)
        },
        n,
    ))
}

/// A moment as an answers file writes it (`before NAME`, `after NAME`, `start of LEVEL [N]`,
/// `end of LEVEL [N]`), for a tool that addresses attempts to moments the same way (the REPL's
/// `attempt WHO NAME MOMENT`): the moment, and the level's iteration when one is written.
pub fn parse_moment(p: &Program, text: &str) -> Result<(Moment, Option<(LevelId, u64)>), String> {
    moment_named(p, text).ok_or_else(|| {
        format!(
            "`{}` is not a moment: write `before NAME` or `after NAME` (a character's turn), `start of LEVEL [N]` or `end of LEVEL [N]`",
            clip(text.trim())
        )
    })
}

/// What ends an address's head: a decision (answered), a decision and who attempts at it, or a
/// moment and who attempts at it.
#[derive(Clone, Copy)]
enum Head {
    Decision(usize),
    DecisionBy(usize, Who),
    Moment(Moment, Option<(LevelId, u64)>, Who),
}

/// Reads an addressed answer: `[LEVEL N, ...] [WHO,] DECISION: OPTION`, e.g. `round 3, Mira,
/// act: attack`. `Ok(None)`: no `:`, an answer in order. Each part before the decision is a
/// level and its iteration (the level must be running, at that iteration) or the chooser (a
/// character or a role). A name may be written in double quotes (`round 1, "Smith, J", act:
/// strike`), read whole; the option comes back without its quotes.
pub fn parse_address(p: &Program, text: &str) -> Result<Option<(Address, String)>, String> {
    // Names may hold a `:` (`Bolt: lightning`): the address ends at the first `:` after which a
    // decision's name ends the head; a text that is a name as a whole is an answer in order.
    // A name in double quotes is read whole: its `,` and `:` part nothing.
    if text.matches('"').count() % 2 == 1 {
        return Err("a `\"` is never closed: a name in quotes ends with one".to_string());
    }
    let last = |head: &str| {
        unquote(split_unquoted(head, ',').pop().unwrap_or(""))
            .trim()
            .to_string()
    };
    let decision = |part: &str| p.decisions.iter().position(|d| *d == unquote(part).trim());
    let head_of = |head: &str| {
        let parts: Vec<&str> = split_unquoted(head, ',').into_iter().map(str::trim).collect();
        let n = parts.len();
        if let Some(d) = p.decisions.iter().position(|d| *d == last(head)) {
            return Some(Head::Decision(d));
        }
        let who = who_named(p, parts[n - 1]).filter(|_| n >= 2)?;
        if let Some(d) = decision(parts[n - 2]) {
            return Some(Head::DecisionBy(d, who));
        }
        let (m, level) = moment_named(p, parts[n - 2])?;
        Some(Head::Moment(m, level, who))
    };
    let split = unquoted(text, ':').find_map(|i| head_of(&text[..i]).map(|h| (i, h)));
    let whole = unquote(text);
    let names_something = p.options.contains(&whole)
        || p.actions.iter().any(|a| a.name == whole)
        || p.characters.iter().any(|c| c.name == whole);
    let (at, head) = match split {
        Some(s) => s,
        None if names_something || unquoted(text, ':').next().is_none() => return Ok(None),
        None => {
            let head: Vec<&str> = split_unquoted(split_unquoted(text, ':')[0], ',')
                .into_iter()
                .map(str::trim)
                .collect();
            let name = last(split_unquoted(text, ':')[0]);
            let looks_like_moment = |part: &str| {
                ["before ", "after ", "start of ", "end of "]
                    .iter()
                    .any(|w| part.starts_with(w))
            };
            if head.len() >= 2
                && looks_like_moment(head[head.len() - 2])
                && moment_named(p, head[head.len() - 2]).is_none()
                && who_named(p, head[head.len() - 1]).is_some()
            {
                return Err(format!(
                    "`{}` is not a moment: write `before NAME` or `after NAME` (a character's turn), `start of LEVEL [N]` or `end of LEVEL [N]`",
                    clip(head[head.len() - 2])
                ));
            }
            if head.len() >= 2 && moment_named(p, head[head.len() - 2]).is_some() {
                return Err(format!(
                    "`{}` is neither a character nor a role: an attempt at a moment names who makes it last (`round 2, after Cap, Ilse: interrupt`)",
                    clip(&name)
                ));
            }
            return Err(format!(
                "no decision is called `{}`; the decisions are: {}",
                clip(&name),
                p.decisions.join(", ")
            ));
        }
    };
    let (head_text, option) = (&text[..at], &text[at + 1..]);
    let mut parts: Vec<&str> = split_unquoted(head_text, ',').into_iter().map(str::trim).collect();
    parts.pop();
    let mut address = Address {
        levels: Vec::new(),
        who: None,
        decision: None,
        moment: None,
        attempter: None,
    };
    match head {
        Head::Decision(d) => address.decision = Some(d as DecisionId),
        Head::DecisionBy(d, who) => {
            parts.pop();
            address.decision = Some(d as DecisionId);
            address.attempter = Some(who);
        }
        Head::Moment(m, level, who) => {
            parts.pop();
            address.moment = Some(m);
            address.attempter = Some(who);
            address.levels.extend(level);
        }
    }
    // Who makes an attempt is a character or a role, never a thing.
    if let Some(Who::Character(e)) = address.attempter
        && let Some(c) = p.characters.get(e as usize).filter(|c| c.ty != 0)
    {
        return Err(format!(
            "`{}` is a {}, not a character or a role: attempts are made by characters and roles",
            c.name,
            p.things.get(c.ty as usize).map_or("thing", |t| t.0.as_str())
        ));
    }
    // Who makes an attempt names an attempt: one an `attempt` declares or a `forbid` names.
    let option = unquote(option).trim().to_string();
    if address.attempter.is_some() && !p.attempts.iter().any(|a| p.option_name(*a) == option) {
        let names: Vec<&str> = p.attempts.iter().map(|a| p.option_name(*a)).collect();
        let option = clip(&option);
        return Err(if names.is_empty() {
            format!(
                "it names who makes an attempt, but the rules declare no attempt (`attempt` or `forbid`), so `{option}` cannot be attempted"
            )
        } else {
            format!(
                "no attempt is called `{option}`; the attempts are: {}",
                names.join(", ")
            )
        });
    }
    for part in parts {
        // A quoted part is a name, never a level.
        let (quoted, part) = (part.starts_with('"'), unquote(part));
        let part = part.trim();
        let level = part.rsplit_once(' ').filter(|_| !quoted).and_then(|(name, n)| {
            let l = p.levels.iter().position(|l| l.name == name.trim())?;
            Some((l as LevelId, n.trim().parse::<u64>().ok()?))
        });
        if let Some(l) = level {
            address.levels.push(l);
            continue;
        }
        let who = p
            .characters
            .iter()
            .position(|c| c.name == part)
            .map(|i| Who::Character(i as EntityId))
            .or_else(|| p.roles.iter().position(|r| r == part).map(|r| Who::Role(r as u16)));
        match (who, address.who) {
            (Some(_), None) if address.moment.is_some() => {
                return Err(format!(
                    "`{}` stands where no one is asked: an attempt at a moment names who makes it last (`round 2, after Cap, Ilse: interrupt`)",
                    clip(part)
                ));
            }
            (Some(w), None) => address.who = Some(w),
            (Some(_), Some(_)) => return Err(format!("it names two choosers (`{}` is the second)", clip(part))),
            (None, _) => {
                // A level and a number too large for an iteration: said so, as `--until` does.
                if let Some((name, n)) = part.rsplit_once(' ').filter(|_| !quoted)
                    && p.levels.iter().any(|l| l.name == name.trim())
                    && crate::limits::too_many_digits(n.trim())
                    && !n.trim().starts_with('-')
                {
                    return Err(format!(
                        "`{}` is too large for an iteration of `{}` (the largest is {})",
                        clip(n.trim()),
                        name.trim(),
                        u64::MAX
                    ));
                }
                return Err(format!(
                    "`{}` is neither a level with its iteration (e.g. `round 3`) nor a character or role",
                    clip(part)
                ));
            }
        }
    }
    Ok(Some((address, option)))
}

/// An answer's text without the double quotes that hold its names whole.
fn unquote(text: &str) -> String {
    text.replace('"', "")
}

/// Where `sep` stands in `text` outside double quotes.
fn unquoted(text: &str, sep: char) -> impl Iterator<Item = usize> + '_ {
    let mut quoted = false;
    text.char_indices().filter_map(move |(i, c)| {
        quoted ^= c == '"';
        (c == sep && !quoted).then_some(i)
    })
}

/// The parts of `text` between the `sep`s outside double quotes.
fn split_unquoted(text: &str, sep: char) -> Vec<&str> {
    let mut from = 0;
    let mut parts: Vec<&str> = unquoted(text, sep)
        .map(|i| {
            let part = &text[from..i];
            from = i + sep.len_utf8();
            part
        })
        .collect();
    parts.push(&text[from..]);
    parts
}

impl Decider for Scripted {
    fn decide(&mut self, p: &World<'_>, d: &DecisionPoint<'_>) -> Result<(usize, DecidedBy), Diag> {
        // No answer left to look for: the policy decides.
        if self.policy_only() {
            return self.policy.decide(p, d);
        }
        let answer = match self.addressed_for(d) {
            // An attempt by someone other than the chooser, at this decision.
            Some(i) if let Some(by) = self.addressed[i].0.attempter => {
                self.addressed[i].2 = true;
                let k = self.attempt_of(&self.addressed[i].1).unwrap_or(0);
                self.last_attempter = Some(by);
                return Ok((d.options.len() + d.refused.len() + k, DecidedBy::Answer));
            }
            Some(i) => {
                self.addressed[i].2 = true;
                &self.addressed[i].1
            }
            None => {
                if let Some(i) = self.policy_for(d.chooser) {
                    return self.by_side[i].1.decide(p, d);
                }
                let Some(a) = self.answers.get(self.next) else {
                    return self.policy.decide(p, d);
                };
                self.next += 1;
                a
            }
        };
        let Answer { text, origin, keys } = answer;
        // An answer names an option, an action, or an entity (one made in play by its name).
        let names =
            |o: &OptionKey| keys.contains(o) || (matches!(o, OptionKey::Character(_)) && p.option_name(*o) == text);
        let refused = d.refused.iter().position(names);
        let attempted = || d.attempts.iter().position(names);
        match (d.options.iter().position(names), refused) {
            (Some(i), _) => Ok((i, DecidedBy::Answer)),
            (None, Some(j)) => Ok((d.options.len() + j, DecidedBy::Answer)),
            (None, None) if let Some(k) = attempted() => Ok((d.options.len() + d.refused.len() + k, DecidedBy::Answer)),
            // Someone out of play (or in it, for a choice among those out of play): refused.
            (None, None) if let Some(m) = d.outside.iter().position(names) => {
                Ok((d.options.len() + d.refused.len() + d.attempts.len() + m, DecidedBy::Answer))
            }
            // In a secret choice the message says no more than the `secret` event does: not the
            // answer (what was attempted), nor the decision or its options (a nested choice's
            // would tell what was picked); the line of the answers file says which answer.
            (None, None) if let Some(at) = d.secret => Err(Diag::new(
                "run::bad_answer",
                format!(
                    "an answer ({origin}) is not an option of {}'s secret choice `{}`",
                    p.who_name(at.chooser),
                    p.decisions.get(at.decision as usize).map(String::as_str).unwrap_or("?"),
                ),
            )
            .label(at.span, "chosen in secret here")
            .help(format!(
                "the answer and the options offered stay secret until the choice is revealed; make that answer ({origin}) one this choice offers"
            ))),
            (None, None) => {
                let opts: Vec<&str> = d.options.iter().map(|o| p.option_name(*o)).collect();
                let text = clip(text);
                Err(Diag::new(
                    "run::bad_answer",
                    format!(
                        "the answer `{text}` ({origin}) is not an option of `{}` for {}",
                        p.decisions.get(d.decision as usize).map(String::as_str).unwrap_or("?"),
                        p.who_name(d.chooser)
                    ),
                )
                .label(d.span, "this decision was being asked")
                .help(if keys.iter().any(|k| matches!(k, OptionKey::Character(_))) {
                    format!(
                        "`{text}` can be chosen in some decisions, but is not among the candidates of this one now; the options were: {}",
                        opts.join(", ")
                    )
                } else {
                    format!("the options here were: {}", opts.join(", "))
                }))
            }
        }
    }

    fn attempt(&mut self, p: &World<'_>, d: &DecisionPoint<'_>) -> Option<usize> {
        let names = |a: &Answer, o: &OptionKey| {
            a.keys.contains(o) || (matches!(o, OptionKey::Character(_)) && p.option_name(*o) == a.text)
        };
        if let Some(i) = self
            .addressed_for(d)
            .filter(|i| self.addressed[*i].0.attempter.is_none())
        {
            let j = d.refused.iter().position(|o| names(&self.addressed[i].1, o))?;
            self.addressed[i].2 = true;
            return Some(j);
        }
        if self.policy_for(d.chooser).is_some() {
            return None;
        }
        let a = self.answers.get(self.next)?;
        let j = d.refused.iter().position(|o| names(a, o))?;
        self.next += 1;
        Some(j)
    }

    fn moments(&self) -> bool {
        self.addressed.iter().any(|a| a.0.moment.is_some())
    }

    fn moment(&mut self, _: &World<'_>, m: &MomentPoint<'_>) -> Option<(Who, usize)> {
        let i = self.addressed.iter().position(|(a, _, used, _)| {
            !used && a.moment == Some(m.moment) && within(&a.levels, m.counters, m.running)
        })?;
        self.addressed[i].2 = true;
        let who = self.addressed[i].0.attempter?;
        Some((who, self.attempt_of(&self.addressed[i].1)?))
    }

    fn attempter(&mut self) -> Option<Who> {
        self.last_attempter.take()
    }

    fn names_options(&self) -> bool {
        true
    }

    /// Once the answers in order have run out, with no addressed answer and no side's or
    /// role's policy: the policy answers everything.
    fn policy_only(&self) -> bool {
        self.next >= self.answers.len() && self.addressed.is_empty() && self.by_side.is_empty()
    }

    /// Its policy, once [`Decider::policy_only`] holds (`decide` then hands it every decision).
    fn sole_policy(&mut self) -> Option<&mut Policy> {
        if self.policy_only() {
            Some(&mut self.policy)
        } else {
            None
        }
    }

    /// The policy that will answer `chooser`: its side's or role's, or, once the answers in order
    /// have run out, the policy (an addressed answer may still apply; the runtime's work for the
    /// policy is then unused).
    fn policy(&self, chooser: Who) -> Option<PolicyRef> {
        if let Some(i) = self.policy_for(chooser) {
            return Some(self.by_side[i].1.which);
        }
        (self.next >= self.answers.len()).then_some(self.policy.which)
    }
}

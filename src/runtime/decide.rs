//! Deciders: who answers a decision. Scripted answers (tests), then a policy (simulation).

use rand::rngs::ChaCha8Rng;

use super::dice::{policy_rng, roll_die};
use crate::compile::ir::*;
use crate::diag::Diag;
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
    /// What the active policy picks here, worked out by the runtime where its preferences have
    /// conditions (read in the decision's scope); `None` elsewhere.
    pub suggested: Option<usize>,
    /// The `choose` statement.
    pub span: Span,
}

/// Answers decisions with the index of the picked option.
pub trait Decider {
    fn decide(&mut self, w: &World<'_>, d: &DecisionPoint<'_>) -> Result<(usize, DecidedBy), Diag>;

    /// The policy that will answer the next decision, if a policy will: the runtime works out
    /// the picks of a declared policy's conditional preferences for it.
    fn policy(&self) -> Option<PolicyRef> {
        None
    }
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
        match self.which {
            PolicyRef::First => 0,
            PolicyRef::Random => (roll_die(&mut self.rng, d.options.len().max(1) as u32) - 1) as usize,
            PolicyRef::Declared(_) if d.suggested.is_some() => d.suggested.unwrap_or(0),
            PolicyRef::Declared(i) => {
                let prefs = p
                    .policies
                    .get(i as usize)
                    .and_then(|pol| pol.prefs.get(d.decision as usize));
                prefs
                    .and_then(|prefs| prefs.iter().find_map(|want| d.options.iter().position(|o| o == want)))
                    .unwrap_or(0)
            }
        }
    }
}

impl Decider for Policy {
    fn decide(&mut self, w: &World<'_>, d: &DecisionPoint<'_>) -> Result<(usize, DecidedBy), Diag> {
        Ok((self.pick(w, d), DecidedBy::Policy))
    }

    fn policy(&self) -> Option<PolicyRef> {
        Some(self.which)
    }
}

/// Answers from a list, in order; when they run out, the policy continues.
pub struct Scripted {
    /// Each answer's text, where it came from (for messages), and the options it can name.
    answers: Vec<(String, String, Vec<OptionKey>)>,
    next: usize,
    policy: Policy,
}

impl Scripted {
    /// `answers`: (text, where it came from, e.g. "answers.txt:3").
    pub fn new(p: &Program, answers: Vec<(String, String)>, policy: Policy) -> Self {
        let answers = answers
            .into_iter()
            .map(|(text, origin)| {
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
                (text, origin, keys)
            })
            .collect();
        Scripted {
            answers,
            next: 0,
            policy,
        }
    }

    /// How many answers have been used.
    pub fn used(&self) -> usize {
        self.next
    }

    /// How many answers there are.
    pub fn len(&self) -> usize {
        self.answers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.answers.is_empty()
    }
}

impl Decider for Scripted {
    fn decide(&mut self, p: &World<'_>, d: &DecisionPoint<'_>) -> Result<(usize, DecidedBy), Diag> {
        let Some((text, origin, keys)) = self.answers.get(self.next) else {
            return self.policy.decide(p, d);
        };
        self.next += 1;
        // An answer names an option, an action, or an entity (one made in play by its name).
        let names =
            |o: &OptionKey| keys.contains(o) || (matches!(o, OptionKey::Character(_)) && p.option_name(*o) == text);
        let refused = d.refused.iter().position(names);
        match (d.options.iter().position(names), refused) {
            (Some(i), _) => Ok((i, DecidedBy::Answer)),
            (None, Some(j)) => Ok((d.options.len() + j, DecidedBy::Answer)),
            (None, None) => {
                let opts: Vec<&str> = d.options.iter().map(|o| p.option_name(*o)).collect();
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
                        "`{text}` can be chosen in some decisions, but not here (the `where` of the choice excludes it); the options were: {}",
                        opts.join(", ")
                    )
                } else {
                    format!("the options here were: {}", opts.join(", "))
                }))
            }
        }
    }

    /// The policy, once the answers have run out.
    fn policy(&self) -> Option<PolicyRef> {
        (self.next >= self.answers.len()).then_some(self.policy.which)
    }
}

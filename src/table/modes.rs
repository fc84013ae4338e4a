//! Who answers at the REPL: per side, role, character, everyone or one-option decisions, the
//! person at the REPL (`ask`) or a policy (`auto`); a character's setting beats its side's or
//! role's, which beats `all`.

use crate::compile::Program;
use crate::compile::ir::*;
use crate::runtime::decide::DecisionPoint;

/// How the REPL treats a chooser's decisions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Stop and ask (`ask WHO`).
    Ask,
    /// Answer by a policy (`auto WHO [POLICY]`; `None`: the session's policy).
    Auto(Option<String>),
}

/// The target of a mode: whose decisions it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    All,
    Single,
    Side(u16),
    Role(u16),
    Character(EntityId),
}

/// A target by name: `all`, `single`, a side, a role or a character.
fn target_named(p: &Program, name: &str) -> Option<Target> {
    match name {
        "all" => Some(Target::All),
        "single" => Some(Target::Single),
        _ => p
            .sides
            .iter()
            .position(|s| s == name)
            .map(|i| Target::Side(i as u16))
            .or_else(|| p.roles.iter().position(|r| r == name).map(|i| Target::Role(i as u16)))
            .or_else(|| {
                p.characters
                    .iter()
                    .position(|c| c.name == name)
                    .map(|i| Target::Character(i as EntityId))
            }),
    }
}

/// The modes in force: each target's, resolved (`None`: ask; `Some(policy)`: auto), and, in the
/// order given, the names as written (for `show`).
#[derive(Clone, Debug, Default)]
pub struct Modes {
    set: Vec<(Target, Option<PolicyRef>)>,
    pub named: Vec<(String, Mode)>,
}

impl Modes {
    /// Applies one `auto`/`ask`; the reason when it no longer fits the program.
    pub(super) fn apply(&mut self, p: &Program, default: PolicyRef, target: &str, mode: &Mode) -> Result<(), String> {
        let t =
            target_named(p, target).ok_or_else(|| format!("no side, role or character is called `{target}` now"))?;
        let resolved = match mode {
            Mode::Ask => None,
            Mode::Auto(None) => Some(default),
            Mode::Auto(Some(name)) => Some(
                p.policy(name)
                    .ok_or_else(|| format!("no policy is called `{name}` now"))?,
            ),
        };
        self.set.retain(|(x, _)| *x != t);
        self.set.push((t, resolved));
        self.named.retain(|(n, _)| n != target);
        self.named.push((target.to_string(), mode.clone()));
        Ok(())
    }

    fn get(&self, t: Target) -> Option<Option<PolicyRef>> {
        self.set.iter().find(|(x, _)| *x == t).map(|(_, m)| *m)
    }

    /// The setting for a chooser: its own, else its side's or role's, else everyone's.
    pub(super) fn setting(&self, p: &Program, who: Who) -> Option<Option<PolicyRef>> {
        let own = match who {
            Who::Character(e) => self.get(Target::Character(e)).or_else(|| {
                p.characters
                    .get(e as usize)
                    .and_then(|c| c.side)
                    .and_then(|s| self.get(Target::Side(s)))
            }),
            Who::Role(r) => self.get(Target::Role(r)),
        };
        own.or_else(|| self.get(Target::All))
    }

    /// The policy that answers `d` by itself (auto), or `None`: it is asked.
    pub(super) fn auto(&self, p: &Program, d: &DecisionPoint<'_>, default: PolicyRef) -> Option<PolicyRef> {
        let setting = self.setting(p, d.chooser);
        if self.single_on() && d.options.len() == 1 && d.refused.is_empty() {
            return Some(setting.flatten().unwrap_or(default));
        }
        setting.flatten()
    }

    /// Whether a decision of `who` with these options answers itself (`auto`, or one option
    /// taken at once): `continue` answers only those. Nobody set is asked: the default.
    pub(super) fn answers_itself(&self, p: &Program, who: Who, options: usize, refused: usize) -> bool {
        (self.single_on() && options == 1 && refused == 0) || matches!(self.setting(p, who), Some(Some(_)))
    }

    /// Whether decisions with one option are taken at once (unless `ask single`).
    pub fn single_on(&self) -> bool {
        !self.named.iter().any(|(n, m)| n == "single" && *m == Mode::Ask)
    }

    /// The policy that answers `who` when the policy answers.
    pub(super) fn policy_for(&self, p: &Program, who: Who, default: PolicyRef) -> PolicyRef {
        self.setting(p, who).flatten().unwrap_or(default)
    }
}

/// How `auto` names `who`'s decisions: its own name, then its side's (a character with one).
pub(super) fn auto_names(p: &Program, who: Who) -> Vec<&str> {
    match who {
        Who::Character(e) => match p.characters.get(e as usize) {
            Some(c) => std::iter::once(c.name.as_str())
                .chain(c.side.and_then(|s| p.sides.get(s as usize)).map(String::as_str))
                .collect(),
            None => Vec::new(),
        },
        Who::Role(r) => p.roles.get(r as usize).map(String::as_str).into_iter().collect(),
    }
}

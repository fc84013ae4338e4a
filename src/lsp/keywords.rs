//! The keywords as the language server offers them: those that open an item, those that open a
//! statement, and each keyword's meaning in one line (hover, completion details).

/// The words that open an item.
pub const ITEM_KEYWORDS: &[&str] = &[
    "ruleset",
    "encounter",
    "param",
    "stat",
    "resource",
    "flag",
    "side",
    "tag",
    "action",
    "kind",
    "order",
    "policy",
    "default",
    "setup",
    "play",
    "character",
    "unit",
    "role",
    "trigger",
    "on",
    "routine",
    "effect",
    "global",
    "thing",
    "measure",
    "forbid",
    "attempt",
    "deck",
];

/// The words that open a statement (or an option, an order's key, a policy's line).
pub const STATEMENT_KEYWORDS: &[&str] = &[
    "level", "phase", "round", "turn", "for", "together", "if", "else", "choose", "option", "end", "spend", "gain",
    "reset", "forfeit", "set", "mark", "clear", "repeat", "rank", "transfer", "raise", "react", "elapse", "do",
    "place", "begin", "stop", "create", "destroy", "let", "join", "leave", "roll", "chosen", "side", "tag", "absent",
    "swap", "shuffle", "draw", "discard", "return", "suits", "ranks", "jokers", "reveal", "ready", "disarm", "remove",
    "give", "take", "decks", "no", "one",
];

/// A keyword's meaning in one line (docs/language.md says more).
pub fn keyword_meaning(word: &str) -> Option<&'static str> {
    Some(match word {
        "ruleset" => "names the ruleset: `ruleset \"NAME\"`",
        "encounter" => "names an encounter and the ruleset it uses: `encounter \"NAME\" uses \"PATH\"`",
        "uses" => "the ruleset an encounter is played under, a path from the encounter's folder",
        "param" => "a number the ruleset leaves open, overridable by an encounter: `param NAME = EXPR`",
        "stat" => "a number every character has: `stat NAME [: TYPE] [default EXPR]`",
        "resource" => {
            "a counter spent, gained, reset and forfeited: `resource NAME [min E] [max E] [default E]` (the start when the owner gives none); `resource NAME(c) max c.FIELD`: limits worked out for the owner at each change"
        }
        "flag" => "a truth value each character holds: `flag NAME [default E] [per LEVEL]`",
        "global" => {
            "a number, truth value, entity, side or role of the table, not of a character: `global NAME [: TYPE] [default E]` (`: truth`: set, mark and clear it); an encounter may give its start again: `global NAME default E`"
        }
        "side" => {
            "sides characters belong to: `side heroes, foes [{ FIELDS }]`, every side with the fields of the block (`heroes.init`, `c.side.init`); `c.side` is a character's; `: side` a field holding one"
        }
        "tag" => "tags a character may carry (`c is solo`)",
        "action" => "an action with costs, a condition and effects: `action NAME(c) costs N RES { ... }`",
        "kind" => "kinds of action, which options can offer alone (`option action of kind attack`)",
        "order" => "how entities are sorted: keys, ascending or descending, with tie-breakers",
        "policy" => "how a simulated player answers decisions: preferences, best first",
        "default" => "a start value (`default 0`), or the ruleset's `default policy`",
        "setup" => "statements run once before play",
        "play" => "the nested levels of play",
        "character" => {
            "a character of an encounter: `character NAME { side S, stat = N }`; a group of identical ones: `character 3 × Goblin { ... }` (`Goblin 1` to `Goblin 3`)"
        }
        "group" => {
            "`c.group`: the first of c's group in play (`character 3 × Goblin` declares one), c itself when declared alone: `c.group.initiative`"
        }
        "characters" => "every character in play",
        "sides" => "every side, in declaration order: `for each s in sides [where C] { ... }`, `any s in sides: ...`",
        "level" => "a named level of play (scene, turn, ...): `level NAME [repeat ...] { ... }`",
        "phase" => "a phase: a named level reported as a phase",
        "round" => "a round: a level reported as a round, repeated while or until a condition holds",
        "turn" => "one entity's turn: `turn c { ... }`; `on start of turn(c)` hooks run in it",
        "repeat" => {
            "repeats a block or a level: `repeat [while C | until C]`; `repeat for first c in COLL where C by ORDER { ... }`: the first acts, again and again; `end repeat` leaves it"
        }
        "while" => "repeat as long as the condition holds",
        "until" => "repeat until the condition holds; `until settled` rolls ties again",
        "settled" => "`until settled`: roll again among those still tied",
        "for" => {
            "walks a collection or an order: `for each c in COLL [where C] [by ORDER] { ... }`; counts: `for each i in 1 to n { ... }`"
        }
        "each" => "`for each`: one iteration per member",
        "in" => "the collection a loop or quantifier walks; `in secret` for a secret choice",
        "where" => "a condition that filters the members",
        "by" => "the order a walk follows, or who decides a choice",
        "if" => "a condition: `if C { ... } else { ... }`, or `if C then A else B` in an expression",
        "else" => "what happens otherwise",
        "then" => "`if C then A else B`: the value when C holds",
        "choose" => "a decision: `choose NAME by WHO { option ... }` or `from x in COLL`",
        "option" => "one option of a decision; `option action` offers every action that can be paid for",
        "end" => "ends a level, a repeat or the encounter: `end LEVEL [because \"reason\"]`",
        "because" => "the reason traced with an end or a refusal",
        "spend" => "takes from a resource: `spend N c.RES` or `spend all c.RES`",
        "gain" => "adds to a resource: `gain N c.RES`",
        "reset" => "sets a resource to a value: `reset c.RES to EXPR`",
        "forfeit" => "empties a resource, traced as forfeited",
        "set" => "sets a stat or global: `set x.FIELD = EXPR`",
        "mark" => "sets a flag",
        "clear" => "clears a flag",
        "costs" => "what an action spends: `costs N RES, ...`",
        "when" => "a condition: an action's or an option's precondition, a key's, a preference's",
        "per" => {
            "`flag NAME per LEVEL, ...`: cleared as each iteration of those levels starts; `per any turn`: as anyone's turn starts"
        }
        "roll" => {
            "an order key rolled among those still tied; `roll DICE as p`: a pool, the dice's faces kept for the rest of the block"
        }
        "remove" => "`remove FACE from p`: takes one die showing FACE out of the pool `p`",
        "desc" => "highest first",
        "asc" => "lowest first",
        "not" | "and" | "or" => "logic on truth values",
        "is" => "`c is TAG`, `c is SIDE`: whether a character carries a tag or is on a side",
        "true" | "false" => "a truth value",
        "none" => "no entity",
        "any" | "all" => "a quantifier: `any c in COLL [where C]: COND`",
        "count" | "sum" | "max" | "min" => "a quantifier over a collection, or a resource's bound",
        "first" | "last" => {
            "the first or last entity of a walk (`first x in COLL where C by ORDER`), a place, or `repeat for first x in COLL where C by ORDER { ... }`: the first acts, again and again"
        }
        "unit" => "a unit of the game clock: `unit minute = 60 seconds`",
        "role" => {
            "deciders who are not characters (the GM); a value: `: role` a field holding one, `choose X by FIELD` asks the role it holds"
        }
        "trigger" => "a happening that hooks answer: `trigger NAME(a, b)`, raised by `raise`",
        "on" => {
            "a hook: `on start of LEVEL`, `on before turn(c)`, `on after ACTION(c)`, `on end of EFFECT(c)`, `on TRIGGER(a)`"
        }
        "start" => "when a hook runs: at the start of a level, a turn, the encounter or an effect",
        "after" => {
            "`on after turn(c)`, `on after ACTION(c)`: once a turn is over, or an action has resolved; `place c after x`"
        }
        "of" => "`on start of LEVEL`; `option action of kind K`",
        "using" => "`option action using RES`: costs paid from another resource",
        "from" => "`choose NAME by WHO from x in COLL`; `for each ... from X`; `transfer N from A to B`",
        "to" => "`reset x to N`, `transfer N from A to B`, `counting from A to B`, `for each i in 1 to n`",
        "rank" => "sorts an order once and keeps it",
        "transfer" => "moves an amount from one resource to another",
        "raise" => "raises a trigger, running its hooks",
        "react" => "a reaction: another entity acts inside the current turn",
        "elapse" => "advances the game clock: `elapse N UNIT`",
        "routine" => {
            "a named block with typed parameters, run by `do NAME(x)`: `routine NAME(c, n: number, t: truth, s: side, r: role) [gives TYPE] { ... }`"
        }
        "gives" => "`routine NAME(...) gives number { ... give x }`: a routine called in an expression for its value",
        "give" => "`give EXPR`: the value of a routine declared with `gives TYPE`; it returns here",
        "do" => "runs a routine",
        "backwards" => "walks a collection in reverse",
        "effect" => "something on a character for a while (`c.NAME` holds while it lasts)",
        "begin" => {
            "starts an effect: `begin E on c for N counted at ...` or `begin E on c until end of [next] turn(x)`"
        }
        "counted" => "where an effect's duration counts down",
        "at" => "`counted at`, `measure ... at`, `until settled at most N`, `CHANGE at end of moment|LEVEL`",
        "stop" => "ends an effect early: `stop E on c`",
        "unless" => "a refusal: `unless C because \"...\"`",
        "place" => "moves a character within a kept order",
        "before" => {
            "`on before turn(c)`: before a turn starts, outside it; `on before ACTION(c)`: before an action resolves; `place c before x in ORDER`"
        }
        "ready" => "a one-shot response armed now: `ready c on TRIGGER(x) [where C] [until start of turn(c)] { ... }`",
        "disarm" => "disarms a character's readied responses: `disarm c [on TRIGGER]`",
        "thing" => "a type of entity besides characters: `thing NAME, PLURAL { fields }`",
        "create" => "a new thing in play: `create THING { field = value } as x`",
        "destroy" => "removes a thing from play",
        "as" => "`create THING as x`: a name for what was made; `choose ... from x in C as NAME`: the pick",
        "let" => {
            "a name for a value, for the rest of the block (`let best: character = none` gives its type); `set x = ...` changes it"
        }
        "measure" => "a number the simulator reports, taken where a hook would run",
        "counting" => "a level's own numbers: `counting from 12 down to 1`",
        "down" => "`counting from N down`; `for each i in n down to 1`",
        "within" => "`counting from A within LO to HI`: numbers wrap round",
        "most" => "`until settled at most N`",
        "chosen" => "`chosen by WHO`: a person orders each tied group",
        "together" => {
            "`together for each`: members act at one moment; `together { ... }`: a moment with no walk; `by ORDER ties together`: tied members act at one moment"
        }
        "anew" => {
            "`by ORDER anew`: sorted again before each member's moment (roll-offs and `chosen by` answers kept while a tie lasts)"
        }
        "ties" => "`by ORDER ties together`: members tied on the order's value keys act as one moment",
        "moment" => {
            "`CHANGE at end of moment`: worked out now, made when the innermost moment ends (`at end of LEVEL`: when the level's iteration ends)"
        }
        "absent" => "out of play until a `join` brings it in",
        "join" => "a declared character comes into play",
        "leave" => "a character goes out of play",
        "secret" => "`in secret`: revealed when all have chosen; `in secret until revealed`: held until a `reveal`",
        "revealed" => "`in secret until revealed`: held past its walk until `reveal DECISION of WHO` shows it",
        "reveal" => "shows a held secret choice: `reveal [all] DECISION of WHO` (the earliest held, or all)",
        "next" => "`until end of next turn(c)`: a turn of c under way when it begins does not count",
        "forbid" => "why an attempt no decision offers now is refused: `forbid NAME [(c)] [when C] because \"...\"`",
        "attempt" => {
            "an attempt that can be carried out, at any moment or at those listed: `attempt NAME [(c)] [at before turn(x), after turn(x), start of LEVEL, end of LEVEL, DECISION(x)] [when C] { ... }`"
        }
        "out" => "`x in COLL out of play` (a `choose ... from`, a quantifier, a `for each`): only those out of play",
        "including" => {
            "`x in COLL including out of play` (a `choose ... from`, a quantifier, a `for each`): those in play and those out of it"
        }
        "swap" => "two in a kept order trade places: `swap A with B in ORDER`",
        "with" => "`swap A with B in ORDER`",
        "deck" => "a deck of cards: `deck NAME, PLURAL { suits ... ranks ... jokers N }`",
        "decimals" => "a number kept exactly with N digits after the point: `stat NAME decimals N`",
        "suits" => "a deck's suits, lowest first",
        "ranks" => "a deck's ranks: `2 to 10`, `Q = 12`",
        "jokers" => "how many jokers a deck has: `jokers N [= RANK]`",
        "decks" => {
            "several decks of one make: `decks players, gm` (cards `Q hearts of gm`), or `decks per TYPE` (a deck for each entity: `x.PLURAL`)"
        }
        "one" => "a card for each entity of the cast, standing for it: `one per TYPE` (its field `holder`)",
        "no" => "`no refill`: an empty draw pile never takes the discards back by itself (a bag)",
        "refill" => "`no refill`: an empty draw pile never takes the discards back by itself (a bag)",
        "take" => "a given card out of the draw pile: `take X from DECK`",
        "into" => "one card into the draw pile at a random place: `shuffle X into DECK`",
        "pile" => "a deck's pile, in deck order: `draw pile of DECK`, `discard pile of DECK`",
        "shuffle" => "every card back in the draw pile, shuffled: `shuffle DECK`",
        "draw" => "the top card of a deck: `draw from DECK [by C] [as x]`",
        "discard" => "a card to the discard pile",
        "return" => "a card back on top of the draw pile: `return X to DECK`",
        _ => return None,
    })
}

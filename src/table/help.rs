//! The commands' help: each command's usage, what it does and an example, and the `help` text.

/// One command's help: name, usage, what it does, an example.
pub struct Help {
    pub name: &'static str,
    pub usage: &'static str,
    pub about: &'static str,
    pub example: &'static str,
}

/// Every command, in the order `help` lists them.
pub const COMMANDS: &[Help] = &[
    Help {
        name: "show",
        usage: "show [N] | show all [N] | show NAME",
        about: "The initiative strip, one screen: where play is and the clock; the order, with who \
                is up (▸), who has acted (✓), who is next (›) and who is out (×); each character's \
                resources, flags set, effects with the counts left and responses readied; the pending \
                decision with its numbered options and refused candidates; the last N events (default \
                8). `show all`: everything — every field of everyone in a table cut to the screen's \
                width, kept orders, globals, effects and where they are counted, flags and when they \
                clear, every response armed by `ready` (its point, condition and expiry), who \
                answers. `show NAME`: one character, with its armed responses; or one side, with its \
                members and fields.",
        example: "show Mira",
    },
    Help {
        name: "step",
        usage: "step [N | turn | LEVEL | level LEVEL | until LEVEL=N | end]",
        about: "Let the policy answer: one decision (or N); to the end of the current character's \
                turn; to the end of the current iteration of a level, by the ruleset's own level \
                names (`level LEVEL` when a level is called `turn` or `end`); until iteration N of \
                a level is over; or to the end of the encounter. Stops at the next decision after \
                that (decisions set to `auto` are answered on the way).",
        example: "step turn",
    },
    Help {
        name: "continue",
        usage: "continue [until LEVEL=N]",
        about: "Play on through the decisions of those set to `auto` (the pending one too; at one \
                waiting for someone asked it changes nothing), stopping at anyone else's; to the end \
                of the encounter (no round limit: the step budget guards a fight that never ends), \
                or until iteration N of LEVEL is over.",
        example: "continue until round=15",
    },
    Help {
        name: "auto",
        usage: "auto WHO [POLICY]",
        about: "Let a policy answer the decisions of WHO by itself from now on, without stopping: \
                WHO is a side, a role, a character or `all` (a character's setting wins over its \
                side's, which wins over `all`); POLICY is `first`, `random` or one the ruleset \
                declares (default: the ruleset's default policy). `auto single` (the default) takes \
                a decision with one option at once. Logged, so undo and save keep it.",
        example: "auto rivals",
    },
    Help {
        name: "ask",
        usage: "ask WHO",
        about: "Stop and ask at the decisions of WHO (a side, a role, a character or `all`), as \
                for everyone nobody set to `auto`. `ask single` stops at decisions with one option too.",
        example: "ask party",
    },
    Help {
        name: "answer",
        usage: "answer [N | NAME]",
        about: "Answer the pending decision by the number `show` gives an option, or by its name; \
                with nothing, let the policy answer it.",
        example: "answer 2",
    },
    Help {
        name: "attempt",
        usage: "attempt WHO NAME [MOMENT] | attempt cancel [WHO NAME]",
        about: "Make an attempt now, or at a moment. WHO (any character or role, not only the \
                chooser) makes the attempt NAME at the pending decision: refused with every reason the rules give, or carried out \
                (its block runs); the decision is then asked again. With a MOMENT (`before X`, \
                `after X`, `start of LEVEL [N]`, `end of LEVEL [N]`, as an answers file writes \
                it) it waits for that moment and is made there; `show` lists those waiting, \
                `attempt cancel` takes them back. Logged, so undo, save and load keep it.",
        example: "attempt Ilse interrupt",
    },
    Help {
        name: "roll",
        usage: "roll N...",
        about: "Force the next dice, one value per die, in the order they are rolled. A value that \
                cannot come up on its die is refused when it is rolled.",
        example: "roll 4 2 12",
    },
    Help {
        name: "draw",
        usage: "draw CARD[, CARD...]",
        about: "Force the next cards drawn from a deck, by name, in the order they are drawn (as \
                `--draws` does for a run). A card not in the draw pile when it is drawn stops the run.",
        example: "draw joker 1, Q hearts",
    },
    Help {
        name: "seed",
        usage: "seed N",
        about: "Restart the dice and the policy from a seed. Before the first decision this is the \
                encounter's seed, from the start.",
        example: "seed 42",
    },
    Help {
        name: "set",
        usage: "set NAME.FIELD = VALUE | set GLOBAL = VALUE",
        about: "Set a character's stat, resource or flag, or a global, by hand. The \
                value is written as the language writes it: a number, `true` or `false` for a flag, \
                a character's name or `none` for a field that holds one, a side's or a role's name \
                for a field that holds a side or a role. NAME may be a side, for a side's field \
                (`set heroes.init = 4`). Resources and globals stay within their limits. Traced as a manual change. (An effect is begun and ended with \
                `begin` and `stop`.)",
        example: "set Mira.prone = true",
    },
    Help {
        name: "begin",
        usage: "begin EFFECT on NAME for N [counted at WHERE] | until EDGE",
        about: "Begin an effect on a character by hand, for N counts, counted where \
                the language counts them: `place of NAME in ORDER`, `start of turn(NAME)`, `end of \
                turn(NAME)`, `start of LEVEL`, `end of LEVEL` (default: the end of the character's \
                own turns); or `until` an edge, as the language says it: `until end of next \
                turn(NAME)` (a turn of NAME under way does not count), `until start of turn(NAME)`, \
                `until end of LEVEL`. It shows among the running effects with the counts left; \
                traced as a manual ruling, then `effect_start`.",
        example: "begin shielded on Mira for 1 counted at end of round",
    },
    Help {
        name: "stop",
        usage: "stop EFFECT on NAME",
        about: "End every instance of an effect on a character now (`end` is the \
                same command). Traced as a manual ruling, then `effect_end`.",
        example: "stop shielded on Mira",
    },
    Help {
        name: "place",
        usage: "place NAME first | last | before NAME | after NAME in ORDER",
        about: "Move a character in a kept order (or put one who is in none into \
                it), as the language's `place` does. Traced as a manual ruling and the new order.",
        example: "place Zed after Mira in initiative",
    },
    Help {
        name: "rank",
        usage: "rank ORDER",
        about: "Rank a kept order again by its keys, as the language's `rank` does \
                (ties are broken anew, with dice where the order rolls). Traced as a manual ruling \
                and the new order.",
        example: "rank initiative",
    },
    Help {
        name: "add",
        usage: "add character NAME { ... }",
        about: "Add characters, written as in an encounter file (side, tags, fields; it may span \
                lines). Before the first decision they are in from the start; later they join play \
                at this point, with their fields set then, and take part from the next order on.",
        example: "add character Zed { side rivals, hp = 5 }",
    },
    Help {
        name: "remove",
        usage: "remove NAME",
        about: "Take a character out of play (a foe falls): every loop, quantifier, choice and kept \
                order skips them from now on. Not the one deciding, nor an option, of the pending \
                decision.",
        example: "remove Zed",
    },
    Help {
        name: "undo",
        usage: "undo [N]",
        about: "Undo the last command that changed the state (or the last N).",
        example: "undo 3",
    },
    Help {
        name: "redo",
        usage: "redo [N]",
        about: "Redo what was undone (one command, or N). A new change drops what could be redone.",
        example: "redo",
    },
    Help {
        name: "reload",
        usage: "reload",
        about: "Read the ruleset and encounter files again and replay the session to the same \
                point; where the replay no longer fits, stop before that command and say why (it \
                stays to redo).",
        example: "reload",
    },
    Help {
        name: "save",
        usage: "save FILE",
        about: "Save the session: the files' paths and hashes, the seed, and every command with \
                the changes it made, the undone ones too. `load` replays it to the identical state, \
                and `redo` then replays what was undone.",
        example: "save table.tsession",
    },
    Help {
        name: "load",
        usage: "load FILE",
        about: "Load a saved session (or the autosave) and replay it; notes files changed since. \
                An autosave whose last command was cut short as it was written (a crash, a full \
                disk, or an editor that trimmed the final blank line) loads without that command, with a \
                warning naming it; a damaged line before the end is refused (the session unchanged).",
        example: "load .turnscript-autosave-fight.tsession",
    },
    Help {
        name: "trace",
        usage: "trace",
        about: "The whole trace so far, in the GM's text view.",
        example: "trace",
    },
    Help {
        name: "log",
        usage: "log",
        about: "The commands of the session, numbered, with what undo and redo would move over.",
        example: "log",
    },
    Help {
        name: "help",
        usage: "help [COMMAND]",
        about: "The commands, or one command in full.",
        example: "help step",
    },
    Help {
        name: "quit",
        usage: "quit",
        about: "Leave (so does Ctrl-D). The autosave keeps the session.",
        example: "quit",
    },
];

/// The help text: every command, or one.
pub fn help(topic: Option<&str>, width: usize) -> String {
    match topic.and_then(|t| COMMANDS.iter().find(|c| c.name == t)) {
        Some(c) => format!(
            "{}\n{}\n{}\n",
            wrap(c.usage, width, "", "    "),
            wrap(c.about, width, "  ", "  "),
            wrap(&format!("example: {}", c.example), width, "  ", "    ")
        ),
        None => {
            let mut out = String::from("commands (`help COMMAND` for more):\n");
            // Usage and description side by side where the terminal is wide enough; else the
            // description under its usage.
            let side_by_side = width >= 72;
            let hang = " ".repeat(if side_by_side { 41 } else { 4 });
            for c in COMMANDS {
                // The first clause of the description.
                let end = [". ", ": ", "; ", " ("]
                    .iter()
                    .filter_map(|sep| c.about.find(sep))
                    .min()
                    .unwrap_or(c.about.len());
                let first = c.about[..end].trim_end_matches('.');
                if c.usage.chars().count() > 38 || !side_by_side {
                    out.push_str(&wrap(c.usage, width, "  ", "      "));
                    out.push('\n');
                    out.push_str(&wrap(first, width, &hang, &hang));
                } else {
                    out.push_str(&wrap(first, width, &format!("  {:<38} ", c.usage), &hang));
                }
                out.push('\n');
            }
            for note in [
                "set, begin, stop, place, rank, add and remove are a GM's rulings: traced, undone and saved like any change",
                "a line with unbalanced braces continues on the next; Ctrl-C cancels a line, Ctrl-D leaves",
            ] {
                out.push_str(&wrap(note, width, "", ""));
                out.push('\n');
            }
            out
        }
    }
}

/// `text` wrapped at word boundaries to `width` columns, its first line after `first`, the others
/// after `rest` (a long word stays whole rather than being cut).
pub fn wrap(text: &str, width: usize, first: &str, rest: &str) -> String {
    let options = textwrap::Options::new(width.max(20))
        .initial_indent(first)
        .subsequent_indent(rest)
        .break_words(false);
    textwrap::fill(text, options)
}

//! Language behaviours that no bundled ruleset exercises, each through a small inline ruleset.

mod common;

use common::{check_texts, run_texts};
use turnscript::RunOptions;

fn run(src: &str, rolls: &[i64], answers: &[&str], until: Option<&str>) -> (String, String, i32) {
    let files = vec![("t.turn".to_string(), src.to_string())];
    let answers = answers.iter().map(|a| (a.to_string(), "answers".to_string())).collect();
    let opts = RunOptions {
        rolls: rolls.to_vec(),
        until: until.map(str::to_string),
        ..RunOptions::default()
    };
    run_texts(&files, answers, &opts, false)
}

#[test]
fn dice_outside_a_resource_change_are_traced_as_a_roll() {
    let src = "stat x default d6\ncharacter A { }\nplay { if d6 > 3 { end encounter because \"high\" } }\n";
    let (out, err, code) = run(src, &[2, 5], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("roll     A     roll       d6 [2] = 2"), "{out}");
    assert!(out.contains("roll           roll       d6 [5] = 5"), "{out}");
    assert!(out.ends_with("end of encounter: high\nfinal    A     x = 2\n"), "{out}");
}

/// Issue 24, item 7: dice rolled in a `let` or an `if` inside a routine were traced with no actor,
/// so a to-hit roll could not be tied to who rolled it. A roll that names no one of its own is
/// the acting character's: the innermost turn, reaction or action running.
#[test]
fn dice_in_a_routine_are_traced_for_whoever_is_acting() {
    let src = "resource hp\naction strike(c) { do attack(c) }\n\
               routine attack(a) { let hit = d20\n if hit + d4 > 12 { spend 1 (first t in characters where t != a).hp } }\n\
               character A { hp = 5 }\ncharacter B { hp = 5 }\n\
               play { turn A { do attack(A) } react B { if d6 > 3 { } } turn B { choose act by B { option action } } if d8 > 0 { } }\n";
    let (out, err, code) = run(src, &[15, 2, 4, 9, 3, 1], &["strike"], None);
    assert_eq!(code, 0, "{err}");
    let rolls: Vec<&str> = out.lines().map(str::trim).filter(|l| l.starts_with("roll")).collect();
    assert_eq!(
        rolls,
        vec![
            "roll     A     roll       d20 [15] = 15",
            "roll     A     roll       d4 [2] = 2",
            "roll     B     roll       d6 [4] = 4",
            "roll     B     roll       d20 [9] = 9",
            "roll     B     roll       d4 [3] = 3",
            "roll           roll       d8 [1] = 1",
        ],
        "{out}"
    );
}

/// Issue 24, item 7: an empty `together for each` emitted `together_start` with no actors and
/// `together_end`, where a `for each` over nothing emits nothing. Decided: nothing, alike.
#[test]
fn a_together_walk_over_nobody_traces_nothing() {
    let src = "flag down\ncharacter A { down = true }\n\
               play { together for each c in characters where not c.down { turn c { } } end encounter because \"over\" }\n";
    for jsonl in [false, true] {
        let files = vec![("t.turn".to_string(), src.to_string())];
        let (out, err, code) = run_texts(&files, Vec::new(), &RunOptions::default(), jsonl);
        assert_eq!(code, 0, "{err}");
        assert!(!out.contains("together"), "{out}");
        assert!(out.contains("over"), "{out}");
    }
}

#[test]
fn an_order_inside_a_loop_keeps_the_loop_variable() {
    let src = "stat speed default 1\nresource n\norder fast(o) { o.speed desc }\n\
               character A { speed = 1 }\ncharacter B { speed = 2 }\n\
               play { for each c in characters { for each d in characters by fast { } gain 1 c.n } }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    let gains: Vec<&str> = out.lines().filter(|l| l.starts_with("gain")).collect();
    assert_eq!(
        gains,
        vec!["gain     A     n          +1 → 1", "gain     B     n          +1 → 1"]
    );
}

#[test]
fn option_action_runs_its_block_after_the_action() {
    let src = "resource ap min 0\nresource done\naction hit(c) costs 1 ap\ncharacter A { ap = 2 }\n\
               play { for each c in characters { choose act by c { option action { gain 1 c.done } option pass } } }\n";
    let (out, err, code) = run(src, &[], &["hit"], None);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("action") || l.starts_with("spend") || l.starts_with("gain"))
        .collect();
    assert_eq!(
        lines,
        vec![
            "action   A     hit",
            "spend    A     ap         -1 → 1",
            "gain     A     done       +1 → 1"
        ]
    );
}

#[test]
fn until_stops_a_level_iteration_that_an_end_closed() {
    let src = "resource n\ncharacter A { }\nplay { level turn repeat { for each c in characters { gain 1 c.n } end turn } }\n";
    let (out, err, code) = run(src, &[], &[], Some("turn=1"));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.ends_with("end of encounter: until turn=1\nfinal    A     n = 1\n"),
        "{out}"
    );
}

#[test]
fn tags_and_fields_mix_in_a_character() {
    // `play` makes it a ruleset with its cast, so the file is checked, not only parsed.
    let src = "tag solo, big\nstat speed\ncharacter A { tag solo, big, speed = 3 }\nplay { }\n";
    assert_eq!(check_texts(&[("t.turn".into(), src.into())]), (String::new(), true));
}

#[test]
fn keywords_that_start_with_other_keywords_are_reserved() {
    for word in ["forfeit", "characters"] {
        let src = format!("stat {word}\n");
        let (report, clean) = check_texts(&[("t.turn".into(), src)]);
        assert!(!clean && report.contains("is a keyword"), "{word}: {report}");
    }
}

#[test]
fn costs_in_one_resource_are_paid_together() {
    // `big` costs 2 + 2 AP; with 3 AP only `small` is affordable.
    let src = "resource ap min 0\naction big(c) costs 2 ap, 2 ap\naction small(c) costs 1 ap\n\
               character X { ap = 3 }\nplay { for each c in characters { choose a by c { option action } } }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("choose   X     a          small    of small (policy)"),
        "{out}"
    );
}

#[test]
fn end_hooks_run_however_a_turn_or_level_ends() {
    let src = "resource ap min 0\non end of turn(c) { gain 1 c.ap }\n\
               on end of inner { for each c in characters { gain 100 c.ap } }\ncharacter X { }\n\
               play { for each c in characters {\n  repeat { turn c { end repeat } }\n\
               repeat { level inner { end repeat } } } }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    let gains: Vec<&str> = out.lines().filter(|l| l.trim_start().starts_with("gain")).collect();
    assert_eq!(
        gains,
        vec![
            "  gain     X     ap         +1 → 1",
            "  gain     X     ap         +100 → 101"
        ]
    );
}

#[test]
fn the_default_stop_catches_whichever_endless_level_runs_on() {
    // The inner round always ends the combat, so only the scene reaches ten iterations.
    let src = "character X { }\nplay { level scene repeat { level combat { round repeat { end combat } } } }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("end of encounter: limit scene=10\nfinal    X\n"), "{out}");
    // Here the round is endless and is stopped at its tenth iteration.
    let src = "character X { }\nplay { level scene repeat { round repeat { } } }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("end of encounter: limit round=10\nfinal    X\n"), "{out}");
}

#[test]
fn a_character_choice_can_be_declined() {
    let src = "role director\ntag npc\nresource hp\n\
               character A { tag npc }\ncharacter B { tag npc }\ncharacter C { }\n\
               play {\n  choose bring_in by director from n in characters where n is npc {\n    gain 1 n.hp\n  } or pass { gain 5 n2.hp }\n}\n";
    // `n2` is unknown inside the decline block: the block is outside the choice's variable.
    let (_, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 1);
    assert!(err.contains("unknown character variable `n2`"), "{err}");
    let src = "role director\ntag npc\nresource hp\n\
               character A { tag npc }\ncharacter B { tag npc }\ncharacter C { }\n\
               play {\n  choose bring_in by director from n in characters where n is npc {\n    gain 1 n.hp\n  } or pass\n\
               choose bring_in by director from n in characters where n is npc { gain 1 n.hp } or pass\n\
               choose nobody by director from n in characters where n.hp > 5 { gain 1 n.hp } or pass\n}\n";
    let (out, err, code) = run(src, &[], &["B", "pass"], None);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(
        lines,
        vec![
            "choose   director  bring_in   B        of A|B|pass",
            "gain     B         hp         +1 → 1",
            "choose   director  bring_in   pass     of A|B|pass",
            "end of encounter: complete",
            "final    A         hp = 0",
            "final    B         hp = 1",
            "final    C         hp = 0",
        ]
    );
}

#[test]
fn globals_belong_to_the_table() {
    let src = "stat speed default 5\nside pcs\nglobal party_metres min 0\nglobal doom default 3 max 5\n\
               character A { side pcs, speed = 6 }\ncharacter B { side pcs, speed = 4 }\n\
               play {\n  gain 5 * (min c in characters where c is pcs: c.speed) party_metres\n  gain 9 doom\n\
               if doom == 5 { set party_metres = party_metres + 1 }\n}\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let (out, err, code) = run_texts(&files, Vec::new(), &RunOptions::default(), true);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(
        lines,
        vec![
            r#"{"event":"gain","resource":"party_metres","amount":20,"left":20}"#,
            r#"{"event":"gain","resource":"doom","amount":2,"left":5}"#,
            r#"{"event":"set","stat":"party_metres","amount":21,"left":21}"#,
            r#"{"event":"encounter_end","reason":"complete"}"#,
            r#"{"event":"final","clock":0,"globals":{"party_metres":21,"doom":5},"entities":[{"name":"A","type":"character","in_play":true,"fields":{"speed":6}},{"name":"B","type":"character","in_play":true,"fields":{"speed":4}}]}"#,
        ]
    );
}

#[test]
fn a_routine_runs_where_it_is_done_and_may_run_itself() {
    let src = "resource hp\ncharacter A { }\ncharacter B { }\n\
               play {\n  for each c in characters { do heal(c, c) }\n}\n\
               routine heal(c, d) { gain 1 c.hp  if c.hp < 3 { do heal(c, d) } }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    let gains: Vec<&str> = out.lines().filter(|l| l.starts_with("gain")).collect();
    assert_eq!(
        gains,
        vec![
            "gain     A     hp         +1 → 1",
            "gain     A     hp         +1 → 2",
            "gain     A     hp         +1 → 3",
            "gain     B     hp         +1 → 1",
            "gain     B     hp         +1 → 2",
            "gain     B     hp         +1 → 3"
        ]
    );
}

#[test]
fn popcorn_initiative_whoever_acted_picks_the_next() {
    let src = "role gm\nflag acted per round\nflag up\ncharacter A { }\ncharacter B { }\ncharacter C { }\n\
               play {\n  round repeat {\n    choose opener by gm from c in characters { mark c.up }\n\
               repeat while any c in characters: c.up {\n      for each c in characters where c.up {\n\
               clear c.up\n        turn c { }\n        mark c.acted\n\
               choose next by c from n in characters where not n.acted { mark n.up }\n      }\n    }\n  }\n}\n";
    let (out, err, code) = run(src, &[], &["B", "C", "A"], Some("round=1"));
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().skip(2).collect();
    assert_eq!(
        lines,
        vec![
            "  choose   gm    opener     B        of A|B|C",
            "  mark     B     up",
            "  clear    B     up",
            "  ▸ B",
            "  mark     B     acted",
            "  choose   B     next       C        of A|C",
            "  mark     C     up",
            "  clear    C     up",
            "  ▸ C",
            "  mark     C     acted",
            "  choose   C     next       A        of A",
            "  mark     A     up",
            "  clear    A     up",
            "  ▸ A",
            "  mark     A     acted",
            "end of encounter: until round=1",
            "final    A     acted = 1, up = 0",
            "final    B     acted = 1, up = 0",
            "final    C     acted = 1, up = 0",
        ]
    );
}

#[test]
fn a_quantifier_variable_shadows_a_param_argument() {
    let src = "stat v default 0\ncharacter A { }\nparam f(n) = sum n in characters: n * 10\n\
               play { for each c in characters { set c.v = f(100) } }\n";
    let (_, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 1);
    assert!(
        err.contains("the left of `*` must be a number, but this is a character"),
        "{err}"
    );
}

#[test]
fn a_param_argument_is_no_param_for_cycles_or_dice() {
    // `b` is an argument inside `a`, so there is no cycle; `die` is an argument inside `plus`,
    // so a cost using `plus(1)` rolls nothing.
    let src = "param a(b) = b + 1\nparam b = a(1)\nparam die = d6\nparam plus(die) = die + 1\n\
               resource ap min 0\naction hit(c) costs plus(1) ap\ncharacter A { ap = 5 }\n\
               play { for each c in characters { choose act by c { option action option pass } } }\n";
    let (out, err, code) = run(src, &[], &["hit"], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("spend    A     ap         -2 → 3"), "{out}");
    // A real cycle, however long, is found.
    let mut src = String::from("param q0(x) = q69(x)\n");
    for i in 1..70 {
        src.push_str(&format!("param q{i}(x) = q{}(x) + 1\n", i - 1));
    }
    let (_, err, code) = run(&src, &[], &[], None);
    assert_eq!(code, 1);
    assert!(err.contains("check::cycle"), "{err}");
}

#[test]
fn moving_during_a_walk_does_not_count_a_place_twice() {
    let src = "stat speed default 1\neffect burn\norder O(c) { c.speed desc }\n\
               character A { speed = 3 }\ncharacter B { speed = 2 }\ncharacter C { speed = 1 }\n\
               play { rank O  round repeat { for each c in O { turn c {\n\
               if round.number == 1 and c.speed == 3 { begin burn on c for 1 counted at place of c in O  place c last in O }\n\
               } } } }\n";
    let (out, err, code) = run(src, &[], &[], Some("round=2"));
    assert_eq!(code, 0, "{err}");
    // A began the burn at place 1 and moved last; it ends before the place-1 turn of round 2.
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    let end = lines
        .iter()
        .position(|l| l.starts_with("effect   A     burn       ends"));
    let round2 = lines.iter().position(|l| *l == "round 2");
    assert!(end > round2, "{out}");
    assert_eq!(lines.get(end.unwrap_or(0) + 1), Some(&"▸ B"), "{out}");
}

#[test]
fn a_refused_candidate_is_explained_even_when_every_candidate_is_refused() {
    let src = "resource hp min 0\nstat v default 0\ncharacter A { hp = 1 }\ncharacter B { hp = 0 }\n\
               play { for each c in characters where c.hp > 0 {\n\
               choose pick by c from p in characters where p != c unless p.hp == 0 because \"{p} is down\" { set p.v = 1 } or pass\n} }\n";
    let (out, _, code) = run(src, &[], &["pass"], None);
    assert_eq!(code, 0);
    assert!(out.contains("choose   A     pick       pass     of pass"), "{out}");
    // Naming B is refused with the reason, then A is asked again and declines.
    let (out, err, code) = run(src, &[], &["B", "pass"], None);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("refused") || l.starts_with("choose"))
        .collect();
    assert_eq!(
        lines,
        vec![
            "refused  A     pick       B: B is down",
            "choose   A     pick       pass     of pass"
        ]
    );
    // With --stop-on-refusal the run stops on it, as it used to.
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        stop_on_refusal: true,
        ..RunOptions::default()
    };
    let answers = vec![("B".to_string(), "answers".to_string())];
    let (_, err, code) = run_texts(&files, answers, &opts, false);
    assert_eq!(code, 1);
    assert!(err.contains("run::refused") && err.contains("B is down"), "{err}");
}

#[test]
fn a_refusal_gives_every_reason_that_applies() {
    let src = "resource ap min 0
flag tired
character A { ap = 0, tired = true }
               play { for each c in characters { choose act by c {
               option run unless c.ap == 0 because \"{c} has no AP\" unless c.tired because \"{c} is tired\"
               option rest
} } }
";
    let (out, err, code) = run(src, &[], &["run", "run", "rest"], None);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("refused") || l.starts_with("choose"))
        .collect();
    assert_eq!(
        lines,
        vec![
            "refused  A     act        run: A has no AP; A is tired",
            "refused  A     act        run: A has no AP; A is tired",
            "choose   A     act        rest     of rest",
        ]
    );
}

/// Issue 24, item 3: `option action unless C` passed the checker, then its actions were offered
/// and taken while C held.
#[test]
fn option_action_unless_refuses_every_action_it_would_offer() {
    let src = "resource ap min 0\nflag stunned\naction hit(c) costs 1 ap\naction dodge(c) costs 1 ap\n\
               character A { ap = 2, stunned = true }\n\
               play { for each c in characters { choose act by c {\n\
               option action unless c.stunned because \"{c} is stunned\"\n\
               option rest\n} } }\n";
    let (out, err, code) = run(src, &[], &["hit", "dodge", "rest"], None);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| {
            ["refused", "choose", "action", "spend"]
                .iter()
                .any(|k| l.starts_with(k))
        })
        .collect();
    assert_eq!(
        lines,
        vec![
            "refused  A     act        hit: A is stunned",
            "refused  A     act        dodge: A is stunned",
            "choose   A     act        rest     of rest",
        ]
    );
    // Not stunned: both actions are offered again, and taken.
    let src = src.replace("stunned = true", "stunned = false");
    let (out, err, code) = run(&src, &[], &["dodge"], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("choose   A     act        dodge    of hit|dodge|rest"),
        "{out}"
    );
    assert!(out.contains("action   A     dodge"), "{out}");
}

#[test]
fn placing_a_character_next_to_itself_changes_nothing() {
    let src = "stat speed default 1\norder O(c) { c.speed desc }\ncharacter A { speed = 2 }\ncharacter B { speed = 1 }\n\
               play { rank O  for each c in characters { place c before c in O } }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("order").count(), 1, "{out}");
}

#[test]
fn an_encounter_has_at_most_max_characters() {
    // A ruleset (it has `play`) with its cast in the same file, so the whole file is checked.
    let mut src = String::from("play { }\n");
    for i in 0..=turnscript::limits::MAX_CHARACTERS {
        src.push_str(&format!("character c{i} {{ }}\n"));
    }
    let (report, clean) = check_texts(&[("big.turn".into(), src)]);
    assert!(!clean);
    assert!(
        report.contains("check::too_many"),
        "{}",
        &report[..report.len().min(400)]
    );
}

#[test]
fn forced_rolls_and_answers_never_used_are_reported() {
    let src = "resource hp\ncharacter A { }\nplay { for each c in characters { reset c.hp to d6 } }\n";
    let (_, err, code) = run(src, &[3, 4, 5], &["extra"], None);
    assert_eq!(code, 0);
    assert_eq!(
        err,
        "warning: 2 forced rolls were never used: 4,5 (the run rolled fewer dice)\n\
         warning: 1 answer was never used (the run asked fewer decisions)\n"
    );
}

#[test]
fn check_pairs_an_encounter_with_the_ruleset_of_its_name() {
    let a = ("rulesets/alpha.turn".to_string(), "stat speed\nplay { }\n".to_string());
    let b = ("rulesets/beta.turn".to_string(), "stat might\nplay { }\n".to_string());
    let e = (
        "rulesets/encounters/alpha.turn".to_string(),
        "character A { speed = 2 }\n".to_string(),
    );
    // Paired by name: the alpha encounter is checked with alpha only, and is clean.
    let (report, clean) = check_texts(&[a.clone(), b.clone(), e.clone()]);
    assert!(clean, "{report}");
    // With no ruleset of its name, it is checked with every ruleset given: beta has no `speed`.
    let e2 = ("gamma.turn".to_string(), e.1.clone());
    let (report, clean) = check_texts(&[a, b, e2]);
    assert!(!clean && report.contains("unknown stat `speed`"), "{report}");
}

#[test]
fn until_zero_is_refused() {
    let src = "character A { }\nplay { round repeat { } }\n";
    let (_, err, code) = run(src, &[], &[], Some("round=0"));
    assert_eq!(code, 2);
    assert!(err.contains("iterations count from 1"), "{err}");
}

#[test]
fn a_policy_may_prefer_characters() {
    // The encounter's policy prefers Cy as a target, then Bo.
    let src = "resource hp\ncharacter Ana { }\ncharacter Bo { }\ncharacter Cy { }\n\
               policy focus_fire { target: Cy, Bo }\ndefault policy focus_fire\n\
               play { for each a in characters { choose target by a from t in characters where t != a { gain 1 t.hp } } }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    let picks: Vec<&str> = out.lines().filter(|l| l.starts_with("choose")).collect();
    assert_eq!(
        picks,
        vec![
            "choose   Ana   target     Cy       of Bo|Cy (policy)",
            "choose   Bo    target     Cy       of Ana|Cy (policy)",
            "choose   Cy    target     Bo       of Ana|Bo (policy)"
        ]
    );
}

/// A ruleset that orders `n` characters by `f` (pairs share a value), then by a roll until settled.
fn tied_pairs(n: usize, tie_roll: &str) -> String {
    let mut src = format!(
        "stat f default 0\nparam tie = {tie_roll}\norder o(c) {{ c.f desc  roll tie desc until settled }}\n\
         play {{ round repeat {{ for each c in characters by o {{ turn c {{ }} }} }} }}\n"
    );
    for i in 0..n {
        src.push_str(&format!("character c{i} {{ f = {} }}\n", i / 2));
    }
    src
}

#[test]
fn the_tie_roll_limit_counts_per_tied_group_not_per_sort() {
    // 1,200 tied pairs: more than MAX_TIE_ROLLS group rolls in one sort, each pair settling in a
    // few rolls. Every pair is settled, the higher f first.
    let n = 2 * (turnscript::limits::MAX_TIE_ROLLS as usize + 200);
    let (out, err, code) = run(&tied_pairs(n, "d6"), &[], &[], Some("round=1"));
    assert_eq!(code, 0, "{}", &err[..err.len().min(400)]);
    let turns: Vec<&str> = out.lines().filter_map(|l| l.trim_start().strip_prefix("▸ ")).collect();
    assert_eq!(turns.len(), n);
    let f_of = |name: &str| name.trim_start_matches('c').parse::<usize>().map(|i| i / 2).ok();
    let fs: Vec<Option<usize>> = turns.iter().map(|t| f_of(t.trim())).collect();
    assert!(fs.windows(2).all(|w| w[0] >= w[1]), "ordered by f, highest first");
}

#[test]
fn a_tie_that_never_settles_is_a_runaway() {
    // `d2 * 0` rolls but always ties: the one tied group is rolled MAX_TIE_ROLLS times, then the
    // run stops with run::unsettled.
    let (_, err, code) = run(&tied_pairs(2, "d2 * 0"), &[], &[], Some("round=1"));
    assert_eq!(code, 1);
    assert!(err.contains("run::unsettled"), "{err}");
    assert!(err.contains("still unsettled after 1000 rolls"), "{err}");
}

#[test]
fn measures_are_recorded_where_a_hook_at_their_point_would_run() {
    let src = "resource ap min 0\nglobal hits default 0\ntrigger hit(a)\n\
               character A { ap = 2 }\ncharacter B { ap = 1 }\n\
               play {\n  round repeat while any c in characters: c.ap > 0 {\n\
               for each c in characters where c.ap > 0 { turn c { spend 1 c.ap  raise hit(c) } }\n  }\n}\n\
               on hit(a) { gain 1 hits }\n\
               measure left = count c in characters: c.ap > 0 at end of round\n\
               measure after = c.ap at end of turn(c)\n\
               measure up = any c in characters: c.ap > 0 at start of round\n\
               measure last_ap = c.ap for each c in characters where c.ap == 0 at end of encounter\n\
               measure struck = a.ap at hit(a)\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().filter(|l| l.trim_start().starts_with("measure")).collect();
    assert_eq!(
        lines,
        vec![
            "  measure        up         = 1",
            "    measure        struck     = 1",
            "    measure  A     after      = 1",
            "    measure        struck     = 0",
            "    measure  B     after      = 0",
            "  measure        left       = 1",
            "  measure        up         = 1",
            "    measure        struck     = 0",
            "    measure  A     after      = 0",
            "  measure        left       = 0",
            "measure  A     last_ap    = 0",
            "measure  B     last_ap    = 0",
        ]
    );
    // A measure is not a value the rules can read.
    let bad = format!("{src}measure twice = left + 1 at end of encounter\n");
    let (_, err, code) = run(&bad, &[], &[], None);
    assert_eq!(code, 1);
    assert!(err.contains("`left` is a measure: it is recorded, not read"), "{err}");
}

#[test]
fn hooks_run_as_the_encounter_starts_and_as_it_ends_however_it_ends() {
    let src = "global n default 0\ncharacter A { }\n\
               on start of encounter { set n = 10 }\n\
               setup { set n = n + 1 }\n\
               play { round repeat { set n = n + 1 } }\n\
               on end of encounter { set n = n * 2 }\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        until: Some("round=2".into()),
        ..RunOptions::default()
    };
    let (out, err, code) = run_texts(&files, Vec::new(), &opts, true);
    assert_eq!(code, 0, "{err}");
    let sets: Vec<&str> = out.lines().filter(|l| l.contains(r#""event":"set""#)).collect();
    assert_eq!(
        sets,
        vec![
            r#"{"event":"set","stat":"n","amount":10,"left":10}"#,
            r#"{"event":"set","stat":"n","amount":11,"left":11}"#,
            r#"{"event":"set","stat":"n","amount":12,"left":12}"#,
            r#"{"event":"set","stat":"n","amount":13,"left":13}"#,
            r#"{"event":"set","stat":"n","amount":26,"left":26}"#,
        ]
    );
    let tail: Vec<&str> = out.lines().rev().take(3).collect();
    assert!(tail[1].contains(r#""reason":"until round=2""#), "{out}");
    assert!(
        tail[2].contains(r#""amount":26"#),
        "the end hook runs before encounter_end: {out}"
    );
}

#[test]
fn a_policy_preference_may_hold_a_condition_read_where_the_decision_is_made() {
    let src = "resource hp min 0\nside heroes, foes\n\
               character A { side heroes, hp = 3 }\ncharacter B { side foes, hp = 2 }\ncharacter C { side foes, hp = 9 }\n\
               play {\n  round repeat {\n    for each c in characters where c.hp > 0 {\n      turn c {\n\
               choose act by c {\n          option rest\n          option strike {\n\
               choose target by c from t in characters where t.hp > 0 and t.side != c.side { spend 1 t.hp }\n\
               }\n        }\n      }\n    }\n  }\n}\n\
               policy smart {\n  act: strike when c.hp > 2, rest\n  target: t where t.hp <= 1, weak where weak.hp < 5\n}\n\
               default policy smart\n";
    let (out, err, code) = run(src, &[], &[], Some("round=2"));
    assert_eq!(code, 0, "{err}");
    let picks: Vec<&str> = out.lines().filter(|l| l.contains("choose")).map(str::trim).collect();
    assert_eq!(
        picks,
        vec![
            // A has 3 hp: strikes; B (2 hp) is under 5, C is not.
            "choose   A     act        strike   of rest|strike (policy)",
            "choose   A     target     B        of B|C (policy)",
            // B has 1 hp left by its turn: rests. C strikes A, the only candidate.
            "choose   B     act        rest     of rest|strike (policy)",
            "choose   C     act        strike   of rest|strike (policy)",
            "choose   C     target     A        of A (policy)",
            // A has 2 hp now: rests; B rests; C strikes.
            "choose   A     act        rest     of rest|strike (policy)",
            "choose   B     act        rest     of rest|strike (policy)",
            "choose   C     act        strike   of rest|strike (policy)",
            "choose   C     target     A        of A (policy)",
        ]
    );
    // Scripted answers come first; the conditions answer once they run out.
    let (out, err, code) = run(src, &[], &["rest", "strike", "A"], Some("round=1"));
    assert_eq!(code, 0, "{err}");
    let picks: Vec<&str> = out.lines().filter(|l| l.contains("choose")).map(str::trim).collect();
    assert_eq!(
        picks,
        vec![
            "choose   A     act        rest     of rest|strike",
            "choose   B     act        strike   of rest|strike",
            "choose   B     target     A        of A",
            "choose   C     act        strike   of rest|strike (policy)",
            "choose   C     target     A        of A (policy)",
        ]
    );
}

#[test]
fn an_answer_may_name_where_it_applies_and_the_rest_go_in_order() {
    let src = "resource ap min 0 max 6\naction strike(c) costs 2 ap\naction dash(c) costs 1 ap\n\
               character Ana { ap = 4 }\ncharacter Cy { ap = 4 }\n\
               play {\n  round repeat {\n    for each c in characters { turn c { choose act by c { option action option wait } } }\n  }\n}\n\
               default policy first\n";
    let answers = [
        "round 2, Ana, act: wait",
        "round 1, Cy, act: dash",
        "strike",
        "round 7, act: dash",
    ];
    let (out, err, code) = run(src, &[], &answers, Some("round=2"));
    assert_eq!(code, 0, "{err}");
    let picks: Vec<&str> = out.lines().filter(|l| l.contains("choose")).map(str::trim).collect();
    assert_eq!(
        picks,
        vec![
            "choose   Ana   act        strike   of strike|dash|wait",
            "choose   Cy    act        dash     of strike|dash|wait",
            "choose   Ana   act        wait     of strike|dash|wait",
            "choose   Cy    act        strike   of strike|dash|wait (policy)",
        ]
    );
    assert!(
        err.contains(
            "warning: the answer `round 7, act: dash` (answers) was never used: no decision it addresses was asked"
        ),
        "{err}"
    );
    let (_, err, code) = run(src, &[], &["round 1, Bob, act: wait"], None);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`Bob` is neither a level with its iteration"), "{err}");
}

/// Issue 24, item 7: `counting from 3 to 1` (without `down`) ran zero times, silently. And
/// `--until` with the game's numbers: 0 is a number a counting level may have; a number the
/// level never reaches is said at once, not found out at the end of the step budget.
#[test]
fn counting_the_wrong_way_and_until_numbers_a_level_never_reaches_are_errors() {
    let level = |counting: &str| {
        format!(
            "global seen default 0\ncharacter A {{ }}\nplay {{ round r {counting} {{ set seen = seen * 10 + r.number }} }}\n"
        )
    };
    let (_, err, code) = run(&level("counting from 3 to 1"), &[], &[], None);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("run::counting") && err.contains("counting up from 3 never reaches 1"),
        "{err}"
    );
    assert!(err.contains("write `counting from 3 down to 1`"), "{err}");
    let (_, err, code) = run(&level("counting from 1 down to 3"), &[], &[], None);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("counting down from 1 never reaches 3"), "{err}");
    let (out, err, code) = run(&level("counting from 3 down to 1"), &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("final          seen = 321"), "{out}");
    // `--until r=0` on a level counting from 0 stops after its first iteration.
    let (out, err, code) = run(&level("counting from 0 repeat"), &[], &[], Some("r=0"));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("end of encounter: until r=0"), "{out}");
    // ... and is still refused for a level counting from 1.
    let (_, err, code) = run(&level("repeat"), &[], &[], Some("r=0"));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("iterations count from 1, so r=0 never comes"), "{err}");
    // A number the level never reaches.
    for (counting, until, says) in [
        (
            "counting from 5 repeat",
            "r=1",
            "--until r=1 never comes: it counts from 5 up",
        ),
        (
            "counting from 5 down repeat",
            "r=6",
            "--until r=6 never comes: it counts from 5 down",
        ),
        (
            "counting from 2 to 4",
            "r=5",
            "--until r=5 never comes: it counts from 2 up to 4",
        ),
        (
            "counting from 2 within 1 to 3 repeat",
            "r=7",
            "it counts from 2 up within 1 to 3",
        ),
    ] {
        let (_, err, code) = run(&level(counting), &[], &[], Some(until));
        assert_eq!(code, 1, "{counting}: {err}");
        assert!(err.contains("run::counting") && err.contains(says), "{counting}: {err}");
    }
    // Said only when sure (second pass N8): another statement of the same level may reach it.
    let shared = "character A { }\nplay { round counting from 5 { }\n round counting from 1 repeat { } }\n";
    let (out, err, code) = run(shared, &[], &[], Some("round=2"));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("end of encounter: until round=2"), "{out}");
    // The default stop names the number the level showed at its 10th iteration.
    let (out, err, code) = run(&level("counting from 0 repeat"), &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("end of encounter: limit r=9"), "{out}");
}

/// Explorer's F9: a level counting at the top of the 64-bit range repeated its number forever.
#[test]
fn a_level_counting_past_the_largest_number_ends_or_wraps_round() {
    let max = i64::MAX;
    let src = format!(
        "global seen default 0\ncharacter A {{ }}\nplay {{ round r counting from {} repeat {{ set seen = seen + 1 }} }}\n",
        max - 1
    );
    let (out, err, code) = run(&src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("final          seen = 2"),
        "two numbers, then no more: {out}"
    );
    let src = format!(
        "global seen default 0\ncharacter A {{ }}\nplay {{ round r counting from {max} within {} to {max} repeat {{ set seen = seen * 10 + (r.number - {}) }} }}\n",
        max - 1,
        max - 2
    );
    let (out, err, code) = run(&src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("end of encounter: limit r=9223372036854775806"), "{out}");
    assert!(
        out.contains("final          seen = 2121212121"),
        "wraps round to the range's low end: {out}"
    );
}

#[test]
fn levels_may_count_the_games_way_down_to_a_last_number_or_round_a_cycle() {
    let src = "global seen default 0\ncharacter A { }\n\
               play {\n  round shot counting from 12 down to 9 { set seen = seen + shot.number }\n\
               phase segment counting from 11 within 1 to 12 repeat { if segment.number == 2 { end segment } }\n}\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let numbers = |until: Option<&str>| {
        let opts = RunOptions {
            until: until.map(str::to_string),
            ..RunOptions::default()
        };
        let (out, err, code) = run_texts(&files, Vec::new(), &opts, true);
        assert_eq!(code, 0, "{err}");
        let starts: Vec<String> = out
            .lines()
            .filter_map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).ok()?;
                match v["event"].as_str()? {
                    "round_start" => Some(format!("shot {}", v["round"])),
                    "phase_start" => Some(format!("segment {}", v["n"])),
                    "encounter_end" => Some(v["reason"].as_str()?.to_string()),
                    _ => None,
                }
            })
            .collect();
        (starts, out)
    };
    let (starts, out) = numbers(None);
    assert_eq!(
        starts,
        vec![
            "shot 12",
            "shot 11",
            "shot 10",
            "shot 9",
            "segment 11",
            "segment 12",
            "segment 1",
            "segment 2",
            "complete"
        ]
    );
    assert!(out.contains(r#""globals":{"seen":42}"#), "12 + 11 + 10 + 9: {out}");
    // `--until` names the game's number.
    let (starts, _) = numbers(Some("segment=12"));
    assert_eq!(starts.last().map(String::as_str), Some("until segment=12"));
    assert_eq!(starts.len(), 7);
    // A first number outside its cycle is an error.
    let bad = src.replace("from 11 within", "from 13 within");
    let (_, err, code) = run(&bad, &[], &[], None);
    assert_eq!(code, 1);
    assert!(
        err.contains("run::counting") && err.contains("the first number 13 is not within 1 to 12"),
        "{err}"
    );
}

/// Explorer's F6: `at most 0` (or below) silently dropped the key; `at most N` counts every roll,
/// the first included, as the docs now say.
#[test]
fn until_settled_at_most_counts_every_roll_and_refuses_none() {
    let src = |n: &str| {
        format!(
            "stat seat\norder o(c) {{\n  roll d2 desc until settled at most {n}\n  c.seat asc\n}}\n\
             character A {{ seat = 2 }}\ncharacter B {{ seat = 1 }}\nplay {{ for each c in characters by o {{ }} }}\n"
        )
    };
    // Written as a number, the checker refuses it; worked out from the state, the run stops.
    for n in ["0", "-1"] {
        let (_, err, code) = run(&src(n), &[1, 1], &[], None);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("check::limits") && err.contains(&format!("at most {n}` would never roll")),
            "{err}"
        );
    }
    let computed = format!("global tries default 0\n{}", src("tries"));
    let (_, err, code) = run(&computed, &[1, 1], &[], None);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("run::at_most") && err.contains("at most 0` would never roll"),
        "{err}"
    );
    let rolls = |n: &str, forced: &[i64]| {
        let (out, err, code) = run(&src(n), forced, &[], None);
        assert_eq!(code, 0, "{err}");
        out.lines().map(str::trim).filter(|l| l.starts_with("roll")).count()
    };
    assert_eq!(rolls("1", &[1, 1, 2, 1]), 2, "one roll each, no re-roll");
    assert_eq!(rolls("2", &[1, 1, 1, 1, 2, 1]), 4, "a roll and a re-roll each");
}

/// Explorer's F11: after `leave`, `next`, `previous`, `below` and `position` still read the one
/// who left, while quantifiers passed over them. They pass over those out of play too.
#[test]
fn order_queries_pass_over_those_out_of_play() {
    let src = "stat speed\nstat pos default 0\nstat nxt: character\nstat prv: character\nstat blw: character\n\
               order quick(c) { c.speed desc }\n\
               character Ana { speed = 3 }\ncharacter Bo { speed = 2 }\ncharacter Cy { speed = 1 }\n\
               play { rank quick  leave Bo\n\
               for each c in characters { set c.pos = position(c, quick)  set c.nxt = next(c, quick)\n\
               set c.prv = previous(c, quick)  set c.blw = below(c, quick) }\n\
               if position(Bo, quick) == 0 and next(Bo, quick) == Cy and previous(Bo, quick) == Ana and below(Bo, quick) == Cy {\n\
               end encounter because \"from where Bo stood\" } }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    let finals: Vec<&str> = out.lines().filter(|l| l.starts_with("final")).collect();
    assert_eq!(
        finals,
        vec![
            "final    Ana   speed = 3, pos = 1, nxt = Cy, prv = Cy, blw = Cy",
            "final    Bo    (out of play) speed = 2, pos = 0, nxt = none, prv = none, blw = none",
            "final    Cy    speed = 1, pos = 2, nxt = Ana, prv = Ana, blw = Cy",
        ],
        "{out}"
    );
    assert!(out.contains("end of encounter: from where Bo stood"), "{out}");
}

/// Explorer's F4: `for each c in ORDER from X` with X not in the order silently walked from the
/// top, where `place` and `swap` stop with `run::not_ranked`.
#[test]
fn a_walk_round_from_someone_with_no_place_in_it_is_an_error() {
    let src = |walk: &str| {
        format!(
            "stat speed\norder quick(c) {{ c.speed desc }}\n\
             character Ana {{ speed = 3 }}\ncharacter Bo {{ speed = 2 }}\ncharacter Cy {{ speed = 1 }}\n\
             play {{ rank quick where c.speed > 1\n {walk} {{ turn c {{ }} }} }}\n"
        )
    };
    for (walk, says) in [
        ("for each c in quick from Cy", "Cy has no place in the order `quick`"),
        (
            "for each c in characters from Cy where c.speed > 1 by quick",
            "Cy has no place in the walk sorted by `quick`",
        ),
    ] {
        let (out, err, code) = run(&src(walk), &[], &[], None);
        assert_eq!(code, 1, "{walk}: {out}");
        assert!(err.contains("run::not_ranked") && err.contains(says), "{walk}: {err}");
        assert!(!out.contains('▸'), "no turn is taken: {out}");
    }
    // Someone in it, or filtered out of an unsorted walk: round from their place.
    let (out, err, code) = run(
        &src("for each c in characters from Cy where c.speed > 1"),
        &[],
        &[],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let turns: Vec<&str> = out.lines().filter(|l| l.contains('▸')).map(str::trim).collect();
    assert_eq!(turns, vec!["▸ Ana", "▸ Bo"], "{out}");
    let (out, err, code) = run(&src("for each c in quick from Bo"), &[], &[], None);
    assert_eq!(code, 0, "{err}");
    let turns: Vec<&str> = out.lines().filter(|l| l.contains('▸')).map(str::trim).collect();
    assert_eq!(turns, vec!["▸ Bo", "▸ Ana"], "{out}");
}

/// Explorer's F26 and F10: a resource with `min 3` nobody gave started at 0, below its own floor,
/// and then even `spend 0` was refused "they have 0"; `spend -2` said "they have 3" where the
/// reason is the negative amount.
#[test]
fn a_resource_starts_within_its_limits_and_a_negative_spend_says_why() {
    let src = "resource r min 3 max 6\nresource ap min 0 max 3\ncharacter Ana { ap = 3 }\nplay { spend 0 (Ana).r  gain 9 (Ana).r }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("final    Ana   r = 6, ap = 3"), "{out}");
    assert!(out.contains("spend    Ana   r          -0 → 3"), "{out}");
    let (_, err, code) = run(&src.replace("spend 0 (Ana).r", "spend -2 (Ana).ap"), &[], &[], None);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("Ana cannot spend -2 ap: an amount spent is never below 0"),
        "{err}"
    );
    assert!(err.contains("`gain`"), "{err}");
}

/// Explorer's F20: an `end encounter` in a round's or a turn's end hook replaced the reason of the
/// `end encounter` that was ending the run.
#[test]
fn an_end_hook_does_not_replace_the_end_of_the_encounter() {
    let src = "global g default 0\ncharacter A { }\n\
               on end of round { gain 1 g  end encounter because \"from round hook\" }\n\
               on end of turn(c) { gain 10 g  end encounter because \"from turn hook\" }\n\
               play { round repeat { turn A { end encounter because \"from play\" } } }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("end of encounter: from play\n"), "{out}");
    assert!(out.contains("final          g = 11"), "both hooks ran: {out}");
    // A hook's end still ends what was only an iteration's end.
    let src = src.replace("turn A { end encounter because \"from play\" }", "turn A { }");
    let (out, err, code) = run(&src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("end of encounter: from turn hook\n"), "{out}");
}

/// The second pass's N11: when `--until` or an `end` cut a `together` walk short, the reveal still
/// ran the option blocks after the stop: dice rolled and new decisions were asked. The choices
/// are shown; their blocks do not run.
#[test]
fn a_walk_cut_short_shows_its_secret_choices_but_runs_none_of_their_blocks() {
    let src = "stat card default 0\ncharacter Ana { }\ncharacter Bo { }\n\
               play { round repeat { together for each c in characters { phase bid {\n\
               choose card by c in secret {\n option high { set c.card = d6\n choose confirm by c { option yes option no } }\n\
               option low { set c.card = 1  end encounter because \"low\" } } } } } }\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        until: Some("bid=1".to_string()),
        policy: Some("first".to_string()),
        ..RunOptions::default()
    };
    let (out, err, code) = run_texts(&files, Vec::new(), &opts, false);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("choose   Ana   card       high     of high|low (policy)"),
        "shown: {out}"
    );
    assert!(
        !out.contains("roll") && !out.contains("confirm"),
        "nothing after the stop: {out}"
    );
    assert!(out.contains("end of encounter: until bid=1"), "{out}");
    // A revealed block that ends the encounter: the later choices are shown, not run.
    let (out, err, code) = run(src, &[], &["low", "high"], None);
    assert_eq!(code, 0, "{err}");
    let tail: Vec<&str> = out
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("choose") || l.starts_with("roll") || l.starts_with("set") || l.starts_with("end of"))
        .collect();
    assert_eq!(
        tail,
        vec![
            "choose   Ana   card       low      of high|low",
            "set      Ana   card       = 1",
            "choose   Bo    card       high     of high|low",
            "end of encounter: low",
        ],
        "{out}"
    );
}

/// The second pass's N5-N7: a destroyed thing could be placed back in an order, take a turn, be
/// destroyed again without a word, and a walk round from it said "rank or place them".
#[test]
fn a_destroyed_thing_is_out_for_good() {
    let src = |after: &str| {
        format!(
            "thing slot, slots for owner {{ stat owner: character\n stat speed }}\norder quick(s: slot) {{ s.speed desc }}\n\
             global s2: slot\ncharacter Ana {{ }}\n\
             play {{ create slot {{ owner = Ana, speed = 2 }} as a\n create slot {{ owner = Ana, speed = 1 }} as b\n\
             rank quick  set s2 = b  destroy b\n {after} }}\n"
        )
    };
    for after in [
        "place s2 last in quick",
        "place a after s2 in quick",
        "turn s2 { }",
        "destroy s2",
        "for each s in quick from s2 { }",
    ] {
        let (out, err, code) = run(&src(after), &[], &[], None);
        assert_eq!(code, 1, "{after}: {out}");
        assert!(
            err.contains("run::destroyed") && err.contains("slot 2 was destroyed"),
            "{after}: {err}"
        );
    }
    // Queries about it read as for one not in the order: no one.
    let (out, err, code) = run(
        &src(
            "if next(s2, quick) == none and below(s2, quick) == none and position(s2, quick) == 0 { end encounter because \"gone\" }",
        ),
        &[],
        &[],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("end of encounter: gone"), "{out}");
}

/// The second pass's N12: a statement's owner named in quotes, as expressions name it, was
/// "expected `.FIELD`".
#[test]
fn a_target_may_name_its_owner_in_quotes() {
    let src = "resource hp min 0\nflag down\ncharacter \"Big Bob\" { hp = 5 }\n\
               play { spend 2 \"Big Bob\".hp  mark \"Big Bob\".down  set x = \"Big Bob\" }\nglobal x: character\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("final    Big Bob  hp = 3, down = 1"), "{out}");
    let (_, err, code) = run(
        "resource hp\ncharacter \"Big Bob\" { }\nplay { gain 1 \"Big Bob\" }\n",
        &[],
        &[],
        None,
    );
    assert_eq!(code, 1);
    assert!(err.contains("a quoted name needs a field"), "{err}");
}

/// Found while closing issue 24: a statement's owner in parentheses followed by more than one
/// field (`(EXPR).held.uses`) dropped the fields between: it changed the character's `uses`, not
/// the held token's, and the checker agreed, since it checked the same shortened target.
#[test]
fn a_parenthesized_owner_keeps_every_field_after_it() {
    let src = "thing token, tokens { resource uses min 0 }\nstat held: token\nresource uses min 0\n\
               character Ana { uses = 5 }\n\
               play { create token { uses = 3 } as t\n set (Ana).held = t\n spend 1 (first c in characters).held.uses }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("spend    token 1  uses       -1 → 2"), "{out}");
    assert!(out.contains("final    Ana   held = token 1, uses = 5"), "{out}");
}

#[test]
fn a_tie_breaker_may_depend_on_the_tied_group_and_may_stay_unsettled() {
    let src = "side pcs, npcs\nstat init\nstat seat\n\
               order by_init(c) {\n  c.init desc\n  roll d6 desc until settled at most 2 when any t in tied: t is pcs\n  c.seat asc\n}\n\
               character A { side pcs, init = 5, seat = 3 }\ncharacter B { side npcs, init = 5, seat = 1 }\n\
               character C { side npcs, init = 3, seat = 2 }\ncharacter D { side npcs, init = 3, seat = 1 }\n\
               play { round { for each c in characters by by_init { } } }\n";
    let lines = |rolls: &[i64]| {
        let (out, err, code) = run(src, rolls, &[], None);
        assert_eq!(code, 0, "{err}");
        out.lines()
            .map(str::trim)
            .filter(|l| l.starts_with("roll") || l.starts_with("order"))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    // A and B are tied and A is a PC: they roll off, tie twice, and stay tied; the seats settle
    // it. C and D are tied with no PC among them: no roll, the seats settle it.
    assert_eq!(
        lines(&[4, 4, 2, 2]),
        vec![
            "roll     A     by_init    d6 [4] = 4",
            "roll     B     by_init    d6 [4] = 4",
            "roll     A     by_init    d6 [2] = 2",
            "roll     B     by_init    d6 [2] = 2",
            "order          B, A, D, C",
        ]
    );
    assert_eq!(lines(&[1, 6])[2], "order          B, A, D, C");
    assert_eq!(lines(&[6, 1])[2], "order          A, B, D, C");
    // `tied` names a group only in a key's `when`.
    let bad = src.replace(
        "play { round",
        "global n default count t in tied: t is pcs\nplay { round",
    );
    let (_, err, code) = run(&bad, &[], &[], None);
    assert_eq!(code, 1);
    assert!(err.contains("unknown order or collection `tied`"), "{err}");
}

#[test]
fn a_person_may_choose_the_order_of_each_tied_group() {
    let src = "role gm\nside pcs, npcs\nstat init\n\
               order by_init(c) {\n  c.init desc\n  chosen by first t in tied when all t in tied: t is pcs\n  chosen by gm\n}\n\
               character A { side pcs, init = 5 }\ncharacter B { side pcs, init = 5 }\n\
               character X { side npcs, init = 3 }\ncharacter Y { side npcs, init = 3 }\ncharacter Z { side npcs, init = 3 }\n\
               play { round { for each c in characters by by_init { } } }\n";
    // The tied players choose among themselves (the first of them chooses); the GM orders the
    // tied foes, one pick at a time, until one is left.
    let (out, err, code) = run(src, &[], &["B", "Z", "X"], None);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("choose") || l.starts_with("order"))
        .collect();
    assert_eq!(
        lines,
        vec![
            "choose   A     by_init    B        of A|B",
            "choose   gm    by_init    Z        of X|Y|Z",
            "choose   gm    by_init    X        of X|Y",
            "order          B, A, Z, X, Y",
        ]
    );
    // An order that asks cannot sort inside an expression.
    let bad = src.replace(
        "play { round",
        "global g default 0\nplay { set g = first c in characters by by_init\n round",
    );
    let (_, err, code) = run(&bad, &[], &[], None);
    assert_eq!(code, 1);
    assert!(err.contains("asks who goes first"), "{err}");
}

#[test]
fn routines_without_parameters_kinds_on_their_own_and_an_action_option_per_kind() {
    let src = "kind legendary, move\nresource ap min 0\naction dash(c) kind move costs 1 ap\n\
               routine refill() { for each c in characters { reset c.ap to 2 } }\n\
               character A { ap = 0 }\n\
               play {\n  do refill()\n  for each c in characters {\n\
               choose act by c { option action of kind move option action of kind legendary option pass }\n  }\n}\n\
               default policy first\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with("final") && !l.contains(" · "))
        .collect();
    assert_eq!(
        lines,
        vec![
            "reset    A     ap         = 2",
            "choose   A     act        dash     of dash|pass (policy)",
            "action   A     dash",
            "spend    A     ap         -1 → 1",
            "end of encounter: complete",
        ]
    );
    // The same `option action` twice is still a mistake.
    let twice = src.replace("option action of kind legendary", "option action of kind move");
    let (_, err, code) = run(&twice, &[], &[], None);
    assert_eq!(code, 1);
    assert!(err.contains("the option `action of kind move` appears twice"), "{err}");
}

#[test]
fn check_says_why_an_encounter_was_not_checked() {
    let encounter = (
        "E.turn".to_string(),
        "encounter \"E\"\ncharacter A { hp = 1 }\n".to_string(),
    );
    // The ruleset does not parse: the encounter is only parsed, and the note says why.
    let broken = ("R.turn".to_string(), "stat hp\nplay { round { }\n".to_string());
    let report = turnscript::check_set(&[broken, encounter.clone()]);
    assert_eq!(
        report.notes,
        vec![
            "note: E.turn is an encounter and was only parsed: no ruleset given parses (fix the errors above, then check again)\n"
        ]
    );
    // The ruleset parses but has errors: the encounter is not checked against it, and the note says so.
    let wrong = (
        "R.turn".to_string(),
        "stat hp\nplay { spend 1 nobody.hp }\n".to_string(),
    );
    let report = turnscript::check_set(&[wrong, encounter.clone()]);
    assert_eq!(
        report.notes,
        vec!["note: E.turn was not checked against R.turn: the ruleset has errors (above)\n"]
    );
    // No ruleset at all: give one.
    let report = turnscript::check_set(&[encounter]);
    assert_eq!(
        report.notes,
        vec!["note: E.turn is an encounter and was only parsed: give its ruleset too to check it\n"]
    );
}

#[test]
fn together_the_members_act_at_one_moment_and_secret_choices_are_revealed_at_its_end() {
    let src = "stat card default 0\nresource hp min 0\norder by_card(c) { c.card desc }\n\
               character Ana { hp = 1 }\ncharacter Bo { hp = 1 }\n\
               play {\n  together for each c in characters {\n\
               choose card by c in secret {\n      option high { set c.card = 3 }\n      option low { set c.card = 1 }\n    }\n  }\n\
               for each c in characters by by_card { turn c { } }\n\
               together for each c in characters where c.hp > 0 {\n    turn c { for each t in characters where t != c { spend 1 t.hp } }\n  }\n}\n";
    let (out, err, code) = run(src, &[], &["low", "high"], None);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().skip(1).filter(|l| !l.starts_with("final")).collect();
    assert_eq!(
        lines,
        vec![
            // Both choose before either choice is shown; then both are revealed, in order.
            "together Ana, Bo",
            "  secret   Ana   card       chosen in secret",
            "  secret   Bo    card       chosen in secret",
            "  choose   Ana   card       low      of high|low",
            "  set      Ana   card       = 1",
            "  choose   Bo    card       high     of high|low",
            "  set      Bo    card       = 3",
            "order          Bo, Ana",
            "▸ Bo",
            "▸ Ana",
            // Both strike at once: Bo acts though Ana's blow left him at 0.
            "together Ana, Bo",
            "  ▸ Ana",
            "    spend    Bo    hp         -1 → 0",
            "  ▸ Bo",
            "    spend    Ana   hp         -1 → 0",
            "end of encounter: complete",
        ]
    );
    // A secret choice outside a `together` walk is a mistake.
    let bad = src.replace("together for each c in characters {", "for each c in characters {");
    let (_, err, code) = run(&bad, &[], &[], None);
    assert_eq!(code, 1);
    assert!(
        err.contains("`card` is chosen in secret, but not inside a `together` walk"),
        "{err}"
    );
}

#[test]
fn a_walk_may_sort_anew_before_each_moment_and_rank_may_keep_only_some() {
    let src = "stat score\nflag down\norder by_score(c) { c.score desc }\n\
               character A { score = 25 }\ncharacter B { score = 20 }\ncharacter C { score = 12, down = true }\n\
               play {\n  rank by_score where not c.down\n\
               for each c in characters where c.score > 0 by by_score anew {\n    turn c { set c.score = c.score - 10 }\n  }\n}\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("order") || l.starts_with("▸"))
        .collect();
    assert_eq!(
        lines,
        vec![
            // `rank ... where`: C is down, so not ranked.
            "order          A, B",
            // Each moment the rest are sorted again: A drops to 15, below B, and is walked once.
            "order          A, B, C",
            "▸ A",
            "order          B, C",
            "▸ B",
            "order          C",
            "▸ C",
        ]
    );
}

#[test]
fn characters_may_join_and_leave_play_by_the_rules() {
    let src = "stat speed\nresource hp\norder by_speed(c) { c.speed desc }\n\
               character Ana { speed = 5, hp = 3 }\ncharacter Bo { speed = 3, hp = 3 }\ncharacter Ash { speed = 9, hp = 3, absent }\n\
               on join(c) { place c last in by_speed }\n\
               on leave(c) { gain 1 c.hp }\n\
               play {\n  rank by_speed\n  round repeat {\n    if round.number == 2 { join Ash }\n\
               if round.number == 3 { leave Bo }\n    for each c in by_speed { turn c { } }\n  }\n}\n";
    let (out, err, code) = run(src, &[], &[], Some("round=3"));
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out
        .lines()
        .map(str::trim)
        .filter(|l| {
            ["round", "▸", "joins", "leaves", "order", "gain", "reset"]
                .iter()
                .any(|k| l.starts_with(k))
        })
        .collect();
    assert_eq!(
        lines,
        vec![
            // Ash is out of play, and unranked, until he joins.
            "order          Ana, Bo",
            "round 1",
            "▸ Ana",
            "▸ Bo",
            "round 2",
            // Joining sets his fields and the rule puts him last in the order.
            "joins    Ash",
            "order          Ana, Bo, Ash",
            "▸ Ana",
            "▸ Bo",
            "▸ Ash",
            "round 3",
            "leaves   Bo",
            "gain     Bo    hp         +1 → 4",
            "▸ Ana",
            "▸ Ash",
        ]
    );
    assert!(out.contains("final    Ash   speed = 9, hp = 3"), "{out}");
}

#[test]
fn a_statement_may_change_a_field_reached_through_fields_or_any_expression() {
    let src = "thing card, cards { stat value flag up flag fast }\nstat held: card\ncharacter A { }\n\
               card C1 { value = 3, up = true }\ncard C2 { value = 5 }\n\
               play {\n  for each c in characters {\n    set c.held = first x in cards where x.value == 5\n\
               mark c.held.fast\n    clear (first x in cards where x.up).up\n  }\n}\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(
        lines,
        vec![
            "set      A     held       = C2",
            "mark     C2    fast",
            "clear    C1    up",
            "end of encounter: complete",
            "final    A     held = C2",
            "final    C1    value = 3, up = 0, fast = 0",
            "final    C2    value = 5, up = 0, fast = 1",
        ]
    );
    // Through a number: no fields.
    let bad = src.replace("mark c.held.fast", "mark (c.held.value).fast");
    let (_, err, code) = run(&bad, &[], &[], None);
    assert_eq!(code, 1);
    assert!(err.contains("this is a number: it has no fields to mark"), "{err}");
}

#[test]
fn an_empty_walk_by_an_order_traces_no_order() {
    let src = "stat speed\norder fast(c) { c.speed desc }\ncharacter A { speed = 1 }\ncharacter B { speed = 2 }\n\
               play {\n  for each c in characters where c.speed > 5 by fast { turn c { } }\n\
               for each c in characters where c.speed > 0 by fast { turn c { } }\n}\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    let orders: Vec<&str> = out.lines().filter(|l| l.starts_with("order")).collect();
    assert_eq!(orders, vec!["order          B, A"]);
}

#[test]
fn a_side_may_play_by_a_policy_while_the_answers_go_to_the_others() {
    let src = "side pcs, foes\nresource ap min 0\naction hit(c) costs 1 ap\n\
               character Ana { side pcs, ap = 2 }\ncharacter Orc { side foes, ap = 2 }\ncharacter Bo { side pcs, ap = 2 }\n\
               play { for each c in characters { choose act by c { option wait option action } } }\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let answers: Vec<(String, String)> = ["hit", "hit"]
        .iter()
        .map(|a| (a.to_string(), "answers".to_string()))
        .collect();
    let opts = RunOptions {
        side_policies: vec![("foes".to_string(), "first".to_string())],
        ..RunOptions::default()
    };
    let (out, err, code) = run_texts(&files, answers.clone(), &opts, false);
    assert_eq!(code, 0, "{err}");
    let picks: Vec<&str> = out.lines().filter(|l| l.starts_with("choose")).collect();
    // The Orc plays by `first` (wait); the two answers go to Ana and Bo.
    assert_eq!(
        picks,
        vec![
            "choose   Ana   act        hit      of wait|hit",
            "choose   Orc   act        wait     of wait|hit (policy)",
            "choose   Bo    act        hit      of wait|hit",
        ]
    );
    let bad = RunOptions {
        side_policies: vec![("trolls".to_string(), "first".to_string())],
        ..RunOptions::default()
    };
    let (_, err, code) = run_texts(&files, answers, &bad, false);
    assert_eq!(code, 2);
    assert!(
        err.contains("no side or role is called `trolls`; the sides and roles are: pcs, foes"),
        "{err}"
    );
}

#[test]
fn the_command_line_takes_side_policies_beside_the_policy() {
    let dir = std::env::temp_dir().join(format!("turnscript-side-policy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let ruleset = dir.join("r.turn");
    std::fs::write(
        &ruleset,
        "side pcs, foes\nresource ap min 0\naction hit(c) costs 1 ap\n\
         character Ana { side pcs, ap = 2 }\ncharacter Orc { side foes, ap = 2 }\n\
         play { for each c in characters { choose act by c { option wait option action } } }\n",
    )
    .expect("the ruleset is written");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_turnscript"))
            .arg("run")
            .arg(&ruleset)
            .args(args)
            .output()
            .expect("turnscript runs");
        (
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
            out.status.code(),
        )
    };
    let (out, err, code) = run(&["--policy", "last_resort_missing", "--policy", "x=y"]);
    assert_eq!(code, Some(2), "{out}{err}");
    let (out, err, code) = run(&["--policy", "random", "--policy", "foes=first", "--policy", "pcs=first"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("choose   Orc   act        wait     of wait|hit (policy)"),
        "{out}"
    );
    let (_, err, code) = run(&["--policy", "first", "--policy", "random"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--policy NAME was given 2 times"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_encounter_names_its_ruleset_and_is_paired_with_it() {
    let ruleset = "stat hp\nplay { }\n";
    // `duel-1.turn` names `duel.turn`: it is checked with that one, not with every ruleset given.
    let encounter = "encounter \"First duel\" uses \"duel.turn\"\ncharacter A { }\n";
    let files = |other: &str| {
        vec![
            ("d/duel.turn".to_string(), ruleset.to_string()),
            ("d/other.turn".to_string(), other.to_string()),
            ("d/duel-1.turn".to_string(), encounter.to_string()),
        ]
    };
    // With `duel.turn` A lacks its hp; `other.turn` (no stats) would accept A, but is not asked.
    let report = turnscript::check_set(&files("play { }\n"));
    assert!(!report.is_clean());
    assert_eq!(report.failures.len(), 1);
    let text = report.failures[0]
        .0
        .render(&report.failures[0].1, turnscript::Style::default());
    assert!(text.contains("A has no `hp`"), "{text}");
    assert_eq!(
        turnscript::project::named_ruleset("d/duel-1.turn", encounter).as_deref(),
        Some("d/duel.turn")
    );
    // `run ENCOUNTER` runs it under the ruleset it names.
    let dir = std::env::temp_dir().join(format!("turnscript-uses-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("encounters")).expect("a temporary folder");
    std::fs::write(
        dir.join("duel.turn"),
        "stat hp\nplay { for each c in characters { set c.hp = 2 } }\n",
    )
    .expect("written");
    std::fs::write(
        dir.join("encounters/duel-1.turn"),
        "encounter \"First duel\" uses \"../duel.turn\"\ncharacter A { hp = 1 }\n",
    )
    .expect("written");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_turnscript"))
        .arg("run")
        .arg(dir.join("encounters/duel-1.turn"))
        .output()
        .expect("turnscript runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("set      A     hp         = 2"), "{stdout}");
    // `sim ENCOUNTER` plays under the ruleset it names too.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_turnscript"))
        .args(["sim", "-n", "3"])
        .arg(dir.join("encounters/duel-1.turn"))
        .output()
        .expect("turnscript runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // Given another ruleset, that one is used, with a note.
    std::fs::write(dir.join("other.turn"), "stat hp\nplay { }\n").expect("written");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_turnscript"))
        .arg("run")
        .arg(dir.join("other.turn"))
        .arg("--encounter")
        .arg(dir.join("encounters/duel-1.turn"))
        .output()
        .expect("turnscript runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("as its ruleset; playing it under"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_roll_for_a_global_belongs_to_the_table() {
    let src = "global doom default 0\ncharacter A { }\nplay { reset doom to d6 }\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        rolls: vec![4],
        ..RunOptions::default()
    };
    let (out, err, code) = run_texts(&files, Vec::new(), &opts, true);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(r#"{"event":"roll","for":"doom","dice":"d6","faces":[4],"total":4}"#),
        "{out}"
    );
}

#[test]
fn a_flag_per_turn_clears_as_its_owners_turn_starts_and_a_hook_may_run_after_a_turn() {
    let src = "flag moved per turn\nflag holding\ncharacter A { holding = true }\ncharacter B { }\n\
               on after turn(c) where c != A {\n  for each h in characters where h.holding { clear h.holding  turn h { } }\n}\n\
               play {\n  round repeat {\n    for each c in characters where not c.holding { turn c { mark c.moved } }\n  }\n}\n";
    let (out, err, code) = run(src, &[], &[], Some("round=2"));
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("final") && !l.starts_with("end"))
        .collect();
    assert_eq!(
        lines,
        vec![
            "round 1",
            // B's turn is over before A, who held, steps in: A's turn does not nest in B's.
            "  ▸ B",
            "    mark     B     moved",
            "  clear    A     holding",
            "  ▸ A",
            "round 2",
            // Each `moved` that was set clears as its owner's next turn starts.
            "  ▸ A",
            "    mark     A     moved",
            "  ▸ B",
            "    clear    B     moved",
            "    mark     B     moved",
        ]
    );
}

#[test]
fn review_fixes_secret_ends_anew_combinations_chosen_prefs_and_place_none() {
    // An `end` of a level that is over by the reveal would end nothing: the checker refuses it
    // (issue 24: it was accepted, then silently did nothing).
    let src = "stat card default 0\ncharacter A { }\ncharacter B { }\n\
               play {\n  round repeat until round.number == 2 {\n    together for each c in characters {\n\
               phase pick {\n        choose card by c in secret {\n          option high { set c.card = 3  end pick }\n\
               option low { set c.card = 1 }\n        }\n      }\n    }\n\
               for each c in characters { set c.card = c.card + 100 }\n  }\n}\ndefault policy first\n";
    let (_, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("check::secret_end") && err.contains("`end pick` would run at the reveal"),
        "{err}"
    );
    // `anew` with `together`, `backwards` or `from` is refused by the checker.
    let bad = "stat score\norder by_score(c) { c.score desc }\ncharacter A { }\n\
               play { together for each c in characters by by_score anew { } }\n";
    let (_, err, code) = run(bad, &[], &[], None);
    assert_eq!(code, 1);
    assert!(err.contains("a walk sorted `anew` cannot also be `together`"), "{err}");
    // A policy's conditional preferences answer a `chosen by` decision too.
    let chosen = "role gm\nstat init\nstat pref default 0\norder by_init(c) { c.init desc\n  chosen by gm }\n\
                  policy p { by_init: x where x.pref == 1, B when true }\ndefault policy p\n\
                  play { for each c in characters by by_init { turn c { } } }\n\
                  character A { init = 1 }\ncharacter B { init = 1 }\ncharacter C { init = 1, pref = 1 }\n";
    let (out, err, code) = run(chosen, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("order          C, B, A"), "{out}");
    // Placing `none` in a kept order is `run::none`, not the table joining the order.
    let place = "stat foe: character\nstat speed default 1\norder o(c) { c.speed desc }\ncharacter A { }\n\
                 play { rank o\n for each c in characters { place c.foe first in o } }\n";
    let (_, err, code) = run(place, &[], &[], None);
    assert_eq!(code, 1);
    assert!(err.contains("run::none"), "{err}");
}

#[test]
fn a_flag_may_start_true_by_default() {
    let src = "flag fresh default true\nflag hurt\ncharacter A { }\ncharacter B { fresh = false }\n\
               play { for each c in characters where c.fresh { turn c { clear c.fresh } } }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(
        lines,
        vec![
            "▸ A",
            "  clear    A     fresh",
            "end of encounter: complete",
            "final    A     fresh = 0, hurt = 0",
            "final    B     fresh = 0, hurt = 0",
        ]
    );
    let bad = src.replace("default true", "default 3");
    let (_, err, code) = run(&bad, &[], &[], None);
    assert_eq!(code, 1);
    assert!(err.contains("a flag's default must be a truth value"), "{err}");
}

#[test]
fn a_refusal_text_may_hold_numbers_and_globals() {
    let src = "global malice default 1\nresource ap min 0\ncharacter A { ap = 0 }\n\
               play { for each c in characters { choose act by c {\n\
               option spend_malice unless malice < 2 because \"the pool has only {malice}; {c} has {c.ap} AP\"\n\
               option wait\n} } }\n";
    let (out, err, code) = run(src, &[], &["spend_malice", "wait"], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("refused  A     act        spend_malice: the pool has only 1; A has 0 AP"),
        "{out}"
    );
}

#[test]
fn until_may_name_enclosing_levels_since_a_levels_count_restarts() {
    let src = "global seen default 0\ncharacter A { }\n\
               play {\n  level battle repeat {\n    round repeat until round.number == 3 {\n\
               set seen = battle.number * 10 + round.number\n    }\n  }\n}\n";
    let stop = |until: &str| {
        let (out, err, code) = run(src, &[], &[], Some(until));
        assert_eq!(code, 0, "{err}");
        let sets: Vec<String> = out
            .lines()
            .filter(|l| l.trim_start().starts_with("set"))
            .map(|l| l.split('=').nth(1).unwrap_or("").trim().to_string())
            .collect();
        (sets.last().cloned().unwrap_or_default(), out)
    };
    // `round=2` alone stops in the first battle; `battle=2,round=2` in the second.
    assert_eq!(stop("round=2").0, "12");
    let (last, out) = stop("battle=2,round=2");
    assert_eq!(last, "22", "{out}");
    assert!(out.contains("end of encounter: until round=2"), "{out}");
    let (_, err, code) = run(src, &[], &[], Some("battle=2,rund=2"));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no level is called `rund`"), "{err}");
}

#[test]
fn a_param_may_be_a_truth_value() {
    let src = "param ambush = true\nparam bonus = 2\nresource ap min 0\ncharacter A { }\n\
               play { for each c in characters { if ambush { gain bonus c.ap } } }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("gain     A     ap         +2 → 2"), "{out}");
    // An encounter file may set it otherwise.
    let files = vec![
        ("r.turn".to_string(), src.to_string()),
        (
            "e.turn".to_string(),
            "encounter \"no ambush\"\nparam ambush = false\n".to_string(),
        ),
    ];
    let (out, err, code) = run_texts(&files, Vec::new(), &RunOptions::default(), false);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("gain"), "{out}");
    // Used as a number, a truth-valued param is a type error.
    let bad = src.replace("gain bonus c.ap", "gain ambush c.ap");
    let (_, err, code) = run(&bad, &[], &[], None);
    assert_eq!(code, 1);
    assert!(err.contains("check::type"), "{err}");
}

#[test]
fn an_entity_whose_name_has_spaces_is_named_in_quotes() {
    let src = "stat owner: character\ncharacter \"Broo A\" { }\ncharacter B { owner = \"Broo A\" }\n\
               play { for each c in characters where c.owner == \"Broo A\" { turn c { } } }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    let turns: Vec<&str> = out.lines().filter(|l| l.starts_with("▸")).collect();
    assert_eq!(turns, vec!["▸ B"]);
    let bad = src.replace("owner = \"Broo A\" }", "owner = \"Broo Z\" }");
    let (_, err, code) = run(&bad, &[], &[], None);
    assert_eq!(code, 1);
    assert!(err.contains("unknown name `Broo Z`"), "{err}");
}

#[test]
fn a_made_thing_is_not_in_its_collection_while_its_fields_are_given() {
    let src = "thing slot, slots { stat n }\ncharacter A { }\ncharacter B { }\n\
               play { for each c in characters { create slot { n = count s in slots } as a } }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    let made: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("  create") || l.starts_with("create"))
        .collect();
    assert_eq!(made, vec!["create   slot 1  n = 0", "create   slot 2  n = 1"], "{out}");
}

const EVERY_TARGET_DOWN: &str = "resource hp\nflag engaged\ncharacter A { hp = 0 engaged = true }\n\
    character B { hp = 0 }\ncharacter C { hp = 2 engaged = true }\n\
    play { for each c in characters {\n\
      choose target by c from t in characters where t != c unless t.hp == 0 because \"{t} is down\" {\n\
        spend 1 t.hp\n\
      } or hold unless c.engaged because \"{c} is engaged and must fight\"\n\
    } }\n";

fn traced<'a>(out: &'a str, kinds: &[&str]) -> Vec<&'a str> {
    out.lines()
        .map(str::trim_start)
        .filter(|l| kinds.iter().any(|k| l.starts_with(k)))
        .collect()
}

#[test]
fn a_choice_whose_every_option_is_refused_traces_the_refusals_and_asks_nothing() {
    // A is engaged (may not hold) and B is down: C is the one candidate. B may hold. C is engaged
    // and both others are down: nothing can be chosen, and the answer meant for it hears why.
    let (out, err, code) = run(EVERY_TARGET_DOWN, &[], &["C", "hold", "hold"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        traced(&out, &["refused", "choose", "no pick", "spend"]),
        vec![
            "choose   A     target     C        of C",
            "spend    C     hp         -1 → 1",
            "choose   B     target     hold     of C|hold",
            "refused  C     target     hold: C is engaged and must fight",
            "no pick  C     target     A: A is down | B: B is down | hold: C is engaged and must fight",
        ]
    );
    assert!(!err.contains("never used"), "{err}");
}

#[test]
fn a_choice_with_nothing_to_offer_leaves_an_answer_meant_for_later() {
    // The answer after B's names no refused option of C's choice: it is left for A's `ready`.
    let src = format!("{EVERY_TARGET_DOWN}play {{ choose ready by A {{ option yes option no }} }}\n");
    let (out, err, code) = run(&src, &[], &["C", "hold", "no"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        traced(&out, &["refused", "no pick", "choose   A     ready"]),
        vec![
            "no pick  C     target     A: A is down | B: B is down | hold: C is engaged and must fight",
            "choose   A     ready      no       of yes|no",
        ]
    );
}

#[test]
fn the_way_out_of_a_choice_may_be_refused() {
    // A is engaged: `hold` is refused, asked again, and C picked.
    let (out, err, code) = run(EVERY_TARGET_DOWN, &[], &["hold", "C", "C"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        traced(&out, &["refused", "choose"])[..3],
        [
            "refused  A     target     hold: A is engaged and must fight",
            "choose   A     target     C        of C",
            "choose   B     target     C        of C|hold",
        ]
    );
}

const ATTEMPTS: &str = "resource ap min 0
flag holding
action strike(c) costs 2 ap
    forbid act_early(c) because \"{c} may not act before their turn\"
    forbid act_early(c) when not c.holding because \"{c} holds no action\"
    forbid rescript because \"scripts are fixed once the exchange begins\"
    forbid strike(c) when c.ap < 2 because \"{c} has only {c.ap} AP\"
    character A { ap = 1 }
character B { ap = 3 holding = true }
    play { for each c in characters { choose act by c { option action option pass } } }
";

#[test]
fn an_attempt_no_decision_offers_is_refused_with_every_forbid_that_applies() {
    let answers = ["act_early", "rescript", "strike", "pass", "act_early", "strike"];
    let (out, err, code) = run(ATTEMPTS, &[], &answers, None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        traced(&out, &["refused", "choose", "action"]),
        vec![
            "refused  A     act        act_early: A may not act before their turn; A holds no action",
            "refused  A     act        rescript: scripts are fixed once the exchange begins",
            "refused  A     act        strike: A has only 1 AP",
            "choose   A     act        pass      of pass",
            "refused  B     act        act_early: B may not act before their turn",
            "choose   B     act        strike    of strike|pass",
            "action   B     strike",
        ]
    );
}

#[test]
fn an_attempt_whose_forbids_do_not_apply_is_still_refused_when_not_offered() {
    // B has 3 AP: no forbid of `strike` applies, but a decision that does not offer it refuses it.
    let src = ATTEMPTS.replace("option action option pass", "option pass");
    let (out, err, code) = run(&src, &[], &["pass", "strike", "pass"], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("refused  B     act        strike: strike is not an option of act now"),
        "{out}"
    );
}

#[test]
fn stop_on_refusal_stops_at_a_forbidden_attempt() {
    let files = vec![("t.turn".to_string(), ATTEMPTS.to_string())];
    let answers = vec![("rescript".to_string(), "answers".to_string())];
    let opts = RunOptions {
        stop_on_refusal: true,
        ..RunOptions::default()
    };
    let (_, err, code) = run_texts(&files, answers, &opts, false);
    assert_eq!(code, 1);
    assert!(err.contains("scripts are fixed once the exchange begins"), "{err}");
}

#[test]
fn an_addressed_answer_to_a_choice_with_nothing_to_offer_hears_why() {
    let (out, err, code) = run(EVERY_TARGET_DOWN, &[], &["C, target: B", "C", "hold"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        traced(&out, &["refused", "no pick"]),
        vec![
            "refused  C     target     B: B is down",
            "no pick  C     target     A: A is down | B: B is down | hold: C is engaged and must fight",
        ]
    );
}

#[test]
fn swap_trades_two_places_in_a_kept_order() {
    let src = "stat speed\nresource acted\norder fast(c) { c.speed desc }\n\
               character A { speed = 3 }\ncharacter B { speed = 2 }\ncharacter C { speed = 1 }\n\
               play { rank fast\nswap A with C in fast\nfor each c in fast { gain 1 c.acted } }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        traced(&out, &["order", "gain"]),
        vec![
            "order          A, B, C",
            "order          C, B, A",
            "gain     C     acted      +1 → 1",
            "gain     B     acted      +1 → 1",
            "gain     A     acted      +1 → 1",
        ]
    );
}

#[test]
fn swap_with_one_not_in_the_order_stops_the_run() {
    let src = "stat speed\norder fast(c) { c.speed desc }\n\
               character A { speed = 3 }\ncharacter B { speed = 2 }\n\
               play { rank fast where c.speed > 2\nswap A with B in fast }\n";
    let (_, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 1);
    assert!(
        err.contains("run::not_ranked") && err.contains("B is not in the order `fast`"),
        "{err}"
    );
}

#[test]
fn an_order_over_things_names_who_each_stands_for() {
    let src = "thing slot, slots for owner { stat owner: character  stat speed }\norder quick(s: slot) { s.speed desc }\n\
               character Mira { }\ncharacter \"Old Kessa\" { }\n\
               play { for each c in characters { create slot { owner = c, speed = d6 } }\ncreate slot { speed = 7 }\n\
               for each s in slots by quick { } }\n";
    let (out, err, code) = run(src, &[3, 2], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("\norder               slot 3, slot 1 (Mira), slot 2 (Old Kessa)\n"),
        "{out}"
    );
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        rolls: vec![3, 2],
        ..RunOptions::default()
    };
    let (json, err, code) = run_texts(&files, Vec::new(), &opts, true);
    assert_eq!(code, 0, "{err}");
    assert!(
        json.contains(
            r#"{"event":"order","by":"quick","order":["slot 3","slot 1","slot 2"],"for":[null,"Mira","Old Kessa"]}"#
        ),
        "{json}"
    );
}

#[test]
fn a_thing_stands_for_a_field_that_holds_an_entity() {
    for (src, want) in [
        (
            "thing slot, slots for speed { stat speed }\n",
            "but `speed` does not hold an",
        ),
        (
            "thing slot, slots for owner { stat speed }\n",
            "but `owner` is not one of its",
        ),
    ] {
        let (report, clean) = check_texts(&[("t.turn".to_string(), src.to_string())]);
        assert!(!clean && report.contains(want), "{src}\n{report}");
    }
}

#[test]
fn a_forbid_that_names_who_attempts_speaks_only_of_characters() {
    // A thing chooses: the line naming `c` does not apply (it would read a character's stat off a
    // seat); the attempt is still refused, as not offered.
    let src = "thing seat, seats { stat n default 7 }\nstat hp default 5\n\
               forbid jump(c) when c.hp == 0 because \"{c} has {c.hp} hp\"\n\
               character Ana { }\nplay { create seat { n = 9 } as s\nchoose go by s { option walk } }\n";
    let (out, err, code) = run(src, &[], &["jump", "walk"], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("refused  seat 1  go         jump: jump is not an option of go now"),
        "{out}"
    );
}

#[test]
fn a_forbid_may_not_take_an_entitys_name() {
    let src = "forbid Cy because \"no Cy\"\nplay { }\ncharacter Cy { }\n";
    let (report, clean) = check_texts(&[("t.turn".to_string(), src.to_string())]);
    assert!(
        !clean && report.contains("`Cy` is an entity's name, not an attempt"),
        "{report}"
    );
}

/// F5: `gain half (Ana).ap`, a param as the amount and the owner in parentheses, was read as a
/// call `half(Ana)`, and the error landed on the next statement. A call's `(` follows its name
/// with no space, so a name, a space and a parenthesis are the amount, then the field.
#[test]
fn a_name_then_a_spaced_parenthesis_is_an_amount_then_a_field() {
    let src = "resource ap min 0\nglobal pool default 5\nparam half = 1\nparam twice(x) = 2 * x\n\
               character Ana { }\n\
               play {\n  gain half (Ana).ap\n  gain twice(2) (Ana).ap\n  spend half + 1 (Ana).ap\n  \
               transfer 1 from (Ana).ap to pool\n  spend highest(1, half) (Ana).ap\n}\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("gain     Ana   ap         +1"), "{out}");
    assert!(out.ends_with("final    Ana   ap = 1\n"), "{out}");
}

/// F27: a clause of a declaration given twice was a parse error elsewhere ("expected `policy`"
/// for `stat s default 1 default 2`) or, for a deck's `jokers`, the last silently won. Each is
/// said at both, and the clauses after a name come in any order.
#[test]
fn a_clause_given_twice_is_said_at_both() {
    for (decl, twice) in [
        ("stat s default 1 default 2", "`default`"),
        ("stat s decimals 1 decimals 2", "`decimals`"),
        ("stat s: character: character", "`: TYPE`"),
        ("flag f default true default false", "`default`"),
        ("flag f per round per turn", "`per`"),
        ("global g default 1 decimals 2 default 3", "`default`"),
        ("resource r min 0 decimals 1 decimals 2", "`decimals`"),
        ("resource ap\naction a(c) costs 1 ap costs 2 ap", "`costs`"),
        ("action a(c) when true when false", "`when`"),
        ("deck c, cs { jokers 2 jokers 3 }", "`jokers`"),
        ("deck c, cs { ranks 1 to 3 ranks 4 }", "`ranks`"),
        ("deck c, cs { suits a ranks 1 suits b }", "`suits`"),
    ] {
        let src = format!("{decl}\ncharacter Ana {{ }}\nplay {{ }}\n");
        let (report, clean) = check_texts(&[("t.turn".to_string(), src.clone())]);
        assert!(
            !clean && report.contains(&format!("{twice} is given twice")) && report.contains("first given here"),
            "{src}\n{report}"
        );
    }
    for decl in [
        "stat s default 1.5 decimals 1",
        "flag f per turn default true",
        "global g max 9 decimals 1 default 2.5 min 0",
        "resource ap\naction a(c) when c.ap > 0 costs 1 ap",
        "stat s default 1\ndefault policy p\npolicy p { }",
        "action a(c)\nkind k",
    ] {
        let src = format!("{decl}\ncharacter Ana {{ }}\nplay {{ }}\n");
        let (report, clean) = check_texts(&[("t.turn".to_string(), src.clone())]);
        assert!(clean, "{src}\n{report}");
    }
}

/// F30: `absent` after a tag list was read as one more tag ("unknown tag `absent`", with a help
/// to declare one, which would then silently put the character in play). It ends the list; a tag
/// may not be called `absent`.
#[test]
fn absent_after_a_tag_list_puts_the_character_out_of_play() {
    let src = "side foes\ntag big, small\nglobal seen default 0\ncharacter Ana { }\n\
               character Bo { side foes, tag big, small, absent }\nplay { if Bo is small { set seen = 1 } }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("final          seen = 1"), "{out}");
    assert!(out.contains("final    Bo    (out of play)"), "{out}");
    for (src, want) in [
        (
            "tag big, absent\ncharacter Bo { tag big, absent }\nplay { }\n",
            "a tag cannot be called `absent`",
        ),
        (
            "tag big\ncharacter Bo { tag absent }\nplay { }\n",
            "write `absent` on its own",
        ),
    ] {
        let (report, clean) = check_texts(&[("t.turn".to_string(), src.to_string())]);
        assert!(!clean && report.contains(want), "{src}\n{report}");
    }
}

/// F18: a file saved with a byte-order mark, as some editors save UTF-8, was "expected a file".
/// The mark is skipped where a file begins (and the formatter keeps it there); elsewhere it is
/// an invisible character (`syntax::character`), and the parser names it so.
#[test]
fn a_byte_order_mark_at_the_start_of_a_file_is_skipped() {
    let src = "\u{feff}ruleset \"bom\"\ncharacter Ana   { }\nplay { }\n";
    let (out, err, code) = run(src, &[], &[], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("bom · encounter"), "{out}");
    let formatted = turnscript::format::format(src, 0).map_err(|d| format!("{d:?}"));
    assert_eq!(
        formatted.as_deref(),
        Ok("\u{feff}ruleset \"bom\"\ncharacter Ana { }\nplay { }\n")
    );
    let src = "ruleset \"bom\"\ncharacter Ana { }\n\u{feff}play { }\n";
    let (report, clean) = check_texts(&[("t.turn".to_string(), src.to_string())]);
    assert!(
        !clean && report.contains("an invisible character (U+FEFF) in this file"),
        "{report}"
    );
    // The parser alone (as the formatter uses it) names it too.
    let d = turnscript::format::format(src, 0).err().unwrap_or_default();
    assert!(
        d.iter().any(|d| d
            .labels
            .iter()
            .any(|l| l.1.contains("U+FEFF (a byte-order mark): delete it"))),
        "{d:?}"
    );
}

/// A quoted name holding a comma, as the chooser of an addressed answer (`round 1, "Smith, J",
/// act: wait`), was split at its comma ("`Smith` is neither a level ... nor a character"): the
/// address is read with its quoted parts whole, as the option and an answer in order are.
#[test]
fn an_addressed_answer_may_quote_a_name_with_a_comma() {
    let src = "side crew, foes\nresource hp min 0\n\
               action strike(c) { choose target by c from t in characters where t.side != c.side { spend 1 t.hp } }\n\
               action wait(c) { }\n\
               play { round repeat { for each c in characters { turn c { choose act by c { option action } } } } }\n\
               default policy first\n\
               character \"Smith, J\" { side crew, hp = 3 }\ncharacter \"Doe, K: the elder\" { side foes, hp = 3 }\n";
    let answers = turnscript::project::parse_answers(
        "round 1, \"Smith, J\", act: strike    # the chooser, quoted, holds a comma\n\
         round 1, \"Smith, J\", target: \"Doe, K: the elder\"\n\
         \"wait\"                              # in order: Doe waits\n\
         round 2, \"Doe, K: the elder\", act: wait\n",
        "answers",
    );
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        until: Some("round=2".to_string()),
        ..RunOptions::default()
    };
    let (out, err, code) = run_texts(&files, answers, &opts, false);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    let unclosed = turnscript::project::parse_answers("round 1, \"Smith, J, act: strike\n", "answers");
    let (_, unclosed, status) = run_texts(&files, unclosed, &opts, false);
    assert_eq!(status, 2, "{unclosed}");
    assert!(unclosed.contains("a `\"` is never closed"), "{unclosed}");
    let picks: Vec<&str> = out.lines().map(str::trim).filter(|l| l.starts_with("choose")).collect();
    assert_eq!(
        picks,
        vec![
            "choose   Smith, J           act        strike            of strike|wait",
            "choose   Smith, J           target     Doe, K: the elder of Doe, K: the elder",
            "choose   Doe, K: the elder  act        wait              of strike|wait",
            "choose   Smith, J           act        strike            of strike|wait (policy)",
            "choose   Smith, J           target     Doe, K: the elder of Doe, K: the elder (policy)",
            "choose   Doe, K: the elder  act        wait              of strike|wait",
        ]
    );
}

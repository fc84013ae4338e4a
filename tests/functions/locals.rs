// Locals that change (`let`, then `set`): a local may be given a type, `let best: character =
// none`, so "the best so far" can start as no one (found exploring issue 26: `let x = none` was
// refused and nothing else could name an empty local of an entity's, a side's or a role's type).

use crate::common::{check_texts, run_texts};
use turnscript::project::{RunOptions, parse_answers};

fn ok(src: &str, rolls: &[i64]) -> Vec<String> {
    let files = vec![("t.turn".to_string(), src.to_string())];
    let opts = RunOptions {
        rolls: rolls.to_vec(),
        ..RunOptions::default()
    };
    let (out, err, code) = run_texts(&files, parse_answers("", "answers"), &opts, false);
    assert_eq!(code, 0, "{err}\n{out}");
    out.lines().skip(1).map(str::to_string).collect()
}

fn refused(src: &str) -> String {
    let (report, clean) = check_texts(&[("t.turn".to_string(), src.to_string())]);
    assert!(!clean, "expected a refusal:\n{src}");
    report
}

#[test]
fn a_typed_local_starts_as_none_and_keeps_the_best_so_far() {
    let src = "resource hp\nside heroes, foes\n\
        play {\n\
          let best: character = none\n\
          let side_of: side = none\n\
          for each c in characters { if best == none or c.hp > best.hp { set best = c } }\n\
          if best != none { gain 1 best.hp  set side_of = best.side }\n\
          if side_of == foes { gain 10 best.hp }\n\
        }\n\
        character Ana { side heroes, hp = 2 }\ncharacter Bo { side foes, hp = 5 }\ncharacter Cy { hp = 3 }\n";
    assert_eq!(
        ok(src, &[]),
        vec![
            "gain     Bo    hp         +1 → 6",
            "gain     Bo    hp         +10 → 16",
            "end of encounter: complete",
            "final    Ana   hp = 2",
            "final    Bo    hp = 16",
            "final    Cy    hp = 3",
        ]
    );
}

#[test]
fn a_typed_local_left_none_is_never_read_as_someone() {
    let src = "resource hp\nplay { let t: character = none\n gain 1 t.hp }\ncharacter Ana { hp = 2 }\n";
    let files = vec![("t.turn".to_string(), src.to_string())];
    let (out, err, code) = run_texts(&files, parse_answers("", "answers"), &RunOptions::default(), false);
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("run::none"), "{err}");
}

#[test]
fn a_typed_local_of_a_thing_a_role_a_number_and_a_truth_value() {
    let src = "role gm\nthing die, dice { stat v default 1 }\nglobal g default 0\n\
        play {\n\
          let d: die = none\n\
          let r: role = none\n\
          let n: number = 2\n\
          let t: truth = n > 1\n\
          create die { v = 4 } as made\n\
          set d = made\n\
          set r = gm\n\
          if t and d != none and r != none { set g = d.v + n }\n\
        }\n";
    assert_eq!(
        ok(src, &[]),
        vec![
            "create   die 1  v = 4",
            "set            g          = 6",
            "end of encounter: complete",
            "final          g = 6",
            "final    die 1  v = 4"
        ]
    );
}

#[test]
fn a_typed_local_takes_only_values_of_its_type() {
    let r = refused("play { let t: character = 3 }\ncharacter Ana { }\n");
    assert!(
        r.contains("check::type") && r.contains("the value of `t` must be a character"),
        "{r}"
    );
    let r = refused("play { let t: character = none\n set t = heroes }\nside heroes\n");
    assert!(r.contains("check::type"), "{r}");
    let r = refused("play { let t: wizard = none }\n");
    assert!(r.contains("check::unknown"), "{r}");
}

#[test]
fn an_untyped_none_is_refused_with_the_typed_form_in_its_help() {
    let r = refused("play { let t = none }\n");
    assert!(
        r.contains("check::type") && r.contains("let t: character = none"),
        "{r}"
    );
}

#[test]
fn a_let_in_a_loop_naming_a_changing_local_again_is_refused_with_set_in_its_help() {
    // The first way to keep a running total that comes to mind: each pass would name a new
    // `total` for the loop's block only, and the total given would stay 0.
    let r = refused(
        "global g default 0\n\
         routine hits(n: number) gives number {\n\
           let total = 0\n\
           for each i in 1 to n { let total = total + d6 }\n\
           give total\n\
         }\n\
         play { set g = hits(3) }\n",
    );
    assert!(r.contains("check::shadow") && r.contains("set total = ..."), "{r}");
}

#[test]
fn a_let_may_name_again_a_local_of_its_own_block_or_a_loop_s_variable() {
    let src = "global g default 0\n\
        play {\n\
          let x = 1\n\
          let x = x + 1\n\
          for each i in 1 to 2 { let i = i * 10\n set g = g + i + x }\n\
        }\n";
    assert_eq!(
        ok(src, &[]),
        vec![
            "set            g          = 12",
            "set            g          = 34",
            "end of encounter: complete",
            "final          g = 34"
        ]
    );
}

#[test]
fn a_let_naming_again_a_local_in_a_block_run_later_says_to_name_the_copy_otherwise() {
    let r = refused(
        "trigger moves(m)\nresource hp\n\
         play { let n = 1\n ready Ana on moves(m) { let n = n + 1\n gain n m.hp } }\n\
         character Ana { }\n",
    );
    assert!(
        r.contains("check::shadow") && r.contains("name the copy otherwise"),
        "{r}"
    );
}

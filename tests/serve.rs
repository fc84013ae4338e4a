//! `turnscript serve`'s API, as the pages use it: every action is a command line in and the new
//! view out; refusals change nothing; a session played through the page saves the same file as
//! the REPL's; the players' view shows no secret before its reveal; hostile requests get a 4xx.
//! The browser itself is driven in tests/browser.rs.

#[path = "serve/client.rs"]
mod client;

use client::{Server, send};
use serde_json::{Value, json};

const LEGENDS: (&str, &str) = ("rulesets/legends.turn", "rulesets/encounters/legends.turn");

fn legends() -> Server {
    Server::start(LEGENDS.0, Some(LEGENDS.1), 1)
}

/// A file under the working directory (the fence) removed when dropped.
struct Scratch(std::path::PathBuf);

impl Scratch {
    /// Under the working directory (the crate's), which the server's fence takes: not in
    /// CARGO_TARGET_TMPDIR, which CI puts elsewhere.
    fn new(name: &str) -> Scratch {
        let dir = std::path::Path::new("target/serve-scratch");
        std::fs::create_dir_all(dir).unwrap();
        Scratch(dir.join(format!("{name}-{}.tsession", std::process::id())))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn the_pages_and_their_assets_are_served_from_the_binary() {
    let s = legends();
    // What it says as it starts, as the README and docs/table.md show it.
    let port = s.port;
    let token = s.players_token();
    assert_eq!(
        s.said,
        format!(
            "decision 1: Raider decides move_down — 1 Brute · 2 stay\n\
             the GM's table:      http://127.0.0.1:{port}/\n\
             the players' screen: http://127.0.0.1:{port}/players?token={token}\n\
             Ctrl-C stops the server (no autosave: `save FILE` keeps the session)\n"
        )
    );
    assert_eq!(token.len(), 32);
    let (status, gm) = s.get("/");
    assert_eq!(status, 200);
    assert!(gm.contains("<script src=\"/gm.js\">"), "{gm}");
    for (path, kind) in [
        ("/app.css", "text/css"),
        ("/common.js", "text/javascript"),
        ("/gm.js", "text/javascript"),
        ("/players.js", "text/javascript"),
    ] {
        let (status, body) = s.get(path);
        assert_eq!(status, 200, "{path}");
        assert!(!body.is_empty(), "{path}");
        let (_, head) = s.raw("HEAD", path, &[], "");
        assert!(head.is_empty(), "HEAD {path} has no body");
        let _ = kind;
    }
    // On loopback whoever reaches the server is at the GM's machine: the players' page opens
    // without its token too (beyond loopback it needs it: below).
    let (status, page) = s.get(&format!("/players?token={}", s.players_token()));
    assert_eq!(status, 200);
    assert!(page.contains("/players.js"));
}

#[test]
fn a_command_gives_the_new_view_and_a_refused_one_changes_nothing() {
    let s = legends();
    let v = s.get_json("/api/view");
    assert_eq!(v["pending"]["chooser"], "Raider");
    assert_eq!(v["pending"]["decision"], "move_down");
    assert_eq!(
        v["pending"]["options"],
        json!([{"n": 1, "name": "Brute"}, {"n": 2, "name": "stay"}])
    );
    assert_eq!(v["decision"], 1);
    let reply = s.ok("answer 2");
    assert_eq!(reply["error"], false);
    assert_eq!(reply["view"]["decision"], 2);
    assert_eq!(reply["view"]["undo"], 1);
    let before = s.get_json("/api/view");
    for bad in ["answer 9", "set Nobody.hp = 1", "frobnicate", "remove Nobody"] {
        let (status, reply) = s.command(bad);
        assert_eq!(status, 422, "{bad}");
        assert_eq!(reply["error"], true, "{bad}");
        assert!(
            !reply["out"].as_str().unwrap().is_empty(),
            "{bad}: the refusal says why: {reply}"
        );
    }
    assert_eq!(s.get_json("/api/view"), before, "refusals changed the table");
    let undone = s.ok("undo");
    assert_eq!(undone["view"]["decision"], 1);
    assert_eq!(undone["view"]["redo"], 1);
    let redone = s.ok("redo");
    assert_eq!(redone["view"]["decision"], 2);
    assert_eq!(redone["view"]["log"][0]["line"], "answer 2");
}

#[test]
fn a_session_played_through_the_page_saves_the_file_the_repl_saves() {
    let commands = [
        "answer 2",
        "roll 4",
        "answer 1",
        "set Kessa.fatigue = 1",
        "undo",
        "redo",
        "auto all",
        "continue until round=2",
        "undo",
    ];
    let s = legends();
    for c in commands {
        s.ok(c);
    }
    let web = Scratch::new("serve-web");
    let reply = s.ok(&format!("save {}", web.0.display()));
    assert!(reply["out"].as_str().unwrap().starts_with("saved "), "{reply}");
    let repl_file = Scratch::new("serve-repl");
    let mut opts = turnscript::repl::Options {
        ruleset: Some(LEGENDS.0.into()),
        encounter: Some(LEGENDS.1.into()),
        seed: 1,
        autosave: None,
        colour: Some(false),
        width: 0,
    };
    opts.seed = 1;
    let (mut repl, _) = turnscript::repl::Repl::new(opts).unwrap();
    let mut input: String = commands.iter().map(|c| format!("{c}\n")).collect();
    input.push_str(&format!("save {}\n", repl_file.0.display()));
    turnscript::repl::script(&mut repl, &input);
    let (a, b) = (
        std::fs::read_to_string(&web.0).unwrap(),
        std::fs::read_to_string(&repl_file.0).unwrap(),
    );
    assert!(a.lines().count() > commands.len(), "{a}");
    assert_eq!(a, b);
    // And it loads back to the same view.
    let view = s.get_json("/api/view");
    s.ok(&format!("load {}", web.0.display()));
    let loaded = s.get_json("/api/view");
    for k in ["decision", "strip", "pending", "events", "undo", "redo"] {
        assert_eq!(loaded[k], view[k], "{k}");
    }
}

/// Every string in a JSON value.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

fn words(v: &Value) -> Vec<String> {
    let mut all = Vec::new();
    strings(v, &mut all);
    all.iter()
        .flat_map(|s| {
            s.split(|c: char| !c.is_alphanumeric() && c != '_')
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn the_players_view_names_no_secret_choice_before_its_reveal() {
    let s = Server::start("tests/secrecy/dials.turn", None, 3);
    let players = format!("/api/players/view?token={}", s.players_token());
    let dials = ["red", "amber", "blue"];
    // Luke's answer is refused (he is stressed): the GM who gave it is told, in secret; the
    // refusal names what he answered, so the players' screen must not show it.
    let mut accepted = 0;
    for (answer, refused) in [
        ("red", true),
        ("amber", false),
        ("blue", false),
        ("amber", false),
        ("blue", false),
    ] {
        let v = s.get_json(&players);
        assert_eq!(v["pending"]["secret"], true, "{v}");
        assert!(
            v["pending"].get("options").is_none(),
            "a secret decision's options: {v}"
        );
        let reply = s.ok(&format!("answer {answer}"));
        let out = reply["out"].as_str().unwrap();
        assert_eq!(out.starts_with("refused in secret: red"), refused, "{out}");
        accepted += usize::from(!refused);
        let v = s.get_json(&players);
        let seen = words(&v);
        if accepted < 4 {
            for d in dials {
                assert!(
                    !seen.iter().any(|w| w == d),
                    "`{d}` is on the players' screen before the reveal: {v}"
                );
            }
        } else {
            // All four have chosen: the dials are revealed, and the players' screen shows them.
            assert!(dials.iter().all(|d| seen.iter().any(|w| w == d)), "revealed: {v}");
        }
        for gm_only in ["log", "seed", "control", "held", "status", "players_token", "prompt"] {
            assert!(v.get(gm_only).is_none(), "{gm_only} on the players' screen");
        }
        assert!(v["pending"].get("refused").is_none());
    }
    assert_eq!(accepted, 4);
}

#[test]
fn hostile_requests_are_refused_with_a_4xx_and_change_nothing() {
    let s = legends();
    let before = s.get_json("/api/view");
    let host = format!("127.0.0.1:{}", s.port);
    let cases: Vec<(&str, u16, (u16, String))> = vec![
        ("a rebinding name", 421, s.raw("GET", "/api/view", &[("Host", "evil.example")], "")),
        ("no Host", 421, send(s.port, b"GET /api/view HTTP/1.1\r\n\r\n", b"")),
        (
            "a form post",
            415,
            s.raw("POST", "/api/command", &[("Content-Type", "text/plain")], "{\"line\":\"answer 1\"}"),
        ),
        (
            "another site's page",
            403,
            s.raw("POST", "/api/command", &[("Origin", "http://evil.example")], "{\"line\":\"answer 1\"}"),
        ),
        ("quit", 422, s.raw("POST", "/api/command", &[], "{\"line\":\"quit\"}")),
        ("not JSON", 400, s.raw("POST", "/api/command", &[], "answer 1")),
        ("no line", 400, s.raw("POST", "/api/command", &[], "{\"lines\":1}")),
        (
            "a huge body",
            413,
            send(
                s.port,
                format!("POST /api/command HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n").as_bytes(),
                b"",
            ),
        ),
        ("garbage", 400, send(s.port, b"\x16\x03\x01 not http\r\n\r\n", b"")),
        ("a PUT", 405, s.raw("PUT", "/api/command", &[], "")),
        ("a GET of a change", 405, s.raw("GET", "/api/command", &[], "")),
        ("nothing there", 404, s.get("/../../etc/passwd")),
        (
            "a save outside the folder",
            422,
            s.raw("POST", "/api/command", &[], "{\"line\":\"save /tmp/turnscript-outside.tsession\"}"),
        ),
        (
            "a load outside the folder",
            422,
            s.raw("POST", "/api/command", &[], "{\"line\":\"load /etc/passwd\"}"),
        ),
        (
            "opening a file outside the folder",
            403,
            s.raw("POST", "/api/open", &[], "{\"ruleset\":\"/etc/passwd\"}"),
        ),
    ];
    for (what, want, (status, body)) in cases {
        assert_eq!(status, want, "{what}: {body}");
        if status != 405 || !body.is_empty() {
            assert!(
                serde_json::from_str::<Value>(&body).is_ok_and(|v| v["error"].is_string() || v["error"] == true),
                "{what}: the refusal says why in JSON: {body}"
            );
        }
    }
    assert!(!std::path::Path::new("/tmp/turnscript-outside.tsession").exists());
    assert_eq!(s.get_json("/api/view"), before, "a refused request changed the table");
}

#[test]
fn beyond_loopback_the_gms_page_needs_its_key() {
    let s = Server::start_on("0.0.0.0", LEGENDS.0, Some(LEGENDS.1), 1);
    let key = s.gm_key().expect("the GM's URL carries a key beyond loopback");
    assert_eq!(s.get("/").0, 403);
    assert_eq!(s.get("/api/view").0, 403);
    assert_eq!(s.command("answer 1").0, 403);
    assert_eq!(s.get(&format!("/?key={key}")).0, 200);
    assert_eq!(s.get(&format!("/api/view?key={}", "0".repeat(32))).0, 403);
    let (status, _) = s.raw(
        "POST",
        "/api/command",
        &[("Authorization", &format!("Bearer {key}"))],
        "{\"line\":\"answer 1\"}",
    );
    assert_eq!(status, 200);
    // The players' token opens their page and view, not the GM's.
    let token = s.players_token();
    assert_eq!(s.get(&format!("/players?token={token}")).0, 200);
    assert_eq!(s.get(&format!("/api/view?token={token}")).0, 403);
    assert_eq!(s.get("/players").0, 403, "the players' page needs its token");
    assert_eq!(s.get("/players?token=wrong").0, 403);
    assert_eq!(s.get("/api/players/view").0, 403);
    assert_eq!(s.get("/api/events?audience=players").0, 403);
    assert_eq!(s.get(&format!("/api/events?audience=gm&token={token}")).0, 403);
}

#[test]
fn every_open_page_follows_the_table_live() {
    let s = legends();
    let mut gm = s.events("/api/events?audience=gm");
    let mut players = s.events(&format!("/api/events?audience=players&token={}", s.players_token()));
    assert_eq!(gm.next_view()["decision"], 1);
    assert_eq!(players.next_view()["decision"], 1);
    s.ok("answer 2");
    assert_eq!(gm.next_view()["decision"], 2);
    assert_eq!(players.next_view()["decision"], 2);
    s.ok("undo");
    assert_eq!(players.next_view()["decision"], 1);
}

#[test]
fn the_gm_opens_another_ruleset_from_those_offered() {
    let s = legends();
    let files = s.get_json("/api/files")["files"].clone();
    let files: Vec<&str> = files.as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert_eq!(&files[..2], &[LEGENDS.0, LEGENDS.1], "the files named first");
    assert!(files.contains(&"rulesets/crisis-mode.turn"), "{files:?}");
    let (status, body) = s.raw(
        "POST",
        "/api/open",
        &[],
        &json!({"ruleset": "rulesets/crisis-mode.turn", "encounter": "rulesets/encounters/crisis-mode.turn", "seed": 2})
            .to_string(),
    );
    assert_eq!(status, 200, "{body}");
    let v = s.get_json("/api/view");
    assert_eq!(v["ruleset"], "Crisis Mode Turn Sequence");
    assert_eq!(v["seed"], 2);
    let (status, body) = s.raw(
        "POST",
        "/api/open",
        &[],
        &json!({"ruleset": "rulesets/no-such.turn"}).to_string(),
    );
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("cannot read rulesets/no-such.turn"), "{body}");
    assert_eq!(
        s.get_json("/api/view")["ruleset"],
        "Crisis Mode Turn Sequence",
        "a failed open keeps the table"
    );
}

/// The members of the kept order `name`, from a view.
fn kept(v: &Value, name: &str) -> Vec<String> {
    v["kept"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["order"] == name)
        .map(|k| {
            k["members"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Every action of the GM's page, in the form gm.js writes it, is taken and shows in the view it
/// gives back (the browser test clicks a few of them; this one sends each).
#[test]
fn every_action_the_gms_page_sends_is_taken_and_shown() {
    let s = legends();
    let v = s.get_json("/api/view");
    assert_eq!(kept(&v, "turn_order"), ["Kessa", "Orin", "Vey", "Raider", "Brute"]);
    // The strip's buttons and dragging: place one before or after another in a kept order.
    let v = s.ok("place Brute before Kessa in turn_order")["view"].clone();
    assert_eq!(kept(&v, "turn_order"), ["Brute", "Kessa", "Orin", "Vey", "Raider"]);
    let v = s.ok("place Brute after Orin in turn_order")["view"].clone();
    assert_eq!(kept(&v, "turn_order"), ["Kessa", "Orin", "Brute", "Vey", "Raider"]);
    // Begin an effect, then its Stop button.
    let v = s.ok("begin guarded on Vey for 1")["view"].clone();
    assert_eq!(v["effects"][0]["effect"], "guarded");
    assert_eq!(v["effects"][0]["on"], "Vey");
    assert_eq!(v["effects"][0]["left"], 1);
    let v = s.ok("stop guarded on Vey")["view"].clone();
    assert_eq!(v["effects"], json!([]));
    // Set a field; add a character; take one out with ✕.
    let v = s.ok("set Kessa.fatigue = 2")["view"].clone();
    let kessa = v["strip"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "Kessa")
        .unwrap();
    assert!(
        kessa["parts"].as_array().unwrap().contains(&json!("fatigue 2")),
        "{kessa}"
    );
    let v = s.ok("add character Zed { side foes, dex = 4, spd = 4 }")["view"].clone();
    let zed = v["characters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Zed")
        .cloned();
    assert_eq!(zed.map(|z| z["side"].clone()), Some(json!("foes")));
    let v = s.ok("remove Zed")["view"].clone();
    let zed = v["characters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Zed")
        .cloned();
    assert_eq!(zed.map(|z| z["out"].clone()), Some(json!(true)));
    // Who answers.
    let v = s.ok("auto foes")["view"].clone();
    assert!(
        v["control"].as_str().unwrap().starts_with("auto foes"),
        "{}",
        v["control"]
    );
    let v = s.ok("ask foes")["view"].clone();
    assert!(
        v["control"].as_str().unwrap().starts_with("ask foes"),
        "{}",
        v["control"]
    );
    // A forced die; the policy's answer; a step.
    let v = s.ok("roll 4")["view"].clone();
    assert_eq!(v["log"].as_array().unwrap().last().unwrap()["line"], "roll 4");
    let before = v["decision"].as_u64().unwrap();
    let v = s.ok("answer")["view"].clone();
    assert_eq!(v["decision"].as_u64().unwrap(), before + 1);
    let v = s.ok("step")["view"].clone();
    assert_eq!(v["decision"].as_u64().unwrap(), before + 2);
}

/// The page's attempt entry and forced cards, on a ruleset with both (a deck, attempts open at
/// every decision).
#[test]
fn the_gm_forces_cards_and_makes_an_attempt_from_the_page() {
    let s = Server::start(
        "rulesets/library/swade.turn",
        Some("rulesets/library/encounters/swade.turn"),
        1,
    );
    let v = s.get_json("/api/view");
    assert_eq!(v["pending"]["attempts"], json!(["interrupt", "shaken"]));
    let names: Vec<&str> = v["characters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(
        !names.contains(&"joker 1"),
        "a deck's cards are not characters: {names:?}"
    );
    assert!(names.contains(&"Cass"));
    let reply = s.ok("draw joker 1, Q hearts");
    assert!(!reply["out"].as_str().unwrap().contains("error"), "{reply}");
    let (status, reply) = s.command("attempt Ava interrupt");
    assert!(status == 200 || status == 422, "{reply}");
    let out = reply["out"].as_str().unwrap();
    assert!(
        out.contains("interrupt"),
        "the attempt is carried out or refused with its reason: {out}"
    );
}

/// Found in review: a secret choice asked only after one option of another (Ana's `target`,
/// asked only if she picked `strike`) named its decision on the players' screen, telling her
/// plan before the reveal. The players see only that a choice is being made in secret.
#[test]
fn the_players_view_does_not_tell_a_secret_pick_by_the_choice_that_follows_it() {
    let s = Server::start("tests/serve/plans.turn", None, 1);
    let players = format!("/api/players/view?token={}", s.players_token());
    assert_eq!(s.get_json(&players)["pending"], json!({"secret": true}));
    let gm = s.ok("answer strike")["view"].clone();
    assert_eq!(gm["pending"]["decision"], "target", "the GM, who answered, sees it");
    let v = s.get_json(&players);
    assert_eq!(v["pending"], json!({"secret": true}));
    // Nor who is asked, in the place the page's header says (a choice asked of another would
    // tell the pick as well).
    assert_eq!(v["where"], "round 1", "{v}");
    let seen = words(&v);
    for w in ["strike", "target", "plan", "guard"] {
        assert!(!seen.iter().any(|x| x == w), "`{w}` on the players' screen: {v}");
    }
}

/// Found in review: the players' events were the GM's text, with the seed and the dice and
/// cards the GM forced for later (`next dice 4 2 12`). They are the GM's alone.
#[test]
fn the_players_never_see_the_seed_nor_the_dice_forced_for_later() {
    let s = Server::start(LEGENDS.0, Some(LEGENDS.1), 987_654);
    let players = format!("/api/players/view?token={}", s.players_token());
    let gm = s.ok("roll 4 2 12")["view"].clone();
    let gm_events = gm["events"].as_array().unwrap();
    assert!(
        gm_events
            .iter()
            .any(|e| e.as_str().unwrap().contains("next dice 4 2 12")),
        "{gm}"
    );
    s.ok("seed 55");
    let v = s.get_json(&players);
    let text = v.to_string();
    for secret in ["987654", "next dice", "seed", "55"] {
        assert!(!text.contains(secret), "`{secret}` on the players' screen: {text}");
    }
    assert!(!v["events"].as_array().unwrap().is_empty());
}

/// Found in review: a fenced table's `save` wrote onto a FIFO (the server waited for a reader,
/// holding the table: every page hung) and over any file of the folder (`save Cargo.toml`). It
/// writes a new file or replaces a saved session, nothing else.
#[test]
fn the_page_saves_only_to_a_new_file_or_over_a_saved_session() {
    let s = legends();
    let dir = std::path::Path::new("target/serve-scratch");
    std::fs::create_dir_all(dir).unwrap();
    let fifo = dir.join(format!("pipe-{}.tsession", std::process::id()));
    let _ = std::fs::remove_file(&fifo);
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let (status, reply) = s.command(&format!("save {}", fifo.display()));
    assert_eq!(status, 422, "{reply}");
    assert!(
        reply["out"].as_str().unwrap().contains("is not a regular file"),
        "{reply}"
    );
    std::fs::remove_file(&fifo).unwrap();
    let notes = dir.join(format!("notes-{}.txt", std::process::id()));
    std::fs::write(&notes, "my notes\n").unwrap();
    let (status, reply) = s.command(&format!("save {}", notes.display()));
    assert_eq!(status, 422, "{reply}");
    assert!(
        reply["out"].as_str().unwrap().contains("is not a saved session"),
        "{reply}"
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    std::fs::remove_file(&notes).unwrap();
    let session = Scratch::new("serve-again");
    s.ok(&format!("save {}", session.0.display()));
    s.ok("answer 1");
    s.ok(&format!("save {}", session.0.display()));
    assert!(std::fs::read_to_string(&session.0).unwrap().contains("answer 1"));
    // A command longer than the REPL takes is refused as the REPL refuses it.
    let (status, _) = s.command(&format!("set Kessa.fatigue = {}", "1".repeat(70_000)));
    assert_eq!(status, 413);
}

/// Found in review: Open… autosaved the new table although the server was started with no
/// autosave.
#[test]
fn opening_a_ruleset_keeps_the_servers_autosave_choice() {
    let s = legends();
    let autosave = std::path::Path::new(".turnscript-autosave-crisis-mode.tsession");
    let _ = std::fs::remove_file(autosave);
    let (status, body) = s.raw(
        "POST",
        "/api/open",
        &[],
        &json!({"ruleset": "rulesets/crisis-mode.turn", "encounter": "rulesets/encounters/crisis-mode.turn"})
            .to_string(),
    );
    assert_eq!(status, 200, "{body}");
    s.ok("answer");
    assert!(!autosave.exists(), "Open… wrote an autosave");
}

/// The pages following the table are bounded below the connections, so a command always finds
/// one; the next page is told so.
#[test]
fn pages_following_the_table_are_bounded() {
    let s = legends();
    let max = turnscript::limits::MAX_HTTP_STREAMS;
    let open: Vec<_> = (0..max).map(|_| s.events("/api/events?audience=gm")).collect();
    let (status, body) = s.get("/api/events?audience=gm");
    assert_eq!(status, 503, "{body}");
    assert_eq!(s.command("answer 1").0, 200, "a command still gets through");
    drop(open);
}

/// Found by a GM trying the page: every button naming a character of two words (`Kobold 1`)
/// sent it unquoted and was refused. The page quotes such names, as the REPL takes them; these
/// are the page's commands for such a name.
#[test]
fn the_pages_commands_take_names_of_several_words() {
    let s = Server::start(
        "rulesets/library/dnd5e.turn",
        Some("rulesets/library/encounters/dnd5e.turn"),
        3,
    );
    for c in [
        "auto npcs",
        "auto Lair",
        "continue",
        "place \"Kobold 1\" before \"Kobold 2\" in initiative_order",
        "place \"Kobold 1\" after \"Kobold 3\" in initiative_order",
        "begin surprise on \"Kobold lookout\" for 1",
        "stop surprise on \"Kobold lookout\"",
        "set \"Kobold 1\".movement = 5",
        "ask \"Kobold lookout\"",
        "auto \"Kobold lookout\"",
        "remove \"Kobold 1\"",
    ] {
        s.ok(c);
    }
    let v = s.get_json("/api/view");
    let k1 = v["strip"].as_array().unwrap().iter().find(|r| r["name"] == "Kobold 1");
    assert!(k1.is_none_or(|r| r["mark"] == "out"), "{v}");
    let gm = std::fs::read_to_string("src/serve/page/gm.js").unwrap();
    for built in [
        "remove ${q(r.name)}",
        "on ${q(e.on)}",
        "place ${q(moved)} before ${q(li.dataset.name)}",
    ] {
        assert!(gm.contains(built), "gm.js quotes names in `{built}`");
    }
}

//! The browser tests: a real headless Chromium driven through WebDriver (tests/browser/) on the
//! pages of `turnscript serve`, as a GM and the players use them. CI installs Debian's
//! `chromium` and `chromium-driver`; where they are missing the tests say so and skip, but under
//! CI=true they fail, so CI never passes without having run them. The screenshots are written to
//! target/screenshots/ (docs/table.md shows them).

#[path = "serve/client.rs"]
mod client;
#[path = "browser/webdriver.rs"]
mod webdriver;

use client::Server;
use webdriver::Browser;

/// Chromium, or why not: under CI a missing browser is a failure, elsewhere a skip with a line.
fn browser(width: u32, height: u32) -> Option<Browser> {
    if Browser::available() {
        return Some(Browser::start(width, height));
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must run the browser tests: install chromium and chromium-driver (.ci/run does)"
    );
    eprintln!(
        "skipped: no {} or {} here",
        webdriver::CHROMIUM,
        webdriver::CHROMEDRIVER
    );
    None
}

fn shot(b: &Browser, name: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    b.screenshot(&dir.join(format!("{name}.png")));
}

/// Picks `value` in the select `css`, as a person would (and the page hears the change).
fn pick(b: &Browser, css: &str, value: &str) {
    let found = b.eval(
        "const s = document.querySelector(arguments[0]); s.value = arguments[1]; s.dispatchEvent(new Event('change')); return s.value;",
        serde_json::json!([css, value]),
    );
    assert_eq!(found, value, "{css} has no option {value}");
}

#[test]
fn the_webdriver_client_clicks_types_reads_and_takes_a_picture() {
    let Some(b) = browser(400, 300) else { return };
    b.goto("data:text/html,<input id=i><button id=b onclick=\"document.getElementById('o').textContent='clicked '%2Bdocument.getElementById('i').value\">go</button><p id=o>no</p>");
    b.type_into("#i", "Mira");
    b.click("#b");
    assert_eq!(
        b.wait_text("#o", "the click", |t| t.starts_with("clicked")),
        "clicked Mira"
    );
    assert_eq!(b.eval("return 6 * 7", serde_json::json!([])), 42);
    let png = std::env::temp_dir().join(format!("turnscript-shot-{}.png", std::process::id()));
    b.screenshot(&png);
    let bytes = std::fs::read(&png).unwrap();
    let _ = std::fs::remove_file(&png);
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn a_gm_plays_a_fight_from_the_page_and_the_players_screen_follows() {
    let Some(b) = browser(1400, 1000) else { return };
    let s = Server::start("rulesets/legends.turn", Some("rulesets/encounters/legends.turn"), 1);
    b.goto(&s.url("/"));
    b.wait_text("#pending", "the first decision", |t| t == "Raider decides move_down");
    assert_eq!(
        b.text("#title"),
        "Ambush in the ruins · Legends: Rounds, Turns and Movement"
    );
    // Answering by clicking the option's button.
    b.click("#options button[data-n='2']");
    b.wait_text("#pending", "the next decision", |t| t == "Vey decides move_down");
    assert!(
        b.text("#refused")
            .contains("Raider: Vey cannot move between Raider and Brute")
    );
    // By a key.
    b.keys("2");
    b.wait_text("#pending", "the decision after", |t| !t.starts_with("Vey"));
    // A ruling, then undone with `u`.
    pick(&b, "#set-who", "Kessa");
    pick(&b, "#set-field", "fatigue");
    b.type_into("#set-value", "2");
    b.click("#set-form button");
    b.wait_text("#strip li[data-name='Kessa']", "the ruling", |t| {
        t.contains("fatigue 2")
    });
    b.keys("u");
    b.wait_text("#strip li[data-name='Kessa']", "the undo", |t| t.contains("fatigue 0"));
    // An effect begun by hand, then stopped with its button.
    pick(&b, "#begin-effect", "guarded");
    pick(&b, "#begin-on", "Vey");
    b.click("#begin-form button");
    b.wait_text("#running", "the effect begun", |t| {
        t.starts_with("guarded on Vey: 1 more")
    });
    b.click("#running button");
    b.wait_text("#running", "the effect stopped", str::is_empty);
    // A forced die, logged for the next roll.
    b.type_into("#roll", "4");
    b.click("#roll-form button");
    // The log (inside a closed <details>, so its text content) lists it once the reply is in.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !b
        .eval(
            "return document.querySelector('#log').textContent",
            serde_json::json!([]),
        )
        .as_str()
        .is_some_and(|t| t.contains("roll 4"))
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the forced die never reached the log"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // Everyone on auto, played on to round 3 from the command line.
    pick(&b, "#mode-who", "all");
    b.click("#mode-auto");
    b.wait_text("#control", "auto all", |t| t.contains("auto all"));
    b.type_into("#command", "continue until round=2");
    b.click("#command-form button");
    let at = b.wait_text("#where", "round 3", |t| t.contains("round 3"));
    shot(&b, "gm");
    // On a phone: one column, the decision first.
    b.resize(500, 1000);
    b.wait_text("#pending", "the decision on a phone", |t| t.contains("decides"));
    shot(&b, "gm-phone");
    b.resize(1400, 1000);
    let strip = b.text("#strip");
    // A reload shows the same table.
    b.reload();
    b.wait_text("#where", "the same place after a reload", |t| t == at);
    assert_eq!(b.text("#strip"), strip);
    // The players' screen shows the same order and follows a change made at the GM's page.
    b.goto(&s.url(&format!("/players?token={}", s.players_token())));
    b.wait_text("#where", "the players' screen", |t| t.contains("round 3"));
    let before = b.text("#events");
    s.ok("undo");
    b.wait_text("#events", "the live update", |t| t != before);
    assert!(b.text("#now").contains("decides") || b.text("#now").contains("choosing"));
    for gm_only in ["#options", "#log", "#command"] {
        assert_eq!(
            b.eval(
                "return document.querySelector(arguments[0]) === null",
                serde_json::json!([gm_only])
            ),
            true,
            "{gm_only} on the players' screen"
        );
    }
    shot(&b, "players");
}

#[test]
fn the_players_screen_shows_no_secret_choice_before_its_reveal() {
    let Some(b) = browser(390, 844) else { return };
    let s = Server::start("tests/secrecy/dials.turn", None, 3);
    b.goto(&s.url(&format!("/players?token={}", s.players_token())));
    b.wait_text("#now", "a secret choice", |t| t == "A choice is being made in secret");
    let dial_words = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|w| ["red", "amber", "blue"].contains(w))
            .map(str::to_string)
            .collect()
    };
    for (who, answer) in [("Luke", "amber"), ("Mara", "blue"), ("Nils", "amber")] {
        s.ok(&format!("answer {answer}"));
        // The trace says that the member chose, not what.
        b.wait_text("#events", "the choice made", |t| {
            t.lines()
                .any(|l| l.contains("secret") && l.contains(who) && l.contains("chosen in secret"))
        });
        let page = b.eval("return document.body.innerText", serde_json::json!([]));
        assert_eq!(dial_words(page.as_str().unwrap()), Vec::<String>::new(), "{page}");
    }
    shot(&b, "players-phone");
    s.ok("answer blue");
    // Revealed: the dials are on the screen now.
    b.wait_text("#events", "the reveal", |t| !dial_words(t).is_empty());
}

/// The picture of docs/table.md and the README: a library fight in its first round, the foes on
/// auto, the GM's page at the ranger's turn (cp target/screenshots/table-dnd5e.png docs/images/).
#[test]
fn the_gm_page_of_a_library_fight_as_the_docs_show_it() {
    let Some(b) = browser(1400, 1000) else { return };
    let s = Server::start(
        "rulesets/library/dnd5e.turn",
        Some("rulesets/library/encounters/dnd5e.turn"),
        3,
    );
    for c in ["auto npcs", "auto Lair", "continue"] {
        s.ok(c);
    }
    b.goto(&s.url("/"));
    b.wait_text("#pending", "the ranger's turn", |t| t == "Ranger decides act");
    assert!(
        b.text("#strip li.up").starts_with("▸\nRanger"),
        "{}",
        b.text("#strip li.up")
    );
    assert_eq!(b.text("#options button[data-n='3']"), "3attack");
    shot(&b, "table-dnd5e");
    // A foe of two words falls: its ✕ (the page quotes the name, as the REPL takes it).
    b.click("#strip li[data-name='Kobold 1'] .tools button[title^='Take']");
    b.wait_text("#strip li[data-name='Kobold 1']", "Kobold 1 out", |t| {
        t.contains("out of play")
    });
    assert!(!b.text("#reply").contains("error"), "{}", b.text("#reply"));
}

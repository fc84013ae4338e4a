//! The browser tests: a real headless Chromium driven through WebDriver (tests/browser/).
//! CI installs Debian's `chromium` and `chromium-driver`; where they are missing the tests say
//! so and fail under CI=true, so CI never passes without having run them.

#[path = "browser/webdriver.rs"]
mod webdriver;

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
    let shot = std::env::temp_dir().join(format!("turnscript-shot-{}.png", std::process::id()));
    b.screenshot(&shot);
    let png = std::fs::read(&shot).unwrap();
    let _ = std::fs::remove_file(&shot);
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

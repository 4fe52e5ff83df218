//! The HTML page as an editor publishes it (issue 43): light enough for a
//! collection of hundreds of annotated games, readable without
//! JavaScript (the score, its comments, and diagrams at `$220`, `{D}` and
//! the end), the comment commands shown (`[%clk]`, `[%emt]`, `[%eval]`,
//! `[%cal]`, `[%csl]`, arrows also in SVG and PNG diagrams of the ply),
//! the board kept in view, the heading from the tags, move links unique
//! across games and ChessBase's NAGs shown. Pages are checked in headless
//! Chromium as `render::` does, with scripts on and off.

use crate::common::postal;
use crate::render::{chromium, dump_dom_with, unescape};
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("postal-pages-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn browser() -> Option<PathBuf> {
    if std::env::var("POSTAL_SKIP_BROWSER").as_deref() == Ok("1") {
        eprintln!("POSTAL_SKIP_BROWSER=1: the browser part is skipped");
        return None;
    }
    Some(chromium().expect(
        "headless Chromium is needed (see render::html_replay_steps_through_the_game_in_chromium)",
    ))
}

/// The movetext of the first game of `fixtures/records/clean.pgn`
/// (Morphy's Opera game), without its result.
fn opera() -> String {
    let text = std::fs::read_to_string(format!(
        "{}/fixtures/records/clean.pgn",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let game = text.split("\n\n").nth(1).unwrap();
    game.replace('\n', " ").trim_end_matches(" 1-0").to_string()
}

/// Morphy's game annotated as a lichess study or an editor would: a clock
/// on every move, evaluations, arrows and marked squares, prose, NAGs
/// (ChessBase's among them), two variations, a diagram asked for with
/// `$220` after 6. Bc4 and with `{D}` after 12. O-O-O.
fn annotated_opera(i: usize) -> String {
    let moves = opera()
        .replace("2. Nf3 d6", "2. Nf3 d6 (2... Nc6 3. Bb5 a6)")
        .replace("3. d4 Bg4", "3. d4 Bg4 (3... exd4 4. Nxd4 Nf6)");
    let mut out = format!(
        "[Event \"Club bulletin {}\"]\n[Site \"Paris FRA\"]\n[Date \"1858.??.??\"]\n[Round \"{}\"]\n\
[White \"Paul Morphy {i}\"]\n[Black \"Duke Karl {i}\"]\n[Result \"1-0\"]\n[WhiteElo \"2690\"]\n\
[BlackElo \"1850\"]\n[ECO \"C41\"]\n[Opening \"Philidor Defense\"]\n[Annotator \"Editor\"]\n\n",
        i / 20 + 1,
        i % 20 + 1
    );
    let mut ply = 0;
    let mut depth = 0;
    let mut clock = [5400, 5400];
    for word in moves.split_whitespace() {
        out.push_str(word);
        out.push(' ');
        depth += word.matches('(').count();
        let is_move = !word.ends_with('.') && !word.contains(['(', ')']);
        depth -= word.matches(')').count();
        if !is_move || depth > 0 {
            continue;
        }
        ply += 1;
        clock[ply % 2] -= 37 + (ply * 7 % 50);
        let c = clock[ply % 2];
        let mut comment = format!("[%clk {}:{:02}:{:02}]", c / 3600, c / 60 % 60, c % 60);
        if ply % 3 == 1 {
            comment.push_str(&format!(" [%eval {}.{}]", ply % 2, ply % 10));
        }
        if ply % 5 == 2 {
            comment.push_str(" [%cal Gd1h5,Rc8g4]");
        }
        if ply % 7 == 3 {
            comment.push_str(" [%csl Rd4]");
        }
        if ply % 4 == 0 {
            comment.push_str(" a developing move that keeps the balance");
        }
        out.push_str(&format!("{{{comment}}} "));
        match ply {
            11 => out.push_str("$220 "),
            9 => out.push_str("$142 "),
            23 => out.push_str("{D} "),
            _ => {}
        }
    }
    out.push_str("1-0\n\n");
    out
}

/// The result of a page's self-test (`#test`), from the DOM Chromium
/// ends with.
fn self_test(dom: &str) -> serde_json::Value {
    let open = dom
        .find("<pre id=\"postal-test\"")
        .unwrap_or_else(|| panic!("no result element in the page"));
    let body = &dom[open..];
    assert!(
        body.contains("data-done=\"true\""),
        "the self-test finished"
    );
    let body = &body[body.find('>').unwrap() + 1..body.find("</pre>").unwrap()];
    serde_json::from_str(&unescape(body)).unwrap()
}

fn convert(pgn: &Path, page: &Path) {
    postal()
        .args(["convert", pgn.to_str().unwrap(), "--to", "html", "-o"])
        .arg(page)
        .assert()
        .success();
}

/// Issue 43, point 1: a collection of 580 annotated games (about 1 MB of
/// PGN) makes a page under 5 MB (it made one of hundreds of megabytes,
/// each position drawn as its own image), with the board drawn once and
/// the positions as data; Chromium opens it and its script steps through
/// the first game. (The load time is measured by hand, not here.)
#[test]
fn a_580_game_annotated_collection_makes_a_page_under_5_mb() {
    let dir = scratch("big");
    let pgn = dir.join("collection.pgn");
    let text: String = (0..580).map(annotated_opera).collect();
    assert!(text.len() > 850_000, "{} bytes of PGN", text.len());
    std::fs::write(&pgn, &text).unwrap();
    let page = dir.join("collection.html");
    convert(&pgn, &page);
    let html = std::fs::read_to_string(&page).unwrap();
    eprintln!("{} bytes of PGN, {} bytes of page", text.len(), html.len());
    assert!(html.len() < 5_000_000, "{} bytes", html.len());
    // One frame of squares for the whole page; one JSON element of
    // positions; no drawn board per position.
    assert_eq!(html.matches("<rect class=\"sq ").count(), 64);
    assert_eq!(html.matches("type=\"application/json\"").count(), 1);
    assert_eq!(html.matches("<section class=\"game\"").count(), 580);
    if let Some(browser) = browser() {
        let result = self_test(&dump_dom_with(&browser, &page, &dir.join("profile"), &[]));
        assert_eq!(result["plies"], 33);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 43, point 2: without JavaScript a reader has the game as a book
/// prints it: the score with its comments (the commands not printed word
/// for word), and a diagram at `$220`, at `{D}` and at the end, and no
/// buttons that do nothing; with it, the live board replaces them.
#[test]
fn without_javascript_the_page_is_the_score_with_diagrams() {
    let dir = scratch("nojs");
    let pgn = dir.join("game.pgn");
    std::fs::write(&pgn, annotated_opera(0)).unwrap();
    let page = dir.join("game.html");
    convert(&pgn, &page);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("[%"),
        "commands are not printed word for word"
    );
    let Some(browser) = browser() else { return };
    // Chromium's --dump-dom needs scripts (`scriptEnabled=false` dumps
    // nothing), so the page is read without its own script: a probe
    // reports what a reader sees, as laid out.
    let start = html.find("<script>\n(function").unwrap();
    let end = start + html[start..].find("</script>").unwrap() + "</script>".len();
    // (Sections are laid out as they come on screen, content-visibility:
    // auto; the probe lays them all out, as a reader scrolling would.)
    let probe = "<script>\
Array.prototype.forEach.call(document.querySelectorAll('section.game'), function (s) { s.style.contentVisibility = 'visible'; });\
var f = Array.prototype.slice.call(document.querySelectorAll('figure.diagram'));\
var out = document.getElementById('postal-test');\
out.textContent = JSON.stringify({\
 text: document.body.innerText,\
 figures: f.filter(function (x) { return x.querySelector('svg').getBoundingClientRect().height > 200; })\
  .map(function (x) { return x.querySelector('figcaption').textContent; }),\
 buttons: document.querySelectorAll('button').length});\
out.setAttribute('data-done', 'true');</script>";
    let bare = dir.join("bare.html");
    std::fs::write(&bare, format!("{}{probe}{}", &html[..start], &html[end..])).unwrap();
    let seen = self_test(&dump_dom_with(&browser, &bare, &dir.join("profile"), &[]));
    let text = seen["text"].as_str().unwrap();
    assert_eq!(seen["buttons"], 0, "no buttons that do nothing");
    assert!(text.contains("a developing move that keeps the balance"));
    assert!(text.contains("17. Rd8#"), "{text}");
    assert!(text.contains("(2... Nc6 3. Bb5 a6)"), "{text}");
    assert_eq!(
        seen["figures"],
        serde_json::json!(["After 6. Bc4", "After 12. O-O-O", "After 17. Rd8#"]),
        "diagrams at $220, {{D}} and the end, drawn"
    );
    // Each static diagram places the page's one frame and its glyphs.
    assert_eq!(html.matches("<use href=\"#f0\"").count(), 3);
    // With scripts, a live board and no static diagram shown.
    let result = self_test(&dump_dom_with(&browser, &page, &dir.join("profile"), &[]));
    assert_eq!(result["diagramsShown"], 0);
    assert_eq!(result["log"][0]["shown"], serde_json::json!([0]));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 43, point 3: `[%clk]` is a clock beside the move, `[%emt]` the
/// time used, `[%eval]` an evaluation (pawns or a mate), `[%cal]` and
/// `[%csl]` arrows and marked squares on the board at that move, in the
/// page and in SVG and PNG diagrams of the ply; the PGN keeps them.
#[test]
fn clocks_evaluations_and_arrows_are_shown() {
    let dir = scratch("commands");
    let pgn = dir.join("game.pgn");
    std::fs::write(
        &pgn,
        "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n\
1. e4 {[%clk 0:03:00] [%emt 0:00:12] A fine start [%eval 0.3]} e5 {[%clk 0:02:58] [%eval #-2]}\n\
2. Nf3 {[%cal Ge2e4,Rd8h4] [%csl Rd4]} *\n",
    )
    .unwrap();
    let page = dir.join("game.html");
    convert(&pgn, &page);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<a href=#g1-1>e4</a> <span class=clk>3:00</span> <span class=emt>0:12</span> <span class=ev>+0.30</span> <span class=c>A fine start</span>"), "{html}");
    assert!(html.contains("<span class=clk>2:58</span> <span class=ev>#-2</span>"));
    assert!(!html.contains("[%"));
    // The static diagram at the end has the arrows and the marked square.
    for mark in [
        "data-mark=\"Ge2e4\"",
        "data-mark=\"Rd8h4\"",
        "data-mark=\"Rd4\"",
    ] {
        assert!(html.contains(mark), "{mark}");
    }
    // PGN keeps the commands as written.
    let out = postal()
        .args(["convert", pgn.to_str().unwrap(), "--to", "pgn"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let round = String::from_utf8(out).unwrap();
    assert!(round.contains("[%cal Ge2e4,Rd8h4] [%csl Rd4]") && round.contains("[%clk 0:03:00]"));
    // SVG of the ply: the arrows drawn; of another ply, none.
    let svg_of = |ply: &str| {
        let out = postal()
            .args([
                "convert",
                pgn.to_str().unwrap(),
                "--to",
                "svg",
                "--ply",
                ply,
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap()
    };
    let svg = svg_of("3");
    assert!(
        svg.contains("<polygon") && svg.contains("data-mark=\"Ge2e4\""),
        "{svg}"
    );
    assert!(svg.contains("data-mark=\"Rd4\""));
    assert!(!svg_of("2").contains("data-mark"));
    // PNG of the ply: the middle of the green arrow e2-e4 (on e3) is green.
    let png = dir.join("ply3.png");
    postal()
        .args([
            "convert",
            pgn.to_str().unwrap(),
            "--to",
            "png",
            "--ply",
            "3",
            "-o",
        ])
        .arg(&png)
        .assert()
        .success();
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.line_size / info.width as usize;
    // e3's centre: the board starts at 54 units, 100 units a square, 40
    // pixels a square by default.
    let (x, y) = ((54 + 450) * 40 / 100, (10 + 550) * 40 / 100);
    let i = y as usize * info.line_size + x as usize * channels;
    let (r, g, b) = (buf[i], buf[i + 1], buf[i + 2]);
    assert!(
        g > r + 30 && g > b + 30,
        "e3 is under the green arrow: {r},{g},{b}"
    );
    // In the browser: the arrows of the last move are on the live board.
    if let Some(browser) = browser() {
        let result = self_test(&dump_dom_with(&browser, &page, &dir.join("profile"), &[]));
        let marks: Vec<&str> = result["marksAtEnd"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(marks, ["Ge2e4", "Rd8h4", "Rd4"]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 43, point 4: a late move of a long annotated game, scrolled to
/// and clicked, leaves the board in view: beside the notes on a wide
/// screen, above them on a narrow one.
#[test]
fn the_board_stays_in_view_beside_and_above_the_notes() {
    let dir = scratch("sticky");
    let pgn = dir.join("game.pgn");
    let long_note = "a long note of the annotator about the plans of both sides, \
with a few words more about the pawn structure and the endings that may come"
        .repeat(3);
    let game = annotated_opera(0).replace("a developing move that keeps the balance", &long_note);
    std::fs::write(&pgn, game).unwrap();
    let page = dir.join("game.html");
    convert(&pgn, &page);
    let Some(browser) = browser() else { return };
    for size in ["--window-size=1280,700", "--window-size=420,900"] {
        let result = self_test(&dump_dom_with(
            &browser,
            &page,
            &dir.join("profile"),
            &[size],
        ));
        let v = &result["boardInView"];
        let (top, bottom, height, scrolled) = (
            v["top"].as_f64().unwrap(),
            v["bottom"].as_f64().unwrap(),
            v["height"].as_f64().unwrap(),
            v["scrolled"].as_f64().unwrap(),
        );
        assert!(
            scrolled > 200.0,
            "{size}: the page scrolled to the move ({v})"
        );
        assert!(
            top >= 0.0 && bottom <= height,
            "{size}: the board is in view ({v})"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 43, point 5: the heading names the players with their ratings,
/// the event and round, the ECO code and opening, and the annotator;
/// tags not known are left out.
#[test]
fn the_heading_names_annotator_ratings_opening_round_and_event() {
    let dir = scratch("heading");
    let pgn = dir.join("game.pgn");
    std::fs::write(&pgn, annotated_opera(45)).unwrap();
    let page = dir.join("game.html");
    convert(&pgn, &page);
    let html = std::fs::read_to_string(&page).unwrap();
    for line in [
        "<h1>Paul Morphy 45 (2690) – Duke Karl 45 (1850)</h1>",
        "<p class=\"meta\">Club bulletin 3, Paris FRA</p>",
        "<p class=\"meta\">1858, round 6</p>",
        "<p class=\"meta\">C41 Philidor Defense</p>",
        "<p class=\"meta\">Annotated by Editor</p>",
    ] {
        assert!(html.contains(line), "{line}");
    }
    std::fs::write(
        &pgn,
        "[White \"A\"]\n[Black \"B\"]\n[ECO \"?\"]\n[WhiteElo \"-\"]\n\n1. e4 *\n",
    )
    .unwrap();
    convert(&pgn, &page);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<h1>A – B</h1>"));
    assert!(!html.contains("Annotated") && !html.contains(">?<"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 43, point 8: the move links of a page of several games are
/// unique (each names its game and board), and ChessBase's NAGs beyond
/// the standard's 139 are shown as their symbols.
#[test]
fn move_links_are_unique_and_chessbase_nags_are_symbols() {
    let dir = scratch("links");
    let pgn = dir.join("games.pgn");
    let text: String = (0..3).map(annotated_opera).collect();
    std::fs::write(&pgn, text).unwrap();
    let page = dir.join("games.html");
    convert(&pgn, &page);
    let html = std::fs::read_to_string(&page).unwrap();
    let links: Vec<&str> = html
        .match_indices("<a href=#g")
        .map(|(i, _)| &html[i + 9..i + 9 + html[i + 9..].find('>').unwrap()])
        .collect();
    // 33 moves and 6 in variations a game.
    assert_eq!(links.len(), 3 * 39);
    let unique: std::collections::BTreeSet<&str> = links.iter().copied().collect();
    assert_eq!(unique.len(), links.len(), "no link twice");
    assert!(html.contains("<span class=nag title=\"better is\">⌓</span>"));
    assert!(!html.contains("$142"));
    let _ = std::fs::remove_dir_all(&dir);
}

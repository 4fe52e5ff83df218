//! The command line contract (DESIGN.md, "Command line"), driven through
//! the built binary.

use crate::common::postal;
use predicates::prelude::*;

fn last_line(out: &[u8]) -> String {
    String::from_utf8_lossy(out)
        .lines()
        .last()
        .unwrap_or("")
        .to_string()
}

#[test]
fn variants_lists_every_variant() {
    let out = postal()
        .arg("variants")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    for name in [
        "chess",
        "gardner",
        "swap",
        "building",
        "corral",
        "disintegration",
        "kristensen",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(name)),
            "{name} missing:\n{text}"
        );
    }
    assert!(text.contains("5x9"));
}

#[test]
fn perft_prints_the_count_alone_on_the_last_line() {
    let out = postal()
        .args(["perft", "chess", "3"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(last_line(&out), "8902");
    let out = postal()
        .args(["perft", "gardner", "3", "--divide"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(last_line(text.as_bytes()), "506");
    let sum: u64 = text
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(_, n)| n.parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 506);
    assert_eq!(text.lines().filter(|l| l.contains(": ")).count(), 7);
}

#[test]
fn perft_after_moves_and_from_a_position() {
    let out = postal()
        .args(["perft", "chess", "1", "--moves", "1. e4 e5 2. Nf3"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(last_line(&out), "29");
    let out = postal()
        .args([
            "perft",
            "chess",
            "2",
            "--position",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(last_line(&out), "191");
}

#[test]
fn moves_lists_canonical_moves() {
    let out = postal()
        .args(["moves", "chess"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 20);
    assert!(text.lines().any(|l| l == "Nf3"));
    let out = postal()
        .args([
            "moves",
            "chess",
            "--position",
            "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.lines().any(|l| l == "O-O+" || l == "O-O"));
    assert!(text.lines().any(|l| l == "Ra8+"));
}

#[test]
fn an_illegal_move_exits_1_with_a_caret() {
    postal()
        .args(["perft", "chess", "1", "--moves", "1. e4 e5 2. Ke3"])
        .assert()
        .code(1)
        .stderr(predicate::str::starts_with(
            "postal: error: --moves:1:13: illegal move",
        ))
        .stderr(predicate::str::contains("   ^^^"));
}

/// `postal ... | head`: when the reader of standard output has gone,
/// postal is not killed by SIGPIPE (std ignores it before `main`) and
/// takes the failed write as the end of its output: exit 0, nothing on
/// standard error (`CliError::stdout`). The pipe's reader is closed before
/// postal starts, so every write fails.
#[test]
fn a_closed_output_pipe_is_a_quiet_exit() {
    for args in [
        &["variants"][..],
        &["moves", "chess"],
        &["diagram", "chess", "--format", "svg"],
        &["perft", "chess", "3", "--divide"],
        &["--help"],
        &["--version"],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_postal"))
            .env("XDG_DATA_HOME", crate::common::data_home())
            .args(args)
            .stdout(writer)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "postal {args:?}: {out:?}");
        assert!(
            out.stderr.is_empty(),
            "postal {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn bad_input_exits_2() {
    postal()
        .args(["perft", "nosuch", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("known variants: chess, gardner"));
    postal()
        .args([
            "perft",
            "chess",
            "1",
            "--position",
            "rnbqkbnr/8/8 w - - 0 1",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("postal: error: --position:1:"));
    postal()
        .args(["perft", "chess", "1", "--moves", "1. e4 e5 2. Zz9"])
        .assert()
        .code(2);
    postal().args(["perft"]).assert().code(2);
}

#[test]
fn rules_prints_rule_ids() {
    postal()
        .args(["rules", "chess"])
        .assert()
        .success()
        .stdout(predicate::str::contains("FI-3"));
}

#[test]
fn man_pages_are_current() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    let bless = std::env::var_os("POSTAL_BLESS").is_some();
    if bless {
        std::fs::create_dir_all(&dir).unwrap();
    }
    let pages = crate::man::pages();
    assert!(pages.len() > 3);
    for (name, bytes) in pages {
        let path = dir.join(&name);
        if bless {
            postal::files::write_atomic(&path, &bytes).unwrap();
        } else {
            let committed = std::fs::read(&path).unwrap_or_default();
            assert!(
                committed == bytes,
                "man/{name} is stale: run `POSTAL_BLESS=1 cargo test --test suite cli::man_pages`"
            );
        }
    }
}

/// Every page a man page names (`postal-move(1)`) is one of the pages,
/// and every page has the sections a reader looks for.
#[test]
fn man_pages_name_only_pages_that_exist() {
    let pages = crate::man::pages();
    let names: Vec<String> = pages.iter().map(|(n, _)| n.clone()).collect();
    for (name, bytes) in &pages {
        let text = String::from_utf8(bytes.clone()).unwrap();
        // References are written \fBpostal\-move\fR(1).
        for (at, _) in text.match_indices("\\fR(") {
            let before = &text[..at];
            let start = before.rfind("\\fB").expect("a bold name before (N)") + 3;
            let page = before[start..].replace("\\-", "-");
            let sec = &text[at + 4..at + 5];
            let file = format!("{page}.{sec}");
            assert!(
                names.contains(&file),
                "{name} names {file}, which does not exist"
            );
        }
        let mut sections = vec![
            "NAME",
            "SYNOPSIS",
            "DESCRIPTION",
            "ENVIRONMENT",
            "EXAMPLES",
            "SEE ALSO",
        ];
        if name.ends_with(".1") {
            sections.extend(["OPTIONS", "EXIT STATUS"]);
        }
        if name.starts_with("postal.") || name.contains("move") || name.contains("config") {
            sections.push("FILES");
        }
        for s in sections {
            assert!(
                text.contains(&format!(".SH {s}\n")),
                "{name} has no {s} section"
            );
        }
        assert!(
            !text.contains("postal\\-help"),
            "{name} names a postal-help page"
        );
    }
    assert!(names.contains(&"postal-config.5".to_string()));
    assert!(!names.iter().any(|n| n.contains("help")));
    let page =
        |n: &str| String::from_utf8(pages.iter().find(|(p, _)| p == n).unwrap().1.clone()).unwrap();
    // The synopsis is the command as typed: `postal convert [..] --to FORMAT RECORD`.
    let convert = page("postal-convert.1");
    let synopsis = convert.split(".SH SYNOPSIS").nth(1).unwrap();
    let synopsis = synopsis.split(".SH ").next().unwrap();
    assert!(
        synopsis.contains("\\fBpostal\\fR \\fBconvert\\fR"),
        "{synopsis}"
    );
    assert!(
        synopsis.contains(" \\fB\\-\\-to\\fR \\fIFORMAT\\fR "),
        "{synopsis}"
    );
    assert!(!synopsis.contains('<'), "{synopsis}");
    let all = page("postal.1");
    for var in [
        "POSTAL_NOW",
        "POSTAL_SMTP_PASSWORD",
        "XDG_CONFIG_HOME",
        "NO_COLOR",
    ] {
        assert!(
            all.contains(&format!("\\fB{var}\\fR")),
            "postal.1 has no {var}"
        );
    }
    for file in ["FILE.lock", "outbox/", "config.toml"] {
        assert!(all.contains(file), "postal.1 has no {file}");
    }
    // The settings page names every key the settings file may hold: the
    // fields of src/mail/config.rs's structs.
    let config = page("postal-config.5");
    let source = include_str!("../src/mail/config.rs");
    let keys: Vec<&str> = source
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub "))
        .filter_map(|l| l.split_once(": ").map(|(k, _)| k))
        .filter(|k| k.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .filter(|k| !["smtp", "sendmail"].contains(k))
        .collect();
    assert!(keys.len() >= 11, "{keys:?}");
    for key in keys {
        assert!(
            config.contains(&format!("{key}\\fR")),
            "postal-config.5 lacks {key}"
        );
    }
}

/// `postal --help` lists every command once, under the group of its use.
#[test]
fn help_groups_every_command_by_use() {
    let cmd = postal::cli::command();
    let mut grouped: Vec<&str> = postal::cli::GROUPS
        .iter()
        .flat_map(|(_, names)| names.iter().copied())
        .collect();
    grouped.sort();
    let mut all: Vec<&str> = cmd
        .get_subcommands()
        .map(|s| s.get_name())
        .chain(["help"])
        .collect();
    all.sort();
    assert_eq!(grouped, all, "each command in exactly one group");
    let out = postal()
        .arg("--help")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let help = String::from_utf8(out).unwrap();
    for (heading, names) in postal::cli::GROUPS {
        let at = help
            .find(&format!("{heading}:\n"))
            .unwrap_or_else(|| panic!("{help}"));
        for name in names.iter() {
            assert!(
                help[at..].contains(&format!("\n  {name} ")),
                "{name} under {heading}:\n{help}"
            );
        }
    }
    assert!(help.contains("Options:\n"), "{help}");
}

/// The completion scripts parse in their shells: bash, zsh and fish (a
/// shell that is missing fails the test; `tests/run.sh` installs them).
#[test]
fn completion_scripts_parse() {
    let dir = std::env::temp_dir().join(format!("postal-completions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for shell in ["bash", "zsh", "fish"] {
        let out = postal()
            .args(["completions", shell])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("postal"), "{shell}: {text}");
        for sub in ["move", "verify", "completions"] {
            assert!(text.contains(sub), "{shell} script lacks {sub}");
        }
        let file = dir.join(format!("postal.{shell}"));
        std::fs::write(&file, &text).unwrap();
        let run = std::process::Command::new(shell)
            .arg("-n")
            .arg(&file)
            .output();
        match run {
            Ok(o) => assert!(
                o.status.success(),
                "{shell} -n: {}",
                String::from_utf8_lossy(&o.stderr)
            ),
            Err(e) => panic!(
                "{shell} is needed to check its completions ({e}): `apt-get install {shell}`, \
                 or `bash tests/run.sh`"
            ),
        }
    }
    for shell in ["elvish", "powershell"] {
        postal()
            .args(["completions", shell])
            .assert()
            .success()
            .stdout(predicate::str::contains("postal"));
    }
    postal()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("possible values"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Carets stand under the move on a line with a tab and wide characters
/// (CJK and emoji take two columns), in `verify` and in `--moves` alike.
#[test]
fn carets_follow_display_width() {
    let dir = std::env::temp_dir().join(format!("postal-carets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("wide.txt");
    std::fs::write(&file, "1. e4 e5 (象棋 🎉)\t2. Ke3 Nc6\n").unwrap();
    let out = postal()
        .arg("verify")
        .arg(&file)
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    // "1. e4 e5 (" is 10 columns, 象棋 4, " " 1, 🎉 2, ")" 1: the tab
    // goes from column 18 to the stop at 20, and "2. " puts Ke3 at 23.
    assert!(
        text.contains("\n1 | 1. e4 e5 (象棋 🎉)  2. Ke3 Nc6\n"),
        "{text}"
    );
    assert!(
        text.contains(&format!("\n  | {}^^^\n", " ".repeat(23))),
        "{text}"
    );
    assert!(text.contains(":1:20: error: illegal move"), "{text}");
    postal()
        .args(["moves", "chess", "--moves", "1. e4 e5\t2. Ke3"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "1 | 1. e4 e5    2. Ke3\n  | {}^^^",
            " ".repeat(15)
        )));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `postal rules` prints the rules, and no path of this repository.
#[test]
fn rules_name_no_paths() {
    for v in postal::variant::Variant::ALL {
        let out = postal()
            .args(["rules", v.name()])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(out).unwrap();
        for bad in ["../", "seeds/", ".md`", ".txt`", "src/"] {
            assert!(!text.contains(bad), "{}: contains {bad:?}", v.name());
        }
        assert!(
            text.contains("Source: the published") || v.name() == "chess",
            "{}",
            v.name()
        );
    }
}

#[test]
fn moves_verbose_shows_disintegration_waves() {
    // rules/disintegration.md CASE 1: Ka2-b3 removes b3, a4, b4, then a5.
    let out = postal()
        .args([
            "moves",
            "disintegration",
            "--position",
            "5/5/3r1/5/k4/kk3/5/K1K1K/R4 w - - 0 1",
            "-v",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let line = text.lines().find(|l| l.starts_with("Kab3")).unwrap_or("");
    assert_eq!(
        line,
        "Kab3  # disintegration, wave 1: the white king on b3, the black king on a4, \
         the black king on b4; disintegration, wave 2: the black king on a5"
    );
}

#[test]
fn swap_moves_one_step_at_a_time() {
    let fen = "3rk3/5r2/1Q6/8/2b5/3p4/5R2/1B6 w - - 0 1";
    let out = postal()
        .args([
            "moves",
            "swap",
            "--position",
            fen,
            "--after",
            "Qb6/b1",
            "-v",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.lines().any(|l| l.starts_with("Qb6/b1/d3=N  #")),
        "{text}"
    );
    assert!(text.contains("16 swap turns in all"), "{text}");
    let out = postal()
        .args(["moves", "swap", "--position", fen])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.lines().any(|l| l == "Qb6/b1"), "{text}");
    assert!(text.lines().all(|l| !l.contains('#')), "{text}");
    postal()
        .args(["moves", "swap", "--position", fen, "--after", "Qb6/c4"])
        .assert()
        .code(1);
    postal()
        .args(["moves", "chess", "--after", "Qd1"])
        .assert()
        .code(2);
}

/// The completions offer what a user types after a command: the
/// variants' names, the answers of draw and take-back, the output forms.
#[test]
fn completions_offer_variants_answers_and_forms() {
    for shell in ["bash", "zsh", "fish"] {
        let out = postal()
            .args(["completions", shell])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let script = String::from_utf8(out).unwrap();
        for word in [
            "gardner",
            "swap",
            "building",
            "corral",
            "disintegration",
            "kristensen",
            "offer",
            "decline",
            "request",
            "unicode",
            "html",
            "png",
        ] {
            assert!(script.contains(word), "{shell}: {word}");
        }
    }
    let out = postal()
        .args(["completions", "bash"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let bash = String::from_utf8(out).unwrap();
    assert!(bash.contains("chess gardner swap building corral disintegration kristensen"));
    assert!(bash.contains("offer accept decline"));
    assert!(bash.contains("request accept decline"));
    // Still read leniently: a full name, in any case.
    postal()
        .args(["perft", "Gardner Minichess", "1"])
        .assert()
        .success()
        .stdout("7\n");
}

/// Diagnostics are coloured on a terminal or when asked (`--color
/// always`, `CLICOLOR_FORCE`), never when told not to (`--color never`,
/// `NO_COLOR`) or when written to a file or a pipe, and the colours wrap
/// the same text.
#[test]
fn diagnostics_are_coloured_when_asked_and_only_then() {
    let page = format!(
        "{}/fixtures/records/swap-chess.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut cmd = postal();
        cmd.args(["verify", &page, "--variant", "swap"]).args(args);
        cmd.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
        for (k, v) in env {
            cmd.env(k, v);
        }
        String::from_utf8(cmd.assert().success().get_output().stdout.clone()).unwrap()
    };
    let plain = run(&[], &[]);
    assert!(!plain.contains('\x1b'), "a pipe gets no colour");
    let always = run(&["--color", "always"], &[]);
    assert!(always.contains("\x1b[1m\x1b[33mwarning\x1b[0m"), "{always}");
    let stripped: String = {
        let mut out = String::new();
        let mut rest = always.as_str();
        while let Some(i) = rest.find('\x1b') {
            out.push_str(&rest[..i]);
            let end = rest[i..].find('m').unwrap();
            rest = &rest[i + end + 1..];
        }
        out.push_str(rest);
        out
    };
    assert_eq!(stripped, plain);
    assert!(run(&[], &[("CLICOLOR_FORCE", "1")]).contains('\x1b'));
    assert!(!run(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]).contains('\x1b'));
    assert!(!run(&[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains('\x1b'));
    // The error line on standard error too.
    postal()
        .args(["--color", "always", "rules", "nosuch"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("\x1b[1m\x1b[31merror\x1b[0m"));
}

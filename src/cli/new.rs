//! `postal new VARIANT -o FILE`: starts a correspondence game and writes
//! its state file; prints the board.

use super::game::{clock, game_error, rule_book, summary};
use super::{emit, start_position, variant_arg, CliError};
use crate::game::state::Players;
use crate::game::{store, Game, Player, TimeControl};
use std::io::Write;
use std::path::PathBuf;

/// Start a game and write its state file.
#[derive(clap::Args, Debug)]
#[command(after_help = super::mail::MAIL_HELP)]
pub struct Args {
    /// The variant (see `postal variants`).
    #[arg(value_parser = super::Offered::<String>::new(super::variant_names))]
    pub variant: String,
    /// The state file to create (refused if it exists); `-` writes the
    /// game to standard output.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE",
        required_unless_present = "referee"
    )]
    pub output: Option<PathBuf>,
    /// Register the game in this referee folder instead (`postal referee
    /// init`): DIR/games/ID.json, and White is mailed the first notice.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["output", "mail"])]
    pub referee: Option<PathBuf>,
    // Help text, not rustdoc: `<address>` is not HTML.
    #[allow(rustdoc::invalid_html_tags)]
    /// White's player: "Name <address>", a name, or an address.
    #[arg(long, value_name = "PLAYER")]
    pub white: Option<String>,
    #[allow(rustdoc::invalid_html_tags)]
    /// Black's player: "Name <address>", a name, or an address.
    #[arg(long, value_name = "PLAYER")]
    pub black: Option<String>,
    /// Start from this position text instead of the variant's start.
    #[arg(long, value_name = "TEXT")]
    pub position: Option<String>,
    /// Days per move ("3d"), moves in days, repeating ("10/50d"), or an
    /// allowance plus an increment per move ("10d+1d", capped
    /// "30d+1d/45d"); then optionally "free 24h" (the first hours of each
    /// move not counted) and "double 20d" (time beyond it on one move
    /// counts double). Units d, h, m. No time control when absent.
    #[arg(long, value_name = "SPEC")]
    pub time_control: Option<String>,
    /// Each player's leave a year, in days (default 30; with --referee,
    /// the folder's `leave_days`).
    #[arg(long, value_name = "DAYS")]
    pub leave_days: Option<u32>,
    /// No forfeit on time: a passed deadline is left to the referee
    /// (`postal referee adjudicate`), never claimed or swept.
    #[arg(long)]
    pub no_forfeit: bool,
    /// Variants defined in this variants.ini file (default:
    /// $POSTAL_VARIANTS; postal-variants(5)). The game's file carries the
    /// definition of its variant from then on.
    #[arg(long, value_name = "FILE")]
    pub variants: Option<PathBuf>,
    #[command(flatten)]
    pub mail: super::mail::MailFlags,
}

fn player(text: Option<&str>) -> Result<Player, CliError> {
    match text {
        None => Ok(Player::default()),
        Some(t) => Player::parse(t).map_err(CliError::usage),
    }
}

/// The variant `name`: defined in `--variants`, else in POSTAL_VARIANTS,
/// else in the referee folder's file (when there is a folder), else built
/// in.
pub fn variant_for(
    flag: Option<&std::path::Path>,
    folder: Option<&crate::referee::Referee>,
    name: &str,
) -> Result<crate::Variant, CliError> {
    let variants = super::ini::file(flag).or_else(|| {
        let r = folder?;
        Some(r.dir.join(r.settings.variants.as_ref()?))
    });
    match super::ini::register(variants.as_deref(), name)? {
        Some(v) => Ok(v),
        None => variant_arg(name),
    }
}

pub fn run(args: Args, out: &mut dyn Write) -> Result<(), CliError> {
    super::mail::check_settings(&args.mail)?;
    let folder = match &args.referee {
        Some(dir) => {
            crate::referee::folder::private_umask();
            Some(crate::referee::Referee::open(dir).map_err(|e| CliError::usage(e.to_string()))?)
        }
        None => None,
    };
    let v = variant_for(args.variants.as_deref(), folder.as_ref(), &args.variant)?;
    let start = start_position(v, args.position.as_deref(), None)?;
    let players = Players {
        white: player(args.white.as_deref())?,
        black: player(args.black.as_deref())?,
    };
    let tc = args
        .time_control
        .as_deref()
        .map(TimeControl::parse)
        .transpose()
        .map_err(CliError::usage)?;
    let now = clock()?.now();
    let clock_rules = |game: &mut Game, folder: Option<u32>| {
        game.set_clock_rules(args.leave_days.or(folder), args.no_forfeit)
    };
    if let (Some(dir), Some(r)) = (&args.referee, &folder) {
        let mut game = Game::new(start, players, tc, now).map_err(|e| game_error(dir, e))?;
        clock_rules(&mut game, r.settings.leave_days);
        let mut text = super::referee::register(r, &game)?;
        text.push('\n');
        text.push_str(&summary(&game, now));
        return emit(out, &text);
    }
    let Some(path) = &args.output else {
        return Err(CliError::usage("give -o FILE or --referee DIR"));
    };
    let mut game = Game::new(start, players, tc, now).map_err(|e| game_error(path, e))?;
    clock_rules(&mut game, None);
    if super::is_stdout(Some(path)) {
        // `-o -`: the new game file on standard output, nothing else.
        if args.mail.mail {
            return Err(CliError::usage(
                "--mail needs a game file: -o - writes the game to standard output",
            ));
        }
        return emit(out, &game.to_json());
    }
    store::create(path, &game, Some(&rule_book()?)).map_err(|e| game_error(path, e))?;
    let mut text = format!(
        "New {} game in {}{}\n\n",
        v.spec().title,
        path.display(),
        match tc {
            Some(tc) => format!(", time control {tc}"),
            None => String::new(),
        }
    );
    text.push_str(&summary(&game, now));
    emit(out, &text)?;
    super::mail::after_save(path, &args.mail, now, out)
}

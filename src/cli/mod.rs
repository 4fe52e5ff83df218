//! The command line: argument definitions (clap derive), one file a
//! subcommand, error printing and exit codes (0 success; 1 a rule said no;
//! 2 usage, parse or I/O error). `main.rs` only calls [`main`].

pub mod claim;
pub mod completions;
pub mod convert;
pub mod diagram;
pub mod draw;
pub mod game;
pub mod history;
pub mod mail;
pub mod move_;
pub mod moves;
pub mod new;
pub mod perft;
pub mod resign;
pub mod rules;
pub mod show;
pub mod status;
pub mod takeback;
pub mod variants;
pub mod verify;

use crate::error::{caret_snippet, Span};
use crate::notation::movetext;
use crate::position::Position;
use crate::variant::Variant;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// Play chess variants by mail, verify published game scores, and turn
/// game records into diagrams.
#[derive(Parser, Debug)]
#[command(name = "postal", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    Variants(variants::Args),
    Rules(rules::Args),
    Perft(perft::Args),
    Moves(moves::Args),
    New(new::Args),
    Move(move_::Args),
    Show(show::Args),
    History(history::Args),
    Status(status::Args),
    Resign(resign::Args),
    Draw(draw::Args),
    Claim(claim::Args),
    Takeback(takeback::Args),
    Mail(mail::Args),
    Diagram(diagram::Args),
    Verify(verify::Args),
    Convert(convert::Args),
    Completions(completions::Args),
}

/// The commands by use, as `postal --help` lists them. Every subcommand
/// is in exactly one group (a test checks).
pub const GROUPS: &[(&str, &[&str])] = &[
    (
        "Play a game by mail",
        &[
            "new", "move", "show", "history", "status", "draw", "takeback", "claim", "resign",
            "mail",
        ],
    ),
    ("Check and convert game records", &["verify", "convert"]),
    ("Draw diagrams", &["diagram"]),
    ("Rules and engine", &["variants", "rules", "moves", "perft"]),
    ("Shell", &["completions", "help"]),
];

/// The command-line definition: the derived one, with `--help` listing
/// the commands in [`GROUPS`].
pub fn command() -> clap::Command {
    let cmd = Cli::command();
    let width = cmd
        .get_subcommands()
        .map(|s| s.get_name().len())
        .chain([4])
        .max()
        .unwrap_or(4);
    let mut commands = String::new();
    for (heading, names) in GROUPS {
        commands.push_str(&format!("{heading}:\n"));
        for name in names.iter() {
            let about = match cmd.find_subcommand(name) {
                Some(sub) => sub.get_about().map(|a| a.to_string()).unwrap_or_default(),
                None => "Print this message or the help of the given command".to_string(),
            };
            commands.push_str(&format!("  {name:width$}  {about}\n"));
        }
        commands.push('\n');
    }
    cmd.help_template(format!(
        "{{about-with-newline}}\n{{usage-heading}} {{usage}}\n\n{commands}Options:\n{{options}}{{after-help}}"
    ))
}

/// A failed command: what to print and the exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    pub message: String,
    pub code: u8,
}

impl CliError {
    /// A rule said no (illegal move, not your turn, record unsound): exit 1.
    pub fn rule(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            code: 1,
        }
    }

    /// Bad usage or unreadable input: exit 2.
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            code: 2,
        }
    }

    /// An error in some text, shown with its line and a caret.
    pub fn in_text(origin: &str, source: &str, span: Span, message: &str, code: u8) -> CliError {
        CliError {
            message: caret_snippet(origin, source, span, message),
            code,
        }
    }

    pub fn io(path: &str, e: std::io::Error) -> CliError {
        CliError::usage(format!("{path}: {e}"))
    }
}

/// Reads a variant name, listing the known ones when it is unknown.
pub fn variant_arg(name: &str) -> Result<Variant, CliError> {
    Variant::from_name(name).ok_or_else(|| {
        CliError::usage(format!(
            "unknown variant {name:?}; known variants: {}",
            Variant::ALL.map(|v| v.name()).join(", ")
        ))
    })
}

/// The position a command starts from: `--position TEXT` or the variant's
/// start, then `--moves MOVETEXT` played on it.
pub fn start_position(
    variant: Variant,
    position: Option<&str>,
    moves: Option<&str>,
) -> Result<Position, CliError> {
    let mut pos = match position {
        Some(text) => Position::from_text(variant, text)
            .map_err(|e| CliError::in_text("--position", text, e.span, &e.message, 2))?,
        None => Position::start(variant),
    };
    if let Some(text) = moves {
        match movetext::play(&pos, text) {
            Ok(played) => {
                if let Some((_, last)) = played.into_iter().last() {
                    pos = last;
                }
            }
            Err((span, e)) => {
                let code = if e.span().is_some() { 2 } else { 1 };
                return Err(CliError::in_text(
                    "--moves",
                    text,
                    span,
                    &e.to_string(),
                    code,
                ));
            }
        }
    }
    Ok(pos)
}

/// Runs a parsed command line, writing its output to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<(), CliError> {
    match cli.command {
        Command::Variants(a) => variants::run(a, out),
        Command::Rules(a) => rules::run(a, out),
        Command::Perft(a) => perft::run(a, out),
        Command::Moves(a) => moves::run(a, out),
        Command::New(a) => new::run(a, out),
        Command::Move(a) => move_::run(a, out),
        Command::Show(a) => show::run(a, out),
        Command::History(a) => history::run(a, out),
        Command::Status(a) => status::run(a, out),
        Command::Resign(a) => resign::run(a, out),
        Command::Draw(a) => draw::run(a, out),
        Command::Claim(a) => claim::run(a, out),
        Command::Takeback(a) => takeback::run(a, out),
        Command::Mail(a) => mail::run(a, out),
        Command::Diagram(a) => diagram::run(a, out),
        Command::Verify(a) => verify::run(a, out),
        Command::Convert(a) => convert::run(a, out),
        Command::Completions(a) => completions::run(a, out),
    }
}

/// Writes to the output, turning a closed pipe into a quiet exit.
pub fn emit(out: &mut dyn Write, text: &str) -> Result<(), CliError> {
    out.write_all(text.as_bytes())
        .map_err(|e| CliError::io("<stdout>", e))
}

/// The program: parse, run, print the error once, map it to an exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::from_arg_matches(&command().get_matches()) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match run(cli, &mut out) {
        Ok(()) => {
            let _ = out.flush();
            ExitCode::SUCCESS
        }
        Err(e) => {
            let _ = out.flush();
            if e.message.contains("Broken pipe") {
                return ExitCode::SUCCESS;
            }
            eprintln!("postal: error: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}

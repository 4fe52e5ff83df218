//! The command line: argument definitions (clap derive), one file a
//! subcommand, error printing and exit codes (0 success; 1 a rule said no;
//! 2 usage, parse or I/O error). `main.rs` only calls [`main`].

pub mod claim;
pub mod colour;
pub mod completions;
pub mod conditional;
pub mod convert;
pub mod diagram;
pub mod draw;
pub mod game;
pub mod history;
pub mod ini;
pub mod leave;
pub mod mail;
pub mod move_;
pub mod moves;
pub mod new;
pub mod perft;
pub mod referee;
pub mod resign;
pub mod rules;
pub mod show;
pub mod status;
pub mod takeback;
pub mod tournament;
pub mod variants;
pub mod verify;

use crate::diagnostic::{Diagnostic, Level, Paint};
use crate::error::Span;
use crate::notation::movetext;
use crate::position::Position;
use crate::variant::Variant;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Play chess variants by mail, verify published game scores, and turn
/// game records into diagrams.
#[derive(Parser, Debug)]
#[command(name = "postal", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Colour diagnostics: auto (on a terminal, unless NO_COLOR is set;
    /// CLICOLOR_FORCE forces it), always or never.
    #[arg(long, global = true, value_enum, default_value_t, value_name = "WHEN")]
    pub color: colour::When,
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
    Leave(leave::Args),
    Conditional(conditional::Args),
    Mail(mail::Args),
    Diagram(diagram::Args),
    Verify(verify::Args),
    Convert(convert::Args),
    Referee(referee::Args),
    Receive(referee::ReceiveArgs),
    Completions(completions::Args),
}

/// The commands by use, as `postal --help` lists them. Every subcommand
/// is in exactly one group (a test checks).
pub const GROUPS: &[(&str, &[&str])] = &[
    (
        "Play a game by mail",
        &[
            "new",
            "move",
            "show",
            "history",
            "status",
            "draw",
            "takeback",
            "claim",
            "resign",
            "leave",
            "conditional",
            "mail",
        ],
    ),
    ("Check and convert game records", &["verify", "convert"]),
    ("Draw diagrams", &["diagram"]),
    ("Referee: play by replying", &["referee", "receive"]),
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

/// A value taken as typed (and read later, leniently), whose shell
/// completions and `--help` offer `names`: the variants' names (which
/// `Variant::from_name` reads forgiving case, spaces and aliases), or an
/// act's answers where a file may stand in the same place.
#[derive(Clone)]
pub struct Offered<T> {
    names: fn() -> Vec<clap::builder::PossibleValue>,
    value: std::marker::PhantomData<T>,
}

impl<T> Offered<T> {
    pub fn new(names: fn() -> Vec<clap::builder::PossibleValue>) -> Offered<T> {
        Offered {
            names,
            value: std::marker::PhantomData,
        }
    }
}

/// The variants' names, for [`Offered`].
pub fn variant_names() -> Vec<clap::builder::PossibleValue> {
    Variant::ALL
        .iter()
        .map(|v| clap::builder::PossibleValue::new(v.name()))
        .collect()
}

/// The values of an enum, for [`Offered`].
pub fn value_names<E: clap::ValueEnum>() -> Vec<clap::builder::PossibleValue> {
    E::value_variants()
        .iter()
        .filter_map(|v| v.to_possible_value())
        .collect()
}

/// What an [`Offered`] value is read into.
pub trait OfferedValue: Clone + Send + Sync + Sized + 'static {
    fn read(value: &std::ffi::OsStr) -> Option<Self>;
}

impl OfferedValue for String {
    fn read(value: &std::ffi::OsStr) -> Option<String> {
        value.to_str().map(str::to_string)
    }
}

impl OfferedValue for std::path::PathBuf {
    fn read(value: &std::ffi::OsStr) -> Option<std::path::PathBuf> {
        Some(value.into())
    }
}

impl<T: OfferedValue> clap::builder::TypedValueParser for Offered<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        T::read(value).ok_or_else(|| {
            clap::builder::StringValueParser::new()
                .parse_ref(cmd, arg, value)
                .err()
                .unwrap_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidUtf8))
        })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new((self.names)().into_iter()))
    }
}

/// A failed command: what to print and the exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    pub message: String,
    pub code: u8,
    /// The message as a caret diagnostic, for a styled terminal (the
    /// message is its plain text).
    pub diagnostic: Option<Box<Diagnostic>>,
}

impl CliError {
    /// A rule said no (illegal move, not your turn, record unsound): exit 1.
    pub fn rule(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            code: 1,
            diagnostic: None,
        }
    }

    /// Bad usage or unreadable input: exit 2.
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            code: 2,
            diagnostic: None,
        }
    }

    /// An error in some text, shown with its line and a caret.
    pub fn in_text(origin: &str, source: &str, span: Span, message: &str, code: u8) -> CliError {
        CliError::diagnostic(Diagnostic::in_source(origin, source, span, message), code)
    }

    /// An error shown as a caret diagnostic.
    pub fn diagnostic(diagnostic: Diagnostic, code: u8) -> CliError {
        CliError {
            message: diagnostic.render(Paint::PLAIN),
            code,
            diagnostic: Some(Box::new(diagnostic)),
        }
    }

    pub fn io(path: &str, e: std::io::Error) -> CliError {
        CliError::usage(format!("{path}: {e}"))
    }

    /// Standard output was closed by its reader (`postal ... | head`):
    /// not a failure, nothing to print, exit 0. Only a write to standard
    /// output whose error is of the kind `BrokenPipe` gives this; the
    /// words of a message never do.
    pub fn output_closed() -> CliError {
        CliError {
            message: String::new(),
            code: 0,
            diagnostic: None,
        }
    }

    /// A failed write to standard output.
    pub fn stdout(e: std::io::Error) -> CliError {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CliError::output_closed()
        } else {
            CliError::io("<stdout>", e)
        }
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
pub fn run(cli: Cli, out: &mut dyn Write, paint: Paint) -> Result<(), CliError> {
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
        Command::Leave(a) => leave::run(a, out),
        Command::Conditional(a) => conditional::run(a, out),
        Command::Mail(a) => mail::run(a, out),
        Command::Diagram(a) => diagram::run(a, out),
        Command::Verify(a) => verify::run(a, out, paint),
        Command::Convert(a) => convert::run(a, out),
        Command::Referee(a) => referee::run(a, out),
        Command::Receive(a) => referee::receive(a, out),
        Command::Completions(a) => completions::run(a, out),
    }
}

/// Writes to the output, turning a closed pipe into a quiet exit.
pub fn emit(out: &mut dyn Write, text: &str) -> Result<(), CliError> {
    out.write_all(text.as_bytes()).map_err(CliError::stdout)
}

/// Whether an output is text or binary (a PNG): binary is refused on a
/// terminal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Output {
    Text,
    Binary,
}

/// True when `-o` names standard output: absent, or `-`.
pub fn is_stdout(dest: Option<&Path>) -> bool {
    dest.is_none_or(|d| d.as_os_str() == "-")
}

/// The one way a command writes what it made (`diagram`, `show`,
/// `convert`, ...): with no `-o` or `-o -` to standard output (a binary
/// format refused when that is a terminal, with a hint), else to the file
/// through [`crate::files::write_atomic`] (whole or not at all, keeping
/// its permissions, following links), refused when the file is one of
/// the command's `inputs`.
pub fn write_output(
    out: &mut dyn Write,
    dest: Option<&Path>,
    bytes: &[u8],
    kind: Output,
    inputs: &[&Path],
) -> Result<(), CliError> {
    if kind == Output::Binary && bytes.is_empty() {
        return Err(CliError::usage("the image could not be drawn"));
    }
    match dest {
        Some(path) if !is_stdout(dest) => {
            if let Some(input) = inputs.iter().find(|i| crate::files::same_file(path, i)) {
                return Err(CliError::usage(format!(
                    "-o {}: that is the input {}; write the output to another file",
                    path.display(),
                    input.display()
                )));
            }
            crate::files::write_atomic(path, bytes)
                .map(|_| ())
                .map_err(|e| CliError::io(&path.display().to_string(), e))
        }
        _ => {
            if kind == Output::Binary && std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                return Err(CliError::usage(
                    "a binary image is not for the terminal: write it with -o FILE, or pipe it (| display)",
                ));
            }
            out.write_all(bytes).map_err(CliError::stdout)
        }
    }
}

/// A command-line error of clap as postal reports it: exit 2, the text
/// without clap's own `error: ` (the program prints `postal: error: `).
/// `None` for `--help` and `--version`, which are not errors.
pub fn usage_error(e: &clap::Error) -> Option<CliError> {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        return None;
    }
    let text = e.render().to_string();
    let text = text.strip_prefix("error: ").unwrap_or(&text).trim_end();
    Some(CliError::usage(text))
}

/// What the program prints on standard error for a failed command, or
/// `None` for a quiet exit (standard output closed by its reader).
pub fn error_text(e: &CliError) -> Option<String> {
    (e.code != 0).then(|| format!("postal: error: {}\n", e.message))
}

/// Parses and runs a command line as the program does (`args[0]` is the
/// program's name), writing its output to `out`: for tests that run
/// commands in-process.
pub fn run_args<I, T>(args: I, out: &mut dyn Write) -> Result<(), CliError>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    match Cli::try_parse_from(args) {
        Ok(cli) => run(cli, out, Paint::PLAIN),
        Err(e) => Err(usage_error(&e).unwrap_or_else(|| CliError {
            message: String::new(),
            code: 0,
            diagnostic: None,
        })),
    }
}

/// The program: parse, run, print the error once, map it to an exit code.
pub fn main() -> ExitCode {
    let cli = match command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => cli,
        Err(e) => match usage_error(&e) {
            None => e.exit(),
            Some(err) => {
                print_error(&err, colour::When::Auto);
                return ExitCode::from(err.code);
            }
        },
    };
    let when = cli.color;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let paint = Paint {
        styled: when.colours(&out),
    };
    let result = run(cli, &mut out, paint);
    match result {
        Ok(()) => match out.flush() {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                eprintln!("postal: error: <stdout>: {e}");
                ExitCode::from(2)
            }
            _ => ExitCode::SUCCESS,
        },
        Err(e) => {
            let _ = out.flush();
            print_error(&e, when);
            match e.code {
                0 => ExitCode::SUCCESS,
                code => ExitCode::from(code),
            }
        }
    }
}

/// Writes a failed command's error on standard error, styled as
/// `--color` says: its line, and its caret diagnostic where it has one.
fn print_error(e: &CliError, when: colour::When) {
    if e.code == 0 {
        return;
    }
    let paint = Paint {
        styled: when.colours(&std::io::stderr()),
    };
    if !paint.styled {
        eprint!("{}", error_text(e).unwrap_or_default());
        return;
    }
    let mut text = String::new();
    match &e.diagnostic {
        Some(d) => {
            paint.headline(&mut text, "postal: ", Level::Error, ": ");
            text.push_str(&d.render(paint));
        }
        None => {
            // The message's first line is the error's; any lines after it
            // are shown as they are.
            let (first, rest) = match e.message.split_once('\n') {
                Some((first, rest)) => (first, Some(rest)),
                None => (e.message.as_str(), None),
            };
            paint.headline(&mut text, "postal: ", Level::Error, &format!(": {first}"));
            if let Some(rest) = rest {
                text.push('\n');
                text.push_str(rest);
            }
        }
    }
    eprintln!("{text}");
}

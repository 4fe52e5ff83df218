//! Whether to colour: `--color auto|always|never`; on `auto` anstream
//! decides as other tools do (a terminal, and neither `NO_COLOR` nor
//! `TERM=dumb`; `CLICOLOR_FORCE` forces it). What is coloured, and how, is
//! the diagnostics' own business (`diagnostic::Paint`): styled where they
//! are drawn, never by reading printed text back.

/// `--color`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum When {
    #[default]
    Auto,
    Always,
    Never,
}

impl When {
    /// Whether to colour what goes to `stream`.
    pub fn colours<S: anstream::stream::RawStream>(self, stream: &S) -> bool {
        match self {
            When::Auto => anstream::AutoStream::choice(stream) != anstream::ColorChoice::Never,
            When::Always => true,
            When::Never => false,
        }
    }
}

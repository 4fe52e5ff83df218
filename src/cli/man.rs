//! Man pages generated from the clap definitions (clap_mangen): one page
//! for `postal` and one per subcommand. They are committed under `man/`;
//! a test regenerates them and fails when the committed ones are stale
//! (`POSTAL_BLESS=1 cargo test man_pages` rewrites them).

use clap::CommandFactory;

/// Every man page as `(file name, contents)`.
pub fn pages() -> Vec<(String, Vec<u8>)> {
    let cmd = super::Cli::command();
    let mut out = Vec::new();
    let mut buf = Vec::new();
    if clap_mangen::Man::new(cmd.clone()).render(&mut buf).is_ok() {
        out.push(("postal.1".to_string(), buf));
    }
    for sub in cmd.get_subcommands() {
        let name = format!("postal-{}", sub.get_name());
        let page = sub.clone().name(&*Box::leak(name.clone().into_boxed_str()));
        let mut buf = Vec::new();
        if clap_mangen::Man::new(page).render(&mut buf).is_ok() {
            out.push((format!("{name}.1"), buf));
        }
    }
    out
}

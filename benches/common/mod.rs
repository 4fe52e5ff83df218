//! What the process benchmarks share.

use std::path::{Path, PathBuf};

/// A copy of the binary `bin` in `dir`, as installing it makes one: the
/// binary the processes are timed with. A file just written by the linker
/// starts slower than a copy of it, by some 20 page faults and 0.3 to 0.5
/// ms on this machine (the page cache keeps its scattered writes in
/// smaller pieces than one sequential copy), which would count against
/// this build beside a reference that was copied; so every binary timed
/// is a copy, made the same way.
pub fn installed(bin: &str, dir: &Path, name: &str) -> String {
    std::fs::create_dir_all(dir).expect("the bench folder");
    let to: PathBuf = dir.join(name);
    let _ = std::fs::remove_file(&to);
    std::fs::copy(bin, &to).expect("the binary copies");
    to.to_string_lossy().into_owned()
}

//! Files impactkit writes: each one complete or absent (issue 63, D7).
//!
//! Every output file (certificates, SMT-LIB and Coq files, figures, audit shards) is
//! written under a temporary name in its own directory, flushed, and renamed over its
//! name only when complete: a full disk or a failed write leaves no file, and a signal
//! (^C, SIGTERM, SIGHUP) has the command line remove the temporary files it was writing
//! ([`remove_pending`]); only SIGKILL can leave a hidden `.NAME.tmp-PID`, never a
//! truncated file under the real name.
//! Output directories are created and probed for writing before any work
//! ([`check_dir`]), so that a read-only place fails in the first second, not after the
//! computation.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The temporary name `path` is written under: `.NAME.tmp-PID` in the same directory,
/// keeping the extension last (`.map.png.tmp-PID.png`) where the writer picks the format
/// from it.
pub fn temporary(path: &Path, keep_extension: bool) -> PathBuf {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("out");
    let pid = std::process::id();
    let tmp = match path.extension().and_then(|e| e.to_str()) {
        Some(ext) if keep_extension => format!(".{name}.tmp-{pid}.{ext}"),
        _ => format!(".{name}.tmp-{pid}"),
    };
    path.with_file_name(tmp)
}

/// The temporary files being written now, removed by [`remove_pending`] when the process
/// is stopped by a signal (the command line's handler).
static PENDING: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// A temporary file registered in [`PENDING`] while it is written.
struct Pending(PathBuf);

impl Pending {
    fn new(tmp: &Path) -> Pending {
        let mut p = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        p.push(tmp.to_path_buf());
        Pending(tmp.to_path_buf())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let mut p = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = p.iter().position(|x| *x == self.0) {
            p.swap_remove(i);
        }
    }
}

/// Removes every temporary file still being written: the command line calls it when ^C,
/// SIGTERM or SIGHUP stops it, so that an interrupted run leaves no `.NAME.tmp-PID`
/// behind (an audit's folder keeps its `INCOMPLETE` marker).
pub fn remove_pending() {
    let p = PENDING.lock().unwrap_or_else(|e| e.into_inner());
    for tmp in p.iter() {
        let _ = std::fs::remove_file(tmp);
    }
}

/// Writes `bytes` to `path` completely or not at all: a temporary name in the same
/// directory ([`temporary`]), flushed to disk, then renamed. On failure the temporary
/// file is removed and `path` is untouched.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temporary(path, false);
    let _pending = Pending::new(&tmp);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Has `write` produce the file `path` through a temporary name that keeps its
/// extension (a writer that picks the format from it, such as a PNG encoder), renaming
/// it when `write` succeeded (a failed rename is `io`'s error) and removing it otherwise.
pub fn write_through<E>(
    path: &Path,
    write: impl FnOnce(&Path) -> Result<(), E>,
    io: impl FnOnce(std::io::Error) -> E,
) -> Result<(), E> {
    let tmp = temporary(path, true);
    let _pending = Pending::new(&tmp);
    let result = write(&tmp).and_then(|()| std::fs::rename(&tmp, path).map_err(io));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Creates the directory `dir` if needed and checks that a file can be written in it,
/// before the work whose results go there. The error says why, without the option
/// (the caller names it).
pub fn check_dir(dir: &Path) -> Result<(), String> {
    let bad = |e: std::io::Error| format!("{}: {e}", crate::input::files::shown(dir));
    let existed = dir.is_dir();
    std::fs::create_dir_all(dir).map_err(bad)?;
    let probe = dir.join(format!(".impactkit-write-test-{}", std::process::id()));
    let written = std::fs::write(&probe, b"ok\n");
    // the probe goes whether it was written or not (a full disk leaves it empty), and a
    // directory made for it goes with it: a refused place is left as it was
    let removed = std::fs::remove_file(&probe);
    if written.is_err() && !existed {
        let _ = std::fs::remove_dir(dir);
    }
    written.and(removed).map_err(bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_stay_in_the_directory() {
        let p = Path::new("/a/b/map.png");
        let pid = std::process::id();
        assert_eq!(
            temporary(p, true),
            PathBuf::from(format!("/a/b/.map.png.tmp-{pid}.png"))
        );
        assert_eq!(
            temporary(p, false),
            PathBuf::from(format!("/a/b/.map.png.tmp-{pid}"))
        );
    }
}

//! Reading the files a command names: regular files only, each kind with a size cap
//! checked before reading and again while reading (a file that grows past it is refused),
//! symlinks resolved and checked the same way. A FIFO, a device (`/dev/zero`), a socket
//! or a directory is refused with one line naming the path: reading one could wait
//! forever or never end. The caps are in the limits table of docs/conventions.md.

use std::io::Read;
use std::path::Path;

/// A kind of input file and its size cap in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileKind {
    /// What the file is, as an error line names it ("system file").
    pub what: &'static str,
    /// Largest accepted size in bytes.
    pub max_bytes: u64,
}

/// A system file (`laws`, `step --system`, a `regress` scenario): 1 MiB.
pub const SYSTEM: FileKind = FileKind {
    what: "system file",
    max_bytes: 1 << 20,
};
/// A claim file of `verify`: 1 MiB.
pub const CLAIM: FileKind = FileKind {
    what: "claim file",
    max_bytes: 1 << 20,
};
/// A records file of `regress` (JSON lines or CSV, streamed): 64 GiB.
pub const RECORDS: FileKind = FileKind {
    what: "records file",
    max_bytes: 64 << 30,
};
/// A certificate of `check`: 64 MiB (the largest of the catalogue is about 3 MB).
pub const CERTIFICATE: FileKind = FileKind {
    what: "certificate",
    max_bytes: 64 << 20,
};
/// An audit shard's summary (`audit.json`): 16 MiB.
pub const SHARD_SUMMARY: FileKind = FileKind {
    what: "audit summary",
    max_bytes: 16 << 20,
};
/// An audit shard's samples (`samples.jsonl`): 1 GiB (about 4 million samples).
pub const SHARD_SAMPLES: FileKind = FileKind {
    what: "audit samples",
    max_bytes: 1 << 30,
};

/// Characters of a path an error line shows in full; a longer path shows its start and
/// its end around `…` (a walk through `/proc` can build paths of thousands of characters).
pub const PATH_SHOWN: usize = 120;

/// A path as an error line names it: whole up to [`PATH_SHOWN`] characters, else its
/// first 40 and last 70 characters around `…`.
pub fn shown(path: &Path) -> String {
    let s = path.display().to_string();
    let n = s.chars().count();
    if n <= PATH_SHOWN {
        return s;
    }
    let head: String = s.chars().take(40).collect();
    let tail: String = s.chars().skip(n - 70).collect();
    format!("{head}…{tail}")
}

/// What kind of non-regular file `meta` describes, for the error line.
fn not_regular(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// The file at `path` opened for reading, and its size, or one line saying why it is
/// refused: not found or unreadable, not a regular file (after following symlinks), or
/// larger than the cap of `kind`. A reader of a file that may grow keeps reading it
/// within the cap ([`read_text`], the streamed records of `regress`).
pub fn open(path: &Path, kind: FileKind) -> Result<(std::fs::File, u64), String> {
    let name = shown(path);
    let meta = std::fs::metadata(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    if !meta.is_file() {
        return Err(format!(
            "{name}: {} is not read as a {} (regular files only)",
            not_regular(&meta),
            kind.what
        ));
    }
    if meta.len() > kind.max_bytes {
        return Err(format!(
            "{name}: {} bytes, more than {} (the limit of a {})",
            meta.len(),
            kind.max_bytes,
            kind.what
        ));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    Ok((file, meta.len()))
}

/// The text of the file at `path`, or one line saying why it is refused: not found or
/// unreadable, not a regular file (after following symlinks), larger than the cap of
/// `kind`, or not UTF-8.
pub fn read_text(path: &Path, kind: FileKind) -> Result<String, String> {
    let name = shown(path);
    let (file, len) = open(path, kind)?;
    let too_big = |n: u64| {
        format!(
            "{name}: {n} bytes, more than {} (the limit of a {})",
            kind.max_bytes, kind.what
        )
    };
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(kind.max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{name}: cannot read: {e}"))?;
    if bytes.len() as u64 > kind.max_bytes {
        return Err(too_big(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{name}: not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_directories_and_large_files_are_refused() {
        let e = read_text(Path::new("/dev/zero"), SYSTEM).unwrap_err();
        assert!(e.contains("a device"), "{e}");
        let e = read_text(Path::new("/"), SYSTEM).unwrap_err();
        assert!(e.contains("a directory"), "{e}");
        let dir = std::env::temp_dir().join(format!("impactkit-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.toml");
        std::fs::write(&big, vec![b'#'; 2 << 20]).unwrap();
        let e = read_text(&big, SYSTEM).unwrap_err();
        assert!(e.contains("more than 1048576"), "{e}");
        let bad = dir.join("bad.toml");
        std::fs::write(&bad, [b'a', 0xff, b'b']).unwrap();
        let e = read_text(&bad, SYSTEM).unwrap_err();
        assert!(e.contains("not UTF-8") && e.contains("offset 1"), "{e}");
        let link = dir.join("link.toml");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let e = read_text(&link, SYSTEM).unwrap_err();
        assert!(e.contains("a device"), "{e}");
        std::fs::write(&bad, "name = \"x\"\n").unwrap();
        assert_eq!(read_text(&bad, SYSTEM).unwrap(), "name = \"x\"\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

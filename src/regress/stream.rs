//! `regress` at engine scale: records read, checked and reported a chunk at a time, in
//! memory that does not grow with the number of records (issue 36).
//!
//! - **Lines** ([`Lines`]): a record is one line of at most [`MAX_LINE`] bytes; the file
//!   is read up to its size cap ([`record::MAX_BYTES`]), and a file that grows past it
//!   while read ends the run with a reported error on the line where it stopped. No line
//!   is skipped silently: an over-long or non-UTF-8 line is an error with its number.
//! - **Scenarios** ([`Cache`]): the laws of a scenario are computed once and kept for the
//!   records that name it, at most [`MAX_SCENARIOS`] at a time (the least recently used
//!   go first and are computed again if named again: the same result, more time).
//! - **Chunks** of [`CHUNK`] records: parsed and checked in parallel (rayon, `jobs`
//!   threads) while the calling thread writes the previous chunk's reports, each
//!   record's report rendered by the caller's function and handed to the caller's sink
//!   in file order, then dropped; only the per-engine summary ([`Summary`]) is kept.
//!   With `jobs` = 1 the calling thread checks and writes each record itself (a new
//!   scenario's laws are still computed on the pool's one thread).

use super::record::{self, CsvColumns, Files, Record, RecordError, MAX_LINE};
use super::{prepare, Failed, Scenario};
use crate::report::regress::{OwnedTally, RecordReport, Summary, Tally};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Records checked together (parsed, checked and rendered in parallel).
pub const CHUNK: usize = 1024;
/// Scenarios whose laws are kept at once.
pub const MAX_SCENARIOS: usize = 1024;

/// The report of one record read (`scenario`: its scenario, `None` for a record that
/// could not be read; `full`: see [`Scenario::evaluate`]).
pub fn report(
    r: &Result<Record, RecordError>,
    scenario: Option<&dyn Scenario>,
    full: bool,
) -> RecordReport {
    match (r, scenario) {
        (Err(e), _) => RecordReport::error(e.line, None, e.reason.clone()),
        (Ok(rec), Some(s)) => s.evaluate(rec, full),
        (Ok(rec), None) => {
            RecordReport::error(rec.line, rec.id.clone(), "scenario not resolved".into())
        }
    }
}

/// The scenarios of a run: each computed once, at most [`MAX_SCENARIOS`] kept.
pub struct Cache {
    dir: PathBuf,
    files: Files,
    map: HashMap<String, (Arc<dyn Scenario>, u64)>,
    tick: u64,
}

impl Cache {
    /// An empty cache; scenario files are relative to `dir`.
    pub fn new(dir: &Path) -> Self {
        Cache {
            dir: dir.to_path_buf(),
            files: Files::default(),
            map: HashMap::new(),
            tick: 0,
        }
    }

    /// The scenario of every record (`None` for a record that could not be read): the
    /// known ones from the cache, the new ones resolved (files read in order) and their
    /// laws computed in parallel.
    pub fn scenarios(
        &mut self,
        records: &[Result<Record, RecordError>],
    ) -> Vec<Option<Arc<dyn Scenario>>> {
        self.tick += 1;
        let keys: Vec<Option<std::borrow::Cow<str>>> = records
            .iter()
            .map(|r| r.as_ref().ok().map(|r| r.scenario.key()))
            .collect();
        // each distinct key once (hashed once per record), in order of first appearance
        let mut slots: HashMap<&str, usize> = HashMap::new();
        let mut distinct: Vec<(&str, usize)> = Vec::new();
        let slot: Vec<Option<usize>> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let k = k.as_deref()?;
                Some(*slots.entry(k).or_insert_with(|| {
                    distinct.push((k, i));
                    distinct.len() - 1
                }))
            })
            .collect();
        let mut here: Vec<Option<Arc<dyn Scenario>>> = vec![None; distinct.len()];
        let mut missing: Vec<(&str, usize, usize)> = Vec::new();
        for (d, &(k, i)) in distinct.iter().enumerate() {
            match self.map.get_mut(k) {
                Some((s, used)) => {
                    *used = self.tick;
                    here[d] = Some(s.clone());
                }
                None => missing.push((k, i, d)),
            }
        }
        let resolved: Vec<(&str, usize, Result<_, String>)> = missing
            .into_iter()
            .map(|(k, i, d)| {
                let spec = &records[i]
                    .as_ref()
                    .expect("a key comes from a record")
                    .scenario;
                (k, d, spec.resolve(&self.dir, &mut self.files))
            })
            .collect();
        let prepared: Vec<(&str, usize, Arc<dyn Scenario>)> = resolved
            .into_par_iter()
            .map(|(k, d, r)| {
                let s: Arc<dyn Scenario> = match r {
                    Ok((file, source)) => prepare(&file, &source),
                    Err(e) => Arc::new(Failed(e)),
                };
                (k, d, s)
            })
            .collect();
        for (k, d, s) in prepared {
            self.insert(k.to_string(), s.clone());
            here[d] = Some(s);
        }
        slot.iter()
            .map(|d| d.and_then(|d| here[d].clone()))
            .collect()
    }

    /// Keeps `s` under `key`; past [`MAX_SCENARIOS`] the least recently used half goes.
    fn insert(&mut self, key: String, s: Arc<dyn Scenario>) {
        if self.map.len() >= MAX_SCENARIOS {
            let mut ticks: Vec<u64> = self.map.values().map(|(_, t)| *t).collect();
            ticks.sort_unstable();
            let cut = ticks[ticks.len() / 2];
            self.map.retain(|_, (_, t)| *t > cut);
        }
        self.map.insert(key, (s, self.tick));
    }
}

/// The non-blank lines of a records file with their 1-based numbers, each at most
/// [`MAX_LINE`] bytes, at most `max_bytes` in all; a line that cannot be read is an
/// error with its number (and a read error or the size cap ends the lines).
pub struct Lines<R> {
    input: R,
    line: usize,
    bytes: u64,
    max_bytes: u64,
    done: bool,
    /// The length of the last line read (the next one's buffer is sized for it).
    last: usize,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `input`, read up to `max_bytes`.
    pub fn new(input: R, max_bytes: u64) -> Self {
        Lines {
            input,
            line: 0,
            bytes: 0,
            max_bytes,
            done: false,
            last: 0,
        }
    }

    /// The next line's bytes (at most `MAX_LINE + 1` kept), whether it was longer, and
    /// whether there was one; `Err` for a read error.
    fn raw(&mut self, buf: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
        let mut long = false;
        let mut any = false;
        loop {
            let avail = match self.input.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                return Ok(any.then_some(long));
            }
            any = true;
            let (take, end) = match memchr::memchr(b'\n', avail) {
                Some(i) => (i + 1, true),
                None => (avail.len(), false),
            };
            let room = (MAX_LINE + 1).saturating_sub(buf.len());
            buf.extend_from_slice(&avail[..take.min(room)]);
            long |= take > room;
            self.input.consume(take);
            self.bytes += take as u64;
            if end || self.bytes > self.max_bytes {
                return Ok(Some(long));
            }
        }
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = Result<(usize, String), RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut buf = Vec::with_capacity(self.last + 64);
        while !self.done {
            buf.clear();
            let read = self.raw(&mut buf);
            self.line += 1;
            let err = |reason: String| {
                Some(Err(RecordError {
                    line: self.line,
                    reason,
                }))
            };
            let long = match read {
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Ok(Some(long)) => long,
                Err(e) => {
                    self.done = true;
                    return err(format!("cannot read the records file: {e}"));
                }
            };
            if self.bytes > self.max_bytes {
                self.done = true;
                return err(format!(
                    "the records file grew past {} bytes (the limit of a records file) while read: this line and the rest are not read",
                    self.max_bytes
                ));
            }
            if long {
                return err(format!(
                    "a record is at most {MAX_LINE} bytes (one line): this line is longer"
                ));
            }
            let Ok(mut text) = String::from_utf8(std::mem::replace(
                &mut buf,
                Vec::with_capacity(self.last + 64),
            )) else {
                return err("not UTF-8 text".into());
            };
            // a UTF-8 byte order mark (some Windows tools write one) is not part of
            // the first record (issue 63, D14)
            if self.line == 1 && text.starts_with('\u{feff}') {
                text.drain(..'\u{feff}'.len_utf8());
            }
            if !text.trim().is_empty() {
                self.last = text.len().min(MAX_LINE);
                text.truncate(text.trim_end_matches(['\n', '\r']).len());
                return Some(Ok((self.line, text)));
            }
        }
        None
    }
}

/// How the records of a file are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// One JSON object per line.
    JsonLines,
    /// A header line, then one record per line (see [`record`]).
    Csv,
}

/// A records file opened for [`run`]: the file (refused unless a regular file within the
/// records cap, [`crate::input::files::RECORDS`]), its format (CSV for a `.csv` name,
/// else JSON lines) and the directory its scenario files are relative to.
pub fn open_records(
    path: &std::path::Path,
) -> Result<(std::fs::File, RecordFormat, std::path::PathBuf), String> {
    let (file, _) = crate::input::files::open(path, crate::input::files::RECORDS)?;
    let format = match path.extension().is_some_and(|e| e == "csv") {
        true => RecordFormat::Csv,
        false => RecordFormat::JsonLines,
    };
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    Ok((file, format, dir.to_path_buf()))
}

/// Where a run's output goes: each record's rendered report, in file order.
pub trait Sink {
    /// One record's rendered report; an error stops the run.
    fn record(&mut self, text: &str) -> std::io::Result<()>;
}

impl<F: FnMut(&str) -> std::io::Result<()>> Sink for F {
    fn record(&mut self, text: &str) -> std::io::Result<()> {
        self(text)
    }
}

/// How each record's report is rendered: `full` reports (see [`Scenario::evaluate`])
/// handed to `render`.
pub struct Render<'a> {
    pub full: bool,
    pub render: &'a (dyn Fn(&RecordReport) -> String + Sync),
}

/// Checks every record of `input` (a records file in `format`, scenario files relative
/// to `dir`) on `jobs` threads: each report rendered by `render` and handed to `sink` in
/// file order; the summary per engine returned. An error of `sink` stops the run.
pub fn run<R: BufRead>(
    input: R,
    format: RecordFormat,
    dir: &Path,
    jobs: usize,
    render: &Render,
    sink: &mut dyn Sink,
) -> std::io::Result<Summary> {
    // a failed start is bad input naming --jobs (an `InputError` inside the io::Error)
    let pool = crate::input::caps::pool(jobs).map_err(std::io::Error::other)?;
    let mut lines = Lines::new(input, record::MAX_BYTES);
    // a CSV file's header comes first (an unreadable line before it is its own error)
    let mut early = Vec::new();
    let mut columns: Option<CsvColumns> = None;
    while format == RecordFormat::Csv && columns.is_none() {
        match lines.next() {
            None => break,
            Some(Ok((_, header))) => columns = Some(CsvColumns::new(&header)),
            Some(e) => early.push(e),
        }
    }
    let chunk = next_chunk(&mut lines, early);
    let mut run = Run {
        lines,
        columns,
        cache: Cache::new(dir),
        pool,
        summary: Summary::default(),
    };
    if jobs <= 1 {
        run.one_thread(chunk, render, sink)?;
    } else {
        run.pipeline(chunk, render, sink)?;
    }
    Ok(run.summary)
}

/// A run of [`run`] under way: its lines, its CSV columns, its scenarios, its threads
/// and the summary so far.
struct Run<R> {
    lines: Lines<R>,
    columns: Option<CsvColumns>,
    cache: Cache,
    pool: rayon::ThreadPool,
    summary: Summary,
}

impl<R: BufRead> Run<R> {
    /// `--jobs 1`: this thread reads, checks and writes every record, from `chunk` on
    /// (no pipeline: nothing to overlap on one core, and each record's text is made and
    /// freed on the thread that writes it); a new scenario's laws are computed on the
    /// pool's one thread.
    fn one_thread(
        &mut self,
        mut chunk: Vec<Result<(usize, String), RecordError>>,
        render: &Render,
        sink: &mut dyn Sink,
    ) -> std::io::Result<()> {
        while !chunk.is_empty() {
            let records: Vec<_> = chunk
                .into_iter()
                .map(|l| parse(l, self.columns.as_ref()))
                .collect();
            let cache = &mut self.cache;
            let scenarios = self.pool.install(|| cache.scenarios(&records));
            for (r, s) in records.iter().zip(scenarios) {
                let rep = report(r, s.as_deref(), render.full);
                self.summary.add(&Tally::of(&rep));
                sink.record(&(render.render)(&rep))?;
            }
            chunk = next_chunk(&mut self.lines, Vec::new());
            crate::budget::checkpoint();
        }
        Ok(())
    }

    /// More threads: while the pool checks one chunk, this thread writes the previous
    /// chunk's reports and reads the next chunk, from `chunk` on.
    fn pipeline(
        &mut self,
        mut chunk: Vec<Result<(usize, String), RecordError>>,
        render: &Render,
        sink: &mut dyn Sink,
    ) -> std::io::Result<()> {
        let Run {
            lines,
            columns,
            cache,
            pool,
            summary,
        } = self;
        let mut pending: Vec<(OwnedTally, String)> = Vec::new();
        while !chunk.is_empty() || !pending.is_empty() {
            let (done, next, written) = std::thread::scope(|scope| {
                let (cols, cache, pool) = (columns.as_ref(), &mut *cache, &*pool);
                let worker =
                    scope.spawn(move || pool.install(|| check_chunk(chunk, cols, cache, render)));
                let written = pending.drain(..).try_for_each(|(tally, text)| {
                    summary.add(&tally.tally());
                    sink.record(&text)
                });
                let next = match written {
                    Ok(()) => next_chunk(lines, Vec::new()),
                    Err(_) => Vec::new(),
                };
                let done = worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                (done, next, written)
            });
            written?;
            pending = done;
            chunk = next;
            crate::budget::checkpoint();
        }
        Ok(())
    }
}

/// The next [`CHUNK`] lines (after `early`, lines read already).
fn next_chunk<R: BufRead>(
    lines: &mut Lines<R>,
    mut early: Vec<Result<(usize, String), RecordError>>,
) -> Vec<Result<(usize, String), RecordError>> {
    early.extend(lines.take(CHUNK.saturating_sub(early.len())));
    early
}

/// The records of `input` (a records file in `format`), in file order, for the commands
/// that need them all at once (`regress --fit`): at most `max` + 1 of them (the caller
/// refuses more than `max`), within [`record::MAX_BYTES`] as every records file.
pub fn read_all<R: BufRead>(
    input: R,
    format: RecordFormat,
    max: usize,
) -> Vec<Result<Record, RecordError>> {
    let mut lines = Lines::new(input, record::MAX_BYTES);
    let mut out = Vec::new();
    let mut columns: Option<CsvColumns> = None;
    while out.len() <= max {
        let Some(line) = lines.next() else { break };
        match (&line, format, &columns) {
            (Ok((_, header)), RecordFormat::Csv, None) => columns = Some(CsvColumns::new(header)),
            _ => out.push(parse(line, columns.as_ref())),
        }
    }
    out
}

/// The record of one line read (a CSV line with the file's `columns`, else JSON).
fn parse(
    line: Result<(usize, String), RecordError>,
    columns: Option<&CsvColumns>,
) -> Result<Record, RecordError> {
    let (n, text) = line?;
    match columns {
        Some(c) => c.parse(n, &text),
        None => record::parse_jsonl_line(n, &text),
    }
}

/// One chunk of lines: parsed, checked, rendered and tallied in parallel, in order (the
/// tallies go to the summary on the caller's thread; the reports are dropped here).
fn check_chunk(
    chunk: Vec<Result<(usize, String), RecordError>>,
    columns: Option<&CsvColumns>,
    cache: &mut Cache,
    render: &Render,
) -> Vec<(OwnedTally, String)> {
    let records: Vec<Result<Record, RecordError>> =
        chunk.into_par_iter().map(|l| parse(l, columns)).collect();
    let scenarios = cache.scenarios(&records);
    records
        .par_iter()
        .zip(scenarios)
        .map(|(r, s)| {
            let rep = report(r, s.as_deref(), render.full);
            let text = (render.render)(&rep);
            (OwnedTally::of(rep), text)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[u8], max: u64) -> Vec<Result<(usize, String), RecordError>> {
        Lines::new(std::io::Cursor::new(text.to_vec()), max).collect()
    }

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_first_record() {
        let got = lines("\u{feff}{\"a\": 1}\n\u{feff}x\n".as_bytes(), 1000);
        assert_eq!(got[0].as_ref().unwrap(), &(1, "{\"a\": 1}".to_string()));
        // only at the start of the file
        assert_eq!(got[1].as_ref().unwrap(), &(2, "\u{feff}x".to_string()));
    }

    /// Blank lines are skipped but counted; the last line needs no newline.
    #[test]
    fn lines_are_numbered_as_in_the_file() {
        let got = lines(b"a\n\n  \nb\r\nc", 100);
        let want: Vec<_> = [(1, "a"), (4, "b"), (5, "c")]
            .into_iter()
            .map(|(n, t)| Ok((n, t.to_string())))
            .collect();
        assert_eq!(got, want);
    }

    /// An over-long or non-UTF-8 line is an error with its number; the next line is read.
    #[test]
    fn bad_lines_are_errors_with_their_number() {
        let long = format!("x\n{}\n\u{ff}y\n", "z".repeat(MAX_LINE + 10));
        let mut text = long.into_bytes();
        text.extend_from_slice(b"\xff\nlast\n");
        let got = lines(&text, u64::MAX);
        assert_eq!(got[0], Ok((1, "x".into())));
        assert!(got[1]
            .as_ref()
            .unwrap_err()
            .reason
            .contains("at most 1048576 bytes"));
        assert_eq!(got[1].as_ref().unwrap_err().line, 2);
        assert_eq!(got[2], Ok((3, "\u{ff}y".into())));
        assert_eq!(got[3].as_ref().unwrap_err().line, 4);
        assert_eq!(got[3].as_ref().unwrap_err().reason, "not UTF-8 text");
        assert_eq!(got[4], Ok((5, "last".into())));
        assert_eq!(got.len(), 5);
    }

    /// Past the size cap the lines end with one error naming the limit: no quiet skip.
    #[test]
    fn the_size_cap_is_a_reported_stop() {
        let got = lines(b"one\ntwo\nthree\nfour\n", 10);
        assert_eq!(got.len(), 3);
        assert_eq!(got[0], Ok((1, "one".into())));
        assert_eq!(got[1], Ok((2, "two".into())));
        let e = got[2].as_ref().unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.reason.contains("grew past 10 bytes"), "{}", e.reason);
    }
}

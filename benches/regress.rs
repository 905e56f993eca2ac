//! `regress` throughput (issue 36): the 156 records of the engine fixture (three engines,
//! 11 scenarios), repeated to 4,992 records, streamed through `stream::run` on one
//! thread, in text and in JSON. Each iteration is a whole run: the 11 scenarios' laws
//! computed once, then every record checked and rendered. The whole-process figure over 10⁶ records and 55 scenarios, with
//! `--jobs 1` and `--jobs 2` and the peak memory, is `benches/regress/throughput.sh`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use impactkit::regress::stream::{run, RecordFormat, Render};
use impactkit::report::regress::RecordReport;
use impactkit::report::TextOptions;
use std::path::Path;

const RECORDS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/engines/records");

fn benches(c: &mut Criterion) {
    let text: String = ["mujoco", "pybullet", "pymunk"]
        .iter()
        .map(|e| std::fs::read_to_string(format!("{RECORDS}/{e}.jsonl")).unwrap())
        .collect::<String>()
        .repeat(32);
    let n = text.lines().count() as u64;
    let mut g = c.benchmark_group("regress");
    g.throughput(Throughput::Elements(n));
    g.sample_size(10);
    let o = TextOptions::default();
    let as_text = |r: &RecordReport| r.text(&o);
    let as_json = |r: &RecordReport| serde_json::to_string(r).unwrap();
    for (label, full, render) in [
        (
            "text",
            false,
            &as_text as &(dyn Fn(&RecordReport) -> String + Sync),
        ),
        ("json", true, &as_json),
    ] {
        let render = Render { full, render };
        g.bench_function(format!("fixture_x32/{label}/jobs_1"), |b| {
            b.iter(|| {
                let mut bytes = 0usize;
                let mut sink = |s: &str| {
                    bytes += s.len();
                    Ok(())
                };
                let input = std::io::Cursor::new(text.as_bytes());
                let summary = run(
                    input,
                    RecordFormat::JsonLines,
                    Path::new(RECORDS),
                    1,
                    &render,
                    &mut sink,
                )
                .unwrap();
                black_box((summary.records, bytes))
            })
        });
    }
    g.finish();
}

criterion_group!(regress, benches);
criterion_main!(regress);

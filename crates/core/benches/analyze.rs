//! parse + check + explain of generated playbooks (10 to 10,000 steps) and
//! plugin manifests (20 to 2,000 tools), each beside a bare
//! `serde_json::from_str::<serde_json::Value>` of the same bytes, and of a
//! hostile text: YAML aliases nested to a billion nodes ("billion laughs"),
//! which the parser refuses before expanding.
//! Run: `cargo bench -p opb-core --bench analyze` (or
//! `cargo xtask bench core` for the table in docs/performance.md).

mod generate;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use opb_core::{analyze, Options, Syntax};
use std::hint::black_box;

/// Benchmarks `analyze` and the bare serde_json parse of each document in
/// one group, named by its size, so the report can pair them.
fn measure(c: &mut Criterion, group: &str, documents: impl IntoIterator<Item = (usize, String)>) {
    let options = Options { syntax: Some(Syntax::Json), ..Options::default() };
    let mut group = c.benchmark_group(group);
    for (size, text) in documents {
        group.throughput(Throughput::Bytes(text.len() as u64));
        // Large documents take milliseconds each: fewer samples keep the
        // run short while the estimate stays within a few percent.
        group.sample_size(if text.len() > 200_000 { 20 } else { 100 });
        group.bench_with_input(BenchmarkId::new("analyze", size), &text, |b, text| {
            b.iter(|| analyze(black_box(text), &options))
        });
        group.bench_with_input(BenchmarkId::new("serde_json_value", size), &text, |b, text| {
            b.iter(|| {
                serde_json::from_str::<serde_json::Value>(black_box(text)).map(|v| v.is_object())
            })
        });
    }
    group.finish();
}

fn playbooks(c: &mut Criterion) {
    measure(
        c,
        "playbook",
        [10, 100, 1_000, 10_000].map(|steps| (steps, generate::playbook(steps))),
    );
}

fn manifests(c: &mut Criterion) {
    measure(c, "manifest", [20, 200, 2_000].map(|tools| (tools, generate::manifest(tools))));
}

/// Ten levels of ten aliases each: 10^10 nodes if expanded.
fn billion_laughs() -> String {
    let mut text = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        text.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    text
}

fn hostile(c: &mut Criterion) {
    let options = Options { syntax: Some(Syntax::Yaml), ..Options::default() };
    let text = billion_laughs();
    c.benchmark_group("hostile")
        .bench_function("billion_laughs", |b| b.iter(|| analyze(black_box(&text), &options)));
}

criterion_group!(benches, playbooks, manifests, hostile);
criterion_main!(benches);

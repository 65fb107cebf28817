//! parse + check + explain of generated playbooks of 10 to 10,000 steps,
//! beside a bare `serde_json::from_str::<serde_json::Value>` of the same
//! bytes. Run: `cargo bench -p opb-core --bench analyze`.

mod generate;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use opb_core::{analyze, Options, Syntax};
use std::hint::black_box;

fn playbooks(c: &mut Criterion) {
    let options = Options { syntax: Some(Syntax::Json), ..Options::default() };
    let mut group = c.benchmark_group("playbook");
    for steps in [10, 100, 1_000, 10_000] {
        let text = generate::playbook(steps);
        group.throughput(Throughput::Bytes(text.len() as u64));
        if steps >= 1_000 {
            group.sample_size(20);
        }
        group.bench_with_input(BenchmarkId::new("analyze", steps), &text, |b, text| {
            b.iter(|| analyze(black_box(text), &options))
        });
        group.bench_with_input(BenchmarkId::new("serde_json_value", steps), &text, |b, text| {
            b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(text)).map(|v| v.is_object()))
        });
    }
    group.finish();
}

criterion_group!(benches, playbooks);
criterion_main!(benches);

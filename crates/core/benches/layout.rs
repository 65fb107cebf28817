//! The layout of dense playbooks' step graphs (`dense.rs`), as the
//! playground sizes their gates: drawn simplified (150 gates of 8
//! branches, 500 of 3) or refused (200 and 1,000 of 20) within the
//! layout's budget. Run: `cargo bench -p opb-core --bench layout`; the
//! engine alone on chains and random DAGs is opb-layout's bench.

mod dense;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use opb_core::explain::layout::{self, NodeSpec, Shape, Size, Spacing};
use opb_core::explain::Explain;
use opb_core::{analyze, Options};
use std::hint::black_box;

/// The step graph of a dense playbook laid out as the playground sizes its
/// gates (the document is read once, outside the measure).
fn dense_playbooks(c: &mut Criterion) {
    let mut group = c.benchmark_group("dense");
    group.sample_size(10);
    let gate = NodeSpec { size: Size::new(150.0, 84.0), shape: Shape::Diamond };
    let label = |text: &str| Size::new(7.0 * text.len() as f64 + 16.0, 20.0);
    for (steps, branches) in [(150, 8), (500, 3), (200, 20), (1_000, 20)] {
        let Some(Explain::Playbook(explain)) =
            analyze(&dense::playbook(steps, branches), &Options::default()).explain
        else {
            panic!("a playbook")
        };
        let specs = vec![gate; explain.graph.nodes.len()];
        group.bench_with_input(
            BenchmarkId::new("gates", format!("{steps}x{branches}")),
            &explain.graph,
            |b, graph| {
                b.iter(|| {
                    let spacing = Spacing::default();
                    layout::playbook(
                        black_box(graph),
                        &specs,
                        label,
                        Size::new(58.0, 24.0),
                        &spacing,
                    )
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, dense_playbooks);
criterion_main!(benches);

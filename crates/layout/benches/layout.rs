//! The graph layout on a chain and on random DAGs of 250 to 4,000 nodes:
//! the viewer needs a 1,000-node graph laid out in well under 50 ms
//! natively. Run: `cargo bench -p opb-layout --bench layout`. The dense
//! playbooks' layout is the core's bench (`cargo bench -p opb-core --bench
//! layout`).

mod lcg;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use lcg::Lcg;
use opb_layout::{layout, EdgeSpec, NodeSpec, Shape, Size, Spacing};
use std::hint::black_box;

fn edge(from: usize, to: usize) -> EdgeSpec {
    EdgeSpec { from, to, label: None, back: false }
}

/// Each node after the first gets one or two parents among the `window`
/// nodes before it (all earlier nodes when `window` is `usize::MAX`), and
/// one edge in ten carries a branch label.
fn random_dag(n: usize, window: usize) -> Vec<EdgeSpec> {
    let mut random = Lcg(7);
    let mut edges = Vec::new();
    for to in 1..n {
        for _ in 0..1 + random.below(2) {
            let from = to - 1 - random.below(window.min(to));
            let label = (random.below(10) == 0).then(|| Size::new(60.0, 20.0));
            edges.push(EdgeSpec { label, ..edge(from, to) });
        }
    }
    edges
}

fn graphs(c: &mut Criterion) {
    let mut group = c.benchmark_group("layout");
    group.sample_size(20);
    let spacing = Spacing::default();
    for n in [250, 1_000, 4_000] {
        let nodes = vec![NodeSpec { size: Size::new(180.0, 56.0), shape: Shape::Rect }; n];
        let chain: Vec<EdgeSpec> = (1..n).map(|i| edge(i - 1, i)).collect();
        let local = random_dag(n, 8);
        let uniform = random_dag(n, usize::MAX);
        for (name, edges) in
            [("chain", &chain), ("random_dag_local", &local), ("random_dag_uniform", &uniform)]
        {
            group.bench_with_input(BenchmarkId::new(name, n), edges, |b, edges| {
                b.iter(|| layout(black_box(&nodes), black_box(edges), Some(0), &spacing))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, graphs);
criterion_main!(benches);

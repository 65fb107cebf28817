use super::*;
use lcg::Lcg;

#[path = "../benches/lcg.rs"]
mod lcg;

const BOX: NodeSpec = NodeSpec { size: Size::new(120.0, 48.0), shape: Shape::Rect };

fn edge(from: usize, to: usize) -> EdgeSpec {
    EdgeSpec { from, to, label: None, back: false }
}

fn labelled(from: usize, to: usize, width: f64) -> EdgeSpec {
    EdgeSpec { from, to, label: Some(Size::new(width, 20.0)), back: false }
}

fn boxes(n: usize) -> Vec<NodeSpec> {
    vec![BOX; n]
}

fn draw(n: usize, edges: &[EdgeSpec]) -> Layout {
    exact(&boxes(n), edges, Some(0), &Spacing::default())
}

/// The layout of a graph the budget lets through whole.
fn exact(nodes: &[NodeSpec], edges: &[EdgeSpec], root: Option<usize>, spacing: &Spacing) -> Layout {
    let drawn = layout(nodes, edges, root, spacing).expect("within the budget");
    assert_eq!(drawn.fidelity, Fidelity::Exact);
    assert!(drawn.work <= BUDGET);
    drawn
}

/// Crossings of the order the layout chooses, counted on its proper graph.
fn crossings_of(nodes: &[NodeSpec], edges: &[EdgeSpec], root: Option<usize>) -> usize {
    let spacing = Spacing::default();
    let layering = rank::layer(nodes.len(), edges, root);
    let graph = proper(nodes, edges, &layering, &spacing, Fidelity::Exact);
    let layers = pause::at_once(order::order(&graph, &mut Work::new(BUDGET), &mut pause::never));
    let mut pos = vec![0; graph.vertices.len()];
    for layer in &layers {
        for (i, &v) in layer.iter().enumerate() {
            pos[v] = i;
        }
    }
    order::crossings(&layers, &pos, &graph.down)
}

/// A label's box, from its centre and size.
fn label_box(center: Point, size: Size) -> NodeBox {
    NodeBox {
        x: center.x - size.width / 2.0,
        y: center.y - size.height / 2.0,
        width: size.width,
        height: size.height,
        rank: 0,
    }
}

fn inside(b: &NodeBox, p: Point, slack: f64) -> bool {
    p.x > b.x + slack
        && p.x < b.x + b.width - slack
        && p.y > b.y + slack
        && p.y < b.y + b.height - slack
}

/// Points along a route, as the doc of [`EdgeRoute`] says it is drawn, in
/// groups (one per curve).
fn samples(route: &EdgeRoute) -> Vec<Vec<Point>> {
    let cubic = |p: [Point; 4], t: f64| {
        let u = 1.0 - t;
        let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
        Point {
            x: a * p[0].x + b * p[1].x + c * p[2].x + d * p[3].x,
            y: a * p[0].y + b * p[1].y + c * p[2].y + d * p[3].y,
        }
    };
    let curve = |controls: [Point; 4], steps: u32| {
        (0..=steps).map(|i| cubic(controls, f64::from(i) / f64::from(steps))).collect()
    };
    if route.self_loop {
        return match route.points[..] {
            [p0, p1, p2, p3] => vec![curve([p0, p1, p2, p3], 32)],
            _ => Vec::new(),
        };
    }
    route
        .points
        .windows(2)
        .filter_map(|pair| {
            let [p, q] = pair else { return None };
            let mid = (p.y + q.y) / 2.0;
            Some(curve([*p, Point { x: p.x, y: mid }, Point { x: q.x, y: mid }, *q], 16))
        })
        .collect()
}

/// The invariants every drawing keeps: finite numbers, nodes and labels
/// apart, every route outside every node and label but its own (in a
/// simplified drawing, every route between neighbouring ranks), and each
/// edge that is not reversed pointing down.
fn check(nodes: &[NodeSpec], edges: &[EdgeSpec], drawn: &Layout) {
    assert_eq!(drawn.nodes.len(), nodes.len());
    assert_eq!(drawn.edges.len(), edges.len());
    assert!(drawn.width.is_finite() && drawn.height.is_finite());
    let mut obstacles: Vec<(NodeBox, Option<usize>, Option<usize>)> =
        drawn.nodes.iter().enumerate().map(|(i, b)| (*b, Some(i), None)).collect();
    for (e, (spec, route)) in edges.iter().zip(&drawn.edges).enumerate() {
        if let (Some(center), Some(size)) = (route.label, spec.label.map(Size::sane)) {
            obstacles.push((label_box(center, size), None, Some(e)));
        }
    }
    for (i, (a, _, _)) in obstacles.iter().enumerate() {
        assert!(a.x.is_finite() && a.y.is_finite(), "finite box {a:?}");
        assert!(
            a.x >= -1e-6
                && a.y >= -1e-6
                && a.x + a.width <= drawn.width + 1e-6
                && a.y + a.height <= drawn.height + 1e-6
        );
        for (b, _, _) in obstacles.iter().skip(i + 1) {
            assert!(!a.overlaps(b), "{a:?} overlaps {b:?}");
        }
    }
    for (e, (spec, route)) in edges.iter().zip(&drawn.edges).enumerate() {
        let valid = spec.from < nodes.len() && spec.to < nodes.len();
        assert_eq!(
            route.points.is_empty(),
            !valid,
            "edge {e} has a route exactly when both ends exist"
        );
        if !valid {
            continue;
        }
        let (upper, lower) = (drawn.nodes[spec.from].rank, drawn.nodes[spec.to].rank);
        if drawn.fidelity == Fidelity::Simplified && upper.abs_diff(lower) > 1 {
            continue;
        }
        for group in samples(route) {
            assert!(group.iter().all(|p| p.x.is_finite() && p.y.is_finite()));
            let (low_x, high_x) = group
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| (l.min(p.x), h.max(p.x)));
            let (low_y, high_y) = group
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| (l.min(p.y), h.max(p.y)));
            let near = obstacles.iter().filter(|(b, _, _)| {
                b.x <= high_x && low_x <= b.x + b.width && b.y <= high_y && low_y <= b.y + b.height
            });
            for (b, node, label) in near {
                let own = *node == Some(spec.from) || *node == Some(spec.to) || *label == Some(e);
                for p in group.iter().filter(|_| !own) {
                    assert!(
                        !inside(b, *p, 0.5),
                        "edge {e} ({}→{}) passes through {b:?} at {p:?}",
                        spec.from,
                        spec.to
                    );
                }
            }
        }
        if spec.from != spec.to && !route.reversed {
            assert!(
                drawn.nodes[spec.from].rank < drawn.nodes[spec.to].rank,
                "edge {e} points down"
            );
        }
    }
}

#[test]
fn an_empty_graph_is_just_its_margins() {
    let drawn = exact(&[], &[], None, &Spacing::default());
    assert_eq!((drawn.width, drawn.height), (48.0, 48.0));
    assert!(drawn.nodes.is_empty() && drawn.edges.is_empty());
}

#[test]
fn a_chain_is_one_straight_column() {
    let edges: Vec<EdgeSpec> = (0..4).map(|i| edge(i, i + 1)).collect();
    let drawn = draw(5, &edges);
    check(&boxes(5), &edges, &drawn);
    for (i, node) in drawn.nodes.iter().enumerate() {
        assert_eq!(node.rank, i);
        assert_eq!(node.x, drawn.nodes[0].x, "node {i} is in line with the first");
    }
    for route in &drawn.edges {
        assert!(route.points.windows(2).all(|p| p[0].x == p[1].x), "straight: {route:?}");
        let first = route.points.first().map(|p| p.y).unwrap_or_default();
        let last = route.points.last().map(|p| p.y).unwrap_or_default();
        assert!(first < last, "drawn downwards");
    }
}

#[test]
fn branches_sit_side_by_side_and_join_without_crossing() {
    // a → b, a → c, b → d, c → d
    let edges = [edge(0, 1), edge(0, 2), edge(1, 3), edge(2, 3)];
    let drawn = draw(4, &edges);
    check(&boxes(4), &edges, &drawn);
    let ranks: Vec<usize> = drawn.nodes.iter().map(|n| n.rank).collect();
    assert_eq!(ranks, [0, 1, 1, 2]);
    assert!(drawn.nodes[1].x < drawn.nodes[2].x, "b is left of c, as listed");
    let centre = |i: usize| drawn.nodes[i].center().x;
    assert!(
        (centre(0) - (centre(1) + centre(2)) / 2.0).abs() < 1.0,
        "a sits over the middle of its branches"
    );
    assert_eq!(crossings_of(&boxes(4), &edges, Some(0)), 0);
}

#[test]
fn known_crossing_numbers_are_met() {
    // Two ranks of a complete bipartite graph K(m, n) always cross
    // C(m, 2) * C(n, 2) times; a tree never needs to.
    let complete = |m: usize, n: usize| -> Vec<EdgeSpec> {
        (0..m).flat_map(|a| (0..n).map(move |b| edge(a, m + b))).collect()
    };
    assert_eq!(crossings_of(&boxes(4), &complete(2, 2), None), 1);
    assert_eq!(crossings_of(&boxes(6), &complete(3, 3), None), 9);
    let tree: Vec<EdgeSpec> = (1..31).map(|i| edge((i - 1) / 2, i)).collect();
    assert_eq!(crossings_of(&boxes(31), &tree, Some(0)), 0);
    // A ladder: two chains with rungs from the left one down to the right.
    let mut ladder: Vec<EdgeSpec> =
        (0..4).flat_map(|i| [edge(i, i + 1), edge(5 + i, 6 + i), edge(i, 6 + i)]).collect();
    ladder.reverse();
    assert_eq!(crossings_of(&boxes(10), &ladder, Some(0)), 0);
    check(&boxes(10), &ladder, &exact(&boxes(10), &ladder, Some(0), &Spacing::default()));
}

#[test]
fn a_back_edge_points_up_and_the_rest_reads_down() {
    // a → b → c → a, the last marked as the graph's back edge.
    let edges = [edge(0, 1), edge(1, 2), EdgeSpec { back: true, ..edge(2, 0) }];
    let drawn = draw(3, &edges);
    check(&boxes(3), &edges, &drawn);
    assert_eq!(drawn.nodes.iter().map(|n| n.rank).collect::<Vec<_>>(), [0, 1, 2]);
    let back = &drawn.edges[2];
    assert!(back.reversed);
    let (Some(first), Some(last)) = (back.points.first(), back.points.last()) else {
        panic!("a route")
    };
    assert!((first.y - drawn.nodes[2].y).abs() < 1e-6, "leaves c at its top");
    assert!(
        (last.y - (drawn.nodes[0].y + drawn.nodes[0].height)).abs() < 1e-6,
        "enters a at its bottom"
    );
}

#[test]
fn cycles_the_caller_did_not_mark_are_broken_too() {
    let edges = [edge(0, 1), edge(1, 2), edge(2, 0), edge(2, 1), edge(1, 0)];
    let drawn = draw(3, &edges);
    check(&boxes(3), &edges, &drawn);
    assert_eq!(drawn.edges.iter().filter(|e| e.reversed).count(), 3);
}

#[test]
fn labels_take_room_between_the_ranks() {
    // A gate with two labelled branches, one of them back to the start.
    let nodes = [BOX, NodeSpec { size: Size::new(90.0, 70.0), shape: Shape::Diamond }, BOX, BOX];
    let edges = [
        edge(0, 1),
        labelled(1, 2, 80.0),
        labelled(1, 3, 70.0),
        EdgeSpec { back: true, ..labelled(3, 0, 60.0) },
        labelled(2, 2, 40.0),
    ];
    let drawn = exact(&nodes, &edges, Some(0), &Spacing::default());
    check(&nodes, &edges, &drawn);
    let approved = drawn.edges[1].label.expect("a label position");
    assert!(
        approved.y > drawn.nodes[1].y + drawn.nodes[1].height && approved.y < drawn.nodes[2].y,
        "between the gate and its branch"
    );
    let looped = &drawn.edges[4];
    assert!(looped.self_loop && looped.points.len() == 4);
    let side = drawn.nodes[2].x + drawn.nodes[2].width;
    assert!(looped.label.is_some_and(|l| l.x > side), "the loop's label is right of its node");
}

#[test]
fn gates_and_markers_meet_edges_on_their_outline() {
    let nodes = [
        NodeSpec { size: Size::new(18.0, 18.0), shape: Shape::Circle },
        NodeSpec { size: Size::new(100.0, 60.0), shape: Shape::Diamond },
        BOX,
    ];
    let edges = [edge(0, 1), edge(1, 2)];
    let drawn = exact(&nodes, &edges, Some(0), &Spacing::default());
    check(&nodes, &edges, &drawn);
    let gate = drawn.nodes[1];
    let into = drawn.edges[0].points.last().copied().expect("a route");
    assert!(
        (into.y - gate.y).abs() < 1e-6 && (into.x - gate.center().x).abs() < 1e-6,
        "the top corner"
    );
}

#[test]
fn edges_to_missing_nodes_and_absurd_sizes_are_harmless() {
    let nodes = [
        NodeSpec { size: Size::new(f64::NAN, -3.0), shape: Shape::Rect },
        NodeSpec { size: Size::new(f64::INFINITY, 1e300), shape: Shape::Diamond },
        BOX,
    ];
    let edges = [
        edge(0, 7),
        edge(usize::MAX, 1),
        edge(0, 1),
        EdgeSpec { label: Some(Size::new(f64::NAN, 5.0)), ..edge(1, 2) },
    ];
    let spacing = Spacing { node_gap: f64::NAN, rank_gap: -1.0, ..Spacing::default() };
    let drawn = exact(&nodes, &edges, Some(99), &spacing);
    check(&nodes, &edges, &drawn);
    assert_eq!(drawn.nodes[0].width, 1.0);
    assert_eq!((drawn.nodes[1].width, drawn.nodes[1].height), (1.0, MAX_SIDE));
}

#[test]
fn random_graphs_keep_every_invariant() {
    let mut random = Lcg(0x5eed);
    let shapes = [Shape::Rect, Shape::Diamond, Shape::Circle];
    for _ in 0..300 {
        let n = 1 + random.below(30);
        let nodes: Vec<NodeSpec> = (0..n)
            .map(|_| NodeSpec {
                size: Size::new(20.0 + random.below(200) as f64, 16.0 + random.below(60) as f64),
                shape: shapes[random.below(3)],
            })
            .collect();
        let edges: Vec<EdgeSpec> = (0..random.below(3 * n + 1))
            .map(|_| EdgeSpec {
                from: random.below(n + 1),
                to: random.below(n),
                label: (random.below(3) == 0)
                    .then(|| Size::new(10.0 + random.below(90) as f64, 18.0)),
                back: random.below(5) == 0,
            })
            .collect();
        let root = (random.below(4) > 0).then(|| random.below(n));
        let drawn = exact(&nodes, &edges, root, &Spacing::default());
        check(&nodes, &edges, &drawn);
    }
}

/// A DAG of `n` nodes where each node after the first has one or two
/// parents among the `window` nodes before it.
fn random_dag(n: usize, window: usize, seed: u64) -> Vec<EdgeSpec> {
    let mut random = Lcg(seed);
    let mut edges = Vec::new();
    for to in 1..n {
        for _ in 0..1 + random.below(2) {
            let back = 1 + random.below(window.min(to));
            edges.push(edge(to - back, to));
        }
    }
    edges
}

#[test]
fn a_thousand_nodes_stay_linear_in_size() {
    let chain: Vec<EdgeSpec> = (0..999).map(|i| edge(i, i + 1)).collect();
    let drawn = draw(1000, &chain);
    assert_eq!(drawn.nodes.last().map(|n| n.rank), Some(999));
    let spacing = Spacing::default();
    let layering = rank::layer(1000, &chain, Some(0));
    assert_eq!(
        proper(&boxes(1000), &chain, &layering, &spacing, Fidelity::Exact).vertices.len(),
        1999,
        "one bend per edge"
    );

    let dag = random_dag(1000, 8, 7);
    let drawn = draw(1000, &dag);
    check(&boxes(1000), &dag, &drawn);
    let layering = rank::layer(1000, &dag, Some(0));
    let vertices = proper(&boxes(1000), &dag, &layering, &spacing, Fidelity::Exact).vertices.len();
    assert!(vertices < 1000 + dag.len() * 12, "dummies stay proportional to the edges: {vertices}");
}

/// `n` gates of `branches` labelled branches each, to steps anywhere in
/// the graph: edges that span many ranks, which made millions of dummies.
fn dense(n: usize, branches: usize, seed: u64) -> (Vec<NodeSpec>, Vec<EdgeSpec>) {
    let gate = NodeSpec { size: Size::new(150.0, 84.0), shape: Shape::Diamond };
    let mut random = Lcg(seed);
    let edges = (0..n)
        .flat_map(|from| (0..branches).map(move |_| from))
        .map(|from| EdgeSpec { to: random.below(n), ..labelled(from, 0, 30.0) })
        .collect();
    (vec![gate; n], edges)
}

#[test]
fn a_dense_graph_is_drawn_simplified_within_the_budget() {
    let (nodes, edges) = dense(150, 8, 11);
    let spacing = Spacing::default();
    let layering = rank::layer(nodes.len(), &edges, Some(0));
    let exact = extent(nodes.len(), &layering, Fidelity::Exact);
    let least = exact.fixed() + order::SWEEPS * exact.sweep();
    assert!(least > BUDGET, "an exact drawing would cost {least} units: {exact:?}");
    let drawn = layout(&nodes, &edges, Some(0), &spacing).expect("drawn, simplified");
    assert_eq!(drawn.fidelity, Fidelity::Simplified);
    assert!(drawn.work <= BUDGET, "{} units", drawn.work);
    check(&nodes, &edges, &drawn);
    assert!(drawn.edges.iter().all(|route| route.points.len() <= 8), "a few bends an edge");
    assert!(
        drawn.edges.iter().zip(&edges).all(|(route, e)| route.label.is_some() || e.from == e.to),
        "every label has its place"
    );
}

#[test]
fn a_graph_too_dense_even_simplified_is_refused_with_its_price() {
    let (nodes, edges) = dense(1_000, 20, 12);
    let Err(refused) = layout(&nodes, &edges, Some(0), &Spacing::default()) else {
        panic!("drawn")
    };
    assert_eq!(refused.budget, BUDGET);
    assert!(refused.needed > BUDGET, "{refused:?}");
    assert_eq!(refused.to_string(), "too many crossing edges to draw");
}

#[test]
fn every_layout_keeps_within_its_budget_and_more_budget_never_draws_less() {
    let mut random = Lcg(0xb0d9e7);
    let rank_of = |fidelity: &Result<Layout, TooDense>| match fidelity {
        Ok(drawn) if drawn.fidelity == Fidelity::Exact => 2,
        Ok(_) => 1,
        Err(_) => 0,
    };
    for _ in 0..200 {
        let n = 1 + random.below(40);
        let nodes = boxes(n);
        let edges: Vec<EdgeSpec> = (0..random.below(4 * n + 1))
            .map(|_| EdgeSpec {
                label: (random.below(2) == 0).then(|| Size::new(40.0, 18.0)),
                back: random.below(6) == 0,
                ..edge(random.below(n), random.below(n))
            })
            .collect();
        let spacing = Spacing::default();
        let mut last = 0;
        for budget in [0, 1_000, 10_000, 50_000, 200_000, 1_000_000, BUDGET] {
            let paused = layout_pausing(&nodes, &edges, Some(0), &spacing, budget, pause::never);
            let drawn = pause::at_once(paused);
            match &drawn {
                Ok(layout) => {
                    assert!(layout.work <= budget, "{} units of {budget}", layout.work);
                    check(&nodes, &edges, layout);
                }
                Err(refused) => assert!(refused.needed > budget && refused.budget == budget),
            }
            assert!(rank_of(&drawn) >= last, "a budget of {budget} draws less than a smaller one");
            last = rank_of(&drawn);
        }
    }
}

#[test]
fn the_price_of_a_graph_is_known_before_it_is_built() {
    let mut random = Lcg(0x9a1ce);
    let spacing = Spacing::default();
    for _ in 0..200 {
        let n = 1 + random.below(30);
        let edges: Vec<EdgeSpec> = (0..random.below(3 * n + 1))
            .map(|_| EdgeSpec {
                label: (random.below(3) == 0).then(|| Size::new(50.0, 18.0)),
                back: random.below(5) == 0,
                ..edge(random.below(n + 1), random.below(n))
            })
            .collect();
        let layering = rank::layer(n, &edges, Some(0));
        for fidelity in [Fidelity::Exact, Fidelity::Simplified] {
            let priced = extent(n, &layering, fidelity);
            let built = proper(&boxes(n), &edges, &layering, &spacing, fidelity).extent();
            assert_eq!(
                (priced.vertices, priced.segments),
                (built.vertices, built.segments),
                "{fidelity:?}"
            );
        }
    }
}

//! Dense playbooks, as a red team wrote them to stall the graph layout:
//! gate steps whose `next` has many labelled branches, each to a step
//! anywhere in the playbook, so edges span many ranks. Every input limit is
//! met; an exact layout of 200 such steps with 20 branches each makes
//! about half a million dummy vertices.

/// A YAML playbook of `steps` gates with `branches` branches each, their
/// targets drawn by a fixed generator (the same document every time).
pub fn playbook(steps: usize, branches: usize) -> String {
    let mut state: u64 = 7;
    let mut target = || {
        state =
            state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize % steps.max(1)
    };
    let mut out = format!(
        "openplaybook: \"1.6\"\nid: dense\nname: Dense {steps} by {branches}\nstart: s0\nsteps:\n"
    );
    for s in 0..steps {
        let next: Vec<String> = (0..branches).map(|b| format!("b{b}: s{}", target())).collect();
        out.push_str(&format!("  - id: s{s}\n    kind: gate\n    next: {{{}}}\n", next.join(", ")));
    }
    out
}

//! A small deterministic generator, so the benchmarks lay out the same
//! graphs every run and a failing test reproduces (the engine's tests read
//! this file too).

/// A linear congruential generator.
pub struct Lcg(pub u64);

impl Lcg {
    /// The next number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

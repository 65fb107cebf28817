//! Stable sorting through one instance of the standard library's sort.
//!
//! `slice::sort_by` is generic over the element and the comparison, so each
//! call site with its own closure compiles a whole driftsort of its own: in
//! the viewer's wasm, 17 of them came to about 75 KB before optimisation
//! (docs/performance.md). These functions sort the positions `0..len` with
//! one comparison behind `dyn`, which compiles the sort once, then move the
//! elements to their places in one pass of swaps, also behind `dyn`. The order is the one
//! `sort_by` gives: stable, equal elements in their first order.

use std::cmp::Ordering;

/// Sorts `items` stably by `compare`, as `items.sort_by(compare)` does.
pub fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    let order = order_by(items.len(), &mut |a, b| compare(&items[a], &items[b]));
    permute(order, &mut |i, j| items.swap(i, j));
}

/// Sorts `items` stably by the key `key` gives, as `items.sort_by_key(key)`
/// does.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` stably in their natural order, as `items.sort()` does.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The positions `0..len` in the order `compare` puts them, stably.
fn order_by(len: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// Moves the element at `order[k]` to position `k` for every `k`, by calls
/// of `swap`. Each swap puts one element where it ends, so n elements take
/// fewer than n swaps.
fn permute(order: Vec<usize>, swap: &mut dyn FnMut(usize, usize)) {
    // `target[i]`: where the element now at `i` goes.
    let mut target = vec![0; order.len()];
    for (k, &i) in order.iter().enumerate() {
        target[i] = k;
    }
    for i in 0..target.len() {
        while target[i] != i {
            let j = target[i];
            swap(i, j);
            target.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_as_the_standard_library_does_keeping_equal_elements_in_order() {
        let mut seed = 0x2545_f491_u32;
        for len in 0..200 {
            let items: Vec<(u32, usize)> = (0..len)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 17;
                    seed ^= seed << 5;
                    (seed % 7, i)
                })
                .collect();
            let mut ours = items.clone();
            sort_by_key(&mut ours, |&(key, _)| key);
            let mut std = items.clone();
            std.sort_by_key(|&(key, _)| key);
            assert_eq!(ours, std, "{len} elements");
        }
    }

    #[test]
    fn sorts_by_a_comparison_and_in_natural_order() {
        let mut words = ["pear", "fig", "apple", "kiwi"];
        sort_by(&mut words, |a, b| a.len().cmp(&b.len()));
        assert_eq!(words, ["fig", "pear", "kiwi", "apple"]);
        sort(&mut words);
        assert_eq!(words, ["apple", "fig", "kiwi", "pear"]);
    }
}

//! When the editor's text is checked: which texts are large (checked in
//! slices, on the core's slice clock, `opb_core::pause::Slices`), and how
//! long after an edit each is checked. Plain Rust, tested natively.

/// Texts from this length (UTF-16 units) on take long enough to check that
/// the status bar says a check is coming.
pub const LARGE: u32 = 256 * 1024;

/// Whether a text of `length` UTF-16 units is large ([`LARGE`]): the status
/// bar says its check is coming, and it is checked in slices
/// (`opb_core::pause::Slices`).
pub fn is_large(length: u32) -> bool {
    length >= LARGE
}

/// How long after the last edit the text is checked: ordinary documents at
/// once (their check takes milliseconds, and the diagnostics are to be up
/// to date within a frame of the key); large ones wait, so typing in
/// them is not slowed by a check per key.
pub fn debounce_ms(length: u32) -> Option<u32> {
    match length {
        0..LARGE => None,
        LARGE..=2_097_151 => Some(150),
        _ => Some(400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn large_starts_at_256k_utf16_units() {
        assert_eq!(LARGE, 262_144);
        assert!(!is_large(0));
        assert!(!is_large(LARGE - 1));
        assert!(is_large(LARGE));
        assert!(is_large(u32::MAX));
    }

    #[test]
    fn ordinary_texts_are_checked_at_once_large_ones_wait_longer_as_they_grow() {
        assert_eq!(debounce_ms(0), None);
        assert_eq!(debounce_ms(LARGE - 1), None);
        assert_eq!(debounce_ms(LARGE), Some(150));
        assert_eq!(debounce_ms(2_097_151), Some(150));
        assert_eq!(debounce_ms(2_097_152), Some(400));
        assert_eq!(debounce_ms(u32::MAX), Some(400));
    }

    /// The status bar says "Checking…" for exactly the texts whose check
    /// waits.
    #[test]
    fn a_text_waits_for_its_check_exactly_when_it_is_large() {
        for length in [0, 1, LARGE - 1, LARGE, LARGE + 1, 2_097_151, 2_097_152, u32::MAX] {
            assert_eq!(debounce_ms(length).is_some(), is_large(length), "length {length}");
        }
    }
}

//! opb's drawings and accounts of a document, from the core's explain view:
//! the step graph as the playground draws it ([`drawing`]: what each step
//! shows; [`scene`]: the drawn graph as data, which the standalone SVG and
//! the playground's view both write; [`legend`]: what its marks mean),
//! `opb explain`'s account of it for any page ([`explain`]), static
//! renderings that need no script ([`svg`], [`html`]) for docs sites and
//! reports, and the viewer's markup ([`markup`]).
//!
//! It reads the core's public API only; what it shows is what the core
//! says, masked by the core.

#![warn(missing_docs)]

pub mod drawing;
pub mod explain;
pub mod figure;
pub mod fragment;
pub mod glance;
pub mod html;
pub mod legend;
pub mod markup;
pub mod scene;
pub mod svg;
pub mod words;
pub mod xml;

/// A colour theme for a static rendering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    /// Dark text on light surfaces.
    #[default]
    Light,
    /// Light text on dark surfaces.
    Dark,
    /// The reader's system setting (`prefers-color-scheme`).
    Auto,
}

impl Theme {
    /// The name the playground's stylesheets use (`data-theme`).
    pub fn name(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
            Theme::Auto => "auto",
        }
    }
}

/// A rule that gives `auto` the declarations `css` gives `dark`, when the
/// reader's system prefers dark: one palette serves both themes.
pub(crate) fn dark_when_preferred(css: &str, dark: &str, auto: &str) -> Option<String> {
    restated(css, dark, auto, "(prefers-color-scheme: dark)")
}

/// A rule that gives `themed` (every theme) the declarations `css` gives
/// `light`, on paper: a dark page prints light, its colours the light
/// theme's rather than a second palette to keep in step.
pub(crate) fn light_when_printed(css: &str, light: &str, themed: &str) -> Option<String> {
    restated(css, light, themed, "print")
}

/// The declarations `css` gives the selector `from` (its first rule), given
/// to `to` under `media`.
fn restated(css: &str, from: &str, to: &str, media: &str) -> Option<String> {
    let at = css.find(&format!("{from} {{")).or_else(|| css.find(&format!("{from}{{")))?;
    let block = &css[at + from.len()..];
    let block = &block[..block.find('}')? + 1];
    Some(format!("@media {media}{{{to}{}}}", block.trim_start()))
}

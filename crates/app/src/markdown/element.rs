//! The elements rule documentation is made of. Shared by the app, which
//! renders them, and the build script, which parses the documentation into
//! them (`build.rs` includes this file by path).

/// An element of a documentation tree.
///
/// The build script writes each value as Rust source through its derived
/// `Debug` (`El::Heading(3)`, `El::List { ordered: true }`), so every variant
/// must stay a plain constant expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum El {
    /// A heading, already shifted below the page's own headings (h3–h6).
    Heading(u8),
    Paragraph,
    Strong,
    Emphasis,
    Code,
    CodeBlock,
    List {
        ordered: bool,
    },
    Item,
    Quote,
    /// Anything else (tables, footnotes): kept as a plain container.
    Other,
}

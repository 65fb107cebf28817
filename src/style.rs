//! The few styles opb adds around what annotate-snippets renders, in its
//! colours so the two match.

use anstyle::{AnsiColor, Effects, Style};

pub const EMPHASIS: Style = Style::new().effects(Effects::BOLD);
pub const ERROR: Style = annotate_snippets::renderer::DEFAULT_ERROR_STYLE;
pub const WARNING: Style = annotate_snippets::renderer::DEFAULT_WARNING_STYLE;
pub const INFO: Style = annotate_snippets::renderer::DEFAULT_INFO_STYLE;
pub const HEADING: Style = AnsiColor::Cyan.on_default().effects(Effects::BOLD);
pub const LABEL: Style = Style::new().effects(Effects::BOLD);
/// Something the document needs and lacks.
pub const MISSING: Style = ERROR;
/// Something declared and not used, or at odds with the rest.
pub const ODD: Style = WARNING;

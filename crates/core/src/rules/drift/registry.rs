//! A runtime's tool registry, read so a playbook's embedded definitions can
//! be compared with it before a runtime imports the playbook (seed 000: "A
//! runtime importing a document checks the embedded definitions against its
//! own registry and flags drift").
//!
//! A registry is a JSON or YAML list of tool definitions in the shape of a
//! playbook's `tools` entries, or an object whose `tools` is that list. It is
//! read once (the CLI compares many documents with one registry) and passed
//! in [`crate::Options::registry`]; its own problems are diagnostics with
//! positions in the registry's text, apart from the document's.

use super::shape::registry_entries;
use crate::diagnostics::masking::Masking;
use crate::diagnostics::{self, Counts, Diagnostic, Report};
use crate::rules::input::{self, IN006};
use crate::views::playbook::ToolView;
use foldhash::{HashMap, HashMapExt};
use opb_syntax::text::LineIndex;
use opb_syntax::{Limits, Node, Ptr, Syntax};

/// A registry, read.
#[derive(Debug, Clone)]
pub struct Registry {
    /// The syntax the registry text was read as: given, or sniffed.
    pub syntax: Syntax,
    /// What is wrong with the registry text itself (IN001, IN005, IN006,
    /// DR009); positions are in the registry's text.
    pub diagnostics: Vec<Diagnostic>,
    /// `diagnostics` by severity.
    pub counts: Counts,
    /// The tree, when it holds a list of tool definitions.
    root: Option<Node>,
    /// Where the list is: the root, or the root's `tools`.
    list: Ptr,
    /// The first entry of each name: its position in the list and its line.
    entries: HashMap<String, (usize, usize)>,
}

/// One definition of the registry.
pub(crate) struct RegistryTool<'r> {
    pub view: ToolView<'r>,
    /// The 1-based line its entry starts on, for messages.
    pub line: usize,
}

impl Registry {
    /// Reads a registry. The syntax is sniffed from the text unless given.
    pub fn read(text: &str, syntax: Option<Syntax>, limits: &Limits) -> Registry {
        let syntax = syntax.unwrap_or_else(|| Syntax::sniff(text));
        let parsed = opb_syntax::parse(text, syntax, limits);
        let mut report = Report::new();
        report.extend(parsed.problems.into_iter().map(input::problem_finding));
        let mut registry = Registry {
            syntax,
            diagnostics: Vec::new(),
            counts: Counts::default(),
            root: None,
            list: Ptr::root(),
            entries: HashMap::new(),
        };
        let index = LineIndex::new(text);
        if let Some(root) = parsed.root.filter(|_| !report.has(&IN006)) {
            if let Some((list, entries)) = registry_entries(&root, &mut report) {
                let lines = index
                    .positions(&entries.iter().map(|(_, _, offset)| *offset).collect::<Vec<_>>());
                registry.entries = entries
                    .into_iter()
                    .zip(lines)
                    .map(|((name, position, _), at)| (name, (position, at.line)))
                    .collect();
                registry.list = list;
                registry.root = Some(root);
            }
        }
        // The credential rules do not read a registry (a runtime's own file, not
        // a document to share): its messages are masked by shape alone.
        registry.diagnostics =
            diagnostics::resolve(report.into_findings(), &index, &Masking::default());
        registry.counts = Counts::of(&registry.diagnostics);
        registry
    }

    /// Whether the text held a list of tool definitions to compare with.
    pub fn is_usable(&self) -> bool {
        self.root.is_some()
    }

    /// How many distinct tool names it defines.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it defines no tool (an unusable registry defines none).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The first definition named `name`.
    pub(crate) fn tool(&self, name: &str) -> Option<RegistryTool<'_>> {
        let &(position, line) = self.entries.get(name)?;
        let root = self.root.as_ref()?;
        let list = root.pointer(self.list.as_str())?.as_array()?;
        let node = list.get(position)?;
        Some(RegistryTool { view: ToolView::new(position, self.list.index(position), node), line })
    }
}

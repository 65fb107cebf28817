//! The address of the panel area: `#diagnostics`, `#rules` or
//! `#rules/<CODE>`, so a rule's documentation has a link of its own, and the
//! viewer's `#graph`, `#tools`, `#requires` and `#manifest`, a playbook's
//! `#paths` (risk paths), and `#compare` (the diff with an older version).
//! An address that names no tab opens the one that matters for the
//! document ([`Route::first_view`]).

use opb_core::explain::Explain;
use opb_core::Analysis;

/// The panel tab the address shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    Diagnostics,
    /// The rules tab, on one rule's page when a code (or name) is given.
    Rules(Option<String>),
    // The panels (src/ui/panels).
    Graph,
    Tools,
    Requires,
    Manifest,
    /// A playbook's risk paths (src/ui/panels/risk_paths.rs).
    Paths,
    /// The diff of an older version with the editor's text (src/ui/compare.rs).
    Compare,
}

impl Route {
    pub fn from_hash(hash: &str) -> Route {
        let path = hash.trim_start_matches('#').trim_start_matches('/');
        match path.split_once('/') {
            Some(("rules", code)) if !code.is_empty() => Route::Rules(Some(code.to_owned())),
            _ if path == "rules" || path.starts_with("rules/") => Route::Rules(None),
            _ => match path {
                "graph" => Route::Graph,
                "tools" => Route::Tools,
                "requires" => Route::Requires,
                "manifest" => Route::Manifest,
                "paths" => Route::Paths,
                "compare" => Route::Compare,
                _ => Route::Diagnostics,
            },
        }
    }

    /// The tab a document opens on when nothing names one: its problems
    /// when it has an error, else what it can do (a playbook's graph, a
    /// manifest's tools), the point of reading it.
    pub fn first_view(analysis: &Analysis) -> Route {
        if analysis.checked.counts.error > 0 {
            return Route::Diagnostics;
        }
        match analysis.explain {
            Some(Explain::Playbook(_)) => Route::Graph,
            Some(Explain::PluginManifest(_)) => Route::Manifest,
            None => Route::Diagnostics,
        }
    }

    /// The route as a share link's `view`: the hash without `#`.
    /// [`Route::from_hash`] reads it back.
    pub fn view(&self) -> Option<String> {
        match self {
            Route::Diagnostics => Some("diagnostics".to_owned()),
            Route::Rules(None) => Some("rules".to_owned()),
            Route::Rules(Some(code)) => Some(format!("rules/{code}")),
            Route::Graph => Some("graph".to_owned()),
            Route::Tools => Some("tools".to_owned()),
            Route::Requires => Some("requires".to_owned()),
            Route::Manifest => Some("manifest".to_owned()),
            Route::Paths => Some("paths".to_owned()),
            Route::Compare => Some("compare".to_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_come_from_the_hash() {
        assert_eq!(Route::from_hash(""), Route::Diagnostics);
        assert_eq!(Route::from_hash("#diagnostics"), Route::Diagnostics);
        assert_eq!(Route::from_hash("#anything-else"), Route::Diagnostics);
        assert_eq!(Route::from_hash("#rules"), Route::Rules(None));
        assert_eq!(Route::from_hash("#rules/"), Route::Rules(None));
        assert_eq!(Route::from_hash("#rules/PB213"), Route::Rules(Some("PB213".into())));
        assert_eq!(Route::from_hash("#/rules/IN001"), Route::Rules(Some("IN001".into())));
        assert_eq!(Route::from_hash("#graph"), Route::Graph);
        assert_eq!(Route::from_hash("#manifest"), Route::Manifest);
        assert_eq!(Route::from_hash("#paths"), Route::Paths);
        assert_eq!(Route::from_hash("#compare"), Route::Compare);
        assert_eq!(Route::from_hash("#graph/x"), Route::Diagnostics);
    }

    #[test]
    fn a_document_opens_on_its_graph_unless_it_has_an_error() {
        let first =
            |text: &str| Route::first_view(&opb_core::analyze(text, &opb_core::Options::default()));
        let playbook = include_str!("../../../examples/failed-charge-recovery.json");
        assert_eq!(first(playbook), Route::Graph);
        let broken = include_str!("../../../examples/refund-triage.broken.yaml");
        assert_eq!(first(broken), Route::Diagnostics);
        assert_eq!(first("{"), Route::Diagnostics, "a text that cannot be read");
        let manifest = include_str!("../../../examples/acme-github.oz0-plugin.yaml");
        assert_eq!(first(manifest), Route::Manifest);
    }

    #[test]
    fn views_read_back_as_the_same_route() {
        let viewer = [
            Route::Graph,
            Route::Tools,
            Route::Requires,
            Route::Manifest,
            Route::Paths,
            Route::Compare,
        ];
        for route in [Route::Diagnostics, Route::Rules(None), Route::Rules(Some("PB213".into()))]
            .into_iter()
            .chain(viewer)
        {
            assert_eq!(Route::from_hash(&route.view().unwrap_or_default()), route);
        }
    }
}

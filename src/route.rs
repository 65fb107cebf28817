//! The address of the panel area: `#diagnostics`, `#rules` or
//! `#rules/<CODE>`, so a rule's documentation has a link of its own.

/// The panel tab the address shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    Diagnostics,
    /// The rules tab, on one rule's page when a code (or name) is given.
    Rules(Option<String>),
}

impl Route {
    pub fn from_hash(hash: &str) -> Route {
        let path = hash.trim_start_matches('#').trim_start_matches('/');
        match path.split_once('/') {
            Some(("rules", code)) if !code.is_empty() => Route::Rules(Some(code.to_owned())),
            _ if path == "rules" || path.starts_with("rules/") => Route::Rules(None),
            _ => Route::Diagnostics,
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
    }
}

//! The embed code: the playground's options (`?theme=dark`) and the
//! `<iframe>` snippet of the embed page (embed.html, on the viewer's build;
//! its protocol is opb-share's `host`).

use opb_render::xml::escape;
pub use opb_share::host::Theme;

/// What the page's query string asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PageOptions {
    /// `theme=light|dark|auto`, when given.
    pub theme: Option<Theme>,
}

impl PageOptions {
    /// Reads `location.search` (with or without its `?`). Unknown
    /// parameters and values are ignored.
    pub fn from_query(search: &str) -> PageOptions {
        let mut options = PageOptions::default();
        for pair in search.trim_start_matches('?').split('&') {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            if key == "theme" {
                options.theme = Theme::parse(value);
            }
        }
        options
    }
}

/// The address of the embed page showing a document: `page` is the
/// playground's address without query or fragment, beside which the embed
/// page is served.
pub fn embed_src(page: &str, fragment: &str, theme: Theme) -> String {
    let folder = &page[..page.rfind('/').map_or(0, |slash| slash + 1)];
    format!("{folder}embed.html?theme={}{fragment}", theme.as_str())
}

/// The `<iframe>` a docs site pastes to show a document.
pub fn iframe_snippet(src: &str, title: &str) -> String {
    format!(
        r#"<iframe src="{}" title="{}" width="100%" height="560" loading="lazy" style="border: 1px solid #e3e6ec; border-radius: 10px"></iframe>"#,
        escape(src),
        escape(title),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_strings_are_read_leniently() {
        assert_eq!(PageOptions::from_query(""), PageOptions::default());
        assert_eq!(
            PageOptions::from_query("?x=1&theme=dark"),
            PageOptions { theme: Some(Theme::Dark) }
        );
        assert_eq!(PageOptions::from_query("?theme=purple"), PageOptions { theme: None });
        assert_eq!(PageOptions::from_query("theme"), PageOptions { theme: None });
    }

    #[test]
    fn the_snippet_escapes_its_attributes() {
        let snippet = iframe_snippet(
            &embed_src("https://opb.example/", "#pako:abc", Theme::Auto),
            "a \"b\" <c>",
        );
        assert!(snippet.starts_with(r#"<iframe src="https://opb.example/embed.html?theme=auto#pako:abc" title="a &quot;b&quot; &lt;c&gt;""#), "{snippet}");
        assert_eq!(
            embed_src("https://opb.example/tools/index.html", "#pako:abc", Theme::Dark),
            "https://opb.example/tools/embed.html?theme=dark#pako:abc"
        );
    }
}

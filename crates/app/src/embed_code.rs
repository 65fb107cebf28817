//! The embed code: the playground's options (`?theme=dark`), the
//! `<opb-viewer>` snippet a docs site pastes, and for a page that takes only
//! iframes the embed page's (embed.html, on the viewer's build; its
//! protocol is opb-share's `host`).

use opb_core::Kind;
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

/// The host page's theme as the viewer reads it (`hostTheme`), which the
/// iframe embed code carries for its host page; its comments stay here.
const HOST_THEME: &str = include_str!("../../../js/host-theme.js");

/// The folder of the playground's `page` (its address without query or
/// fragment), beside which the viewer's files are served.
fn folder(page: &str) -> &str {
    &page[..page.rfind('/').map_or(0, |slash| slash + 1)]
}

/// The embed code a docs site pastes to show a document: the
/// `<opb-viewer>` element, which takes the page's font, colours and theme,
/// with the script that defines it.
pub fn element_snippet(page: &str, code: &str, kind: Option<Kind>) -> String {
    let kind = kind.map(|kind| format!(r#" kind="{}""#, kind.as_str())).unwrap_or_default();
    format!(
        "<script type=\"module\" src=\"{}opb-viewer.js\"></script>\n<opb-viewer code=\"{}\"{kind}></opb-viewer>",
        escape(folder(page)),
        escape(code),
    )
}

/// The address of the embed page showing the document of `fragment`, as
/// tall as its content (`height=auto`), its theme left to the host page.
pub fn embed_src(page: &str, fragment: &str) -> String {
    format!("{}embed.html?height=auto{fragment}", folder(page))
}

/// The embed code for a page that takes only an iframe: the frame, then
/// the lines that make it as tall as what it shows (`opb:resize`) and send
/// it the host page's theme, once it listens and whenever that changes
/// (`opb:set-theme`). No colour of its own: the frame is the page's.
pub fn iframe_snippet(src: &str, title: &str) -> String {
    let theme: String = HOST_THEME
        .lines()
        .filter(|line| !line.starts_with("//"))
        .map(|line| format!("  {line}\n"))
        .collect();
    format!(
        r#"<iframe src="{}" title="{}" width="100%" height="560" loading="lazy" style="display: block; border: 0"></iframe>
<script>
(() => {{
  const frame = document.currentScript.previousElementSibling;
  const origin = new URL(frame.src).origin;
{theme}  const send = () => frame.contentWindow.postMessage({{ type: "opb:set-theme", theme: hostTheme() }}, origin);
  addEventListener("message", (event) => {{
    if (event.source !== frame.contentWindow) return;
    if (event.data?.type === "opb:ready") send();
    if (event.data?.type === "opb:resize") frame.style.height = event.data.height + "px";
  }});
  new MutationObserver(send).observe(document.documentElement, {{ attributes: true, attributeFilter: ["class", "data-theme", "style"] }});
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", send);
}})();
</script>"#,
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
    fn the_element_snippet_carries_the_document_escaped() {
        let snippet = element_snippet(
            "https://opb.example/tools/index.html",
            "id: \"a\" <b> & c\nname: x\n",
            Some(Kind::Playbook),
        );
        assert_eq!(
            snippet,
            "<script type=\"module\" src=\"https://opb.example/tools/opb-viewer.js\"></script>\n<opb-viewer code=\"id: &quot;a&quot; &lt;b&gt; &amp; c\nname: x\n\" kind=\"playbook\"></opb-viewer>"
        );
    }

    #[test]
    fn the_iframe_snippet_escapes_its_attributes_and_colours_nothing() {
        let snippet =
            iframe_snippet(&embed_src("https://opb.example/", "#pako:abc"), "a \"b\" <c>");
        assert!(snippet.starts_with(r#"<iframe src="https://opb.example/embed.html?height=auto#pako:abc" title="a &quot;b&quot; &lt;c&gt;""#), "{snippet}");
        assert!(!snippet.replace("#pako:abc", "").contains('#'), "no colour of its own: {snippet}");
        assert!(snippet.contains("function hostTheme()") && !snippet.contains("\n//"), "{snippet}");
        assert_eq!(
            embed_src("https://opb.example/tools/index.html", "#pako:abc"),
            "https://opb.example/tools/embed.html?height=auto#pako:abc"
        );
    }
}

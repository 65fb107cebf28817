//! Documentation shown as elements built from its tree
//! ([`crate::markdown`]).

use crate::markdown::{Documentation, El, Md};
use leptos::prelude::*;

/// Renders a documentation tree as elements.
#[component]
pub fn Markdown(documentation: Documentation) -> impl IntoView {
    view! { <div class="markdown">{render(documentation.tree, &documentation.source)}</div> }
}

fn render(nodes: &'static [Md], source: &str) -> Vec<AnyView> {
    nodes.iter().map(|node| render_one(node, source)).collect()
}

fn render_one(node: &'static Md, source: &str) -> AnyView {
    let (el, children) = match node {
        Md::Element(el, children) => (*el, render(children, source)),
        text => return text.text(source).unwrap_or_default().to_owned().into_any(),
    };
    match el {
        El::Heading(3) => view! { <h3>{children}</h3> }.into_any(),
        El::Heading(4) => view! { <h4>{children}</h4> }.into_any(),
        El::Heading(5) => view! { <h5>{children}</h5> }.into_any(),
        El::Heading(_) => view! { <h6>{children}</h6> }.into_any(),
        El::Paragraph => view! { <p>{children}</p> }.into_any(),
        El::Strong => view! { <strong>{children}</strong> }.into_any(),
        El::Emphasis => view! { <em>{children}</em> }.into_any(),
        El::Code => view! { <code>{children}</code> }.into_any(),
        El::CodeBlock => view! { <pre><code>{children}</code></pre> }.into_any(),
        El::List { ordered: true } => view! { <ol>{children}</ol> }.into_any(),
        El::List { ordered: false } => view! { <ul>{children}</ul> }.into_any(),
        El::Item => view! { <li>{children}</li> }.into_any(),
        El::Quote => view! { <blockquote>{children}</blockquote> }.into_any(),
        El::Other => view! { <div>{children}</div> }.into_any(),
    }
}

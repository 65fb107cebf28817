//! Markdown shown as elements built from [`crate::markdown`]'s tree.

use crate::markdown::{parse, El, Md};
use leptos::prelude::*;

/// Renders Markdown as elements.
#[component]
pub fn Markdown(source: String) -> impl IntoView {
    view! { <div class="markdown">{render(parse(&source))}</div> }
}

fn render(nodes: Vec<Md>) -> Vec<AnyView> {
    nodes.into_iter().map(render_one).collect()
}

fn render_one(node: Md) -> AnyView {
    let (el, children) = match node {
        Md::Text(text) => return text.into_any(),
        Md::Element(el, children) => (el, render(children)),
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


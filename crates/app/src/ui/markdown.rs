//! Markdown shown as elements: rule documentation from its tree
//! ([`crate::markdown`]), and the editor's completion, hover and diagnostic
//! texts, built for its tooltips.

use crate::markdown::{assist, Documentation, El, Md};
use leptos::prelude::*;
use opb_render::words::code_spans;

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
        Md::Element(el, ..) => (*el, render(node.children(), source)),
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

/// A completion's or hover's text as the editor's tooltips show it
/// (`js/editor.js`): a `div` of class `class`, its text set as text, never
/// as markup; the plain text where the page makes no element.
pub fn assist_element(text: &str, class: &str) -> web_sys::Node {
    let element = create("div").and_then(|root| {
        root.set_class_name(class);
        append_nodes(&root, &assist::read(text))?;
        Ok(root)
    });
    element.map_or_else(|_| document().create_text_node(text).into(), Into::into)
}

/// A diagnostic's message as the editor's diagnostics list shows it: its
/// code spans as `code`, the rest as text.
pub fn message_element(message: &str) -> web_sys::Node {
    let element = create("span").and_then(|root| {
        for (is_code, piece) in code_spans(message) {
            if is_code {
                let code = create("code")?;
                code.set_text_content(Some(&piece));
                root.append_with_node_1(&code)?;
            } else {
                root.append_with_str_1(&piece)?;
            }
        }
        Ok(root)
    });
    element.map_or_else(|_| document().create_text_node(message).into(), Into::into)
}

fn create(tag: &str) -> Result<web_sys::Element, wasm_bindgen::JsValue> {
    document().create_element(tag)
}

fn append_nodes(
    parent: &web_sys::Element,
    nodes: &[assist::Node],
) -> Result<(), wasm_bindgen::JsValue> {
    for node in nodes {
        match node {
            assist::Node::Text(text) => parent.append_with_str_1(text)?,
            assist::Node::Element(el, children) => {
                let child = create(tag(*el))?;
                append_nodes(&child, children)?;
                parent.append_with_node_1(&child)?;
            }
        }
    }
    Ok(())
}
/// The HTML element an [`El`] is drawn as.
fn tag(el: El) -> &'static str {
    match el {
        El::Heading(3) => "h3",
        El::Heading(4) => "h4",
        El::Heading(5) => "h5",
        El::Heading(_) => "h6",
        El::Paragraph => "p",
        El::Strong => "strong",
        El::Emphasis => "em",
        El::Code => "code",
        El::CodeBlock => "pre",
        El::List { ordered: true } => "ol",
        El::List { ordered: false } => "ul",
        El::Item => "li",
        El::Quote => "blockquote",
        El::Other => "div",
    }
}

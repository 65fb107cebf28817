//! Pictures of the graph: the viewer's rendered SVG, with the styles the
//! page's stylesheets give it written into it so it looks the same on its
//! own, saved as SVG, or drawn onto a canvas and saved as PNG.

use super::files::{download, download_blob};
use crate::files::picture_name;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlCanvasElement, HtmlImageElement, Url, XmlSerializer};

/// Where the viewer's graph is drawn: the drawing, not the legend's small
/// marks, which share its class to share its look.
pub const GRAPH_SELECTOR: &str = "svg.graph:not(.legend-mark)";

/// The CSS properties that make an SVG look as it does on the page.
const STYLED: [&str; 14] = [
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "stroke-opacity",
    "opacity",
    "font-family",
    "font-size",
    "font-weight",
    "text-anchor",
    "dominant-baseline",
    "visibility",
    "display",
];

/// PNGs are drawn at twice the graph's size, for sharp pictures on dense
/// screens and in documents.
const PNG_SCALE: f64 = 2.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Picture {
    Svg,
    Png,
}

fn graph() -> Result<Element, String> {
    document().query_selector(GRAPH_SELECTOR).ok().flatten().ok_or_else(|| {
        "There is no graph to export: it is drawn for a playbook that can be read.".to_owned()
    })
}

/// Copies the computed style of each element of `original` onto `copy`.
fn inline_styles(original: &Element, copy: &Element) {
    if let Ok(Some(style)) = window().get_computed_style(original) {
        let declarations: Vec<String> = STYLED
            .iter()
            .filter_map(|property| {
                style
                    .get_property_value(property)
                    .ok()
                    .filter(|v| !v.is_empty())
                    .map(|v| format!("{property}:{v}"))
            })
            .collect();
        let _ = copy.set_attribute("style", &declarations.join(";"));
    }
    let originals = original.children();
    let copies = copy.children();
    for i in 0..originals.length().min(copies.length()) {
        if let (Some(o), Some(c)) = (originals.item(i), copies.item(i)) {
            inline_styles(&o, &c);
        }
    }
}

/// The graph as a standalone SVG document, and its size in pixels.
fn standalone() -> Result<(String, f64, f64), String> {
    let svg = graph()?;
    let copy: Element = svg
        .clone_node_with_deep(true)
        .map_err(|_| "The graph could not be copied.".to_owned())?
        .unchecked_into();
    inline_styles(&svg, &copy);
    let rect = svg.get_bounding_client_rect();
    let (width, height) = (rect.width().max(1.0), rect.height().max(1.0));
    let _ = copy.set_attribute("xmlns", "http://www.w3.org/2000/svg");
    let _ = copy.set_attribute("width", &format!("{width}"));
    let _ = copy.set_attribute("height", &format!("{height}"));
    let background = window()
        .get_computed_style(&svg)
        .ok()
        .flatten()
        .and_then(|s| s.get_property_value("--surface").ok())
        .unwrap_or_default();
    if !background.trim().is_empty() {
        let style = copy.get_attribute("style").unwrap_or_default();
        let _ = copy.set_attribute("style", &format!("{style};background:{}", background.trim()));
    }
    let text = XmlSerializer::new()
        .and_then(|s| s.serialize_to_string(&copy))
        .map_err(|_| "The graph could not be written as SVG.".to_owned())?;
    Ok((text, width, height))
}

/// Saves the graph; returns the file's name.
pub fn export(picture: Picture, name: &str) -> Result<String, String> {
    let (svg, width, height) = standalone()?;
    match picture {
        Picture::Svg => {
            let file = picture_name(name, "svg");
            download(&file, "image/svg+xml", &svg)?;
            Ok(file)
        }
        Picture::Png => {
            let file = picture_name(name, "png");
            draw_png(svg, width, height, file.clone())?;
            Ok(file)
        }
    }
}

/// Draws the SVG on a canvas through an image, then saves the canvas. The
/// image loads from a `blob:` address of the page's own, so nothing leaves
/// the browser.
fn draw_png(svg: String, width: f64, height: f64, file: String) -> Result<(), String> {
    let failed = || "The graph could not be drawn as PNG.".to_owned();
    let parts = js_sys::Array::of1(&JsValue::from_str(&svg));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("image/svg+xml");
    let blob =
        web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(|_| failed())?;
    let url = Url::create_object_url_with_blob(&blob).map_err(|_| failed())?;
    let image = HtmlImageElement::new().map_err(|_| failed())?;
    let loaded = image.clone();
    let address = url.clone();
    let on_load = Closure::once_into_js(move || {
        let _ = Url::revoke_object_url(&address);
        let Some(canvas) = document()
            .create_element("canvas")
            .ok()
            .map(JsCast::unchecked_into::<HtmlCanvasElement>)
        else {
            return;
        };
        canvas.set_width((width * PNG_SCALE).ceil() as u32);
        canvas.set_height((height * PNG_SCALE).ceil() as u32);
        let Some(context) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        let _ = context.scale(PNG_SCALE, PNG_SCALE);
        let _ = context
            .draw_image_with_html_image_element_and_dw_and_dh(&loaded, 0.0, 0.0, width, height);
        let save = Closure::once_into_js(move |blob: Option<web_sys::Blob>| {
            if let Some(blob) = blob {
                let _ = download_blob(&file, &blob);
            }
        });
        let _ = canvas.to_blob(save.unchecked_ref());
    });
    image.set_onload(Some(on_load.unchecked_ref()));
    image.set_src(&url);
    Ok(())
}

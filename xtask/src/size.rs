//! The playground's download budgets, checked after a release build
//! (`trunk build --release --offline`). Prints every file of dist/ with its
//! raw and gzipped size (the zopfli gzip the build wrote beside it,
//! FILE.gz, which a host sends as it is; `gzip -9` for a file without one),
//! then the gzipped total of the app: the files a visit to the playground
//! downloads (those index.html names: its HTML, JavaScript, CSS and wasm),
//! and of the reading view a shared link opens, the docs-site viewer and
//! the embed page. Fails when a total passes its budget.
//!
//! Not counted in the app's budget, but listed:
//! - fonts (woff2): already compressed (gzip gains nothing) and fetched in
//!   parallel with the app; their sizes are printed as a separate total;
//! - files no playground visit downloads: the reading view's before its
//!   trust banner shows (opb-read-*.js, opb-glance-core-*.js and .wasm, and
//!   the viewer's stylesheet) and after (opb-read-core-*.js and .wasm, the
//!   whole view's build, printed beside), the viewer docs sites embed (opb-viewer.js,
//!   opb-viewer.css, opb-viewer-core-*.js and .wasm) and the embed page
//!   (embed.html, opb-embed.js, opb-embed-core-*.js and .wasm, and the
//!   viewer's stylesheet), which have budgets of their own below.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::shell::{cmd, read, root, Result};

/// Gzipped bytes of the app. The target is 450 KB (460,800 bytes) and is
/// not met: the app is about 897.5 KB gzipped, the wasm 727 KB of it and the
/// CodeMirror bundle 137 KB (docs/performance.md, "Download size": the gap
/// and the plan). The last growth (39 KB) is the editor's conventions: the
/// command palette and the shortcut sheet, the quick fixes on the squiggle
/// and in the list, Fix all certain, the rule's way back to its problem
/// (about 34 KB, nearly all of it Leptos's views and callbacks), and the
/// tab strip's arrows, the first tab chosen by the document and the
/// problems' order (about 4 KB); since then, 1.3 KB for cutting a piece of
/// a credential that a message quotes apart from it. The budget sits 0.17%
/// above, so that any growth fails the test command and is looked at
/// before it is accepted.
const APP_BUDGET: u64 = 878 * 1024;

/// Gzipped bytes of the viewer a docs page with one <opb-viewer> downloads:
/// the element's script and stylesheet, the viewer's loader and wasm. The
/// target for the whole cold page is 300 KB (307,200 bytes); the viewer is
/// about 298.4 KB gzipped, its wasm 288.1 KB (wasm-opt keeps a function
/// called from one place out of its caller: js/build-viewer.mjs). Served
/// in brotli, as the benchmark serves it, it is 259 KB (docs/performance.md,
/// "The docs-site viewer"). The budget sits 0.19% above.
const VIEWER_BUDGET: u64 = 292 * 1024;

/// Gzipped bytes of the reading view a shared link opens, before its
/// trust banner is on screen: the page (index.html, which holds the router
/// and the reading view's stylesheet), the reading view's script (the
/// element and js/reading.js), the viewer's stylesheet, and the banner's
/// loader and wasm (the viewer's `glance` build: opb-share's reading of
/// links but for the inflating, a playbook's analysis and trust summary,
/// no graph layout, no panels and no plugin manifest rules). About
/// 212.1 KB; the budget sits 0.42% above. The whole view's build follows
/// the banner and is printed beside. A host that sends the build's brotli
/// sends less (below).
const READING_BUDGET: u64 = 208 * 1024;

/// The same bytes in brotli, as the phone benchmark receives them
/// (`cargo xtask bench link`). The target is 200 KB, what arrives within
/// 2.5 s on DevTools' Slow 4G (two round trips of 562.5 ms, then 180 KB/s,
/// then the wasm's start on a slow CPU). It is about 186.8 KB: the
/// banner's build leaves out the checking of plugin manifests (44 KB; a
/// manifest's banner comes with the whole view), and wasm-opt keeps a
/// function called from one place out of its caller (8.7 KB). The budget
/// sits 0.33% above, under the target.
const READING_BROTLI_BUDGET: u64 = 183 * 1024;

/// Gzipped bytes of the embed page (what an <iframe> of it downloads): its
/// HTML and script, the viewer's stylesheet, the embed's loader and wasm
/// (the viewer's, and opb-share's reading of links and messages). About
/// 325.0 KB; the budget sits 0.19% above.
const EMBED_BUDGET: u64 = 318 * 1024;

pub fn check_size(args: &[String]) -> Result {
    let dist = args.first().map_or_else(|| root().join("dist"), PathBuf::from);
    let index = dist.join("index.html");
    if !index.is_file() {
        return Err(format!(
            "no {}; build first (trunk build --release --offline)",
            index.display()
        ));
    }
    let loaded = loaded_by(&read(&index)?);

    let mut names: Vec<String> = std::fs::read_dir(&dist)
        .map_err(|e| format!("{}: {e}", dist.display()))?
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.path().is_file())
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| !name.ends_with(".gz") && !name.ends_with(".br"))
        .collect();
    names.sort();

    // Raw, gzipped and brotli bytes of each total a file is counted in.
    let mut totals = [(0, 0, 0); 7];
    eprintln!("{:<44} {:>10} {:>10} {:>10}  counted", "file", "bytes", "gzipped", "brotli");
    for name in &names {
        let file = dist.join(name);
        let raw = std::fs::metadata(&file).map_err(|e| format!("{}: {e}", file.display()))?.len();
        let gz = gzipped(&file)?;
        let br = brotli(&file, raw)?;
        let (counted, label) = counted_in(name, &loaded);
        for &total in counted {
            totals[total].0 += raw;
            totals[total].1 += gz;
            totals[total].2 += br;
        }
        eprintln!("{name:<44} {raw:>10} {gz:>10} {br:>10}  {label}");
    }
    let [(app_raw, app_gz, app_br), (_, reading_gz, reading_br), (_, viewer_gz, viewer_br), (_, embed_gz, embed_br), (font_raw, _, _), (_, other_gz, _), (_, whole_gz, whole_br)] =
        totals;
    eprintln!(
        "\napp total: {app_raw} bytes, {app_gz} gzipped (budget {APP_BUDGET}), {app_br} brotli; fonts {font_raw} bytes; other files {other_gz} gzipped"
    );
    eprintln!("reading view total before its banner: {reading_gz} gzipped (budget {READING_BUDGET}), {reading_br} brotli (budget {READING_BROTLI_BUDGET}); then its whole view: {whole_gz} gzipped, {whole_br} brotli");
    eprintln!("viewer total: {viewer_gz} gzipped (budget {VIEWER_BUDGET}), {viewer_br} brotli");
    eprintln!("embed page total: {embed_gz} gzipped (budget {EMBED_BUDGET}), {embed_br} brotli");
    fragment_core()?;

    let mut failures = Vec::new();
    if app_gz > APP_BUDGET {
        failures
            .push(format!("the app is {app_gz} bytes gzipped, over its budget of {APP_BUDGET}"));
    }
    if reading_br > READING_BROTLI_BUDGET {
        failures.push(format!(
            "the reading view is {reading_br} bytes in brotli, over its budget of {READING_BROTLI_BUDGET}"
        ));
    }
    for (what, total, budget) in [
        ("reading view", reading_gz, READING_BUDGET),
        ("viewer", viewer_gz, VIEWER_BUDGET),
        ("embed page", embed_gz, EMBED_BUDGET),
    ] {
        if total == 0 {
            failures.push(format!(
                "no files of the {what} in {} (js/build-viewer.mjs writes them)",
                dist.display()
            ));
        } else if total > budget {
            failures
                .push(format!("the {what} is {total} bytes gzipped, over its budget of {budget}"));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; "))
    }
}

/// Prints the size of the npm package's Markdown plugins' wasm (the
/// viewer's `fragment` build, js/build-viewer.mjs), when `cargo xtask
/// package viewer` has written it: run in Node at a docs site's build, never
/// downloaded by a page, so it has no budget; an npm install fetches it.
fn fragment_core() -> Result {
    let package = root().join("target/npm/opb-viewer");
    let Ok(entries) = std::fs::read_dir(&package) else { return Ok(()) };
    for entry in entries.filter_map(|entry| entry.ok()) {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("opb-fragment-core-") && name.ends_with(".wasm") {
            let raw = entry.metadata().map_err(|e| format!("{name}: {e}"))?.len();
            let gz = gzipped(&entry.path())?;
            eprintln!("npm package's Markdown plugins' wasm ({name}, Node only, no budget): {raw} bytes, {gz} gzipped");
        }
    }
    Ok(())
}

const APP: usize = 0;
const READING: usize = 1;
const VIEWER: usize = 2;
const EMBED: usize = 3;
const FONTS: usize = 4;
const OTHER: usize = 5;
const READING_AFTER: usize = 6;

/// The totals a file of the build counts in, and how the listing says so.
fn counted_in(name: &str, loaded: &BTreeSet<String>) -> (&'static [usize], &'static str) {
    if name == "opb-viewer.css" {
        (&[VIEWER, EMBED, READING], "viewer, embed, reading")
    } else if name.starts_with("opb-read-core-") {
        (&[READING_AFTER], "reading, after its banner")
    } else if name.starts_with("opb-read-") || name.starts_with("opb-glance-core-") {
        (&[READING], "reading")
    } else if name == "index.html" {
        (&[APP, READING], "app, reading")
    } else if name == "opb-viewer.js" || name.starts_with("opb-viewer-core-") {
        (&[VIEWER], "viewer")
    } else if name == "embed.html" || name == "opb-embed.js" || name.starts_with("opb-embed-core-")
    {
        (&[EMBED], "embed")
    } else if loaded.contains(name) {
        (&[APP], "app")
    } else if name.ends_with(".woff2") {
        (&[FONTS], "font (not in budget)")
    } else {
        (&[OTHER], "not loaded by the playground")
    }
}

/// The files index.html refers to by a local address (href, src, data-js,
/// data-wasm), fonts aside.
fn loaded_by(html: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for attribute in ["href=\"", "src=\"", "data-js=\"", "data-wasm=\""] {
        for (at, _) in html.match_indices(attribute) {
            let value = &html[at + attribute.len()..];
            let Some(end) = value.find('"') else { continue };
            let value = value[..end].trim_start_matches('/');
            if !value.is_empty() && !value.contains(':') && !value.ends_with(".woff2") {
                names.insert(value.to_string());
            }
        }
    }
    names
}

/// The bytes a host sends of FILE gzipped: the build's FILE.gz, else
/// `gzip -9`'s.
fn gzipped(file: &Path) -> Result<u64> {
    let mut gz = file.as_os_str().to_owned();
    gz.push(".gz");
    if let Ok(meta) = std::fs::metadata(&gz) {
        return Ok(meta.len());
    }
    let mut gzip = cmd("gzip", ["-9", "-c"]);
    gzip.arg(file);
    let out = gzip.output().map_err(|e| format!("gzip: {e}"))?;
    if !out.status.success() {
        return Err(format!("gzip -9 {} failed", file.display()));
    }
    Ok(out.stdout.len() as u64)
}

/// The bytes a host sends of FILE in brotli: the build's FILE.br. A woff2
/// font is compressed already and sent as it is (RAW bytes).
fn brotli(file: &Path, raw: u64) -> Result<u64> {
    if file.extension().is_some_and(|e| e == "woff2") {
        return Ok(raw);
    }
    let mut br = file.as_os_str().to_owned();
    br.push(".br");
    std::fs::metadata(&br).map(|meta| meta.len()).map_err(|e| {
        format!(
            "{}: {e} (a release build writes each file's brotli beside it: js/build-viewer.mjs)",
            Path::new(&br).display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::loaded_by;

    #[test]
    fn the_files_a_page_names_by_a_local_address() {
        let html = r#"<link href="/style-1.css"><script src="boot.js" data-js="/opb-app-2.js" data-wasm="/opb-app-2_bg.wasm"></script>
<link href="https://example.invalid/x.css"><link href="/font.woff2">"#;
        let names: Vec<_> = loaded_by(html).into_iter().collect();
        assert_eq!(names, ["boot.js", "opb-app-2.js", "opb-app-2_bg.wasm", "style-1.css"]);
    }
}

//! `opb render`: a playbook's step graph as a standalone SVG, drawn by
//! `opb-render` from the core's explain view as the playground draws it, a
//! document's HTML report, or a fragment of a docs page.

use crate::args::{RenderArgs, RenderFormat};
use crate::input;
use crate::output::Output;
use crate::{convert, Status};
use opb_core::explain::Explain;

pub fn run(args: &RenderArgs, output: &mut Output) -> Status {
    let Some((input, analysis)) = input::analyze(&args.path, &args.read, output) else {
        return Status::Failed;
    };
    let name = &input.name;
    let drawn = match (&analysis.explain, args.format) {
        (_, RenderFormat::Fragment) => {
            let dark = match opb_render::fragment::DarkSelector::new(&args.dark_selector) {
                Ok(dark) => dark,
                Err(refused) => {
                    output.error(format!("opb cannot write a fragment: {refused}"));
                    return Status::Failed;
                }
            };
            if args.strict {
                if let Some(failure) = opb_render::fragment::strict_failure(name, &analysis) {
                    let mut lines = failure.into_iter();
                    output.error(lines.next().unwrap_or_default());
                    lines.for_each(|line| output.note(line));
                    return Status::Errors;
                }
            }
            let options = opb_render::fragment::Options {
                view: args.view.into(),
                theme: args.theme.into(),
                dark,
                interactive: args.interactive,
            };
            let kind = args.read.kind.map(Into::into);
            Ok(opb_render::fragment::fragment(name, &input.text, &analysis, kind, &options))
        }
        (Some(Explain::Playbook(explain)), RenderFormat::Svg) => {
            opb_render::svg::graph(explain, args.theme.into()).map_err(|why| format!("opb cannot draw {name}: {why}"))
        }
        (Some(Explain::PluginManifest(_)), RenderFormat::Svg) => Err(format!(
            "opb cannot draw {name}: it is a plugin manifest, which has no step graph; `opb explain {name}` describes its tools"
        )),
        (_, RenderFormat::Html) => opb_render::html::report(name, &analysis, args.theme.into()).ok_or_else(|| {
            format!("opb cannot report on {name}: it could not be read as a playbook or a plugin manifest; `opb check {name}` shows why")
        }),
        (None, RenderFormat::Svg) => Err(format!("opb cannot draw {name}: it could not be read as a playbook; `opb check {name}` shows why")),
    };
    match drawn {
        Ok(svg) => match &args.output {
            None => {
                output.print(&svg);
                Status::Clean
            }
            Some(path) => convert::write(path, &svg, output),
        },
        Err(why) => {
            output.error(why);
            Status::Errors
        }
    }
}

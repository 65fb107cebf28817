//! `opb explain`: what a document lets each step do and what it requires
//! (playbooks), or what each tool runs (plugin manifests); with `--paths`,
//! a playbook's risk paths. The core builds the explanation; this module
//! only renders it.

mod terminal_page;

use crate::args::{ExplainArgs, ExplainFormat};
use crate::output::Output;
use crate::{input, Status};
use opb_core::explain::Explain;
use opb_core::Analysis;
use opb_render::explain::Page;
use opb_render::words::plural;
use terminal_page::TerminalPage;

pub fn run(args: &ExplainArgs, output: &mut Output) -> Status {
    let Some((input, analysis)) = input::analyze(&args.path, &args.read, output) else {
        return Status::Failed;
    };
    if args.paths {
        return risk_paths(&input.name, &analysis, args.format, output);
    }
    match args.format {
        ExplainFormat::Json => output.print(&crate::check::to_json(&analysis.explain)),
        ExplainFormat::Human => output.print_for_people(&human(&input.name, &analysis)),
    }
    // Explaining is the job here, not judging: a document with errors that
    // could still be explained exits 0; `opb check` gives the verdict.
    if analysis.explain.is_some() {
        Status::Clean
    } else {
        Status::Errors
    }
}

/// `--paths`: the risk paths of a playbook. Like the explanation, they are
/// not a verdict: exit 0 whenever they could be walked.
fn risk_paths(
    name: &str,
    analysis: &Analysis,
    format: ExplainFormat,
    output: &mut Output,
) -> Status {
    let (Some(paths), Some(Explain::Playbook(explain))) =
        (opb_core::risk_paths(analysis), &analysis.explain)
    else {
        let why = match analysis.explain {
            Some(Explain::PluginManifest(_)) => {
                format!("it is a plugin manifest, and only a playbook's steps form paths; `opb explain {name}` describes its tools")
            }
            _ => format!("it could not be read as a playbook; `opb check {name}` shows why"),
        };
        output.error(format_args!("no risk paths in {name}: {why}"));
        return Status::Failed;
    };
    match format {
        ExplainFormat::Json => output.print(&crate::check::to_json(&paths)),
        ExplainFormat::Human => {
            let mut page = TerminalPage::default();
            opb_render::explain::paths::render(name, explain, &paths, &mut page);
            output.print_for_people(&page.finish());
        }
    }
    Status::Clean
}

fn human(name: &str, analysis: &Analysis) -> String {
    let mut page = TerminalPage::default();
    match &analysis.explain {
        Some(Explain::Playbook(explain)) => opb_render::explain::playbook::render(name, explain, &mut page),
        Some(Explain::PluginManifest(explain)) => opb_render::explain::manifest::render(name, explain, &mut page),
        None => page.paragraph(
            0,
            &format!(
                "opb cannot explain {name}: it could not read it as a playbook or a plugin manifest. `opb check {name}` shows why; if it is one of them, say which with `--kind playbook` or `--kind plugin`."
            ),
        ),
    }
    page.blank();
    let counts = analysis.checked.counts;
    let problems = if counts == opb_core::Counts::default() {
        "`opb check` finds no problems in it.".to_owned()
    } else {
        format!(
            "`opb check` reports {}, {} and {} in it.",
            plural(counts.error, "error", "errors"),
            plural(counts.warning, "warning", "warnings"),
            plural(counts.info, "info", "infos"),
        )
    };
    page.paragraph(0, &problems);
    page.finish()
}

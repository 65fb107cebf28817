//! The app: wires the editor, the check of its text, the header, toolbar and
//! panels. State lives in signals here; each panel is its own module.

use super::diagnostics::{count_of, DiagnosticsPanel, EntryActions, Jump, SEVERITIES};
use super::editor::{Assist, Editor, EditorHandle};
use super::header::Header;
use super::keys::{self, Command, KeyActions, Keys, Palette, ShortcutSheet};
use super::rules_panel::RulesPanel;
use super::split::{self, Splitter};
use super::tab_strip::TabStrip;
use super::toolbar::{Notice, Toolbar};
use crate::checker::{self, Report};
use crate::examples;
// The document session, the drafts, the menus and notices over them, files
// and themes.
use super::document::DocumentState;
use super::drafts_menu::DraftsMenu;
use super::files::{FileDrop, OpenFileButton};
use super::notices::SessionNotices;
use super::session::incoming::Incoming;
use super::session::notice::Opened;
use super::session::start::Start;
use super::session::Session;
use super::share::ShareMenu;
use super::theme::{self, ThemeState, ThemeToggle};
use super::trust_banner::TrustBanner;
use crate::embed_code::PageOptions;
use crate::format::{human_size, plural, renamed, syntax_label};
use crate::route::Route;
use crate::schedule::{debounce_ms, is_large};
use opb_core::pause::Slices;
// The panels: graph, tools, requires, manifest (src/ui/panels).
use super::compare::{ComparePanel, CompareState};
use super::panels::risk_paths::{RiskPathsPanel, RiskPathsState, RiskPathsTab};
use super::panels::{selection::Target, Panel, PanelTabs, Panels};
use super::registry::{RegistryControl, RegistryState};
use futures_util::future::{abortable, AbortHandle};
use gloo_timers::callback::Timeout;
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use opb_core::explain::Explain;
use opb_core::{Kind, Limits, Severity, Syntax};
use std::sync::Arc;

/// The page's clock, in milliseconds: the time a check took, and the clock
/// of one run in slices.
fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// A check running in slices; dropping it stops the check.
struct Running(AbortHandle);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The app, opening with the document `start` holds: a link's, a draft, or
/// the default example (`session::start::start`).
#[component]
pub fn App(start: Start) -> impl IntoView {
    let all_examples = examples::all();
    let first = start.incoming.clone();
    let example_named = |name: &str, text: &str| {
        examples::named(name).filter(|e| e.text == text).map(|e| e.name.to_owned())
    };

    let editor = EditorHandle::default();
    let report = RwSignal::new(None::<Arc<Report>>);
    let panels = Panels::new(report.into(), editor);
    if let Some(step) = start.step.clone() {
        panels.selection.choose(Some(Target::Step(step)));
    }
    let risk_paths = RiskPathsState::new(panels);
    let registry = RegistryState::restore();
    provide_context(registry);
    let compare = CompareState::default();
    // Whether the Diagnostics panel lists in the text's order.
    let line_order = RwSignal::new(false);
    // A jump to a diagnostic moves the editor and selects its step or tool.
    let jump = move |jump: Jump| {
        editor.select(jump.from, jump.to);
        panels.follow_jump(jump);
    };
    let kind_choice = RwSignal::new(first.kind);
    let name = RwSignal::new(first.name.clone());
    let selected_example =
        RwSignal::new(example_named(&first.name, &first.text).unwrap_or_default());
    let edited = RwSignal::new(first.edited);
    let cursor = RwSignal::new((1u32, 1u32));
    // The last check's time (ms) and how many slices it ran in.
    let elapsed = RwSignal::new(None::<(f64, u32)>);
    // How many checks have run: tests wait on it; `checking` is set while a
    // large text waits for its check.
    let checks = RwSignal::new(0u64);
    let checking = RwSignal::new(false);
    // Set while a large text is checked in slices (`running`).
    let slicing = RwSignal::new(false);
    let notice = RwSignal::new(None::<Notice>);
    let share = RwSignal::new(split::DEFAULT);
    let route = RwSignal::new(start.route.clone().unwrap_or(Route::Diagnostics));
    let tab_chosen = RwSignal::new(start.route.is_some());
    // Set while the document opened has not been checked yet: its first
    // check picks the tab that matters for it, unless one was chosen.
    let opening = StoredValue::new(true);
    let pending = StoredValue::new_local(None::<Timeout>);
    let running = StoredValue::new_local(None::<Running>);
    let notice_timer = StoredValue::new_local(None::<Timeout>);
    // Set while the app itself replaces the text, so that is not an edit.
    let replacing = StoredValue::new(false);
    // Whether the report is of the editor's text (hover reads its analysis),
    // and the kind the text was last read as (a text being typed often does
    // not parse, and then has none).
    let fresh = StoredValue::new(false);
    let known_kind = StoredValue::new(None::<Kind>);

    let show = move |checked: Report| {
        editor.show(&checked.located);
        let syntax = checked.analysis.checked.syntax;
        editor.set_syntax(syntax);
        // Text of the other syntax pasted over an example is another document.
        if edited.get_untracked() && name.with_untracked(|n| Syntax::from_path(n) != Some(syntax)) {
            name.set(renamed("untitled", syntax));
            selected_example.set(String::new());
        }
        if let Some(kind) = checked.analysis.checked.kind {
            known_kind.set_value(Some(kind));
        }
        fresh.set_value(true);
        if opening.get_value() {
            opening.set_value(false);
            if !tab_chosen.get_untracked() {
                route.set(Route::first_view(&checked.analysis));
            }
        }
        report.set(Some(Arc::new(checked)));
        checking.set(false);
        checks.update(|n| *n += 1);
    };
    // Stops a check running in slices: an edit or another check replaces it.
    let stop_running = move || {
        running.set_value(None);
        if slicing.get_untracked() {
            slicing.set(false);
        }
    };
    let run_check = move || {
        pending.set_value(None);
        stop_running();
        let (kind, loaded) = (kind_choice.get_untracked(), registry.current());
        if editor.length().is_none_or(|length| !is_large(length)) {
            let Some((checked, took)) = editor.with_text(|text| {
                let started = now_ms();
                let checked = checker::check_with(text, kind, loaded);
                (checked, now_ms() - started)
            }) else {
                return;
            };
            elapsed.set(Some((took, 1)));
            show(checked);
            return;
        }
        // A large text's check takes up to hundreds of milliseconds (a 5 MB
        // YAML text), and the update of the page it causes tens: it is
        // checked in slices, the page handling keys between them, and its
        // results are shown in a task of their own. An edit or another check
        // stops it (`stop_running`): its check replaces it.
        let Some(text) = editor.text() else { return };
        slicing.set(true);
        let (check, handle) = abortable(async move {
            let slices = Slices::new(now_ms);
            let checked = checker::check_pausing(&text, kind, loaded, || {
                slices.pause(|| TimeoutFuture::new(0))
            })
            .await;
            let took = (slices.working(), slices.count());
            TimeoutFuture::new(0).await;
            slicing.set(false);
            elapsed.set(Some(took));
            show(checked);
        });
        running.set_value(Some(Running(handle)));
        leptos::task::spawn_local(async move {
            let _ = check.await;
        });
    };
    let on_change = move |length: u32| {
        fresh.set_value(false);
        if replacing.get_value() {
            return;
        }
        edited.set(true);
        if is_large(length) {
            checking.set(true);
        }
        stop_running();
        match debounce_ms(length) {
            // After the editor's update is over: the check dispatches to it.
            None => {
                pending.set_value(None);
                queue_microtask(run_check);
            }
            Some(wait) => pending.set_value(Some(Timeout::new(wait, run_check))),
        }
    };
    let replace = move |text: &str| {
        replacing.set_value(true);
        editor.replace_text(text);
        replacing.set_value(false);
        run_check();
    };
    // Completion reads the text near the cursor, never a check; hover reads
    // the latest analysis, while it is of the current text, and not in a
    // large text, where finding the place parses all of it.
    let assist = Assist {
        complete: Callback::new(move |at: u32| {
            let kind = kind_choice.get_untracked().or(known_kind.get_value())?;
            let syntax =
                report.with_untracked(|r| r.as_ref().map(|r| r.analysis.checked.syntax))?;
            editor.with_text(|text| crate::assist::complete(text, kind, syntax, at)).flatten()
        }),
        hover: Callback::new(move |at: u32| {
            if !fresh.get_value() || editor.length().is_none_or(is_large) {
                return None;
            }
            let report = report.get_untracked()?;
            editor.with_text(|text| crate::assist::hover(&report.analysis, text, at)).flatten()
        }),
    };
    let say = move |n: Notice| {
        notice.set(Some(n));
        notice_timer.set_value(Some(Timeout::new(8_000, move || notice.set(None))));
    };

    Effect::new(move |previous: Option<Option<Kind>>| {
        let choice = kind_choice.get();
        if previous.is_some_and(|p| p != choice) {
            run_check();
        }
        choice
    });
    // A registry loaded or removed changes the findings.
    Effect::new(move |previous: Option<()>| {
        registry.track();
        if previous.is_some() {
            run_check();
        }
    });

    let transform = move |target: Option<Syntax>| {
        let Some(text) = editor.text() else { return };
        let from = report.with_untracked(|r| {
            r.as_ref().map_or_else(|| Syntax::sniff(&text), |r| r.analysis.checked.syntax)
        });
        let to = target.unwrap_or(from);
        match opb_convert::convert(&text, from, to, &Limits::default()) {
            Ok(converted) => {
                name.update(|n| *n = renamed(n, to));
                replace(&converted.text);
                let did = if to == from {
                    "Formatted".to_owned()
                } else {
                    format!("Converted to {}", syntax_label(to))
                };
                let text = match converted.comments_note() {
                    None => format!("{did}. Undo with Ctrl+Z."),
                    Some(note) => format!("{did}. {note}: undo with Ctrl+Z."),
                };
                say(Notice { error: false, text });
            }
            Err(error) => say(Notice { error: true, text: error.to_string() }),
        }
    };

    // The document session: links, drafts, files (src/ui/session).
    let open_document = move |incoming: Incoming| {
        selected_example.set(example_named(&incoming.name, &incoming.text).unwrap_or_default());
        name.set(incoming.name);
        notice.set(None);
        kind_choice.set(incoming.kind);
        opening.set_value(true);
        replace(&incoming.text);
        if let Some(selection) = incoming.selection {
            editor.set_selection(selection);
        }
        edited.set(incoming.edited);
    };
    let document_state =
        DocumentState { editor, report, fresh, kind_choice, name, edited, route, tab_chosen };
    let session = Session::new(document_state, Callback::new(open_document), start, checks.into());
    // An example or a file over edited work keeps that work, as a link does.
    let load_example = move |example_name: String| {
        if let Some(example) = examples::named(&example_name) {
            let name = example.name.to_owned();
            session.replace(Incoming::opened(example.text, name.clone()), Opened::Example(name));
        }
    };
    let open_file = move |opened: Result<crate::files::Opened, String>| match opened {
        Ok(file) => {
            session
                .replace(Incoming::opened(file.text, file.name.clone()), Opened::File(file.name));
        }
        Err(reason) => say(Notice { error: true, text: reason }),
    };
    let editor_text = Callback::new(move |()| editor.text());

    // Quick fixes: the core's edits, applied as the author's own.
    let fix_all = move || {
        let (kind, loaded) = (kind_choice.get_untracked(), registry.current());
        match editor.with_text(|text| checker::fix_all(text, kind, loaded)).flatten() {
            Some(fix) => {
                editor.apply(&fix);
                say(Notice {
                    error: false,
                    text: "Applied every certain fix. Undo with Ctrl+Z.".to_owned(),
                });
            }
            None => say(Notice { error: false, text: "No certain fix to apply.".to_owned() }),
        }
    };
    // The problem whose rule link was followed, for the rule's way back.
    let rule_origin = RwSignal::new(None::<(&'static str, Jump)>);
    let follow_rule = move |at: Jump| {
        let code = report.with_untracked(|r| {
            r.as_ref()?
                .located
                .iter()
                .find(|l| l.from == at.from && l.to == at.to)
                .map(|l| l.diagnostic.code)
        });
        rule_origin.set(code.map(|code| (code, at)));
    };
    let keep = move || {
        let text = if !session.drafts.available() {
            "This browser gives the page no storage: download your document to keep it."
        } else if session.drafts.keep() {
            "Draft kept in this browser: it reopens with this page."
        } else {
            "Nothing to keep yet: the document is as it opened. Edits are kept as you type."
        };
        say(Notice { error: false, text: text.to_owned() });
    };
    let keys = Keys::listen(KeyActions {
        keep: Callback::new(move |()| keep()),
        step_problem: Callback::new(move |forward| editor.step_problem(forward)),
        hover: Callback::new(move |()| editor.hover_at_cursor()),
    });
    let click = |selector: &'static str| {
        move || {
            if let Some(element) = document()
                .query_selector(selector)
                .ok()
                .flatten()
                .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
            {
                element.click();
            }
        }
    };
    let go = |hash: &'static str| {
        move || {
            let _ = window().location().set_hash(hash);
        }
    };
    let palette_examples = all_examples.iter().map(|e| e.name).collect::<Vec<_>>();
    let theme_state = document().document_element().map(|root| {
        ThemeState::new(
            theme::initial(
                PageOptions::from_query(&window().location().search().unwrap_or_default()).theme,
            ),
            root,
            true,
        )
    });

    let syntax = Signal::derive(move || {
        report.with(|r| r.as_ref().map(|r| r.analysis.checked.syntax)).unwrap_or(Syntax::Json)
    });
    // The page's one count of the problems: the Diagnostics tab's, in the
    // colour of the most severe, each severity's count in its title (and
    // as the panel's filters).
    let diagnostics_count = move || report.with(|r| r.as_ref().map_or(0, |r| r.located.len()));
    let worst = move || {
        report.with(|r| {
            let report = r.as_deref()?;
            SEVERITIES.into_iter().find(|&s| count_of(report, s) > 0).map(Severity::as_str)
        })
    };
    let counts_said = move || {
        report.with(|r| {
            let report = r.as_deref()?;
            Some(SEVERITIES.map(|s| plural(s, count_of(report, s))).join(", "))
        })
    };
    let initial_syntax =
        Syntax::from_path(&first.name).unwrap_or_else(|| Syntax::sniff(&first.text));
    let initial_text = first.text.clone();
    let hint_parent = NodeRef::<leptos::html::Span>::new();
    let commands = move |()| {
        let other = crate::format::other(syntax.get_untracked());
        let mut list = vec![
            Command::new("Format the document", move || transform(None)),
            Command::new(format!("Convert to {}", syntax_label(other)), move || {
                transform(Some(other))
            }),
            Command::new("Fix all certain problems", fix_all),
            Command::new("Next problem", move || editor.step_problem(true)).keys(keys::NEXT_KEYS),
            Command::new("Previous problem", move || editor.step_problem(false))
                .keys(keys::PREVIOUS_KEYS),
            Command::new("Keep the draft now", keep).keys(keys::KEEP_KEYS),
            Command::new("Copy link", move || {
                click("[data-testid=share]")();
                // The menu's button is drawn on the next frame.
                let copy = click("[data-testid=copy-link]");
                request_animation_frame(copy);
            }),
            Command::new("Open a file…", click("[data-testid=open-file]")),
            Command::new("Drafts…", click("[data-testid=drafts]")),
            Command::new(
                "Switch theme (automatic, light, dark)",
                click("[data-testid=theme-toggle]"),
            ),
            Command::new("Keyboard shortcuts", move || keys.open(keys.sheet))
                .keys(keys::SHEET_KEYS),
            Command::new("Go to tab: Diagnostics", go("diagnostics")),
            Command::new("Go to tab: Graph", go("graph")),
            Command::new("Go to tab: Tools", go("tools")),
            Command::new("Go to tab: Requires", go("requires")),
            Command::new("Go to tab: Manifest", go("manifest")),
            Command::new("Go to tab: Risk paths", go("paths")),
            Command::new("Go to tab: Compare", go("compare")),
            Command::new("Go to tab: Rules", go("rules")),
        ];
        list.extend(palette_examples.iter().map(|&example| {
            Command::new(format!("Open example: {example}"), move || {
                load_example(example.to_owned())
            })
        }));
        report.with_untracked(|r| {
            if let Some(Explain::Playbook(playbook)) =
                r.as_ref().and_then(|r| r.analysis.explain.as_ref())
            {
                list.extend(playbook.steps.iter().filter_map(|step| step.id.clone()).map(|id| {
                    let target = id.to_string();
                    Command::new(format!("Go to step: {id}"), move || {
                        go("graph")();
                        panels.selection.choose(Some(Target::Step(target.clone())));
                    })
                }));
                list.extend(playbook.tools.iter().filter_map(|tool| tool.facts.name.clone()).map(
                    |name| {
                        Command::new(format!("Go to tool: {name}"), move || {
                            go("tools")();
                            panels.selection.choose(Some(Target::Tool(name.clone())));
                        })
                    },
                ));
            }
        });
        list.extend(opb_core::rules().map(|rule| {
            let hash = format!("rules/{}", rule.code);
            Command::new(format!("Go to rule: {} {}", rule.code, rule.name), move || {
                let _ = window().location().set_hash(&hash);
            })
        }));
        list
    };

    view! {
        <div class="app">
            <div class="app-top">
                <Header name=name edited=edited report=report kind_choice=kind_choice />
                <div class="document-actions">
                    <OpenFileButton on_open=open_file />
                    <DraftsMenu session=session />
                    <RegistryControl state=registry />
                    <ShareMenu session=session report=report name=name text=editor_text />
                    {theme_state.map(|state| view! { <ThemeToggle state=state /> })}
                </div>
                <SessionNotices session=session name=name text=editor_text />
                {move || session.arrived.get().then(|| view! {
                    <TrustBanner report=report on_dismiss=move |()| session.arrived.set(false) />
                })}
            </div>
            <main class="workspace" style=move || format!("--split: {:.2}%", share.get())>
                <section class="pane editor-pane" aria-label="Editor">
                    <Toolbar
                        examples=all_examples
                        selected=selected_example
                        syntax=syntax
                        notice=notice
                        on_example=load_example
                        on_format=move |()| transform(None)
                        on_convert=move |to| transform(Some(to))
                    />
                    <FileDrop on_open=open_file>
                        <Editor
                            handle=editor
                            initial=initial_text
                            syntax=initial_syntax
                            on_change=on_change
                            on_cursor=move |position| cursor.set(position)
                            on_rule=follow_rule
                            hint_parent=hint_parent
                            on_ready=move |()| {
                                if let Some(selection) = first.selection {
                                    editor.set_selection(selection);
                                }
                                run_check();
                            }
                            assist=assist
                        />
                    </FileDrop>
                </section>
                <Splitter share=share />
                <section class="pane side-pane" aria-label="Panels">
                    <TabStrip route=route changed=checks>
                        <a
                            role="tab"
                            href="#diagnostics"
                            data-testid="tab-diagnostics"
                            aria-selected=move || (route.get() == Route::Diagnostics).to_string()
                        >
                            "Diagnostics"
                            <span class="tab-count" data-severity=worst title=counts_said>{diagnostics_count}</span>
                        </a>
                        <PanelTabs panels=panels route=route />
                        <RiskPathsTab state=risk_paths route=route />
                        <a
                            role="tab"
                            href="#compare"
                            data-testid="tab-compare"
                            title="Compare the document with an older version of it"
                            aria-selected=move || (route.get() == Route::Compare).to_string()
                        >
                            "Compare"
                        </a>
                        <a
                            role="tab"
                            href="#rules"
                            data-testid="tab-rules"
                            aria-selected=move || matches!(route.get(), Route::Rules(_)).to_string()
                        >
                            "Rules"
                        </a>
                    </TabStrip>
                    // The counts, said when they change, wherever the focus
                    // is: the tab shows them, but a tab's text is not read
                    // out as it changes.
                    <p class="visually-hidden" role="status" data-testid="counts-said">{counts_said}</p>
                    <div class="tab-panel" role="tabpanel">
                        {move || match route.get() {
                            Route::Diagnostics => view! {
                                <DiagnosticsPanel report=report actions=EntryActions {
                                    jump: Callback::new(jump),
                                    fix: Callback::new(move |fix| editor.apply(&fix)),
                                    fix_all: Callback::new(move |()| fix_all()),
                                    rule: Callback::new(follow_rule),
                                } line_order=line_order />
                            }
                            .into_any(),
                            route @ (Route::Graph | Route::Tools | Route::Requires | Route::Manifest) => view! {
                                <Panel panels=panels route=route on_jump=jump />
                            }
                            .into_any(),
                            Route::Paths => view! { <RiskPathsPanel state=risk_paths /> }.into_any(),
                            Route::Compare => view! { <ComparePanel state=compare report=report current=editor_text /> }.into_any(),
                            Route::Rules(code) => view! {
                                <RulesPanel
                                    selected=Signal::stored(code)
                                    origin=Signal::derive(move || rule_origin.get().map(|(code, _)| code))
                                    on_back=Callback::new(move |()| {
                                        if let Some((_, at)) = rule_origin.get_untracked() {
                                            jump(at);
                                        }
                                    })
                                />
                            }.into_any(),
                        }}
                    </div>
                </section>
            </main>
            <footer class="statusbar" data-checks=move || checks.get() data-slicing=move || slicing.get().then_some("")>
                <span data-testid="cursor">{move || { let (line, column) = cursor.get(); format!("Ln {line}, Col {column}") }}</span>
                <span>{move || syntax_label(syntax.get())}</span>
                <span>{move || report.with(|r| r.as_ref().map(|r| human_size(r.bytes)))}</span>
                <span
                    data-testid="elapsed"
                    data-slices=move || elapsed.get().map(|(_, slices)| slices)
                    title=move || elapsed.get().filter(|(_, slices)| *slices > 1).map(|(_, slices)| {
                        format!("Checked in {slices} slices, the page answering keys between them")
                    })
                >
                    // Safari and Firefox give the page's clock to the
                    // millisecond, so a quick check reads as 0 there.
                    {move || elapsed.get().map(|(ms, _)| if ms < 1.0 {
                        "Checked in under 1 ms".to_owned()
                    } else {
                        format!("Checked in {ms:.1} ms")
                    })}
                </span>
                {move || checking.get().then(|| view! { <span class="checking" data-testid="checking">"Checking…"</span> })}
                <span class="statusbar-keys-slot" node_ref=hint_parent></span>
                <button class="statusbar-button" data-testid="shortcuts" title="Keyboard shortcuts (?)" on:click=move |_| keys.open(keys.sheet)>
                    "Shortcuts: ?, palette: Ctrl+K"
                </button>
                <span class="statusbar-note">"Runs entirely in your browser: nothing is uploaded."</span>
            </footer>
            <Palette keys=keys commands=commands />
            <ShortcutSheet keys=keys />
        </div>
    }
}

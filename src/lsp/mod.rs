//! `opb lsp`: a language server on standard input and output, for any
//! editor with an LSP client (Neovim, Helix, VS Code through a generic
//! client). It keeps each open document's text (full sync), checks it with
//! the core on open and on every change, and pushes the diagnostics; it
//! answers hover with the core's [`opb_core::assist`] words, and offers the
//! core's certain fixes (a step id or field name one small edit away) as
//! quick fixes. Like every shell it checks nothing itself.
//!
//! What a client sends is not trusted either: the transport bounds every
//! message ([`transport`]), a notification that cannot be read is logged
//! (`window/logMessage`) and ignored, and a request that cannot be read is
//! answered with an error; none stops the server. Positions are converted
//! through one line index per text version, once for all its diagnostics,
//! so a long line costs one pass, not one per diagnostic.

mod position;
mod transport;

use crate::config::{Configs, Source};
use crate::output::Output;
use crate::Status;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, LogMessage,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{CodeActionRequest, HoverRequest, Request as _};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams,
    CodeActionProviderCapability, CodeDescription, DiagnosticRelatedInformation,
    DiagnosticSeverity, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, Hover, HoverContents, HoverParams, HoverProviderCapability,
    Location, LogMessageParams, MarkupContent, MarkupKind, MessageType, NumberOrString,
    PositionEncodingKind, PublishDiagnosticsParams, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Uri, WorkspaceEdit,
};
use opb_core::text::{LineIndex, Unit};
use opb_core::{
    analyze, Analysis, Diagnostic, Limits, Options, Registry, RuleSettings, Severity, Syntax,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where a rule's documentation is: the playground's rule page.
const RULE_DOCS: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/#rules/");

pub fn run(output: &mut Output) -> Status {
    let (connection, io) = transport::stdio();
    let served = serve(&connection);
    // The writer thread ends once the connection's sender is gone.
    drop(connection);
    let joined = io.join();
    // The transport's error first: a broken input is why serving stopped.
    match joined.map_err(|e| e.to_string()).and(served.map_err(|e| e.to_string())) {
        Ok(()) => Status::Clean,
        Err(why) => {
            output.error(format_args!("opb lsp stopped: {why}"));
            Status::Failed
        }
    }
}

fn serve(connection: &Connection) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (id, params) = connection.initialize_start()?;
    let unit = position::negotiate(&params);
    let capabilities = ServerCapabilities {
        position_encoding: Some(match unit {
            Unit::Utf8 => PositionEncodingKind::UTF8,
            _ => PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    };
    let result = serde_json::json!({
        "capabilities": capabilities,
        "serverInfo": ServerInfo { name: "opb".into(), version: Some(env!("CARGO_PKG_VERSION").into()) },
    });
    connection.initialize_finish(id, result)?;
    let mut server =
        Server { connection, unit, documents: HashMap::new(), registries: HashMap::new() };
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request)? {
                    return Ok(());
                }
                server.request(request)?;
            }
            Message::Notification(notification) => {
                let method = notification.method.clone();
                if let Err(why) = server.notification(notification) {
                    server.log(format!(
                        "opb lsp ignored a {method} notification it could not read: {why}"
                    ))?;
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}

/// An open document: its text as the client last sent it, the core's
/// analysis of it, and its diagnostics as the client reads them.
struct Document {
    uri: Uri,
    text: String,
    analysis: Analysis,
    /// The analysis's diagnostics in LSP terms, in the same order
    /// (none when the document is not ours).
    diagnostics: Vec<lsp_types::Diagnostic>,
    /// Whether it is an opb document: a detected kind, or a name of the
    /// formats (`*.opb.json`, `oz0-plugin.yaml`). Other JSON and YAML files
    /// an editor sends get no diagnostics.
    ours: bool,
}

struct Server<'c> {
    connection: &'c Connection,
    unit: Unit,
    documents: HashMap<String, Document>,
    /// The registries the settings name, each read once and again only
    /// when its file changes (its modification time or length): the
    /// settings are looked up at every change of a document, a registry's
    /// file seldom changes.
    registries: HashMap<PathBuf, (FileStamp, Arc<Registry>)>,
}

/// What says a file changed: its modification time and length.
type FileStamp = (Option<std::time::SystemTime>, u64);

type Result<T, E = Box<dyn std::error::Error + Send + Sync>> = std::result::Result<T, E>;

impl Server<'_> {
    /// Handles a notification; an error is one it could not read (the
    /// caller logs it and goes on).
    fn notification(&mut self, notification: Notification) -> Result<()> {
        match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let params: DidOpenTextDocumentParams =
                    serde_json::from_value(notification.params)?;
                self.update(
                    params.text_document.uri,
                    params.text_document.text,
                    Some(&params.text_document.language_id),
                )
            }
            DidChangeTextDocument::METHOD => {
                let params: DidChangeTextDocumentParams =
                    serde_json::from_value(notification.params)?;
                // Full sync: the last change holds the whole text.
                match params.content_changes.into_iter().last() {
                    Some(change) => self.update(params.text_document.uri, change.text, None),
                    None => Ok(()),
                }
            }
            DidCloseTextDocument::METHOD => {
                let params: DidCloseTextDocumentParams =
                    serde_json::from_value(notification.params)?;
                self.documents.remove(params.text_document.uri.as_str());
                self.publish(params.text_document.uri, Vec::new())
            }
            _ => Ok(()),
        }
    }

    fn request(&mut self, request: Request) -> Result<()> {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            HoverRequest::METHOD => {
                serde_json::from_value(request.params).map(|p| serde_json::to_value(self.hover(p)))
            }
            CodeActionRequest::METHOD => serde_json::from_value(request.params)
                .map(|p| serde_json::to_value(self.code_actions(p))),
            _ => {
                return self.respond_error(
                    id,
                    ErrorCode::MethodNotFound,
                    format!("opb lsp does not answer {}", request.method),
                )
            }
        };
        match result {
            Ok(Ok(value)) => self.send(Response::new_ok(id, value)),
            Ok(Err(why)) | Err(why) => {
                self.respond_error(id, ErrorCode::InvalidParams, why.to_string())
            }
        }
    }

    /// Tells the client something went wrong that it did not ask about.
    fn log(&self, message: String) -> Result<()> {
        let params = LogMessageParams { typ: MessageType::ERROR, message };
        let notification = Notification::new(LogMessage::METHOD.to_owned(), params);
        self.connection.sender.send(Message::Notification(notification))?;
        Ok(())
    }

    fn respond_error(&self, id: RequestId, code: ErrorCode, message: String) -> Result<()> {
        self.send(Response::new_err(id, code as i32, message))
    }

    fn send(&self, response: Response) -> Result<()> {
        self.connection.sender.send(Message::Response(response))?;
        Ok(())
    }

    fn update(&mut self, uri: Uri, text: String, language: Option<&str>) -> Result<()> {
        let name = file_name(&uri);
        let previous = self.documents.get(uri.as_str()).map(|d| d.analysis.checked.syntax);
        let syntax = Syntax::from_path(&name).or(match language {
            Some("json" | "jsonc") => Some(Syntax::Json),
            Some("yaml") => Some(Syntax::Yaml),
            _ => previous,
        });
        let (rules, registry) = self.settings(&uri)?;
        let mut analysis = analyze(
            &text,
            &Options { syntax, rules: rules.clone(), registry, ..Options::default() },
        );
        analysis.checked.accept(&text, &rules);
        let ours = analysis.checked.kind.is_some() || is_opb_name(&name);
        let diagnostics = if ours { self.diagnostics(&uri, &text, &analysis) } else { Vec::new() };
        let published = diagnostics.clone();
        let document = Document { uri: uri.clone(), text, analysis, diagnostics, ours };
        self.documents.insert(uri.as_str().to_owned(), document);
        self.publish(uri, published)
    }

    /// The rules and the registry the settings (opb.toml) give a file's
    /// document, read again at each change so an edit of the settings
    /// applies at the next; a settings file or registry that cannot be
    /// used is logged, and the document checked without it.
    fn settings(&mut self, uri: &Uri) -> Result<(RuleSettings, Option<Arc<Registry>>)> {
        let Some(path) = file_path(uri) else { return Ok(Default::default()) };
        let mut configs = Configs::new(Source::Nearest);
        let (rules, registry) = configs.applying(&path);
        for error in &configs.errors {
            self.log(format!("opb lsp: {error}"))?;
        }
        let registry = match registry {
            None => None,
            Some(path) => match self.registry(&path) {
                Ok(registry) => Some(registry),
                Err(why) => {
                    let shown = path.display();
                    self.log(format!(
                        "opb lsp: cannot read {shown}, the settings' registry: {why}"
                    ))?;
                    None
                }
            },
        };
        Ok((rules, registry))
    }

    /// The registry at `path`, read again only when its file changed.
    fn registry(&mut self, path: &Path) -> Result<Arc<Registry>, String> {
        let stamp = std::fs::metadata(path).map(|m| (m.modified().ok(), m.len())).ok();
        if let (Some(stamp), Some((read, registry))) = (stamp, self.registries.get(path)) {
            if *read == stamp {
                return Ok(registry.clone());
            }
        }
        let text = crate::input::read_text(path)?;
        let syntax = Syntax::from_path(&path.to_string_lossy());
        let registry = Arc::new(Registry::read(&text, syntax, &Limits::default()));
        if let Some(stamp) = stamp {
            self.registries.insert(path.to_path_buf(), (stamp, registry.clone()));
        }
        Ok(registry)
    }

    fn publish(&self, uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>) -> Result<()> {
        let params = PublishDiagnosticsParams { uri, diagnostics, version: None };
        let notification = Notification::new(PublishDiagnostics::METHOD.to_owned(), params);
        self.connection.sender.send(Message::Notification(notification))?;
        Ok(())
    }

    /// The analysis's diagnostics in LSP terms: every range of them placed
    /// in one sweep of one line index.
    fn diagnostics(
        &self,
        uri: &Uri,
        text: &str,
        analysis: &Analysis,
    ) -> Vec<lsp_types::Diagnostic> {
        let found = &analysis.checked.diagnostics;
        let span = |r: &opb_core::text::Range| (r.start.offset, r.end.offset);
        let spans: Vec<(usize, usize)> = found
            .iter()
            .flat_map(|d| {
                std::iter::once(span(&d.range)).chain(d.related.iter().map(|r| span(&r.range)))
            })
            .collect();
        let mut ranges = position::ranges(&LineIndex::new(text), &spans, self.unit).into_iter();
        found
            .iter()
            .map(|d| {
                let range = ranges.next().unwrap_or_default();
                let related = d.related.iter().map(|r| DiagnosticRelatedInformation {
                    location: Location {
                        uri: uri.clone(),
                        range: ranges.next().unwrap_or_default(),
                    },
                    message: r.message.clone(),
                });
                diagnostic(d, range, related.collect())
            })
            .collect()
    }

    fn hover(&self, params: HoverParams) -> Option<Hover> {
        let at = params.text_document_position_params;
        let document = self.documents.get(at.text_document.uri.as_str()).filter(|d| d.ours)?;
        let index = LineIndex::new(&document.text);
        let offset = position::offset(&index, at.position, self.unit);
        let hover = document.analysis.hover(&document.text, offset)?;
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: hover.markdown,
            }),
            range: position::ranges(&index, &[(hover.span.start, hover.span.end)], self.unit).pop(),
        })
    }

    /// A quick fix for each diagnostic over the range whose fix is certain.
    fn code_actions(&self, params: CodeActionParams) -> Vec<CodeActionOrCommand> {
        let Some(document) =
            self.documents.get(params.text_document.uri.as_str()).filter(|d| d.ours)
        else {
            return Vec::new();
        };
        let index = LineIndex::new(&document.text);
        let from = position::offset(&index, params.range.start, self.unit);
        let to = position::offset(&index, params.range.end, self.unit);
        document
            .analysis
            .checked
            .diagnostics
            .iter()
            .zip(&document.diagnostics)
            .filter(|(d, _)| d.range.start.offset <= to && from <= d.range.end.offset)
            .filter_map(|(d, diagnostic)| {
                let fix = d.edit()?.text;
                let diagnostic = diagnostic.clone();
                let edit = TextEdit { range: diagnostic.range, new_text: fix.clone() };
                Some(CodeActionOrCommand::CodeAction(CodeAction {
                    title: format!("Change to {fix}"),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![diagnostic]),
                    edit: Some(WorkspaceEdit {
                        changes: Some(HashMap::from([(document.uri.clone(), vec![edit])])),
                        ..WorkspaceEdit::default()
                    }),
                    is_preferred: Some(true),
                    ..CodeAction::default()
                }))
            })
            .collect()
    }
}

/// A diagnostic in LSP terms, placed at `range`.
fn diagnostic(
    d: &Diagnostic,
    range: lsp_types::Range,
    related: Vec<DiagnosticRelatedInformation>,
) -> lsp_types::Diagnostic {
    lsp_types::Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(d.code.to_owned())),
        code_description: format!("{RULE_DOCS}{}", d.code)
            .parse()
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some("opb".to_owned()),
        message: format!("{} ({})", d.message, d.name),
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

/// The last segment of a URI's path, percent-decoded: what the syntax and
/// the formats' names are told from.
fn file_name(uri: &Uri) -> String {
    let path = uri.path().as_str();
    let last = path.rsplit('/').next().unwrap_or(path);
    percent_encoding::percent_decode_str(last).decode_utf8_lossy().into_owned()
}

/// The file a `file:` URI names, percent-decoded.
fn file_path(uri: &Uri) -> Option<std::path::PathBuf> {
    if !uri.scheme().is_some_and(|s| s.as_str().eq_ignore_ascii_case("file")) {
        return None;
    }
    let path = percent_encoding::percent_decode_str(uri.path().as_str()).decode_utf8().ok()?;
    Some(std::path::PathBuf::from(path.as_ref()))
}

/// The names the formats' files go by, which the README's editor setups
/// and the pre-commit hooks match.
fn is_opb_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    [".opb.json", ".opb.yaml", ".opb.yml"].iter().any(|end| name.ends_with(end))
        || name == "oz0-plugin.yaml"
        || name.ends_with(".oz0-plugin.yaml")
}

#[cfg(test)]
mod tests;

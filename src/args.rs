//! The command line, as clap reads it.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

const EXAMPLES: &str = "\
Examples:
  opb check                                check every playbook and manifest under the current directory
  opb check playbook.json                  check one file, show each problem in its source
  opb check examples/*                     check several files; exit 1 if any has an error
  opb check --format sarif *.yaml > opb.sarif
                                           results for GitHub code scanning
  cat plugin.yaml | opb check --kind plugin -
                                           check standard input as a plugin manifest
  opb explain playbook.json                what each step may do, and what it requires
  opb explain --paths playbook.json        every path from the start to an end, riskiest first
  opb check --registry tools.yaml playbook.json
                                           compare the embedded tool definitions with a registry
  opb diff --format markdown old.json new.json
                                           what a new version may do that the old could not
  opb rules                                list every rule
  opb rules PB213                          why a rule exists and how to fix a finding
  opb convert --to yaml playbook.json      the same document in YAML
  opb fmt --check playbooks/*.json         exit 1 if a file is not formatted
  opb render playbook.json -o graph.svg    the step graph as a standalone SVG
  opb render --format html playbook.json   a self-contained HTML report

Exit status:
  0  no errors (warnings and infos may have been reported)
  1  at least one error was reported (opb diff: what --fail-on names changed)
  2  opb could not run: bad arguments, or a file that could not be read
     (missing, not UTF-8 text)";

/// Check and explain OpenPlaybook documents and Orchestrator Zero plugin
/// manifests.
#[derive(Debug, Parser)]
#[command(name = "opb", version, after_help = EXAMPLES, max_term_width = 100)]
pub struct Cli {
    /// When to colour the output. `auto` colours only a terminal, and never
    /// when the NO_COLOR environment variable is set.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, global = true, value_name = "WHEN")]
    pub color: ColorWhen,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check documents and report every problem found.
    #[command(after_help = CHECK_EXAMPLES)]
    Check(CheckArgs),
    /// Explain a document: what each step may do and what the document
    /// requires (playbooks), or what each tool runs (plugin manifests).
    #[command(after_help = EXPLAIN_EXAMPLES)]
    Explain(ExplainArgs),
    /// Compare two versions of a document: what the new one may do that
    /// the old could not, and what it may no longer do.
    #[command(after_help = DIFF_EXAMPLES)]
    Diff(DiffArgs),
    /// List the rules, or show one rule's documentation.
    #[command(after_help = RULES_EXAMPLES)]
    Rules(RulesArgs),
    /// Rewrite a document in the other syntax (JSON to YAML or back),
    /// keeping key order and numbers as written.
    #[command(after_help = CONVERT_EXAMPLES)]
    Convert(ConvertArgs),
    /// Format a document the canonical way, in its own syntax.
    #[command(after_help = FMT_EXAMPLES)]
    Fmt(FmtArgs),
    /// Draw a playbook's step graph as a standalone SVG, write a document's
    /// report as one HTML page, or a fragment of a docs page: no script,
    /// nothing loaded from elsewhere.
    #[command(after_help = RENDER_EXAMPLES)]
    Render(RenderArgs),
    /// Print the JSON Schema (draft-07) of a format, for editors and schema
    /// validators: every field opb knows, with the seed's words and each
    /// enumeration's values.
    #[command(after_help = SCHEMA_EXAMPLES)]
    Schema(SchemaArgs),
    /// Show the settings (opb.toml) that apply to a file or folder, and
    /// where each comes from.
    #[command(after_help = CONFIG_EXAMPLES)]
    Config(ConfigArgs),
    /// Run the language server on standard input and output, for editors:
    /// diagnostics as you type, hover, quick fixes.
    #[command(after_help = LSP_EXAMPLES)]
    Lsp(LspArgs),
}

const LSP_EXAMPLES: &str = "\
Editors start it themselves; README's \"Use it in your editor and CI\" shows
the setup for Neovim, Helix and VS Code. It reads the formats' files
(*.opb.json, *.opb.yaml, oz0-plugin.yaml) and any JSON or YAML document it
detects as a playbook or manifest, pushes `opb check`'s diagnostics on open
and on each change, each linked to its rule's documentation, explains the
field, step or tool under the pointer on hover, and offers a quick fix
where the fix is certain (a step id or field name one small edit away).";

const CONFIG_EXAMPLES: &str = "\
Examples:
  opb config                               the settings of the current folder
  opb config playbooks/refund.opb.yaml     those of one file, and whether a walk checks it

The nearest opb.toml or .opb.toml in the file's folder or above applies;
README's \"Checking a repository\" lists the settings.";

#[derive(Debug, Args)]
pub struct ConfigArgs {
    #[command(flatten)]
    pub settings: SettingsArgs,

    /// The file or folder; the current folder when left out.
    #[arg(value_name = "PATH")]
    pub path: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct LspArgs {
    /// Accepted for clients that pass it: standard input and output is the
    /// only transport.
    #[arg(long)]
    pub stdio: bool,
}

const SCHEMA_EXAMPLES: &str = "\
Examples:
  opb schema playbook > openplaybook.schema.json
  opb schema plugin-manifest -o oz0-plugin.schema.json

A YAML document names its schema for yaml-language-server (VS Code's YAML
extension, Neovim, Helix) in its first line:
  # yaml-language-server: $schema=openplaybook.schema.json
and a JSON document in its `$schema` key, which opb accepts in both formats.

The schema is generated from the field tables `opb check` checks with, so
whatever it rejects opb reports too; what only a rule can see (a `next` that
names no step, a tool outside a step's boundary) is left to `opb check`.";

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The format.
    #[arg(value_enum, value_name = "FORMAT")]
    pub format: SchemaFormat,

    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SchemaFormat {
    /// An OpenPlaybook document.
    Playbook,
    /// An Orchestrator Zero plugin manifest (oz0-plugin.yaml).
    PluginManifest,
}

const RENDER_EXAMPLES: &str = "\
Examples:
  opb render playbook.json -o docs/playbook.svg
  opb render --theme dark playbook.yaml > playbook-dark.svg
  opb render --format html --theme auto plugin.oz0-plugin.yaml -o report.html
  opb render --format fragment --theme auto --view summary --strict playbook.yaml

The drawing is the playground's: its layout, shapes and risk colours, each
step's id, agent and highest risk class, branch labels, and each step's
purpose and summary as its hover text. The HTML report holds `opb explain`'s
account in the same words, the drawing and every diagnostic, and declares
the Content-Security-Policy `default-src 'none'; style-src 'unsafe-inline';
img-src data:`. A fragment is what the npm package's Markdown plugins put
in a docs page for a fence: the drawing, the trust summary or the report's
content, then the document's problems, with a style scoped to its root
(class `opb-fragment`) whose `auto` colours follow the site's dark selector.
Credentials are masked as in every view outside the editor.

Exit status: 0 when it was written (even if `opb check` finds errors in the
document, unless --strict), 1 when there is nothing to write (not a playbook
or manifest; for SVG, no steps) or, with --strict, the document has an error
(each said on standard error, nothing written), 2 when the file could not be
read or written or the arguments are wrong (a --dark-selector that could
reach outside its rule among them).";

const CHECK_EXAMPLES: &str = "\
Examples:
  opb check                                every playbook and manifest in this repository
  opb check playbooks/ plugins/
  opb check playbook.json
  opb check --format json examples/*
  opb check --format sarif playbooks/*.yaml > opb.sarif
  cat manifest.yaml | opb check --kind plugin -
  opb check --registry runtime-tools.yaml playbook.json

With --registry, each playbook's embedded tool definitions are compared with
the registry's (rules DR001-DR009): a JSON or YAML list of tool definitions in
the shape of a playbook's `tools`, or an object whose `tools` is that list.
The registry's own problems are listed under its name.

Exit status: 0 without errors, 1 with errors (in a document or the registry),
2 when a file could not be read or the arguments are wrong.";

const EXPLAIN_EXAMPLES: &str = "\
Examples:
  opb explain playbook.json
  opb explain --format json acme.oz0-plugin.yaml
  opb explain --paths playbook.json

--paths lists every walk from the start to a step that ends the playbook,
following each edge that closes a cycle at most once, riskiest first: its
highest risk class, whether a gate stands before every step that may change
something, and `No person decides` where a step that may move money or
write to customers has no gate before it on that path (PB220, PB221). The walk stops at 200 paths, 100,000 listed steps or
200,000 edges followed, and says so; the per-step summary after the paths is
always complete.

Exit status: 0 when the document was explained (even if `opb check` finds
errors in it), 1 when it could not be read as a playbook or a manifest (not
JSON or YAML, or of no known kind), 2 when the file could not be read or the
arguments are wrong.";

const DIFF_EXAMPLES: &str = "\
Examples:
  opb diff old/playbook.json playbook.json
  opb diff --format markdown main.json pr.json > comment.md
  opb diff --fail-on widened old.yaml new.yaml     fail CI when the new version may do more

Each change widens what the document may do (a step may call a new tool, a
risk class is raised, a connection, MCP server or secret is added, a gate no
longer stands before a step, a function no longer asks a person), narrows it,
or is neutral.

Exit status: 0 when compared (1 instead when --fail-on's condition holds), 2
when a file could not be read, the two could not be compared (not a playbook
or a manifest, or one of each), or the arguments are wrong.";

const CONVERT_EXAMPLES: &str = "\
Examples:
  opb convert --to yaml playbook.json > playbook.yaml
  opb convert --to json acme.oz0-plugin.yaml -o acme.json

The conversion the playground's Convert button makes: two-space indentation,
one member per line, YAML multi-line strings as literal blocks. What the
target cannot hold is refused (a repeated key going to YAML, `.inf` going to
JSON); YAML comments, which no conversion keeps, are counted on stderr.

Exit status: 0 when converted, 2 when the file could not be read or
converted.";

const FMT_EXAMPLES: &str = "\
Examples:
  opb fmt playbook.json                print it formatted
  opb fmt --write playbook.json        rewrite the file when it is not formatted
  opb fmt --check playbooks/*.json     fail (exit 1) when one is not formatted

The formatting the playground's Format button applies. YAML comments are not
kept, so --write refuses a file that has some unless --drop-comments says to.

Exit status: 0 when formatted (with --check: every file already is), 1 with
--check when a file is not, 2 when a file could not be read, formatted or
written.";

const RULES_EXAMPLES: &str = "\
Examples:
  opb rules                the whole catalogue, by group
  opb rules PB213          one rule, by code
  opb rules next-unknown   one rule, by name";

/// What `check` and `explain` read, and how.
#[derive(Debug, Args)]
pub struct ReadArgs {
    /// Read every input as this kind instead of detecting it.
    #[arg(long, value_enum, value_name = "KIND")]
    pub kind: Option<KindArg>,

    /// The file name to show for standard input (`-`). Its extension also
    /// says whether the text is JSON or YAML.
    #[arg(long, value_name = "NAME")]
    pub stdin_name: Option<String>,
}

/// Which settings files apply.
#[derive(Debug, Args)]
pub struct SettingsArgs {
    /// Use this settings file for every file, instead of the nearest
    /// opb.toml or .opb.toml above each.
    #[arg(long, value_name = "FILE", conflicts_with = "isolated")]
    pub config: Option<PathBuf>,

    /// Use no settings file: every rule, the formats' file names.
    #[arg(long)]
    pub isolated: bool,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// How to print the results.
    #[arg(long, value_enum, default_value_t = CheckFormat::Human, value_name = "FORMAT")]
    pub format: CheckFormat,

    #[command(flatten)]
    pub read: ReadArgs,

    #[command(flatten)]
    pub settings: SettingsArgs,

    /// Apply the certain fixes (the editor's quick fixes: a step id or
    /// field name one small edit away) to each file, then report what
    /// remains.
    #[arg(long, conflicts_with = "diff")]
    pub fix: bool,

    /// Print the certain fixes as a unified diff, and change nothing; exit
    /// 1 when there is one.
    #[arg(long)]
    pub diff: bool,

    /// Record every finding of this check in FILE (by file, code and JSON
    /// pointer), for --baseline.
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    pub write_baseline: Option<PathBuf>,

    /// Report only the findings FILE (written by --write-baseline) does not
    /// record; those it does are counted as suppressed, and the entries
    /// that no longer occur are counted.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,

    /// A tool registry to compare each playbook's embedded tool definitions
    /// with (JSON or YAML; `-` reads standard input), instead of the
    /// settings' `registry`.
    #[arg(long, value_name = "FILE")]
    pub registry: Option<PathBuf>,

    /// The files and directories to check; none means the current
    /// directory. A directory is walked: the files its settings choose
    /// (by default *.opb.json, *.opb.yaml, *.opb.yml and oz0-plugin.yaml),
    /// leaving out what .gitignore and .ignore do and hidden files. A file
    /// named is always checked. `-` reads standard input. JSON or YAML is
    /// told by the extension (.json, .yaml, .yml), otherwise from the text.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// How to print the explanation.
    #[arg(long, value_enum, default_value_t = ExplainFormat::Human, value_name = "FORMAT")]
    pub format: ExplainFormat,

    /// List the risk paths of a playbook instead: each path from the start
    /// to an end, its highest risk, and the gates before the steps that may
    /// change something.
    #[arg(long)]
    pub paths: bool,

    #[command(flatten)]
    pub read: ReadArgs,

    /// The file to explain. `-` reads standard input.
    #[arg(value_name = "PATH")]
    pub path: PathBuf,
}

#[derive(Debug, Args)]
pub struct RenderArgs {
    /// What to write.
    #[arg(long, value_enum, default_value_t = RenderFormat::Svg, value_name = "FORMAT")]
    pub format: RenderFormat,

    /// The colours to draw in. A fragment's `auto` follows the site's dark
    /// selector (`--dark-selector`), light when the site is not dark; the
    /// SVG's and the report's, the reader's system.
    #[arg(long, value_enum, default_value_t = ThemeArg::Light, value_name = "THEME")]
    pub theme: ThemeArg,

    /// What a fragment shows: the step graph (a plugin manifest's trust
    /// summary, as it has none) or the trust summary, each followed by the
    /// document's problems, or the report's content, which holds them.
    #[arg(long, value_enum, default_value_t = ViewArg::Graph, value_name = "VIEW")]
    pub view: ViewArg,

    /// The CSS selector of the site's dark mode, which a fragment's `auto`
    /// theme writes its dark colours under: `html.dark` (VitePress),
    /// `[data-theme="dark"]` (Astro Starlight),
    /// `[data-md-color-scheme="slate"]` (Material for MkDocs).
    #[arg(long, default_value = opb_render::fragment::DarkSelector::DEFAULT, value_name = "SELECTOR")]
    pub dark_selector: String,

    /// Put the live <opb-viewer> over the fragment, which shows it until
    /// the element's script has drawn (the page's own import of
    /// `opb-viewer`). Not for a document holding a credential, which stays
    /// static.
    #[arg(long)]
    pub interactive: bool,

    /// Write nothing and exit with status 1 when the document has an error,
    /// each one said on standard error: a docs build fails rather than
    /// publish a broken document.
    #[arg(long)]
    pub strict: bool,

    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    #[command(flatten)]
    pub read: ReadArgs,

    /// The document to draw or report. `-` reads standard input.
    #[arg(value_name = "PATH")]
    pub path: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RenderFormat {
    /// The step graph as a standalone SVG.
    Svg,
    /// One self-contained HTML report: `opb explain`'s account, the graph
    /// and the diagnostics, for a playbook or a plugin manifest.
    Html,
    /// A fragment of a docs page, as the npm package's Markdown plugins
    /// write it: the static graph, summary or report, the document's
    /// problems, and its own style, which follows the site's dark mode.
    Fragment,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ViewArg {
    /// The step graph.
    Graph,
    /// The trust summary.
    Summary,
    /// The HTML report's content.
    Report,
}

impl From<ViewArg> for opb_render::fragment::View {
    fn from(view: ViewArg) -> Self {
        match view {
            ViewArg::Graph => opb_render::fragment::View::Graph,
            ViewArg::Summary => opb_render::fragment::View::Summary,
            ViewArg::Report => opb_render::fragment::View::Report,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ThemeArg {
    /// Dark text on light surfaces.
    Light,
    /// Light text on dark surfaces.
    Dark,
    /// As the reader's system prefers (`prefers-color-scheme`).
    Auto,
}

impl From<ThemeArg> for opb_render::Theme {
    fn from(theme: ThemeArg) -> Self {
        match theme {
            ThemeArg::Light => opb_render::Theme::Light,
            ThemeArg::Dark => opb_render::Theme::Dark,
            ThemeArg::Auto => opb_render::Theme::Auto,
        }
    }
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// How to print the changes.
    #[arg(long, value_enum, default_value_t = DiffFormat::Human, value_name = "FORMAT")]
    pub format: DiffFormat,

    /// Exit with status 1 when the changes include these.
    #[arg(long, value_enum, default_value_t = FailOn::Never, value_name = "WHAT")]
    pub fail_on: FailOn,

    #[command(flatten)]
    pub read: ReadArgs,

    /// The old version. `-` reads standard input.
    #[arg(value_name = "OLD")]
    pub old: PathBuf,

    /// The new version. `-` reads standard input.
    #[arg(value_name = "NEW")]
    pub new: PathBuf,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// A rule's code (PB213) or name (next-unknown). Without it, every rule
    /// is listed.
    #[arg(value_name = "RULE")]
    pub rule: Option<String>,
}

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The syntax to write.
    #[arg(long, value_enum, value_name = "SYNTAX")]
    pub to: SyntaxArg,

    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// The file name to show for standard input (`-`). Its extension also
    /// says whether the text is JSON or YAML.
    #[arg(long, value_name = "NAME")]
    pub stdin_name: Option<String>,

    /// The file to convert. `-` reads standard input.
    #[arg(value_name = "PATH")]
    pub path: PathBuf,
}

#[derive(Debug, Args)]
pub struct FmtArgs {
    /// Print nothing; exit 1 when a file is not formatted.
    #[arg(long, conflicts_with = "write")]
    pub check: bool,

    /// Rewrite each file that is not formatted, in place.
    #[arg(long)]
    pub write: bool,

    /// With --write: rewrite a YAML file even though its comments are lost.
    #[arg(long, requires = "write")]
    pub drop_comments: bool,

    /// The file name to show for standard input (`-`). Its extension also
    /// says whether the text is JSON or YAML.
    #[arg(long, value_name = "NAME")]
    pub stdin_name: Option<String>,

    /// The files to format. `-` reads standard input (not with --write).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SyntaxArg {
    Json,
    Yaml,
}

impl From<SyntaxArg> for opb_core::Syntax {
    fn from(syntax: SyntaxArg) -> Self {
        match syntax {
            SyntaxArg::Json => opb_core::Syntax::Json,
            SyntaxArg::Yaml => opb_core::Syntax::Yaml,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// Each problem with its source line, for people.
    Human,
    /// One JSON document, for programs.
    Json,
    /// SARIF 2.1.0, for code scanning (GitHub and others).
    Sarif,
    /// GitHub Actions workflow commands: an annotation per problem on the
    /// pull request's files.
    Github,
    /// GitLab's Code Quality report (artifacts:reports:codequality).
    Gitlab,
    /// JUnit XML, for the test tabs of Jenkins, GitLab, CircleCI and Azure:
    /// a test case per file, a failure per error.
    Junit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExplainFormat {
    /// Readable text.
    Human,
    /// The explain view as JSON.
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// Readable text, grouped by step, tool and declaration.
    Human,
    /// The core's diff as JSON.
    Json,
    /// Markdown tables, for a pull-request comment.
    Markdown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Never: the diff is a report (the default).
    Never,
    /// When a change widens what the document may do.
    Widened,
    /// When anything changed.
    Any,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    /// An OpenPlaybook document.
    Playbook,
    /// An Orchestrator Zero plugin manifest (oz0-plugin.yaml).
    #[value(alias = "plugin-manifest", alias = "manifest")]
    Plugin,
}

impl From<KindArg> for opb_core::Kind {
    fn from(kind: KindArg) -> Self {
        match kind {
            KindArg::Playbook => opb_core::Kind::Playbook,
            KindArg::Plugin => opb_core::Kind::PluginManifest,
        }
    }
}

impl ColorWhen {
    pub fn choice(self) -> anstream::ColorChoice {
        match self {
            ColorWhen::Auto => anstream::ColorChoice::Auto,
            ColorWhen::Always => anstream::ColorChoice::Always,
            ColorWhen::Never => anstream::ColorChoice::Never,
        }
    }
}

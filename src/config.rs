//! A repository's settings: `opb.toml` (or `.opb.toml`), the nearest one
//! above each file applying to it, as ruff reads `ruff.toml`. Read for
//! `opb check` (which files a walk chooses, the rules and the registry of
//! each file), `opb lsp` (per document) and `opb config` (what applies,
//! and from where).
//!
//! The file is read by serde and `toml`; an unknown setting or rule code is
//! an error naming the file and line, with the closest known name. Globs
//! (`globset`) are relative to the file's folder; one without a `/`
//! matches a name in any folder, as in `.gitignore`.

use globset::{GlobSet, GlobSetBuilder};
use opb_core::{Accepted, RuleSettings, Severity};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use toml::Spanned;

/// The file names opb reads in a folder it walks unless the settings'
/// `include` says otherwise: the formats' own names.
pub const DEFAULT_INCLUDE: &[&str] = &[
    "*.opb.json",
    "*.opb.yaml",
    "*.opb.yml",
    "oz0-plugin.yaml",
    "oz0-plugin.yml",
    "*.oz0-plugin.yaml",
    "*.oz0-plugin.yml",
];

/// The names a settings file may have, in the order looked for in a folder.
pub const NAMES: &[&str] = &[".opb.toml", "opb.toml"];

/// A list of strings as written, each with its place.
type List = Spanned<Vec<Spanned<String>>>;
/// A table of strings to strings or lists, each with its place.
type Table<V> = Spanned<BTreeMap<Spanned<String>, V>>;

/// The settings as written: every key optional, none other allowed.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Written {
    include: Option<List>,
    exclude: Option<List>,
    select: Option<List>,
    ignore: Option<List>,
    severity: Option<Table<Spanned<String>>>,
    per_file_ignores: Option<Table<Vec<Spanned<String>>>>,
    registry: Option<Spanned<String>>,
}

/// The settings' names, for the did-you-mean of an unknown one.
const SETTINGS: &[&str] =
    &["include", "exclude", "select", "ignore", "severity", "per-file-ignores", "registry"];

/// Why a settings file cannot be used: where, and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub path: PathBuf,
    /// 1-based, when the error is at a place in the file.
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.path.display(), self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

/// One setting's value and the line it is written on; `None` for the
/// default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting<T> {
    pub value: T,
    pub line: Option<usize>,
}

/// A per-file-ignores entry: the files, and what is not reported in them.
#[derive(Debug, Clone)]
pub struct PerFile {
    pub glob: String,
    pub line: usize,
    matcher: GlobSet,
    /// Codes or code prefixes not reported in the files.
    pub codes: Vec<String>,
    /// A finding accepted at one place: its code and pointer.
    pub at: Vec<(String, String)>,
}

/// A settings file, read and checked.
#[derive(Debug)]
pub struct Config {
    /// The file.
    pub path: PathBuf,
    /// Its folder, which its globs and paths are relative to.
    pub dir: PathBuf,
    pub include: Setting<Vec<String>>,
    pub exclude: Setting<Vec<String>>,
    pub select: Setting<Vec<String>>,
    pub ignore: Setting<Vec<String>>,
    pub severity: Setting<Vec<(String, Severity)>>,
    pub per_file_ignores: Vec<PerFile>,
    pub registry: Setting<Option<PathBuf>>,
    include_set: GlobSet,
    exclude_set: GlobSet,
}

impl Config {
    /// Reads the settings file at `path`.
    pub fn read(path: &Path) -> Result<Config, ConfigError> {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let error = |line, message| ConfigError { path: path.clone(), line, message };
        let text = crate::input::read_text(&path).map_err(|why| error(None, why))?;
        Config::parse(&path, &text)
    }

    /// Reads `text` as the settings file at `path`.
    pub fn parse(path: &Path, text: &str) -> Result<Config, ConfigError> {
        let line_of = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
        let error = |line, message| ConfigError { path: path.to_path_buf(), line, message };
        let written: Written = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|span| line_of(span.start));
            error(line, toml_message(&e))
        })?;
        let list = |setting: Option<List>, default: &[&str]| {
            let Some(list) = setting else {
                let value: Vec<String> = default.iter().map(|s| s.to_string()).collect();
                return (Setting { value, line: None }, Vec::new());
            };
            let line = Some(line_of(list.span().start));
            let values = list.into_inner();
            let lines = values.iter().map(|v| line_of(v.span().start)).collect();
            let value: Vec<String> = values.into_iter().map(Spanned::into_inner).collect();
            (Setting { value, line }, lines)
        };
        let (include, include_lines) = list(written.include, DEFAULT_INCLUDE);
        let (exclude, exclude_lines) = list(written.exclude, &[]);
        let (select, select_lines) = list(written.select, &[]);
        let (ignore, ignore_lines) = list(written.ignore, &[]);
        let include_set = globs(&include.value, &include_lines).map_err(|(l, m)| error(l, m))?;
        let exclude_set = globs(&exclude.value, &exclude_lines).map_err(|(l, m)| error(l, m))?;
        for (selectors, lines) in [(&select.value, &select_lines), (&ignore.value, &ignore_lines)] {
            for (selector, line) in selectors.iter().zip(lines) {
                check_selector(selector).map_err(|m| error(Some(*line), m))?;
            }
        }
        let severity = match written.severity {
            None => Setting { value: Vec::new(), line: None },
            Some(table) => {
                let line = line_of(table.span().start);
                let mut value = Vec::new();
                for (selector, severity) in table.into_inner() {
                    let at = Some(line_of(selector.span().start));
                    check_selector(selector.get_ref()).map_err(|m| error(at, m))?;
                    let severity = match severity.get_ref().as_str() {
                        "error" => Severity::Error,
                        "warning" => Severity::Warning,
                        "info" => Severity::Info,
                        other => {
                            return Err(error(
                                Some(line_of(severity.span().start)),
                                format!("`{other}` is no severity; write \"error\", \"warning\" or \"info\""),
                            ))
                        }
                    };
                    value.push((selector.into_inner(), severity));
                }
                Setting { value, line: Some(line) }
            }
        };
        let mut per_file_ignores = Vec::new();
        for (glob, entries) in written.per_file_ignores.map(Spanned::into_inner).unwrap_or_default()
        {
            let line = line_of(glob.span().start);
            let matcher = globs(std::slice::from_ref(glob.get_ref()), &[line])
                .map_err(|(l, m)| error(l, m))?;
            let mut entry = PerFile {
                glob: glob.into_inner(),
                line,
                matcher,
                codes: Vec::new(),
                at: Vec::new(),
            };
            for code in entries {
                let at = Some(line_of(code.span().start));
                match code.get_ref().split_once('@') {
                    Some((code, pointer)) => {
                        if opb_core::rule(code).is_none_or(|r| r.code != code) {
                            return Err(error(at, unknown_code(code, "a rule's code before `@`")));
                        }
                        if !(pointer.is_empty() || pointer.starts_with('/')) {
                            return Err(error(
                                at,
                                format!("`{pointer}` is no JSON pointer; write one as `/steps/3` after the `@`"),
                            ));
                        }
                        entry.at.push((code.to_owned(), pointer.to_owned()));
                    }
                    None => {
                        check_selector(code.get_ref()).map_err(|m| error(at, m))?;
                        entry.codes.push(code.into_inner());
                    }
                }
            }
            per_file_ignores.push(entry);
        }
        let registry = match written.registry {
            Some(path) => Setting {
                value: Some(PathBuf::from(path.get_ref())),
                line: Some(line_of(path.span().start)),
            },
            None => Setting { value: None, line: None },
        };
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok(Config {
            path: path.to_path_buf(),
            dir,
            include,
            exclude,
            select,
            ignore,
            severity,
            per_file_ignores,
            registry,
            include_set,
            exclude_set,
        })
    }

    /// `path` relative to the settings' folder, when it is inside it.
    fn relative<'p>(&self, path: &'p Path) -> Option<&'p Path> {
        path.strip_prefix(&self.dir).ok()
    }

    /// Whether a walk chooses the file at `path` (absolute): `include`
    /// names it and `exclude` names neither it nor a folder it is in.
    pub fn chooses(&self, path: &Path) -> bool {
        let Some(relative) = self.relative(path) else { return false };
        self.include_set.is_match(relative)
            && !relative
                .ancestors()
                .any(|p| !p.as_os_str().is_empty() && self.exclude_set.is_match(p))
    }

    /// The per-file-ignores entries that name the file at `path` (absolute).
    pub fn per_file<'a>(&'a self, path: &'a Path) -> impl Iterator<Item = &'a PerFile> {
        let relative = self.relative(path);
        self.per_file_ignores
            .iter()
            .filter(move |e| relative.is_some_and(|r| e.matcher.is_match(r)))
    }

    /// The rules as they apply to the file at `path` (absolute).
    pub fn rules(&self, path: &Path) -> RuleSettings {
        let mut ignore = self.ignore.value.clone();
        ignore.extend(self.per_file(path).flat_map(|e| e.codes.iter().cloned()));
        let accepted = self
            .per_file(path)
            .flat_map(|entry| {
                entry.at.iter().map(|(code, pointer)| Accepted {
                    code: code.clone(),
                    pointer: pointer.clone(),
                    justification: format!(
                        "per-file-ignores \"{}\" in {}, line {}",
                        entry.glob,
                        self.path.display(),
                        entry.line
                    ),
                })
            })
            .collect();
        RuleSettings {
            select: self.select.value.clone(),
            ignore,
            severity: self.severity.value.clone(),
            accepted,
        }
    }

    /// The registry's path, relative to the current folder's when it can be.
    pub fn registry(&self) -> Option<PathBuf> {
        self.registry.value.as_ref().map(|p| self.dir.join(p))
    }
}

/// The formats' own names, which a walk chooses where no settings apply.
fn default_include() -> &'static GlobSet {
    static SET: std::sync::OnceLock<GlobSet> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        let patterns: Vec<String> = DEFAULT_INCLUDE.iter().map(|s| s.to_string()).collect();
        globs(&patterns, &[]).expect("the default patterns are globs")
    })
}

/// Globs as a set; each without a `/` matches a name in any folder.
fn globs(patterns: &[String], lines: &[usize]) -> Result<GlobSet, (Option<usize>, String)> {
    let mut set = GlobSetBuilder::new();
    for (i, pattern) in patterns.iter().enumerate() {
        let anchored = match pattern.strip_prefix('/') {
            Some(rest) => rest.to_owned(),
            None if pattern.contains('/') => pattern.clone(),
            None => format!("**/{pattern}"),
        };
        let glob =
            globset::GlobBuilder::new(&anchored).literal_separator(true).build().map_err(|e| {
                (lines.get(i).copied(), format!("`{pattern}` is no glob: {}", e.kind()))
            })?;
        set.add(glob);
    }
    set.build().map_err(|e| (None, e.to_string()))
}

/// A selector names at least one rule: a code, or the start of codes.
fn check_selector(selector: &str) -> Result<(), String> {
    if !selector.is_empty() && opb_core::rules().any(|r| r.code.starts_with(selector)) {
        Ok(())
    } else {
        Err(unknown_code(selector, "a rule's code or the start of codes (`PB2`, `SEC`)"))
    }
}

fn unknown_code(code: &str, what: &str) -> String {
    let code = crate::escape::line(code);
    let mut message = format!("`{code}` names no rule; write {what}");
    let close = crate::rules::closest(&code);
    if let Some(rule) = close.first() {
        message.push_str(&format!("; did you mean `{}` ({})?", rule.code, rule.name));
    }
    message
}

/// toml's message, with the closest setting for an unknown one.
fn toml_message(error: &toml::de::Error) -> String {
    let message = error.message().trim();
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return message.to_owned();
    };
    let name = rest.split('`').next().unwrap_or_default();
    let closest = SETTINGS
        .iter()
        .map(|s| (strsim::jaro_winkler(name, s), *s))
        .filter(|(score, _)| *score >= 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = format!("`{}` is no setting", crate::escape::line(name));
    if let Some((_, setting)) = closest {
        out.push_str(&format!("; did you mean `{setting}`?"));
    }
    out.push_str(&format!(" The settings are {}.", SETTINGS.join(", ")));
    out
}

/// Where the settings come from for a run.
#[derive(Debug, Clone)]
pub enum Source {
    /// The nearest settings file above each file.
    Nearest,
    /// One file for every file (`--config`).
    File(PathBuf),
    /// None at all (`--isolated`).
    Isolated,
}

impl From<&crate::args::SettingsArgs> for Source {
    fn from(args: &crate::args::SettingsArgs) -> Source {
        match (&args.config, args.isolated) {
            (_, true) => Source::Isolated,
            (Some(path), false) => Source::File(path.clone()),
            (None, false) => Source::Nearest,
        }
    }
}

/// The settings files of a run, each read once.
pub struct Configs {
    source: Source,
    /// A folder's nearest settings file, or none, as found.
    nearest: HashMap<PathBuf, Option<Arc<Config>>>,
    /// The file `--config` names, once read.
    given: Option<Arc<Config>>,
    /// Every settings file that could not be used, once each.
    pub errors: Vec<ConfigError>,
}

impl Configs {
    pub fn new(source: Source) -> Configs {
        let mut configs =
            Configs { source, nearest: HashMap::new(), given: None, errors: Vec::new() };
        if let Source::File(path) = &configs.source {
            match Config::read(path) {
                Ok(config) => configs.given = Some(Arc::new(config)),
                Err(error) => configs.errors.push(error),
            }
        }
        configs
    }

    /// The settings that apply to the file or folder at `path`.
    pub fn for_path(&mut self, path: &Path) -> Option<Arc<Config>> {
        match self.source {
            Source::Isolated => None,
            Source::File(_) => self.given.clone(),
            Source::Nearest => {
                let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
                let folder = if absolute.is_dir() {
                    absolute
                } else {
                    absolute.parent().map(Path::to_path_buf).unwrap_or_default()
                };
                self.in_folder(&folder)
            }
        }
    }

    fn in_folder(&mut self, folder: &Path) -> Option<Arc<Config>> {
        if let Some(found) = self.nearest.get(folder) {
            return found.clone();
        }
        let here = NAMES.iter().map(|name| folder.join(name)).find(|p| p.is_file());
        let found = match here {
            Some(path) => match Config::read(&path) {
                Ok(config) => Some(Arc::new(config)),
                Err(error) => {
                    self.errors.push(error);
                    None
                }
            },
            None => folder.parent().and_then(|parent| self.in_folder(parent)),
        };
        self.nearest.insert(folder.to_path_buf(), found.clone());
        found
    }

    /// Whether a walk chooses the file at `path`: by its settings, or by
    /// the formats' names where none apply.
    pub fn chooses(&mut self, path: &Path) -> bool {
        match self.for_path(path) {
            Some(config) => {
                config.chooses(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
            }
            None => path.file_name().is_some_and(|name| default_include().is_match(name)),
        }
    }

    /// The rules and the registry for the file at `path`.
    pub fn applying(&mut self, path: &Path) -> (RuleSettings, Option<PathBuf>) {
        match self.for_path(path) {
            Some(config) => {
                let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
                (config.rules(&absolute), config.registry())
            }
            None => (RuleSettings::default(), None),
        }
    }
}

/// `opb config [PATH]`: the settings that apply to a file or folder, and
/// where each comes from.
pub fn run(args: &crate::args::ConfigArgs, output: &mut crate::output::Output) -> crate::Status {
    let path = args.path.clone().unwrap_or_else(|| PathBuf::from("."));
    let mut configs = Configs::new((&args.settings).into());
    let config = configs.for_path(&path);
    if !configs.errors.is_empty() {
        for error in &configs.errors {
            output.error(error);
        }
        return crate::Status::Failed;
    }
    output.print_for_people(&describe(&path, config.as_deref()));
    crate::Status::Clean
}

/// The settings for `path` as `opb config` prints them.
fn describe(path: &Path, config: Option<&Config>) -> String {
    use std::fmt::Write;
    let shown = crate::escape::line(&path.display().to_string()).into_owned();
    let mut out = String::new();
    let Some(config) = config else {
        writeln!(out, "{shown}: no settings file applies (opb.toml or .opb.toml in its folder or above); the defaults:").ok();
        writeln!(out, "  include = {}", quoted(DEFAULT_INCLUDE.iter().copied())).ok();
        writeln!(out, "  every rule, at its own severity; no registry").ok();
        return out;
    };
    let name = crate::escape::line(&config.path.display().to_string()).into_owned();
    writeln!(out, "{shown}: the settings of {name}").ok();
    let from = |line: Option<usize>| match line {
        Some(line) => format!("line {line}"),
        None => "default".to_owned(),
    };
    let mut row = |key: &str, value: String, line: Option<usize>| {
        writeln!(out, "  {key:<16} {:<8} {value}", from(line)).ok();
    };
    row("include", quoted(config.include.value.iter().map(String::as_str)), config.include.line);
    row("exclude", quoted(config.exclude.value.iter().map(String::as_str)), config.exclude.line);
    let select = if config.select.value.is_empty() {
        "every rule".to_owned()
    } else {
        quoted(config.select.value.iter().map(String::as_str))
    };
    row("select", select, config.select.line);
    row("ignore", quoted(config.ignore.value.iter().map(String::as_str)), config.ignore.line);
    let severity = if config.severity.value.is_empty() {
        "each rule's own".to_owned()
    } else {
        let pairs: Vec<String> =
            config.severity.value.iter().map(|(code, sev)| format!("{code} = \"{sev}\"")).collect();
        pairs.join(", ")
    };
    row("severity", severity, config.severity.line);
    let registry =
        config.registry.value.as_ref().map_or("none".to_owned(), |p| {
            crate::escape::line(&p.display().to_string()).into_owned()
        });
    row("registry", registry, config.registry.line);
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    for entry in &config.per_file_ignores {
        let applies =
            if absolute.is_dir() || config.per_file(&absolute).any(|e| std::ptr::eq(e, entry)) {
                ""
            } else {
                " (not this file)"
            };
        let mut codes: Vec<String> = entry.codes.clone();
        codes.extend(entry.at.iter().map(|(code, pointer)| format!("{code}@{pointer}")));
        let value =
            format!("\"{}\" = {}{applies}", entry.glob, quoted(codes.iter().map(String::as_str)));
        row("per-file-ignores", crate::escape::line(&value).into_owned(), Some(entry.line));
    }
    if absolute.is_file() {
        let chosen = if config.chooses(&absolute) {
            "a walk checks it"
        } else {
            "a walk leaves it out (named, it is checked)"
        };
        writeln!(out, "  {chosen}").ok();
    }
    out
}

fn quoted<'a>(values: impl Iterator<Item = &'a str>) -> String {
    let values: Vec<String> = values.map(|v| format!("\"{}\"", crate::escape::line(v))).collect();
    format!("[{}]", values.join(", "))
}

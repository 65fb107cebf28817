//! What the playground keeps in the browser, and the decisions around it.
//!
//! Each editing session's work is a *draft*, kept in IndexedDB
//! (`src/ui/drafts/`): a tab's edits go to its own draft, so tabs
//! never overwrite each other's work, and a tab that opens with no link
//! continues the most recent draft. Drafts too old, or past a total size,
//! are pruned, oldest first. Small preferences (the theme, the tool
//! registry) stay in `localStorage`, where they can be read before the page
//! is drawn.

use opb_core::{Kind, Masking};
use serde::{Deserialize, Serialize};

/// `localStorage` and `sessionStorage` keys.
pub mod keys {
    pub const THEME: &str = "opb.theme";
    /// The tool registry the document is compared with, and its name.
    pub const REGISTRY_TEXT: &str = "opb.registry.text";
    pub const REGISTRY_NAME: &str = "opb.registry.name";
    /// The draft this tab edits and its selection (`sessionStorage`, which
    /// each tab has its own of and a reload keeps).
    pub const TAB: &str = "opb.tab";
    /// What the reading view showed when its reader chose Edit
    /// (`sessionStorage`; js/reading.js writes it, js/route.js reads it).
    pub const READING: &str = "opb.reading";
    /// Where versions before drafts kept the one document (`localStorage`):
    /// read once into drafts, then removed.
    pub const LEGACY: [(&str, &str); 2] =
        [("opb.document.text", "opb.document.meta"), ("opb.previous.text", "opb.previous.meta")];
}

/// Drafts not edited for this long are pruned.
pub const KEEP_FOR_MS: f64 = 30.0 * 24.0 * 60.0 * 60.0 * 1000.0;

/// Past this many bytes of text in all, the oldest drafts are pruned.
pub const KEEP_AT_MOST: usize = 50 * 1024 * 1024;

/// A draft's description, kept beside its text (the text is apart, so the
/// list of drafts is read without every text).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DraftMeta {
    pub id: String,
    /// The name the header shows.
    pub name: String,
    /// The kind the reader chose, if any.
    #[serde(default)]
    pub kind: Option<Kind>,
    /// The kind it was last read as (chosen or detected), for the list.
    #[serde(default)]
    pub read_as: Option<Kind>,
    /// The text's size in bytes (UTF-8).
    pub bytes: usize,
    /// When it was last edited, in milliseconds since 1970.
    pub updated: f64,
    /// The editor's selection (anchor, head) in UTF-16 offsets.
    #[serde(default)]
    pub selection: (u32, u32),
    /// The panel it was shown with (a share link's `view`).
    #[serde(default)]
    pub view: Option<String>,
    /// The line the cursor was on ([`excerpt`]), the credentials in it
    /// masked: drafts often share a name. Stored under a key of its own:
    /// earlier versions stored the line unmasked under `excerpt`, and such
    /// a line is not shown.
    #[serde(default, rename = "maskedExcerpt")]
    pub excerpt: String,
}

impl DraftMeta {
    /// The description of `saved` kept as the draft `id`, last edited at
    /// `updated`, with the editor's `selection` and panel (`view`). The
    /// excerpt is cut from the text as `masking` (the analysis of the text,
    /// or the default where there is none) masks it.
    pub fn of(
        id: &str,
        saved: &Saved,
        masking: &Masking,
        updated: f64,
        selection: (u32, u32),
        view: Option<String>,
    ) -> DraftMeta {
        DraftMeta {
            id: id.to_owned(),
            name: saved.name.clone(),
            kind: saved.kind,
            read_as: saved.kind,
            bytes: saved.text.len(),
            updated,
            selection,
            view,
            excerpt: excerpt(&masking.mask_source(&saved.text), selection.1),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a stored description; anything unreadable (another version's,
    /// or edited by hand) reads as none.
    pub fn from_json(json: &str) -> Option<DraftMeta> {
        serde_json::from_str(json).ok()
    }
}

/// What a tab remembers across a reload: its draft and selection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TabRecord {
    pub draft: String,
    #[serde(default)]
    pub selection: (u32, u32),
}

impl TabRecord {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_json(json: &str) -> Option<TabRecord> {
        serde_json::from_str(json).ok()
    }
}

/// What the reading view (js/reading.js) showed when its reader chose
/// Edit: the link, the tab and the step chosen in it, for the playground to
/// continue with.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ReadingRecord {
    pub link: String,
    #[serde(default)]
    pub tab: Option<String>,
    #[serde(default)]
    pub step: Option<String>,
}

impl ReadingRecord {
    pub fn from_json(json: &str) -> Option<ReadingRecord> {
        serde_json::from_str(json).ok()
    }
}

/// What versions before drafts kept beside the one document.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct LegacyMeta {
    pub name: String,
    #[serde(default)]
    pub kind: Option<Kind>,
    #[serde(default)]
    pub edited: bool,
}

impl LegacyMeta {
    pub fn from_json(json: &str) -> Option<LegacyMeta> {
        serde_json::from_str(json).ok()
    }
}

/// A document with what the editor shows it with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    pub text: String,
    pub name: String,
    pub kind: Option<Kind>,
    /// Whether the reader changed the text since it was loaded: only then
    /// is it work that must not be lost.
    pub edited: bool,
}

/// Whether `current`, about to be replaced by `incoming`, is work to keep:
/// the reader's own (edited), not blank, and not the incoming text.
pub fn worth_keeping(current: &Saved, incoming: &str) -> bool {
    current.edited && !current.text.trim().is_empty() && current.text != incoming
}

/// The draft edited last.
pub fn newest(drafts: &[DraftMeta]) -> Option<&DraftMeta> {
    drafts.iter().max_by(|a, b| a.updated.total_cmp(&b.updated))
}

/// Drafts newest first, as the Drafts menu lists them.
pub fn newest_first(mut drafts: Vec<DraftMeta>) -> Vec<DraftMeta> {
    opb_core::order::sort_by(&mut drafts, |a, b| b.updated.total_cmp(&a.updated));
    drafts
}

/// The drafts to delete at `now`: those not edited for [`KEEP_FOR_MS`],
/// and, oldest first, those past [`KEEP_AT_MOST`] bytes in all. A draft
/// that `keep` names (the tab's own, another open tab's) is never deleted,
/// though its bytes count.
pub fn to_prune(drafts: &[DraftMeta], now: f64, keep: impl Fn(&str) -> bool) -> Vec<String> {
    let mut total = 0usize;
    newest_first(drafts.to_vec())
        .into_iter()
        .filter(|draft| {
            total = total.saturating_add(draft.bytes);
            let stale = now - draft.updated > KEEP_FOR_MS || total > KEEP_AT_MOST;
            stale && !keep(&draft.id)
        })
        .map(|draft| draft.id)
        .collect()
}

/// A new draft's id, from the time and a random number.
pub fn new_id(now: f64, random: f64) -> String {
    format!("d{:x}-{:08x}", now as u64, (random * f64::from(u32::MAX)) as u32)
}

/// At most this many characters of a line show in the list of drafts.
const EXCERPT_CHARS: usize = 72;

/// The line of `text` that the UTF-16 offset `at` is on, or the last line
/// before it with something on it (else the first such line), trimmed.
pub fn excerpt(text: &str, at: u32) -> String {
    let mut units = 0;
    let byte = text
        .char_indices()
        .find(|(_, c)| {
            units += c.len_utf16();
            units > at as usize
        })
        .map_or(text.len(), |(i, _)| i);
    let end = text[byte..].find('\n').map_or(text.len(), |n| byte + n);
    let line = text[..end].lines().rev().map(str::trim).find(|line| !line.is_empty());
    let line = line
        .or_else(|| text.lines().map(str::trim).find(|line| !line.is_empty()))
        .unwrap_or_default();
    match line.char_indices().nth(EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_owned(),
    }
}

/// How long ago `then` was, at `now` (both in ms since 1970), in words.
pub fn ago(now: f64, then: f64) -> String {
    let minutes = ((now - then) / 60_000.0).max(0.0) as u64;
    let count = |n: u64, unit: &str| format!("{n} {unit}{} ago", if n == 1 { "" } else { "s" });
    match minutes {
        0 => "just now".to_owned(),
        1..=59 => count(minutes, "minute"),
        60..=1439 => count(minutes / 60, "hour"),
        _ => count(minutes / 1440, "day"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: f64 = 24.0 * 60.0 * 60.0 * 1000.0;

    fn draft(id: &str, updated: f64, bytes: usize) -> DraftMeta {
        DraftMeta {
            id: id.into(),
            name: format!("{id}.yaml"),
            kind: None,
            read_as: None,
            bytes,
            updated,
            selection: (0, 0),
            view: None,
            excerpt: String::new(),
        }
    }

    fn saved(text: &str, edited: bool) -> Saved {
        Saved { text: text.into(), name: "a.yaml".into(), kind: None, edited }
    }

    #[test]
    fn a_description_says_what_the_draft_holds() {
        let meta = DraftMeta::of(
            "d1",
            &Saved {
                text: "a: 1\nnote: é\n".into(),
                name: "n.yaml".into(),
                kind: Some(Kind::Playbook),
                edited: true,
            },
            &Masking::default(),
            7.0,
            (6, 8),
            None,
        );
        assert_eq!(
            (meta.id.as_str(), meta.bytes, meta.read_as, meta.excerpt.as_str()),
            ("d1", 14, Some(Kind::Playbook), "note: é")
        );
    }

    /// The excerpt is a source line, shown outside the editor: a credential
    /// the analysis of the text found is cut in it, a header's that has no
    /// credential's shape too.
    #[test]
    fn the_excerpt_masks_what_the_analysis_found() {
        let text = "name: acme\ntools:\n  - id: acme_fetch\n    url: https://api.acme.example/mcp\n    headers:\n      X-Api-Key: \"hunter2hunter2\"\n";
        let analysis = opb_core::analyze(text, &opb_core::Options::default());
        let at = text.find("hunter2").unwrap() as u32;
        let meta = DraftMeta::of("d1", &saved(text, true), analysis.masking(), 7.0, (at, at), None);
        assert_eq!(meta.excerpt, "X-Api-Key: \"hunt**********\"");
        // Without an analysis, by the shapes of credentials.
        let text = "description: token ghp_16C7e42F292c6912E7710c838347Ae178B4a\n";
        let meta = DraftMeta::of("d1", &saved(text, true), &Masking::default(), 7.0, (3, 3), None);
        assert_eq!(meta.excerpt, format!("description: token ghp_{}", "*".repeat(36)));
        // A line an earlier version stored unmasked is not read back.
        let earlier = r#"{"id": "d1", "name": "a.yaml", "bytes": 3, "updated": 1.0, "excerpt": "token ghp_16C7e42F292c6912E7710c838347Ae178B4a"}"#;
        assert_eq!(DraftMeta::from_json(earlier).map(|m| m.excerpt), Some(String::new()));
    }

    #[test]
    fn descriptions_round_trip_and_bad_ones_read_as_none() {
        let meta = DraftMeta {
            kind: Some(Kind::PluginManifest),
            selection: (3, 9),
            view: Some("graph".into()),
            ..draft("x", 5.0, 10)
        };
        assert_eq!(DraftMeta::from_json(&meta.to_json()), Some(meta));
        assert_eq!(DraftMeta::from_json("{\"id\": 3}"), None);
        assert_eq!(DraftMeta::from_json("not json"), None);
        let tab = TabRecord { draft: "d1".into(), selection: (1, 2) };
        assert_eq!(TabRecord::from_json(&tab.to_json()), Some(tab));
        assert_eq!(LegacyMeta::from_json("{\"name\": \"a\"}").map(|m| m.edited), Some(false));
        let reading =
            ReadingRecord::from_json(r##"{"link": "#pako:eJ", "tab": "requires", "step": null}"##)
                .unwrap();
        assert_eq!(
            (reading.link.as_str(), reading.tab.as_deref(), reading.step),
            ("#pako:eJ", Some("requires"), None)
        );
        assert_eq!(
            ReadingRecord::from_json("{\"tab\": \"graph\"}"),
            None,
            "a record names its link"
        );
    }

    #[test]
    fn only_edited_different_work_is_kept() {
        assert!(worth_keeping(&saved("mine", true), "theirs"));
        assert!(!worth_keeping(&saved("mine", true), "mine"));
        assert!(!worth_keeping(&saved("example", false), "theirs"));
        assert!(!worth_keeping(&saved("  \n", true), "theirs"));
    }

    #[test]
    fn the_newest_draft_is_continued_and_listed_first() {
        let drafts = vec![draft("a", 1.0, 1), draft("c", 3.0, 1), draft("b", 2.0, 1)];
        assert_eq!(newest(&drafts).map(|d| d.id.as_str()), Some("c"));
        let order: Vec<_> = newest_first(drafts).into_iter().map(|d| d.id).collect();
        assert_eq!(order, ["c", "b", "a"]);
        assert_eq!(newest(&[]), None);
    }

    #[test]
    fn drafts_older_than_30_days_are_pruned_but_not_the_kept_ones() {
        let now = 100.0 * DAY;
        let drafts = vec![
            draft("fresh", now - DAY, 1),
            draft("old", now - 31.0 * DAY, 1),
            draft("mine", now - 40.0 * DAY, 1),
        ];
        assert_eq!(to_prune(&drafts, now, |id| id == "mine"), ["old"]);
        assert!(to_prune(&drafts[..1], now, |_| false).is_empty());
    }

    #[test]
    fn past_the_total_size_the_oldest_go_first_and_kept_ones_still_count() {
        let now = 10.0 * DAY;
        let mb = 1024 * 1024;
        let drafts = vec![
            draft("new", now, 20 * mb),
            draft("mine", now - 3.0, 25 * mb),
            draft("older", now - 2.0, 4 * mb),
            draft("oldest", now - 5.0, 2 * mb),
        ];
        // 20 + 4 + 25 = 49 MB are kept; the oldest takes the total past 50.
        assert_eq!(to_prune(&drafts, now, |id| id == "mine"), ["oldest"]);
        // The tab's own draft is kept even alone past the limit.
        assert!(to_prune(&[draft("mine", now, 60 * mb)], now, |id| id == "mine").is_empty());
        assert_eq!(to_prune(&[draft("big", now, 60 * mb)], now, |_| false), ["big"]);
    }

    #[test]
    fn ids_differ_by_time_and_chance() {
        assert_ne!(new_id(1.0, 0.5), new_id(1.0, 0.25));
        assert_ne!(new_id(1.0, 0.5), new_id(2.0, 0.5));
        assert!(new_id(1e12, 0.999_999).starts_with('d'));
    }

    #[test]
    fn the_excerpt_is_the_cursor_line_or_the_last_one_with_words_before_it() {
        let text = "first\n  second line  \n\n\nfourth 😀 é\n";
        assert_eq!(excerpt(text, 0), "first");
        assert_eq!(excerpt(text, 9), "second line");
        assert_eq!(excerpt(text, 22), "second line", "a blank line reads as the one above");
        assert_eq!(excerpt(text, 27), "fourth 😀 é");
        assert_eq!(excerpt(text, 1_000), "fourth 😀 é");
        assert_eq!(excerpt("\n\nlater", 0), "later");
        assert_eq!(excerpt("", 0), "");
        let long = "x".repeat(100);
        assert_eq!(excerpt(&long, 3).chars().count(), EXCERPT_CHARS + 1);
    }

    #[test]
    fn times_read_as_a_person_says_them() {
        let now = 100.0 * DAY;
        assert_eq!(ago(now, now - 30_000.0), "just now");
        assert_eq!(ago(now, now - 60_000.0), "1 minute ago");
        assert_eq!(ago(now, now - 45.0 * 60_000.0), "45 minutes ago");
        assert_eq!(ago(now, now - 2.5 * 3_600_000.0), "2 hours ago");
        assert_eq!(ago(now, now - 3.0 * DAY), "3 days ago");
        assert_eq!(ago(now, now + 5_000.0), "just now", "a clock set back reads as now");
    }
}

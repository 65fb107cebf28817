//! `opb check` over a team's repository, made in each test: git init,
//! nested folders, a `.gitignore`d `node_modules` full of JSON, a hidden
//! folder, files of other names. Which files are chosen, what is reported
//! and the exit status.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

/// A playbook with one error: a `next` one letter from `done` (PB213, with
/// a certain fix).
const TYPO: &str = "openplaybook: \"1.6\"
id: small
name: Small
description: Two steps.
requires:
  connections: []
steps:
  - id: look
    kind: agent
    agent: lou
    purpose: Look.
    allowedTools: []
    next: dnoe
  - id: done
    kind: agent
    agent: lou
    purpose: Finish.
    allowedTools: []
start: look
";

const MANIFEST: &str = "name: acme\ntools:\n  - id: acme_helper\n    mcp: [node, server.js]\n";

/// A repository in a temporary directory, removed when dropped.
struct Repo {
    dir: tempfile::TempDir,
}

impl Repo {
    fn new() -> Repo {
        let repo = Repo { dir: tempfile::tempdir().expect("a temporary directory") };
        let status = std::process::Command::new("git")
            .args(["init", "-q"])
            .current_dir(repo.path())
            .status()
            .expect("git runs");
        assert!(status.success());
        repo
    }

    /// The repository every test starts from.
    fn team() -> Repo {
        let repo = Repo::new();
        repo.write(".gitignore", "node_modules/\n");
        repo.write("playbooks/refund.opb.yaml", TYPO);
        repo.write("playbooks/clean.opb.yaml", &TYPO.replace("dnoe", "done"));
        repo.write("playbooks/legacy/old.opb.yaml", TYPO);
        repo.write("plugins/acme/oz0-plugin.yaml", MANIFEST);
        repo.write("notes/settings.json", "{\"not\": \"a playbook\"}");
        repo.write("README.md", "# playbooks\n");
        repo.write(".hidden/secret.opb.yaml", TYPO);
        for i in 0..20 {
            repo.write(&format!("node_modules/pkg{i}/index.opb.json"), "{\"broken\": ");
            repo.write(&format!("node_modules/pkg{i}/package.json"), "{}");
        }
        repo
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn write(&self, path: &str, text: &str) {
        let path = self.path().join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a folder");
        std::fs::write(path, text).expect("written");
    }

    /// `opb` run in the repository (or a folder of it).
    fn opb(&self, args: &[&str]) -> Command {
        self.opb_in(".", args)
    }

    fn opb_in(&self, dir: &str, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_opb"));
        command
            .current_dir(self.path().join(dir))
            .env_remove("CLICOLOR_FORCE")
            .env_remove("NO_COLOR")
            .env("HOME", self.path())
            .env("XDG_CONFIG_HOME", self.path().join(".config"))
            .args(args);
        command
    }

    /// The JSON report of `opb check ARGS --format json`, and the status.
    fn report(&self, args: &[&str]) -> (Value, i32) {
        let mut all = vec!["check", "--format", "json"];
        all.extend(args);
        let output = self.opb(&all).output().expect("opb runs");
        let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
            panic!(
                "{e}: {}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            )
        });
        (report, output.status.code().expect("an exit status"))
    }
}

/// The paths a report names, in its order.
fn paths(report: &Value) -> Vec<String> {
    report["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f["path"].as_str().expect("a path").to_owned())
        .collect()
}

fn stdout(mut command: Command) -> String {
    String::from_utf8(command.output().expect("opb runs").stdout).expect("UTF-8")
}

mod discovery {
    use super::*;

    #[test]
    fn no_path_walks_the_current_directory_skipping_ignored_hidden_and_other_files() {
        let repo = Repo::team();
        let (report, status) = repo.report(&[]);
        assert_eq!(
            paths(&report),
            [
                "playbooks/clean.opb.yaml",
                "playbooks/legacy/old.opb.yaml",
                "playbooks/refund.opb.yaml",
                "plugins/acme/oz0-plugin.yaml",
            ]
        );
        assert_eq!(status, 1, "PB213 is an error");
        // `.` named is the same walk.
        assert_eq!(repo.report(&["."]).0, report);
    }

    #[test]
    fn a_directory_named_is_walked_and_paths_keep_its_name() {
        let repo = Repo::team();
        let (report, _) = repo.report(&["playbooks/legacy", "plugins"]);
        assert_eq!(
            paths(&report),
            ["playbooks/legacy/old.opb.yaml", "plugins/acme/oz0-plugin.yaml"]
        );
        let (report, status) = repo.report(&["plugins"]);
        assert_eq!((paths(&report).len(), status), (1, 0));
    }

    #[test]
    fn a_file_named_is_checked_even_where_a_walk_leaves_it_out() {
        let repo = Repo::team();
        let (report, status) =
            repo.report(&["node_modules/pkg3/index.opb.json", ".hidden/secret.opb.yaml"]);
        assert_eq!(paths(&report), ["node_modules/pkg3/index.opb.json", ".hidden/secret.opb.yaml"]);
        assert_eq!(status, 1);
    }

    #[test]
    fn the_ignore_file_and_a_nested_gitignore_are_honoured() {
        let repo = Repo::team();
        repo.write(".ignore", "playbooks/legacy/\n");
        repo.write("plugins/.gitignore", "acme/\n");
        let (report, _) = repo.report(&[]);
        assert_eq!(paths(&report), ["playbooks/clean.opb.yaml", "playbooks/refund.opb.yaml"]);
    }

    #[test]
    fn the_report_is_the_same_on_every_run_and_with_one_thread() {
        let repo = Repo::team();
        for i in 0..40 {
            repo.write(&format!("many/{i:02}.opb.yaml"), TYPO);
        }
        let first = stdout(repo.opb(&["check"]));
        for _ in 0..3 {
            assert_eq!(stdout(repo.opb(&["check"])), first);
        }
        assert_eq!(
            stdout({
                let mut c = repo.opb(&["check"]);
                c.env("RAYON_NUM_THREADS", "1");
                c
            }),
            first
        );
        let listed: Vec<&str> = first.lines().filter(|l| l.starts_with("many/")).collect();
        let mut sorted = listed.clone();
        sorted.sort_unstable();
        assert_eq!((listed.len(), &listed), (40, &sorted));
    }

    #[test]
    fn a_directory_with_nothing_to_check_reports_no_files_and_exits_0() {
        let repo = Repo::team();
        let (report, status) = repo.report(&["notes"]);
        assert_eq!((paths(&report).len(), status), (0, 0));
    }
}

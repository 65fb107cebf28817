//! The server over an in-memory connection, as a client speaks to it.

use super::serve;
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};
use std::time::Duration;

const URI: &str = "file:///work/refund%20triage.opb.yaml";

const BROKEN: &str = "openplaybook: \"1.6\"\nrequires:\n  connections: []\nsteps:\n  - id: triage\n    kind: agent\n    agent: lou\n    purpose: Read the refund request — café 😀.\n    allowedTools: []\n    next: gaet\n  - id: gate\n    kind: gate\n    purpose: A person approves.\n";

struct Client {
    connection: Connection,
    server: std::thread::JoinHandle<bool>,
    next_id: i32,
}

impl Client {
    fn start(capabilities: Value) -> (Client, Value) {
        let (server, connection) = Connection::memory();
        let server = std::thread::spawn(move || serve(&server).is_ok());
        let mut client = Client { connection, server, next_id: 0 };
        let result = client.request(
            "initialize",
            json!({ "capabilities": capabilities, "processId": null, "rootUri": null }),
        );
        client.notify("initialized", json!({}));
        (client, result)
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.connection
            .sender
            .send(Message::Request(Request::new(id.clone(), method.to_owned(), params)))
            .expect("sent");
        loop {
            match self.receive() {
                Message::Response(response) if response.id == id => {
                    return response
                        .response_result
                        .unwrap_or_else(|e| panic!("{method}: {} {}", e.code, e.message));
                }
                _ => continue,
            }
        }
    }

    fn notify(&self, method: &str, params: Value) {
        self.connection
            .sender
            .send(Message::Notification(Notification::new(method.to_owned(), params)))
            .expect("sent");
    }

    fn receive(&self) -> Message {
        self.receive_within(Duration::from_secs(10))
    }

    fn receive_within(&self, guard: Duration) -> Message {
        self.connection.receiver.recv_timeout(guard).expect("the server answers within the guard")
    }

    /// The response to a request, result or error.
    fn respond(&mut self, method: &str, params: Value) -> lsp_server::Response {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let request = Request::new(id.clone(), method.to_owned(), params);
        self.connection.sender.send(Message::Request(request)).expect("sent");
        loop {
            if let Message::Response(response) = self.receive() {
                if response.id == id {
                    return response;
                }
            }
        }
    }

    /// The next diagnostics published.
    fn diagnostics(&self) -> Value {
        loop {
            if let Message::Notification(n) = self.receive() {
                if n.method == "textDocument/publishDiagnostics" {
                    assert_eq!(n.params["uri"], URI);
                    return n.params["diagnostics"].clone();
                }
            }
        }
    }

    fn open(&self, uri: &str, text: &str) {
        self.notify("textDocument/didOpen", json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": text } }));
    }

    fn stop(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        assert!(self.server.join().expect("the server thread ends"), "serve ended with an error");
    }
}

fn position_of(text: &str, needle: &str) -> Value {
    let at = text.find(needle).expect("needle");
    let line = text[..at].matches('\n').count();
    let start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    json!({ "line": line, "character": text[start..at].encode_utf16().count() })
}

#[test]
fn it_announces_full_sync_hover_and_quick_fixes_and_the_position_unit() {
    let (client, result) = Client::start(json!({}));
    let capabilities = &result["capabilities"];
    assert_eq!(capabilities["textDocumentSync"], 1, "full sync");
    assert_eq!(capabilities["hoverProvider"], true);
    assert_eq!(capabilities["codeActionProvider"], true);
    assert_eq!(capabilities["positionEncoding"], "utf-16");
    assert_eq!(result["serverInfo"]["name"], "opb");
    client.stop();
    let (client, result) =
        Client::start(json!({ "general": { "positionEncodings": ["utf-8", "utf-16"] } }));
    assert_eq!(result["capabilities"]["positionEncoding"], "utf-8");
    client.stop();
}

#[test]
fn diagnostics_come_on_open_and_change_with_their_rule_and_go_on_close() {
    let (mut client, _) = Client::start(json!({}));
    client.open(URI, BROKEN);
    let diagnostics = client.diagnostics();
    let pb213 = diagnostics
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "PB213")
        .expect("PB213 for next: gaet");
    assert_eq!(pb213["severity"], 1);
    assert_eq!(pb213["source"], "opb");
    assert!(
        pb213["codeDescription"]["href"].as_str().unwrap().ends_with("/#rules/PB213"),
        "{pb213}"
    );
    assert!(pb213["message"].as_str().unwrap().contains("Did you mean `gate`?"), "{pb213}");
    assert_eq!(pb213["range"]["start"], position_of(BROKEN, "gaet"));

    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": URI }, "range": pb213["range"], "context": { "diagnostics": [pb213] } }),
    );
    let fix = &actions[0];
    assert_eq!(fix["kind"], "quickfix");
    assert_eq!(fix["title"], "Change to gate");
    assert_eq!(fix["edit"]["changes"][URI][0]["newText"], "gate");
    assert_eq!(fix["edit"]["changes"][URI][0]["range"], pb213["range"]);

    let fixed = BROKEN.replace("gaet", "gate");
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [{ "text": fixed }] }),
    );
    let diagnostics = client.diagnostics();
    assert!(!diagnostics.as_array().unwrap().iter().any(|d| d["code"] == "PB213"), "{diagnostics}");
    assert!(client.request("textDocument/codeAction", json!({ "textDocument": { "uri": URI }, "range": pb213["range"], "context": { "diagnostics": [] } })).as_array().unwrap().is_empty());

    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": URI } }));
    assert_eq!(client.diagnostics(), json!([]));
    client.stop();
}

#[test]
fn hover_explains_a_step_and_a_field_in_utf16_positions() {
    let (mut client, _) = Client::start(json!({}));
    client.open(URI, BROKEN);
    client.diagnostics();
    let hover = |client: &mut Client, needle: &str| {
        client.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": URI }, "position": position_of(BROKEN, needle) }),
        )
    };
    let step = hover(&mut client, "gate\n    kind");
    assert_eq!(step["contents"]["kind"], "markdown");
    assert!(
        step["contents"]["value"].as_str().unwrap().starts_with("**Step `gate`** (gate)"),
        "{step}"
    );
    assert_eq!(step["range"]["start"], position_of(BROKEN, "gate\n    kind"));
    let field = hover(&mut client, "allowedTools");
    assert!(
        field["contents"]["value"].as_str().unwrap().contains("capability boundary")
            || field["contents"]["value"].as_str().unwrap().contains("list of tool names"),
        "{field}"
    );
    // After the emoji, whose UTF-16 width is 2: the key on the next line.
    assert!(hover(&mut client, "allowedTools: []").is_object());
    assert_eq!(hover(&mut client, "\nsteps"), Value::Null, "a line break explains nothing");
    client.stop();
}

#[test]
fn other_json_and_yaml_files_get_no_diagnostics() {
    let (client, _) = Client::start(json!({}));
    let uri = "file:///work/.github/workflows/ci.yaml";
    client.open(uri, "on: push\njobs: {}\n");
    loop {
        if let Message::Notification(n) = client.receive() {
            if n.method == "textDocument/publishDiagnostics" {
                assert_eq!(n.params["uri"], uri);
                assert_eq!(n.params["diagnostics"], json!([]));
                break;
            }
        }
    }
    client.stop();
}

#[test]
fn a_notification_that_cannot_be_read_is_logged_and_the_server_goes_on() {
    let (client, _) = Client::start(json!({}));
    client.notify("textDocument/didOpen", json!({ "version": 1 }));
    let Message::Notification(log) = client.receive() else { panic!("a notification") };
    assert_eq!(log.method, "window/logMessage");
    assert_eq!(log.params["type"], 1, "an error");
    let said = log.params["message"].as_str().unwrap();
    assert!(said.contains("ignored a textDocument/didOpen notification"), "{said}");
    client.open(URI, BROKEN);
    assert!(!client.diagnostics().as_array().unwrap().is_empty());
    client.stop();
}

#[test]
fn a_request_that_cannot_be_read_is_answered_with_an_error() {
    let (mut client, _) = Client::start(json!({}));
    let response = client.respond("textDocument/hover", json!({ "position": "here" }));
    let error = response.response_result.expect_err("an error response");
    assert_eq!(error.code, lsp_server::ErrorCode::InvalidParams as i32);
    let response = client.respond("textDocument/definition", json!({}));
    assert_eq!(
        response.response_result.expect_err("an error").code,
        lsp_server::ErrorCode::MethodNotFound as i32
    );
    client.stop();
}

/// A one-line JSON playbook of 10,000 steps (the step limit), each with a
/// `next` naming no step: about 1.9 MB and 20,000 findings on one line.
fn one_line_document() -> String {
    let steps: Vec<Value> = (0..10_000)
        .map(|i| {
            json!({
                "id": format!("s{i}"), "kind": "agent", "agent": "a",
                "purpose": "Read the refund request and decide — café 😀, then route it on to the next one.",
                "allowedTools": ["mcp.x.y"], "next": format!("missing-{i}")
            })
        })
        .collect();
    json!({ "openplaybook": "1.6", "requires": { "connections": [] }, "steps": steps }).to_string()
}

#[test]
fn a_long_line_with_many_findings_is_answered_in_one_pass() {
    let text = one_line_document();
    assert!(text.len() > 1_800_000 && !text.contains('\n'));
    let (client, _) = Client::start(json!({}));
    let started = std::time::Instant::now();
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": URI, "languageId": "json", "version": 1, "text": text } }),
    );
    // A hang guard: the figure is measured in docs/performance.md.
    let guard = Duration::from_secs(120);
    let diagnostics = loop {
        if let Message::Notification(n) = client.receive_within(guard) {
            if n.method == "textDocument/publishDiagnostics" {
                break n.params["diagnostics"].clone();
            }
        }
    };
    eprintln!("{} bytes on one line: diagnostics in {:?}", text.len(), started.elapsed());
    let diagnostics = diagnostics.as_array().unwrap();
    assert!(diagnostics.len() >= 20_000, "{}", diagnostics.len());
    // The last `next`: its UTF-16 column counts each emoji as two units.
    let last = text.rfind("\"missing-9999\"").unwrap();
    let pb213 = diagnostics.iter().rev().find(|d| d["code"] == "PB213").unwrap();
    assert_eq!(
        pb213["range"]["start"],
        json!({ "line": 0, "character": text[..last].encode_utf16().count() })
    );
    client.stop();
}

/// The server shows what the core shows: a server name PB411 flagged is cut
/// to four characters in every diagnostic that quotes it and in the hover
/// over a tool named after it, as is a token used as a key in the
/// pointers the diagnostics carry.
#[test]
fn messages_and_hover_show_no_flagged_credential_whole() {
    const SERVER: &str = "admin:hunter2@acme";
    const TOKEN: &str = "ghp_Zq8rT2vLm4Nx7Kp1Wd9Yb3Hc6Js5Fg0Ae2Ru8";
    let text = format!(
        "openplaybook: \"1.6\"\n{TOKEN}: x\nrequires:\n  connections: []\n  mcpServers:\n    - {{name: \"{SERVER}\", toolNames: []}}\nsteps:\n  - id: a\n    kind: agent\n    agent: lou\n    purpose: Look.\n    allowedTools: [mcp.{SERVER}.search]\n"
    );
    let (mut client, _) = Client::start(json!({}));
    client.open(URI, &text);
    let diagnostics = client.diagnostics().to_string();
    assert!(diagnostics.contains("mcp.admi….search"), "another rule quotes it: {diagnostics}");
    for hidden in ["hunter2", "Zq8rT2vLm4Nx"] {
        assert!(!diagnostics.contains(hidden), "{hidden}: {diagnostics}");
    }
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": URI }, "position": position_of(&text, "dmin:hunter2@acme.search") }),
    );
    let markdown = hover["contents"]["value"].as_str().expect("a hover over the tool name");
    assert!(markdown.contains("mcp.admi….search"), "{markdown}");
    assert!(!markdown.contains("hunter2"), "{markdown}");
    client.stop();
}

#[test]
fn a_step_that_may_move_money_with_no_person_deciding_is_a_warning_at_its_tool() {
    let text = include_str!("../../crates/core/tests/fixtures/rules/PB220.bad.yaml");
    let (client, _) = Client::start(json!({}));
    client.open(URI, text);
    let diagnostics = client.diagnostics();
    let pb220 = diagnostics
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "PB220")
        .unwrap_or_else(|| panic!("PB220 for quick_refund: {diagnostics}"));
    assert_eq!(pb220["severity"], 2, "a warning");
    assert_eq!(pb220["range"]["start"], json!({ "line": 133, "character": 19 }));
    assert!(pb220["message"].as_str().unwrap().contains("no person deciding"), "{pb220}");
    client.stop();
}

#[test]
fn the_registry_the_settings_name_is_read_again_when_it_changes() {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/crates/core/tests/fixtures/rules");
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(dir.path().join("opb.toml"), "registry = \"registry.json\"\n").unwrap();
    let registry = dir.path().join("registry.json");
    std::fs::copy(format!("{fixtures}/DR001.registry.json"), &registry).unwrap();
    let text = std::fs::read_to_string(format!("{fixtures}/DR001.good.yaml")).unwrap();
    let uri = format!("file://{}/refund.opb.yaml", dir.path().display());
    let (client, _) = Client::start(json!({}));
    let codes = |client: &Client| loop {
        if let Message::Notification(n) = client.receive() {
            if n.method == "textDocument/publishDiagnostics" {
                let list = n.params["diagnostics"].as_array().cloned().unwrap_or_default();
                return list
                    .iter()
                    .map(|d| d["code"].as_str().unwrap_or("").to_owned())
                    .collect::<Vec<_>>();
            }
        }
    };
    let change = |version: i32| {
        client.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": text }] }),
        )
    };
    let missing = "DR001".to_owned();
    client.open(&uri, &text);
    assert!(!codes(&client).contains(&missing));
    // Read once, kept while the file is unchanged.
    change(2);
    assert!(!codes(&client).contains(&missing));
    // A registry that no longer holds the document's tool: read again.
    std::fs::write(&registry, "[]\n").unwrap();
    change(3);
    assert!(codes(&client).contains(&missing));
    client.stop();
}

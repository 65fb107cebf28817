//! `opb schema`: a format's JSON Schema, as the core generates it from its
//! field tables.

use crate::args::{SchemaArgs, SchemaFormat};
use crate::output::Output;
use crate::{convert, Status};
use opb_core::Kind;

pub fn run(args: &SchemaArgs, output: &mut Output) -> Status {
    let kind = match args.format {
        SchemaFormat::Playbook => Kind::Playbook,
        SchemaFormat::PluginManifest => Kind::PluginManifest,
    };
    let mut text =
        serde_json::to_string_pretty(&opb_core::schema::json_schema(kind)).unwrap_or_default();
    text.push('\n');
    match &args.output {
        None => {
            output.print(&text);
            Status::Clean
        }
        Some(path) => convert::write(path, &text, output),
    }
}

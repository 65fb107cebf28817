//! The tree written as YAML with saphyr's emitter: block style, two-space
//! indentation, multi-line strings as literal blocks, numbers as written.

use crate::ConvertError;
use opb_syntax::{Node, Ptr, Value};
use saphyr::{Mapping, Scalar, ScalarStyle, Yaml, YamlEmitter};
use std::borrow::Cow;

pub(crate) fn write(root: &Node) -> Result<String, ConvertError> {
    let yaml = to_yaml(root, &Ptr::root())?;
    let mut out = String::new();
    let mut emitter = YamlEmitter::new(&mut out);
    emitter.multiline(true);
    emitter.dump(&yaml).map_err(|error| ConvertError::Unreadable { message: error.to_string() })?;
    // The emitter opens every document with `---`, which a single document
    // does not need.
    let mut text = out.strip_prefix("---\n").map(str::to_owned).unwrap_or(out);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

fn to_yaml<'a>(node: &'a Node, ptr: &Ptr) -> Result<Yaml<'a>, ConvertError> {
    Ok(match &node.value {
        Value::Null => plain("null"),
        Value::Bool(b) => Yaml::Value(Scalar::Boolean(*b)),
        // Every number the tree holds is written as its source wrote it: a
        // JSON number is also a YAML 1.2 core-schema number.
        Value::Number(n) => plain(&n.raw),
        Value::String(s) => Yaml::Value(Scalar::String(Cow::Borrowed(s))),
        Value::Array(items) => Yaml::Sequence(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| to_yaml(item, &ptr.index(i)))
                .collect::<Result<_, _>>()?,
        ),
        Value::Object(object) => {
            let mut mapping = Mapping::with_capacity(object.members.len());
            for member in &object.members {
                let key = Yaml::Value(Scalar::String(Cow::Borrowed(&member.key)));
                if let Some(length) = too_long_key(&key, &member.key) {
                    return Err(ConvertError::KeyTooLong {
                        pointer: ptr.as_str().to_owned(),
                        length,
                    });
                }
                let value = to_yaml(&member.value, &ptr.key(&member.key))?;
                if mapping.insert(key, value).is_some() {
                    return Err(ConvertError::DuplicateKey {
                        pointer: ptr.as_str().to_owned(),
                        key: member.key.to_string(),
                    });
                }
            }
            Yaml::Mapping(mapping)
        }
    })
}

/// The most characters YAML reads in a key written before its `:` (YAML 1.2
/// §7.4.2). saphyr's emitter writes every string key that way, so a longer
/// one would not read back.
const MAX_KEY_CHARS: usize = 1024;

/// The written length of a key YAML cannot hold, if it is one. Escapes in
/// quotes take at most four characters per byte, so only keys over a
/// quarter of the limit are written out to be measured.
fn too_long_key(key: &Yaml<'_>, text: &str) -> Option<usize> {
    if text.len() <= MAX_KEY_CHARS / 4 - 2 {
        return None;
    }
    let mut written = String::new();
    YamlEmitter::new(&mut written).dump(key).ok()?;
    let length =
        written.strip_prefix("---\n").unwrap_or(&written).trim_end_matches('\n').chars().count();
    (length > MAX_KEY_CHARS).then_some(length)
}

fn plain(text: &str) -> Yaml<'_> {
    Yaml::Representation(Cow::Borrowed(text), ScalarStyle::Plain, None)
}

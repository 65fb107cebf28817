//! The tree written as YAML with saphyr's emitter: block style, two-space
//! indentation, multi-line strings as literal blocks, numbers as written.

use crate::ConvertError;
use opb_core::parse::{Node, Value};
use opb_core::Ptr;
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
                let value = to_yaml(&member.value, &ptr.key(&member.key))?;
                if mapping.insert(key, value).is_some() {
                    return Err(ConvertError::DuplicateKey {
                        pointer: ptr.as_str().to_owned(),
                        key: member.key.clone(),
                    });
                }
            }
            Yaml::Mapping(mapping)
        }
    })
}

fn plain(text: &str) -> Yaml<'_> {
    Yaml::Representation(Cow::Borrowed(text), ScalarStyle::Plain, None)
}

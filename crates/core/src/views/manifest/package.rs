//! A tool's `package`: `pypi:<name>[==<version>]`, `npm:<name>[@<version>]`,
//! `oci:<registry>/<repository>@sha256:<digest>` or `binary:<url>` (seed 003).

use serde::Serialize;

/// Where a package comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Ecosystem {
    /// `pypi:<name>[==<version>]`: a Python package from PyPI.
    Pypi,
    /// `npm:<name>[@<version>]`: a Node package from npm.
    Npm,
    /// `oci:<registry>/<repository>@sha256:<digest>`: a container image.
    Oci,
    /// `binary:<url>`: an executable downloaded from a URL.
    Binary,
}

impl Ecosystem {
    /// The scheme without its colon, as serialised: `pypi`, `npm`, `oci`
    /// or `binary`.
    pub fn as_str(self) -> &'static str {
        match self {
            Ecosystem::Pypi => "pypi",
            Ecosystem::Npm => "npm",
            Ecosystem::Oci => "oci",
            Ecosystem::Binary => "binary",
        }
    }
}

/// A package that reads as its scheme's form. `version` is what follows
/// `==` (PyPI), the last `@` (npm) or `@` (OCI, the digest); it may still
/// be a range or tag, which [`Package::npm_range`] tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Package<'a> {
    pub ecosystem: Ecosystem,
    pub name: &'a str,
    pub version: Option<&'a str>,
}

/// Why a `package` does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PackageError {
    /// No known scheme in front.
    Scheme,
    /// A known scheme, but what follows is not its form; the text says what
    /// is due.
    Form(&'static str),
    /// A PyPI requirement other than `==<version>` (`>=1.0`, `~=1.2`,
    /// `==1.*`): a range, where the seed names one version or none.
    PypiRange(String),
    /// An `oci:` image without `@sha256:` and 64 hex digits.
    OciDigest,
}

pub const PYPI_FORM: &str = "`pypi:<name>[==<version>]`";
pub const NPM_FORM: &str = "`npm:<name>[@<version>]`";
pub const OCI_FORM: &str = "`oci:<registry>/<repository>@sha256:<digest>`";
pub const BINARY_FORM: &str = "`binary:<url>`";

impl Ecosystem {
    /// The ecosystem a `package` value's scheme names, and what follows the
    /// scheme, whether or not that is of the ecosystem's form: what a tool is
    /// is decided by its scheme alone, before its reference is judged.
    pub fn of_package(text: &str) -> Option<(Ecosystem, &str)> {
        [
            ("pypi:", Ecosystem::Pypi),
            ("npm:", Ecosystem::Npm),
            ("oci:", Ecosystem::Oci),
            ("binary:", Ecosystem::Binary),
        ]
        .into_iter()
        .find_map(|(scheme, ecosystem)| text.strip_prefix(scheme).map(|rest| (ecosystem, rest)))
    }
}

impl<'a> Package<'a> {
    pub fn parse(text: &'a str) -> Result<Package<'a>, PackageError> {
        let Some((ecosystem, rest)) = Ecosystem::of_package(text) else {
            return Err(PackageError::Scheme);
        };
        match ecosystem {
            Ecosystem::Pypi => parse_pypi(rest),
            Ecosystem::Npm => parse_npm(rest),
            Ecosystem::Oci => parse_oci(rest),
            Ecosystem::Binary => {
                if rest.is_empty() || rest.chars().any(char::is_whitespace) {
                    Err(PackageError::Form(BINARY_FORM))
                } else {
                    Ok(Package { ecosystem, name: rest, version: None })
                }
            }
        }
    }

    /// Whether the package names one exact version (an OCI image, its digest).
    pub fn pinned(&self) -> bool {
        match self.ecosystem {
            Ecosystem::Npm => self.version.is_some() && self.npm_range().is_none(),
            Ecosystem::Pypi | Ecosystem::Oci => self.version.is_some(),
            Ecosystem::Binary => false,
        }
    }

    /// For npm, the version when it is a range or tag (`^1.2`, `latest`,
    /// `1.x`, a partial `1.2`) rather than one exact version.
    pub fn npm_range(&self) -> Option<&'a str> {
        let version = self.version.filter(|_| self.ecosystem == Ecosystem::Npm)?;
        let exact = version.strip_prefix('v').unwrap_or(version);
        semver::Version::parse(exact).is_err().then_some(version)
    }
}

/// PEP 508 names: letters and digits, with `.`, `_` and `-` inside.
fn is_pypi_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    let edge = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_alphanumeric());
    edge(bytes.first())
        && edge(bytes.last())
        && bytes.iter().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

fn parse_pypi(rest: &str) -> Result<Package<'_>, PackageError> {
    let name_end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
        .unwrap_or(rest.len());
    let (name, requirement) = rest.split_at(name_end);
    if !is_pypi_name(name) {
        return Err(PackageError::Form(PYPI_FORM));
    }
    if requirement.is_empty() {
        return Ok(Package { ecosystem: Ecosystem::Pypi, name, version: None });
    }
    match requirement.strip_prefix("==") {
        Some(version)
            if !version.is_empty()
                && !version.starts_with('=')
                && version.bytes().all(|b| {
                    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'!' | b'-' | b'_')
                }) =>
        {
            Ok(Package { ecosystem: Ecosystem::Pypi, name, version: Some(version) })
        }
        Some(_) | None
            if requirement.starts_with(['=', '>', '<', '~', '!']) || requirement.contains('*') =>
        {
            Err(PackageError::PypiRange(requirement.to_owned()))
        }
        _ => Err(PackageError::Form(PYPI_FORM)),
    }
}

/// npm names, scoped or not: `name`, `@scope/name`; URL-safe characters.
fn is_npm_name(name: &str) -> bool {
    let part = |p: &str| {
        !p.is_empty()
            && p.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
    };
    match name.strip_prefix('@') {
        Some(scoped) => {
            scoped.split_once('/').is_some_and(|(scope, bare)| part(scope) && part(bare))
        }
        None => part(name),
    }
}

fn parse_npm(rest: &str) -> Result<Package<'_>, PackageError> {
    // A scope's `@` comes first; a version's `@` follows the name.
    let search_from = usize::from(rest.starts_with('@'));
    let (name, version) = match rest[search_from..].find('@') {
        Some(at) => (&rest[..search_from + at], Some(&rest[search_from + at + 1..])),
        None => (rest, None),
    };
    if !is_npm_name(name) || version.is_some_and(str::is_empty) {
        return Err(PackageError::Form(NPM_FORM));
    }
    Ok(Package { ecosystem: Ecosystem::Npm, name, version })
}

fn parse_oci(rest: &str) -> Result<Package<'_>, PackageError> {
    let (image, digest) = match rest.split_once('@') {
        Some((image, digest)) => (image, Some(digest)),
        None => (rest, None),
    };
    let has_registry = image
        .split_once('/')
        .is_some_and(|(registry, repository)| !registry.is_empty() && !repository.is_empty());
    if !has_registry || image.chars().any(char::is_whitespace) {
        return Err(PackageError::Form(OCI_FORM));
    }
    let valid_digest = digest.and_then(|d| d.strip_prefix("sha256:")).is_some_and(|hex| {
        hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    });
    if !valid_digest {
        return Err(PackageError::OciDigest);
    }
    Ok(Package { ecosystem: Ecosystem::Oci, name: image, version: digest })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIGEST: &str = "3f1c9a7e2b4d6f8a0c2e4f6a8b0d2f4a6c8e0a2c4e6a8c0e2a4c6e8a0c2e4f6a";

    #[test]
    fn pypi() {
        let p = Package::parse("pypi:mcp-server-fetch==2025.4.7").unwrap();
        assert_eq!((p.name, p.version, p.pinned()), ("mcp-server-fetch", Some("2025.4.7"), true));
        let p = Package::parse("pypi:mcp_server").unwrap();
        assert_eq!((p.version, p.pinned()), (None, false));
        assert_eq!(Package::parse("pypi:x>=1.0"), Err(PackageError::PypiRange(">=1.0".into())));
        assert_eq!(Package::parse("pypi:x==1.*"), Err(PackageError::PypiRange("==1.*".into())));
        assert_eq!(Package::parse("pypi:x===1"), Err(PackageError::PypiRange("===1".into())));
        assert_eq!(Package::parse("pypi:"), Err(PackageError::Form(PYPI_FORM)));
        assert_eq!(Package::parse("pypi:-x"), Err(PackageError::Form(PYPI_FORM)));
        assert_eq!(Package::parse("pypi:x[cli]==1"), Err(PackageError::Form(PYPI_FORM)));
    }

    #[test]
    fn npm() {
        let p = Package::parse("npm:@shady/fetch@latest").unwrap();
        assert_eq!(
            (p.name, p.version, p.npm_range()),
            ("@shady/fetch", Some("latest"), Some("latest"))
        );
        let p = Package::parse("npm:@modelcontextprotocol/server-github@2025.4.8").unwrap();
        assert_eq!((p.npm_range(), p.pinned()), (None, true));
        for range in ["^1.2", "~1", ">=1", "1.x", "1.2", "*", "1.2.3 || 2"] {
            let text = format!("npm:x@{range}");
            assert!(Package::parse(&text).unwrap().npm_range().is_some(), "{range}");
        }
        assert!(Package::parse("npm:x@v1.2.3").unwrap().pinned());
        assert!(Package::parse("npm:x@1.2.3-beta.1").unwrap().pinned());
        assert!(!Package::parse("npm:server").unwrap().pinned());
        assert_eq!(Package::parse("npm:@scope"), Err(PackageError::Form(NPM_FORM)));
        assert_eq!(Package::parse("npm:x@"), Err(PackageError::Form(NPM_FORM)));
    }

    #[test]
    fn oci_and_binary() {
        let text = format!("oci:ghcr.io/acme/scanner@sha256:{DIGEST}");
        let p = Package::parse(&text).unwrap();
        assert_eq!((p.name, p.pinned()), ("ghcr.io/acme/scanner", true));
        assert_eq!(Package::parse("oci:ghcr.io/shady/box:latest"), Err(PackageError::OciDigest));
        assert_eq!(Package::parse("oci:ghcr.io/x@sha256:abc"), Err(PackageError::OciDigest));
        assert_eq!(
            Package::parse(&format!("oci:box@sha256:{DIGEST}")),
            Err(PackageError::Form(OCI_FORM))
        );
        assert_eq!(
            Package::parse("binary:https://x.example/tool").unwrap().ecosystem,
            Ecosystem::Binary
        );
        assert_eq!(Package::parse("pip:requests"), Err(PackageError::Scheme));
        assert_eq!(Package::parse("requests"), Err(PackageError::Scheme));
    }
}

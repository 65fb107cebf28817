//! The few things a manifest needs to know of an `http(s)://` URL: its
//! scheme, host and port, whether its host is a `{params.<name>}` template,
//! and whether it names the loopback. A full URL parser (with IDNA tables)
//! would weigh more in the browser bundle than these checks need.

use std::net::{Ipv4Addr, Ipv6Addr};

/// An `http://` or `https://` URL, split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpUrl<'a> {
    pub secure: bool,
    /// The host as written: a name, an IPv4 address, `[v6]`, or a template.
    pub host: &'a str,
    pub port: Option<&'a str>,
    /// Everything after the authority: path, query and fragment.
    pub rest: &'a str,
}

/// Why a text is not an `http(s)://` URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlError {
    Scheme,
    NoHost,
    BadPort,
    /// Spaces, quotes or angle brackets.
    BadCharacter,
}

impl std::fmt::Display for UrlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            UrlError::Scheme => "it does not start with `https://` (or `http://`)",
            UrlError::NoHost => "it names no host",
            UrlError::BadPort => "its port is not a number from 1 to 65535",
            UrlError::BadCharacter => "it has a space, quote or angle bracket",
        })
    }
}

impl<'a> HttpUrl<'a> {
    /// Reads `scheme://[userinfo@]host[:port][rest]`. Braces are kept, in
    /// the host for [`HttpUrl::is_template`] and [`HttpUrl::host_param`] and
    /// in the rest for [`HttpUrl::literal_rest`] to tell.
    pub fn parse(text: &'a str) -> Result<HttpUrl<'a>, UrlError> {
        let (scheme, after) = text.split_once("://").ok_or(UrlError::Scheme)?;
        let secure = if scheme.eq_ignore_ascii_case("https") {
            true
        } else if scheme.eq_ignore_ascii_case("http") {
            false
        } else {
            return Err(UrlError::Scheme);
        };
        let authority_end = after.find(['/', '?', '#']).unwrap_or(after.len());
        let (authority, rest) = after.split_at(authority_end);
        if rest.contains(|c: char| c.is_whitespace() || matches!(c, '"' | '<' | '>')) {
            return Err(UrlError::BadCharacter);
        }
        let host_and_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        let (host, port) = if host_and_port.starts_with('[') {
            match host_and_port.split_once(']') {
                Some((v6, after_v6)) => (&host_and_port[..v6.len() + 1], port_of(after_v6)?),
                None => return Err(UrlError::NoHost),
            }
        } else {
            match host_and_port.rsplit_once(':') {
                Some((host, port)) if !port.contains('}') => (host, Some(port)),
                _ => (host_and_port, None),
            }
        };
        if host.is_empty() {
            return Err(UrlError::NoHost);
        }
        if host.contains(|c: char| c.is_whitespace() || matches!(c, '"' | '<' | '>')) {
            return Err(UrlError::BadCharacter);
        }
        if let Some(port) = port {
            if port.parse::<u16>().map_or(true, |p| p == 0)
                || !port.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(UrlError::BadPort);
            }
        }
        Ok(HttpUrl { secure, host, port, rest })
    }

    /// The param a `{params.<name>}` host names, when the host is one.
    pub fn host_param(&self) -> Option<&'a str> {
        self.host.strip_prefix("{params.")?.strip_suffix('}')
    }

    /// Whether the host has a `{…}` in it, whole or not.
    pub fn is_template(&self) -> bool {
        self.host.contains(['{', '}'])
    }

    /// Whether path, query and fragment are written out, with no `{…}`.
    pub fn literal_rest(&self) -> bool {
        !self.rest.contains(['{', '}'])
    }

    /// Whether the host is the machine itself: `localhost` (and names under
    /// it), `127.0.0.0/8`, `[::1]`, or the unspecified `0.0.0.0` / `[::]`.
    pub fn is_loopback(&self) -> bool {
        is_loopback_host(self.host)
    }
}

fn port_of(after_host: &str) -> Result<Option<&str>, UrlError> {
    match after_host.strip_prefix(':') {
        Some(port) => Ok(Some(port)),
        None if after_host.is_empty() => Ok(None),
        None => Err(UrlError::BadPort),
    }
}

/// See [`HttpUrl::is_loopback`]; also reads a bare `host[:port]`.
pub fn is_loopback_host(host: &str) -> bool {
    let lower = host.trim_end_matches('.').to_ascii_lowercase();
    if lower == "localhost" || lower.ends_with(".localhost") {
        return true;
    }
    if let Some(v6) = lower.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return v6.parse::<Ipv6Addr>().is_ok_and(|ip| {
            ip.is_loopback()
                || ip.is_unspecified()
                || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback() || v4.is_unspecified())
        });
    }
    ipv4(&lower).is_some_and(|ip| ip.is_loopback() || ip.is_unspecified())
}

/// An IPv4 address in any spelling a resolver accepts, as `inet_aton` reads
/// it: one to four parts, each decimal, hexadecimal (`0x`) or octal (a
/// leading `0`), the last filling the bytes the others leave (`127.1` is
/// 127.0.0.1, `2130706433` and `0x7f000001` are too).
fn ipv4(host: &str) -> Option<Ipv4Addr> {
    let parts: Vec<&str> = host.split('.').collect();
    if parts.len() > 4 {
        return None;
    }
    let values = parts.iter().map(|part| {
        let (digits, radix) = match part.strip_prefix("0x").or_else(|| part.strip_prefix("0X")) {
            Some(hex) => (hex, 16),
            None if part.len() > 1 && part.starts_with('0') => (&part[1..], 8),
            None => (*part, 10),
        };
        // `from_str_radix` takes a sign; an address part has none.
        if digits.is_empty() && radix != 16 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(if digits.is_empty() { "0" } else { digits }, radix).ok()
    });
    let values: Vec<u32> = values.collect::<Option<_>>()?;
    let (last, leading) = values.split_last()?;
    if leading.iter().any(|&v| v > 0xff) || u64::from(*last) >= 1u64 << (8 * (4 - leading.len())) {
        return None;
    }
    let address =
        leading.iter().enumerate().fold(*last, |address, (i, &v)| address | v << (8 * (3 - i)));
    Some(Ipv4Addr::from(address))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_split() {
        let url = HttpUrl::parse("https://search.example.com/mcp").unwrap();
        assert_eq!(
            (url.secure, url.host, url.port, url.rest),
            (true, "search.example.com", None, "/mcp")
        );
        let url = HttpUrl::parse("http://user:pw@127.0.0.1:8080/v1").unwrap();
        assert_eq!((url.secure, url.host, url.port), (false, "127.0.0.1", Some("8080")));
        let url = HttpUrl::parse("https://[::1]:9/x").unwrap();
        assert_eq!((url.host, url.port), ("[::1]", Some("9")));
        let url = HttpUrl::parse("https://{params.host}/mcp").unwrap();
        assert_eq!(url.host_param(), Some("host"));
        assert!(url.is_template());
        assert_eq!(HttpUrl::parse("ftp://x"), Err(UrlError::Scheme));
        assert_eq!(HttpUrl::parse("search.example.com"), Err(UrlError::Scheme));
        assert_eq!(HttpUrl::parse("https:///mcp"), Err(UrlError::NoHost));
        assert_eq!(HttpUrl::parse("https://x:99999"), Err(UrlError::BadPort));
        assert_eq!(HttpUrl::parse("https://x:"), Err(UrlError::BadPort));
        assert!(!HttpUrl::parse("https://x/{id}").unwrap().literal_rest());
        assert!(HttpUrl::parse("https://x/id?q=1").unwrap().literal_rest());
        let url = HttpUrl::parse("https://a.{params.x}:8443/").unwrap();
        assert_eq!(
            (url.host, url.port, url.is_template(), url.host_param()),
            ("a.{params.x}", Some("8443"), true, None)
        );
        assert_eq!(HttpUrl::parse("https://x y/"), Err(UrlError::BadCharacter));
    }

    #[test]
    fn loopback_hosts() {
        for host in [
            "localhost",
            "LOCALHOST",
            "api.localhost",
            "127.0.0.1",
            "127.1.2.3",
            "[::1]",
            "0.0.0.0",
            "[::]",
            "[::ffff:127.0.0.1]",
            "localhost.",
        ] {
            assert!(is_loopback_host(host), "{host}");
        }
        // The legacy spellings of 127.0.0.1 and 0.0.0.0 every common resolver reads.
        for host in [
            "127.1",
            "127.0.1",
            "2130706433",
            "0x7f000001",
            "0X7F.1",
            "0177.0.0.1",
            "0177.1",
            "017700000001",
            "0x7f.0x0.0x0.0x1",
            "0",
            "0x0",
        ] {
            assert!(is_loopback_host(host), "{host}");
        }
        for host in [
            "api.openai.com",
            "10.0.0.1",
            "[2001:db8::1]",
            "localhost.example.com",
            "128.0.0.1",
            "128.1",
            "2130706431",
            "0x80000001",
            "0200.0.0.1",
            "127.16777216",
            "1.2.3.4.5",
            "127.0.0.1x",
            "08.0.0.1",
            "-127.1",
            "+127.1",
            "127..1",
            "4294967296",
        ] {
            assert!(!is_loopback_host(host), "{host}");
        }
    }
}

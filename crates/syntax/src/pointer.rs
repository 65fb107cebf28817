//! RFC 6901 JSON pointers, which every diagnostic and explain item carries.

use crate::CompactString;

/// An RFC 6901 JSON pointer, built one token at a time.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Ptr(String);

impl Ptr {
    /// The empty pointer: the whole document.
    pub fn root() -> Ptr {
        Ptr(String::new())
    }

    /// The pointer to member `key` of the object this one points at.
    pub fn key(&self, key: &str) -> Ptr {
        let mut ptr = Ptr(String::with_capacity(self.0.len() + key.len() + 1));
        ptr.0.push_str(&self.0);
        ptr.push_token(key);
        ptr
    }

    /// Appends `/` and `key`, escaped.
    fn push_token(&mut self, key: &str) {
        let s = &mut self.0;
        s.push('/');
        let mut rest = key;
        while let Some(at) = rest.bytes().position(|b| b == b'~' || b == b'/') {
            let (plain, special) = rest.split_at(at);
            s.push_str(plain);
            s.push_str(if special.starts_with('~') { "~0" } else { "~1" });
            rest = &special[1..];
        }
        s.push_str(rest);
    }

    /// The pointer to item `index` of the array this one points at.
    pub fn index(&self, index: usize) -> Ptr {
        Ptr(item_pointer(&self.0, index).into_string())
    }

    /// The pointer to item `index` of this one's member `key`, in one
    /// allocation: `ptr.key(key).index(index)` makes two.
    pub fn key_index(&self, key: &str, index: usize) -> Ptr {
        let mut digits = itoa::Buffer::new();
        let digits = digits.format(index);
        let mut ptr = Ptr(String::with_capacity(self.0.len() + key.len() + 2 + digits.len()));
        ptr.0.push_str(&self.0);
        ptr.push_token(key);
        ptr.0.push('/');
        ptr.0.push_str(digits);
        ptr
    }

    /// The pointer as written, tokens escaped (`/a~1b/0`); empty for the
    /// root.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The pointer as written, without a copy.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl std::fmt::Display for Ptr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The pointer to item `index` of the array `list` points at. Sized for the
/// digits up front: a copy of the parent and a push would allocate twice
/// (and a short pointer is not allocated at all).
pub fn item_pointer(list: &str, index: usize) -> CompactString {
    let mut digits = itoa::Buffer::new();
    let digits = digits.format(index);
    let mut pointer = CompactString::with_capacity(list.len() + 1 + digits.len());
    pointer.push_str(list);
    pointer.push('/');
    pointer.push_str(digits);
    pointer
}

#[cfg(test)]
mod tests {
    use super::Ptr;

    #[test]
    fn pointer_tokens_are_escaped() {
        let p = Ptr::root().key("a/b").key("m~n").index(3);
        assert_eq!(p.as_str(), "/a~1b/m~0n/3");
        assert_eq!(Ptr::root().key("a/b").key_index("m~n", 3), p);
    }

    #[test]
    fn indexes_are_written_in_decimal() {
        for index in [0, 7, 10, 99, 100, 12_345, usize::MAX] {
            assert_eq!(Ptr::root().key("steps").index(index).as_str(), format!("/steps/{index}"));
        }
    }
}

//! Standard output and standard error, coloured or not.
//!
//! Renderers style their text unconditionally; the streams strip the styles
//! when colour is off (`--color never`, `NO_COLOR`, or not a terminal).

use crate::args::ColorWhen;
use crate::style;
use anstream::AutoStream;
use std::fmt::Display;
use std::io::{self, Write};

pub struct Output {
    stdout: AutoStream<io::Stdout>,
    stderr: AutoStream<io::Stderr>,
    /// Set when standard output could not be written (other than a closed
    /// pipe, which simply means the reader has seen enough).
    write_failed: bool,
}

impl Output {
    pub fn new(color: ColorWhen) -> Output {
        Output {
            stdout: AutoStream::new(io::stdout(), color.choice()),
            stderr: AutoStream::new(io::stderr(), color.choice()),
            write_failed: false,
        }
    }

    /// Writes `text` to standard output as it is.
    pub fn print(&mut self, text: &str) {
        let written = self.stdout.write_all(text.as_bytes()).and_then(|()| self.stdout.flush());
        if let Err(e) = written {
            if e.kind() != io::ErrorKind::BrokenPipe {
                self.write_failed = true;
                self.error(format_args!("cannot write the output: {e}"));
            }
        }
    }

    /// Writes `error: <message>` to standard error: something kept opb
    /// from doing what was asked. The message may quote a file name, so it
    /// is shown with control characters neutralised.
    pub fn error(&mut self, message: impl Display) {
        let message = annotate_snippets::normalize_untrusted_str(&message.to_string());
        let red = style::ERROR;
        // Nothing sensible is left to do when standard error itself fails.
        let _ = writeln!(self.stderr, "{}error:{} {message}", red.render(), red.render_reset());
    }

    /// Writes `note: <message>` to standard error: something the reader
    /// should know that did not stop opb.
    pub fn note(&mut self, message: impl Display) {
        let message = annotate_snippets::normalize_untrusted_str(&message.to_string());
        let _ = writeln!(self.stderr, "note: {message}");
    }

    pub fn write_failed(&self) -> bool {
        self.write_failed
    }
}

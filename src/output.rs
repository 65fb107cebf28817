//! Standard output and standard error, coloured or not.
//!
//! Renderers style their text unconditionally; the streams strip the styles
//! when colour is off (`--color never`, `NO_COLOR`, or not a terminal).

use crate::args::ColorWhen;
use crate::{escape, style};
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

    /// Writes a report for people to standard output, with no line a CI
    /// runner would take for a workflow command ([`escape::workflow_safe`]).
    pub fn print_for_people(&mut self, text: &str) {
        self.print(&escape::workflow_safe(text));
    }

    /// Writes `error: <message>` to standard error: something kept opb
    /// from doing what was asked. The message may quote a file name or a
    /// document's text, so it is shown on one line, escaped.
    pub fn error(&mut self, message: impl Display) {
        let message = message.to_string();
        let message = escape::line(&message);
        let red = style::ERROR;
        // Nothing sensible is left to do when standard error itself fails.
        let _ = writeln!(self.stderr, "{}error:{} {message}", red.render(), red.render_reset());
    }

    /// Writes `note: <message>` to standard error: something the reader
    /// should know that did not stop opb.
    pub fn note(&mut self, message: impl Display) {
        let message = message.to_string();
        let message = escape::line(&message);
        let _ = writeln!(self.stderr, "note: {message}");
    }

    pub fn write_failed(&self) -> bool {
        self.write_failed
    }
}

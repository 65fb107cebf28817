//! LSP's base protocol on standard input and output: `Content-Length`
//! headers, then a JSON-RPC message, in lsp-server's `Message`s.
//!
//! lsp-server's own stdio transport allocates whatever length a header
//! names (`Content-Length: 99999999999999` aborts the process) and stops at
//! the first body that is not a message. This one reads a header line of
//! at most [`MAX_HEADER_LINE`] bytes and a body of at most
//! [`MAX_MESSAGE`]; a longer body is read through and dropped, and a body
//! that is not JSON-RPC is dropped, each with a `window/logMessage` to the
//! client, and the server goes on with the next message.

use crossbeam_channel::{bounded, Receiver, Sender};
use lsp_server::{Connection, Message, Notification};
use lsp_types::notification::{Exit, LogMessage, Notification as _};
use lsp_types::{LogMessageParams, MessageType};
use std::io::{self, BufRead, Read, Write};
use std::thread::JoinHandle;

/// The longest message read: the input-size limit eight times over, room
/// for any document under the limit however JSON escapes its text (at
/// most six bytes for one, `\u0000`) and the rest of the message.
pub const MAX_MESSAGE: u64 = 8 * 16 * 1024 * 1024;
/// The longest header line: `Content-Length` and `Content-Type` take a
/// few dozen bytes.
pub const MAX_HEADER_LINE: u64 = 1024;

/// The reading and writing threads.
pub struct Transport {
    reader: JoinHandle<io::Result<()>>,
    writer: JoinHandle<io::Result<()>>,
}

impl Transport {
    /// Waits for both threads: the reader ends at the end of input or after
    /// `exit`, the writer once every sender to the client is dropped.
    pub fn join(self) -> io::Result<()> {
        let joined = |thread: JoinHandle<io::Result<()>>| {
            thread.join().unwrap_or_else(|_| Err(io::Error::other("a transport thread panicked")))
        };
        let read = joined(self.reader);
        let written = joined(self.writer);
        read.and(written)
    }
}

/// A connection over standard input and output.
pub fn stdio() -> (Connection, Transport) {
    let (to_client, outgoing) = bounded::<Message>(0);
    let (incoming, from_client) = bounded::<Message>(0);
    let writer = std::thread::spawn(move || write(io::stdout().lock(), &outgoing));
    let log = to_client.clone();
    let reader = std::thread::spawn(move || read(io::stdin().lock(), &incoming, &log));
    (Connection { sender: to_client, receiver: from_client }, Transport { reader, writer })
}

fn write(mut output: impl Write, outgoing: &Receiver<Message>) -> io::Result<()> {
    for message in outgoing {
        message.write(&mut output)?;
    }
    Ok(())
}

/// Reads messages from `input` until it ends or `exit` comes, passing
/// each to the server and telling the client (through `log`) of each one
/// dropped.
pub fn read(
    mut input: impl BufRead,
    server: &Sender<Message>,
    log: &Sender<Message>,
) -> io::Result<()> {
    loop {
        let message = match frame(&mut input)? {
            Frame::End => return Ok(()),
            Frame::TooLarge(size) => {
                tell(log, format!("opb lsp dropped a message of {size} bytes: the limit is {MAX_MESSAGE} bytes"));
                continue;
            }
            Frame::Body(body) => match serde_json::from_slice::<Message>(&body) {
                Ok(message) => message,
                Err(why) => {
                    tell(log, format!("opb lsp dropped a message that is not JSON-RPC: {why}"));
                    continue;
                }
            },
        };
        let exit = matches!(&message, Message::Notification(n) if n.method == Exit::METHOD);
        if server.send(message).is_err() || exit {
            return Ok(());
        }
    }
}

/// Sends the client a `window/logMessage` error. A client gone is no
/// reason to stop reading.
fn tell(log: &Sender<Message>, message: String) {
    let params = LogMessageParams { typ: MessageType::ERROR, message };
    let _ =
        log.send(Message::Notification(Notification::new(LogMessage::METHOD.to_owned(), params)));
}

/// What one frame of input held.
#[derive(Debug, PartialEq, Eq)]
enum Frame {
    /// The input ended between messages.
    End,
    /// A body within the limit.
    Body(Vec<u8>),
    /// A body over the limit, of this many bytes, read through.
    TooLarge(u64),
}

fn frame(input: &mut impl BufRead) -> io::Result<Frame> {
    let invalid = |why: String| io::Error::new(io::ErrorKind::InvalidData, why);
    let mut size = None;
    let mut line = Vec::new();
    let mut first = true;
    loop {
        line.clear();
        let read = input.by_ref().take(MAX_HEADER_LINE).read_until(b'\n', &mut line)?;
        if read == 0 && first {
            return Ok(Frame::End);
        }
        first = false;
        let Some(header) = line.strip_suffix(b"\r\n") else {
            return Err(invalid(format!(
                "a header line is not ended by CRLF within {MAX_HEADER_LINE} bytes: {:?}",
                String::from_utf8_lossy(&line)
            )));
        };
        if header.is_empty() {
            break;
        }
        let header = String::from_utf8_lossy(header);
        let (name, value) = header
            .split_once(": ")
            .ok_or_else(|| invalid(format!("a malformed header: {header:?}")))?;
        if name.eq_ignore_ascii_case("Content-Length") {
            let length = value.trim().parse::<u64>().map_err(|_| {
                invalid(format!("a Content-Length that is not a length: {value:?}"))
            })?;
            size = Some(length);
        }
    }
    let size = size.ok_or_else(|| invalid("a message without a Content-Length".to_owned()))?;
    if size > MAX_MESSAGE {
        let skipped = io::copy(&mut input.by_ref().take(size), &mut io::sink())?;
        if skipped < size {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!("the input ended {skipped} bytes into a message of {size} bytes"),
            ));
        }
        return Ok(Frame::TooLarge(size));
    }
    let mut body = Vec::new();
    input.by_ref().take(size).read_to_end(&mut body)?;
    if (body.len() as u64) < size {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!("the input ended {} bytes into a message of {size} bytes", body.len()),
        ));
    }
    Ok(Frame::Body(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn an_overlong_message_is_read_through_and_the_next_one_read() {
        let next = framed(r#"{"jsonrpc":"2.0","method":"exit"}"#);
        let huge = MAX_MESSAGE + 1;
        let input = format!("Content-Length: {huge}\r\n\r\n").into_bytes();
        let input =
            io::Cursor::new(input).chain(io::repeat(b' ').take(huge)).chain(io::Cursor::new(next));
        let mut input = io::BufReader::new(input);
        assert_eq!(frame(&mut input).unwrap(), Frame::TooLarge(huge));
        assert!(matches!(frame(&mut input).unwrap(), Frame::Body(_)));
        assert_eq!(frame(&mut input).unwrap(), Frame::End);
    }

    #[test]
    fn a_header_without_an_end_is_refused_at_its_limit() {
        let mut input = io::BufReader::new(io::repeat(b'x'));
        let error = frame(&mut input).unwrap_err();
        assert!(error.to_string().contains("not ended by CRLF"), "{error}");
    }

    #[test]
    fn a_body_that_is_not_json_rpc_is_dropped_and_reading_goes_on() {
        let input = [framed("{not json"), framed(r#"{"jsonrpc":"2.0","method":"exit"}"#)].concat();
        let (server, from_reader) = crossbeam_channel::unbounded();
        let (log, logged) = crossbeam_channel::unbounded();
        read(io::Cursor::new(input), &server, &log).unwrap();
        let Ok(Message::Notification(note)) = logged.try_recv() else { panic!("logged") };
        assert_eq!(note.method, "window/logMessage");
        assert!(note.params["message"].as_str().unwrap().contains("not JSON-RPC"), "{note:?}");
        assert!(
            matches!(from_reader.try_recv(), Ok(Message::Notification(n)) if n.method == "exit")
        );
    }
}

//! A reader of Server-Sent Events (`text/event-stream`), fed with the bytes as they arrive.

use std::fmt;

/// The bound on a line, and on the data of one event, of the client's streams (4 MiB): large enough for a long
/// reply sent whole (a followed reply's text so far, a done event with the stored reply), small enough that a
/// misbehaving server cannot make the client buffer without end.
pub const DEFAULT_MAX_EVENT_BYTES: usize = 4 << 20;

/// One event of a `text/event-stream`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerSentEvent {
    /// The event's name; `"message"` when the stream gave none.
    pub event: String,
    /// The event's data lines joined with `"\n"`.
    pub data: String,
    /// The last id the stream set (`""` when none).
    pub id: String,
}

/// A line, or the data of one event, is longer than the decoder's bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventTooLarge {
    /// The bound, in bytes.
    pub limit: usize,
}

impl fmt::Display for EventTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a server-sent event is larger than the reader's limit of {} bytes", self.limit)
    }
}

impl std::error::Error for EventTooLarge {}

/// Decodes Server-Sent Events as the WHATWG specification says: lines end with LF, CRLF or CR (also when a CRLF
/// is split between two pieces); a line starting with `:` is a comment (the server's keep-alives); several `data`
/// lines join with `"\n"`; a blank line dispatches the event; an event the stream ends without a blank line after
/// is dropped. A line, and the data of one event, are bounded ([`EventTooLarge`]).
///
/// ```
/// let mut decoder = kasa::SseDecoder::new(kasa::DEFAULT_MAX_EVENT_BYTES);
/// let mut events = decoder.push(b": keep-alive\r\nevent: token\r\ndata: {\"text\":").unwrap();
/// assert!(events.is_empty());
/// events = decoder.push(b"\"Hi\"}\r\n\r\n").unwrap();
/// assert_eq!(events[0].event, "token");
/// assert_eq!(events[0].data, "{\"text\":\"Hi\"}");
/// ```
#[derive(Debug)]
pub struct SseDecoder {
    limit: usize,
    line: Vec<u8>,
    after_cr: bool,
    started: bool,
    event: String,
    data: Vec<u8>,
    has_data: bool,
    id: String,
}

impl SseDecoder {
    /// A decoder whose lines and events are at most `max_event_bytes` long ([`DEFAULT_MAX_EVENT_BYTES`] when 0).
    pub fn new(max_event_bytes: usize) -> SseDecoder {
        let limit = if max_event_bytes == 0 { DEFAULT_MAX_EVENT_BYTES } else { max_event_bytes };
        SseDecoder {
            limit,
            line: Vec::new(),
            after_cr: false,
            started: false,
            event: String::new(),
            data: Vec::new(),
            has_data: false,
            id: String::new(),
        }
    }

    /// Takes the next bytes of the stream and gives the events they complete, in order.
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<ServerSentEvent>, EventTooLarge> {
        let mut events = Vec::new();
        let mut rest = bytes;
        while !rest.is_empty() {
            if self.after_cr {
                self.after_cr = false;
                if rest[0] == b'\n' {
                    rest = &rest[1..];
                    continue;
                }
            }
            match rest.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(end) => {
                    self.extend_line(&rest[..end])?;
                    self.after_cr = rest[end] == b'\r';
                    rest = &rest[end + 1..];
                    if let Some(event) = self.end_line()? {
                        events.push(event);
                    }
                }
                None => {
                    self.extend_line(rest)?;
                    rest = &[];
                }
            }
        }
        Ok(events)
    }

    fn extend_line(&mut self, bytes: &[u8]) -> Result<(), EventTooLarge> {
        // Room for a byte order mark before the first line.
        let allowance = if self.started { 0 } else { 3 };
        if self.line.len() + bytes.len() > self.limit + allowance {
            return Err(EventTooLarge { limit: self.limit });
        }
        self.line.extend_from_slice(bytes);
        Ok(())
    }

    fn end_line(&mut self) -> Result<Option<ServerSentEvent>, EventTooLarge> {
        let mut line = std::mem::take(&mut self.line);
        if !self.started {
            self.started = true;
            if line.starts_with(b"\xEF\xBB\xBF") {
                line.drain(..3);
            }
            if line.len() > self.limit {
                return Err(EventTooLarge { limit: self.limit });
            }
        }
        if line.is_empty() {
            return Ok(self.dispatch());
        }
        if line[0] == b':' {
            return Ok(None);
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (&line[..], &b""[..]),
        };
        match field {
            b"event" => self.event = String::from_utf8_lossy(value).into_owned(),
            b"data" => {
                let added = value.len() + usize::from(self.has_data);
                if self.data.len() + added > self.limit {
                    return Err(EventTooLarge { limit: self.limit });
                }
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
            }
            b"id" if !value.contains(&0) => self.id = String::from_utf8_lossy(value).into_owned(),
            _ => {}
        }
        Ok(None)
    }

    fn dispatch(&mut self) -> Option<ServerSentEvent> {
        let name = std::mem::take(&mut self.event);
        let data = std::mem::take(&mut self.data);
        let has_data = std::mem::replace(&mut self.has_data, false);
        if !has_data {
            return None;
        }
        Some(ServerSentEvent {
            event: if name.is_empty() { "message".to_string() } else { name },
            data: String::from_utf8_lossy(&data).into_owned(),
            id: self.id.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(decoder: &mut SseDecoder, pieces: &[&[u8]]) -> Vec<ServerSentEvent> {
        pieces.iter().flat_map(|p| decoder.push(p).unwrap()).collect()
    }

    #[test]
    fn reads_events_with_every_line_ending_and_skips_comments() {
        let mut decoder = SseDecoder::new(0);
        let events = all(
            &mut decoder,
            &[
                b"\xEF\xBB\xBF: ping\n\nevent: meta\ndata: {\"a\":1}\n\n",
                b"event: token\r\ndata: x\r\n\r\n",
                b"data: y\rdata: z\r\r",
            ],
        );
        assert_eq!(events.len(), 3);
        assert_eq!((events[0].event.as_str(), events[0].data.as_str()), ("meta", "{\"a\":1}"));
        assert_eq!((events[1].event.as_str(), events[1].data.as_str()), ("token", "x"));
        assert_eq!((events[2].event.as_str(), events[2].data.as_str()), ("message", "y\nz"));
    }

    #[test]
    fn joins_lines_and_crlf_split_between_pieces() {
        let mut decoder = SseDecoder::new(0);
        let events =
            all(&mut decoder, &[b"id: 7\r", b"\ndata:no space\r", b"\n\r", b"\nevent: done\ndata", b": {}\n", b"\n"]);
        assert_eq!(events.len(), 2);
        assert_eq!(events[0].data, "no space");
        assert_eq!(events[0].id, "7");
        assert_eq!((events[1].event.as_str(), events[1].data.as_str(), events[1].id.as_str()), ("done", "{}", "7"));
    }

    #[test]
    fn drops_an_event_without_its_blank_line_and_events_without_data() {
        let mut decoder = SseDecoder::new(0);
        assert!(all(&mut decoder, &[b"event: meta\n\n", b"data: half"]).is_empty());
    }

    #[test]
    fn bounds_lines_and_events() {
        let mut decoder = SseDecoder::new(8);
        assert_eq!(decoder.push(b"data: 123456789"), Err(EventTooLarge { limit: 8 }));
        let mut decoder = SseDecoder::new(8);
        assert!(decoder.push(b"data:1234\ndata:1234\n").is_err());
        let mut decoder = SseDecoder::new(8);
        assert_eq!(decoder.push(b"data:123\ndata:456\n\n").unwrap()[0].data, "123\n456");
    }
}

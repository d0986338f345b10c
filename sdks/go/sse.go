package kasa

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
)

// DefaultMaxEventBytes bounds a Server-Sent Events line, and the data of one event, for the client's streams: large
// enough for a long reply sent whole (a followed reply's text so far, a done event with the stored reply), small
// enough that a misbehaving server cannot make the client buffer without end.
const DefaultMaxEventBytes = 4 << 20

// ErrEventTooLarge is returned by SSEReader.Next when a line, or the data of one event, is longer than the
// reader's limit.
var ErrEventTooLarge = errors.New("kasa: a server-sent event is larger than the reader's limit")

// ServerSentEvent is one event of a text/event-stream.
type ServerSentEvent struct {
	// Event is the event's name; "message" when the stream gave none.
	Event string
	// Data is the event's data lines joined with "\n".
	Data string
	// ID is the last id the stream set ("" when none).
	ID string
}

// SSEReader reads Server-Sent Events (text/event-stream) as the WHATWG specification says: lines end with LF,
// CRLF or CR; a line starting with ":" is a comment (the server's keep-alive pings); several data lines join with
// "\n"; a blank line dispatches the event; an event the stream ends without a blank line after is dropped. A line,
// and the data of one event, are bounded (ErrEventTooLarge).
type SSEReader struct {
	scanner *bufio.Scanner
	limit   int
	started bool
	event   string
	data    strings.Builder
	hasData bool
	id      string
}

// NewSSEReader reads events from r, with lines and events of at most maxEventBytes (DefaultMaxEventBytes when 0 or
// less).
func NewSSEReader(r io.Reader, maxEventBytes int) *SSEReader {
	if maxEventBytes <= 0 {
		maxEventBytes = DefaultMaxEventBytes
	}
	scanner := bufio.NewScanner(r)
	initial := 4096
	if maxEventBytes < initial {
		initial = maxEventBytes
	}
	// Room for the longest line and its CRLF: a longer one is bufio.ErrTooLong.
	scanner.Buffer(make([]byte, 0, initial), maxEventBytes+2)
	scanner.Split(splitLines)
	return &SSEReader{scanner: scanner, limit: maxEventBytes}
}

// Next gives the next event. It returns io.EOF when the stream has ended, ErrEventTooLarge for an event over the
// limit, or the error of the underlying reader.
func (r *SSEReader) Next() (ServerSentEvent, error) {
	for r.scanner.Scan() {
		line := r.scanner.Bytes()
		if !r.started {
			r.started = true
			// A byte order mark may open the stream; it is not part of the first field name.
			line = bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF"))
		}
		if len(line) > r.limit {
			return ServerSentEvent{}, ErrEventTooLarge
		}
		event, ok, err := r.line(line)
		if err != nil {
			return ServerSentEvent{}, err
		}
		if ok {
			return event, nil
		}
	}
	if err := r.scanner.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return ServerSentEvent{}, ErrEventTooLarge
		}
		return ServerSentEvent{}, err
	}
	return ServerSentEvent{}, io.EOF
}

func (r *SSEReader) line(line []byte) (ServerSentEvent, bool, error) {
	if len(line) == 0 {
		return r.dispatch()
	}
	if line[0] == ':' {
		return ServerSentEvent{}, false, nil
	}
	field, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		field, value = line[:i], line[i+1:]
		value = bytes.TrimPrefix(value, []byte(" "))
	}
	switch string(field) {
	case "event":
		r.event = string(value)
	case "data":
		added := len(value)
		if r.hasData {
			added++
		}
		if r.data.Len()+added > r.limit {
			return ServerSentEvent{}, false, ErrEventTooLarge
		}
		if r.hasData {
			r.data.WriteByte('\n')
		}
		r.data.Write(value)
		r.hasData = true
	case "id":
		if bytes.IndexByte(value, 0) == -1 {
			r.id = string(value)
		}
	}
	return ServerSentEvent{}, false, nil
}

func (r *SSEReader) dispatch() (ServerSentEvent, bool, error) {
	defer func() {
		r.event = ""
		r.data.Reset()
		r.hasData = false
	}()
	if !r.hasData {
		return ServerSentEvent{}, false, nil
	}
	name := r.event
	if name == "" {
		name = "message"
	}
	return ServerSentEvent{Event: name, Data: r.data.String(), ID: r.id}, true, nil
}

// splitLines splits at LF, CRLF or CR. A CR at the very end of what has arrived may be the first half of a CRLF
// whose LF is still on its way: it waits for the next byte, unless the stream is over. A last line without an end
// is dropped (it could only belong to an event that never ended).
func splitLines(data []byte, atEOF bool) (int, []byte, error) {
	i := bytes.IndexAny(data, "\r\n")
	if i == -1 {
		if atEOF && len(data) > 0 {
			return len(data), nil, nil
		}
		return 0, nil, nil
	}
	if data[i] == '\n' {
		return i + 1, data[:i], nil
	}
	if i+1 < len(data) {
		if data[i+1] == '\n' {
			return i + 2, data[:i], nil
		}
		return i + 1, data[:i], nil
	}
	if atEOF {
		return i + 1, data[:i], nil
	}
	return 0, nil, nil
}

package client

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// frameReader splits a watch stream into events.
//
// Every Kubernetes apiserver, ours included, ends each event with a
// newline, so a line is normally one whole event and goes to the decoder
// as it is. That matters for speed: json.Decoder scans each value to find
// its end before decoding it, and a json.RawMessage envelope costs two
// more passes; here the one json.Unmarshal that decodes the event is also
// the only pass over its bytes.
//
// Other JSON streams still work. A line that is only the start of an event
// (a pretty-printed server) is joined with the following lines until the
// event is whole; a line with more than one event on it hands the rest of
// the stream to json.Decoder, which frames any sequence of JSON values.
// client-go always frames with json.Decoder (its json.Framer).
type frameReader struct {
	br *bufio.Reader
	// buf collects an event that spans reads or lines.
	buf []byte
	// dec takes over once the stream proved not to be one event per line.
	dec *json.Decoder
}

func newFrameReader(r io.Reader) *frameReader {
	return &frameReader{br: bufio.NewReaderSize(r, 32<<10)}
}

// next reads one event and passes its bytes to decode, which must not keep
// them. It returns decode's error, or the stream's (io.EOF at its end,
// io.ErrUnexpectedEOF when it ends inside an event).
func (f *frameReader) next(decode func(frame []byte) error) error {
	if f.dec != nil {
		var raw json.RawMessage
		if err := f.dec.Decode(&raw); err != nil {
			return err
		}
		return decode(raw)
	}
	f.buf = f.buf[:0]
	for {
		line, err := f.br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			f.buf = append(f.buf, line...)
			continue
		}
		frame := line
		if len(f.buf) > 0 {
			f.buf = append(f.buf, line...)
			frame = f.buf
		}
		if len(bytes.TrimSpace(frame)) == 0 {
			if err != nil {
				return err
			}
			continue
		}
		derr := decode(frame)
		var syntaxErr *json.SyntaxError
		switch {
		case derr == nil || !errors.As(derr, &syntaxErr):
			return derr
		case truncated(frame, syntaxErr):
			// Only the start of an event: keep it and read on.
			if err != nil {
				return io.ErrUnexpectedEOF
			}
			if len(f.buf) == 0 {
				f.buf = append(f.buf, line...)
			}
		default:
			// Not one event per line. Let json.Decoder frame everything
			// from here, starting with this line; a real syntax error
			// comes back from it.
			rest := append([]byte(nil), frame...)
			f.dec = json.NewDecoder(io.MultiReader(bytes.NewReader(rest), f.br))
			return f.next(decode)
		}
	}
}

// truncated says the JSON ended before the value did, as opposed to being
// wrong somewhere: encoding/json reports both as a SyntaxError, the first
// with this message at the very end of the input.
func truncated(frame []byte, err *json.SyntaxError) bool {
	return err.Offset >= int64(len(bytes.TrimRight(frame, " \t\r\n"))) && err.Error() == "unexpected end of JSON input"
}

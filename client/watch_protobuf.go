package client

import (
	"bufio"
	"fmt"

	"kubeloop/api"
)

// protobufEvents reads the events of a protobuf watch stream, the one a
// request that prefers protobuf gets for a built-in kind
// ("application/vnd.kubernetes.protobuf;stream=watch"): each frame is a
// 4-byte length and a WatchEvent message whose object is a whole protobuf
// body, envelope included (api/protobuf_watch.go). The object is decoded
// straight into a new object of the watched kind, or into a Status for an
// ERROR event.
//
// client-go: rest/request.go's newStreamWatcher pairs the length-delimited
// framer (apimachinery/pkg/util/framer/framer.go) with the protobuf raw
// serializer for the events, and rest/watch/decoder.go decodes each
// event's object.
func (w *streamWatcher) protobufEvents() func() (api.WatchEvent, error) {
	// The decoder reads each frame's length, then its bytes: buffered, that
	// is two copies instead of two reads of the HTTP body per event. The
	// buffer is small because every open watch holds one (a thousand
	// kubelets' pod watches held 32 MB at 32 KB each, docs/performance.md);
	// a frame bigger than it is read past it, straight into the decoder's
	// own buffer, which grows to the largest frame.
	frames := api.NewProtobufWatchDecoder(bufio.NewReaderSize(w.body, 4<<10))
	return func() (api.WatchEvent, error) {
		eventType, body, err := frames.Next()
		if err != nil {
			return api.WatchEvent{}, err
		}
		var obj api.Object
		switch eventType {
		case api.Added, api.Modified, api.Deleted, api.Bookmark:
			obj = w.newObj()
		case api.Error:
			obj = &api.Status{}
		default:
			return api.WatchEvent{}, fmt.Errorf("unknown watch event type %q", eventType)
		}
		if _, err := api.DecodeProtobuf(body, obj); err != nil {
			// %v, not %w: a body cut short inside a whole frame is a broken
			// event, and receive must not read its io.ErrUnexpectedEOF as
			// the stream ending.
			return api.WatchEvent{}, fmt.Errorf("unable to decode the object of a %s watch event: %v", eventType, err)
		}
		return api.WatchEvent{Type: eventType, Object: obj}, nil
	}
}

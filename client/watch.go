package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"kubeloop/api"
)

// streamWatcher turns a watch response body into api.WatchEvents: one JSON
// event per line, or length-prefixed protobuf frames (watch_protobuf.go),
// as the response's Content-Type says. One goroutine reads and decodes; it
// owns the result channel and closes it when the stream ends, fails, or is
// stopped. client-go: watch.StreamWatcher, with the framer and decoder
// rest/request.go's newStreamWatcher picks by the Content-Type.
type streamWatcher struct {
	body        io.ReadCloser
	contentType string
	newObj      func() api.Object
	result      chan api.WatchEvent
	// cancel aborts the HTTP request; done tells the reader that a send
	// will never be received.
	cancel   context.CancelFunc
	done     chan struct{}
	stopOnce sync.Once
}

// newStreamWatcher starts decoding body, a stream of contentType. cancel
// must abort the request that produced body (closing body alone does not
// unblock an HTTP/2 read in all cases); ctx is its context.
func newStreamWatcher(ctx context.Context, cancel context.CancelFunc, body io.ReadCloser, contentType string, newObj func() api.Object) *streamWatcher {
	w := &streamWatcher{
		body:        body,
		contentType: contentType,
		newObj:      newObj,
		result:      make(chan api.WatchEvent),
		cancel:      cancel,
		done:        make(chan struct{}),
	}
	go w.receive(ctx)
	return w
}

// ResultChan returns the events; it is closed when the watch ends.
func (w *streamWatcher) ResultChan() <-chan api.WatchEvent { return w.result }

// Stop ends the watch; it is safe to call more than once and from any
// goroutine. The result channel closes soon after.
func (w *streamWatcher) Stop() {
	w.stopOnce.Do(func() {
		close(w.done)
		w.cancel()
		w.body.Close()
	})
}

func (w *streamWatcher) receive(ctx context.Context) {
	defer close(w.result)
	defer w.Stop()
	var next func() (api.WatchEvent, error)
	if isProtobuf(w.contentType) {
		next = w.protobufEvents()
	} else {
		next = w.jsonEvents()
	}
	for {
		ev, err := next()
		var syntaxErr *json.SyntaxError
		switch {
		case err == nil:
		case errors.As(err, &syntaxErr):
			if !w.stopped() && ctx.Err() == nil {
				w.send(ctx, errorEvent(fmt.Errorf("unable to decode an event from the watch stream: %w", err)))
			}
			return
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), w.stopped(), ctx.Err() != nil:
			// io.EOF is the server ending the watch (timeoutSeconds,
			// shutdown); io.ErrUnexpectedEOF is a stream cut mid-event;
			// anything else while stopping is the body being closed under
			// us. All of them simply end the watch: the reflector
			// re-watches from its last resourceVersion.
			return
		default:
			// A broken read or an event that would not decode.
			w.send(ctx, errorEvent(err))
			return
		}
		if !w.send(ctx, ev) {
			return
		}
	}
}

// jsonEvents reads the events of a JSON stream one at a time.
func (w *streamWatcher) jsonEvents() func() (api.WatchEvent, error) {
	frames := newFrameReader(w.body)
	return func() (ev api.WatchEvent, err error) {
		err = frames.next(func(frame []byte) error {
			ev, err = w.decodeEvent(frame)
			return err
		})
		return ev, err
	}
}

// decodeEvent decodes one event in a single pass: the object goes straight
// into a new object of the watched kind. Only an ERROR event, whose object
// is a Status, is decoded a second time.
func (w *streamWatcher) decodeEvent(frame []byte) (api.WatchEvent, error) {
	obj := w.newObj()
	env := struct {
		Type   api.EventType `json:"type"`
		Object api.Object    `json:"object"`
	}{Object: obj}
	err := json.Unmarshal(frame, &env)
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) {
		return api.WatchEvent{}, err
	}
	switch env.Type {
	case api.Added, api.Modified, api.Deleted, api.Bookmark:
	case api.Error:
		st := struct {
			Object *api.Status `json:"object"`
		}{Object: &api.Status{}}
		if err := json.Unmarshal(frame, &st); err != nil {
			return api.WatchEvent{}, fmt.Errorf("unable to decode the object of an ERROR watch event: %w", err)
		}
		return api.WatchEvent{Type: api.Error, Object: st.Object}, nil
	default:
		return api.WatchEvent{}, fmt.Errorf("unknown watch event type %q", env.Type)
	}
	if err != nil {
		return api.WatchEvent{}, fmt.Errorf("unable to decode the object of a %s watch event: %w", env.Type, err)
	}
	return api.WatchEvent{Type: env.Type, Object: obj}, nil
}

// send delivers ev unless the watch is stopped first.
func (w *streamWatcher) send(ctx context.Context, ev api.WatchEvent) bool {
	select {
	case w.result <- ev:
		return true
	case <-w.done:
		return false
	case <-ctx.Done():
		return false
	}
}

func (w *streamWatcher) stopped() bool {
	select {
	case <-w.done:
		return true
	default:
		return false
	}
}

// errorEvent wraps a client-side decoding failure as an ERROR event, so the
// consumer sees it in the same place as a server-sent error.
func errorEvent(err error) api.WatchEvent {
	se := api.NewInternalError(err)
	s := se.Status()
	return api.WatchEvent{Type: api.Error, Object: &s}
}

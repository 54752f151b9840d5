package apiserver

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"kubeloop/api"
)

// minRequestTimeout is Kubernetes' --min-request-timeout: a watch without
// timeoutSeconds ends after between one and two of these, so that clients
// spread their re-watches.
const minRequestTimeout = 30 * time.Minute

// objectEncoder is implemented by watches whose event objects are shared
// by many watchers (the watch cache's): each object is encoded once for
// all of them.
type objectEncoder interface {
	EncodeObject(obj api.Object, enc func(api.Object) ([]byte, error)) ([]byte, error)
}

// watchEvent is one line of the stream.
type watchEvent struct {
	Type   api.EventType `json:"type"`
	Object any           `json:"object"`
}

// watch streams changes as newline-delimited JSON, flushing after every
// event. Kubernetes: endpoints/handlers/watch.go (serveWatch).
func (s *Server) watch(w http.ResponseWriter, r *http.Request, sc *scope) {
	opts, err := listOptions(r, sc.info, true)
	if err != nil {
		writeStatus(w, err)
		return
	}
	tr, err := wantsTable(r)
	if err != nil {
		writeStatus(w, err)
		return
	}
	if sc.ri.Name != "" {
		// A watch on one object's URL is a watch on its collection with
		// metadata.name fixed.
		fs := "metadata.name=" + sc.ri.Name
		if extra := r.URL.Query().Get("fieldSelector"); extra != "" {
			fs += "," + extra
		}
		sel, err := api.ParseFieldSelector(fs)
		if err != nil {
			writeStatus(w, api.NewBadRequest(err.Error()))
			return
		}
		opts.Predicate.Field = sel
	}
	timeout := minRequestTimeout + time.Duration(rand.Int64N(int64(minRequestTimeout)))
	if t := r.URL.Query().Get("timeoutSeconds"); t != "" {
		n, err := strconv.ParseInt(t, 10, 64)
		if err != nil || n < 0 {
			writeStatus(w, api.NewBadRequest("invalid timeoutSeconds "+strconv.Quote(t)))
			return
		}
		if n > 0 {
			timeout = time.Duration(n) * time.Second
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	// The server's own context ends every watch on shutdown, also when
	// the handler is mounted somewhere other than Serve.
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()

	watcher, err := sc.storage.Watch(ctx, sc.prefix(), opts)
	if err != nil && ctx.Err() != nil && r.Context().Err() == nil {
		// The watch's own timeout (or the server's shutdown) ran out while
		// it was still starting, e.g. waiting for a cache to become ready:
		// that is the watch ending, an empty stream, not a server error.
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		return
	}
	if err != nil {
		writeStatus(w, err)
		return
	}
	defer watcher.Stop()

	gauge := s.metrics.watchers.WithLabelValues(sc.info.Resource)
	gauge.Inc()
	defer gauge.Dec()

	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache, private")
	w.WriteHeader(http.StatusOK)
	_ = rc.Flush()
	enc := json.NewEncoder(w)
	shared, _ := watcher.(objectEncoder)
	encodeObject := func(o api.Object) ([]byte, error) { return json.Marshal(withTypeMeta(sc.info, o)) }
	var line []byte
	// Flush only when no further event is ready: a burst goes out in as
	// few writes as the connection's buffer allows, and an event never
	// waits for another (Kubernetes' serveWatch flushes when its channel
	// is empty).
	unflushed := false
	for ctx.Err() == nil {
		var ev api.WatchEvent
		var ok bool
		select {
		case ev, ok = <-watcher.ResultChan():
		default:
			if unflushed {
				if err := rc.Flush(); err != nil {
					return
				}
				unflushed = false
			}
			select {
			case <-ctx.Done():
				return
			case ev, ok = <-watcher.ResultChan():
			}
		}
		if !ok {
			_ = rc.Flush()
			return
		}
		var err error
		if shared != nil && tr == nil && isObjectEvent(ev) {
			line, err = appendSharedEvent(line[:0], shared, ev, encodeObject)
			if err == nil {
				_, err = w.Write(line)
			}
		} else {
			obj := eventObject(sc.info, ev)
			if tr != nil && ev.Object != nil && ev.Type != api.Bookmark && ev.Type != api.Error {
				// Each event is a one-row Table when a Table was asked for.
				obj = tr.toTable(sc.info, []api.Object{ev.Object}, api.ListMeta{ResourceVersion: ev.Object.GetObjectMeta().ResourceVersion})
			}
			err = enc.Encode(watchEvent{Type: ev.Type, Object: obj})
		}
		if err != nil {
			return
		}
		unflushed = true
	}
}

func isObjectEvent(ev api.WatchEvent) bool {
	return ev.Object != nil && (ev.Type == api.Added || ev.Type == api.Modified || ev.Type == api.Deleted)
}

// appendSharedEvent appends the line enc.Encode(watchEvent{...}) would
// write, with the object's encoding shared among the watchers.
func appendSharedEvent(line []byte, shared objectEncoder, ev api.WatchEvent, enc func(api.Object) ([]byte, error)) ([]byte, error) {
	b, err := shared.EncodeObject(ev.Object, enc)
	if err != nil {
		return line, err
	}
	line = append(line, `{"type":"`...)
	line = append(line, ev.Type...)
	line = append(line, `","object":`...)
	line = append(line, b...)
	return append(line, "}\n"...), nil
}

// eventObject is the object of one event with its kind and apiVersion, as
// every event object must carry them (bookmarks included).
func eventObject(info *api.ResourceInfo, ev api.WatchEvent) any {
	if st, ok := ev.Object.(*api.Status); ok {
		c := *st
		c.Kind, c.APIVersion = "Status", "v1"
		if c.Status == "" {
			c.Status = api.StatusFailure
		}
		return &c
	}
	if ev.Object == nil {
		return nil
	}
	return withTypeMeta(info, ev.Object)
}

package handlers

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"kubeloop/api"
	"kubeloop/apiserver/endpoints/handlers/negotiation"
	"kubeloop/apiserver/registry/rest"
	"kubeloop/apiserver/serializer"
)

// minRequestTimeout is Kubernetes' --min-request-timeout: a watch without
// timeoutSeconds ends after between one and two of these, so that clients
// spread their re-watches.
const minRequestTimeout = 30 * time.Minute

// WatchResource streams a collection's changes (or one object's, on its
// URL), one framed event at a time, flushing whenever no further event is
// ready. Kubernetes: endpoints/handlers/get.go (ListResource with watch)
// and endpoints/handlers/watch.go (serveWatch, WatchServer.HandleHTTP).
func WatchResource(r rest.Watcher, scope *RequestScope) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		ri, ctx := scope.requestInfo(req)
		opts, err := listOptions(req, scope.Resource, true)
		if err != nil {
			scope.err(w, req, err)
			return
		}
		table, err := scope.tableOptions(req)
		if err != nil {
			scope.err(w, req, err)
			return
		}
		if ri.Name != "" {
			// A watch on one object's URL is a watch on its collection with
			// metadata.name fixed.
			fs := "metadata.name=" + ri.Name
			if extra := query(req).Get("fieldSelector"); extra != "" {
				fs += "," + extra
			}
			sel, err := api.ParseFieldSelector(fs)
			if err != nil {
				scope.err(w, req, api.NewBadRequest(err.Error()))
				return
			}
			opts.Predicate.Field = sel
		}
		timeout := minRequestTimeout + time.Duration(rand.Int64N(int64(minRequestTimeout)))
		if t := query(req).Get("timeoutSeconds"); t != "" {
			n, err := strconv.ParseInt(t, 10, 64)
			if err != nil || n < 0 {
				scope.err(w, req, api.NewBadRequest("invalid timeoutSeconds "+strconv.Quote(t)))
				return
			}
			if n > 0 {
				timeout = time.Duration(n) * time.Second
			}
		}
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		if scope.StopContext != nil {
			stop := context.AfterFunc(scope.StopContext, cancel)
			defer stop()
		}

		_, si := negotiation.NegotiateOutputMediaType(req, scope.Serializers)
		if si.StreamSerializer == nil {
			// The client asked for a media type we do not stream: JSON.
			si = scope.jsonSerializer()
		}
		watcher, err := r.Watch(ctx, &opts)
		if err != nil && ctx.Err() != nil && req.Context().Err() == nil {
			// The watch's own timeout (or the server's shutdown) ran out while
			// it was still starting, e.g. waiting for a cache to become ready:
			// that is the watch ending, an empty stream, not a server error.
			w.Header().Set("Content-Type", si.MediaType)
			w.WriteHeader(http.StatusOK)
			return
		}
		if err != nil {
			scope.err(w, req, err)
			return
		}
		defer watcher.Stop()
		scope.serveWatch(ctx, w, watcher, si, table)
	}
}

// serveWatch writes the stream until the watch ends, the client goes, or
// ctx ends.
func (scope *RequestScope) serveWatch(ctx context.Context, w http.ResponseWriter, watcher api.Watcher, si serializer.SerializerInfo, table *rest.TableOptions) {
	gauge := scope.Metrics.Watchers(scope.Resource.Resource)
	gauge.Inc()
	defer gauge.Dec()

	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", si.StreamSerializer.MediaType())
	w.Header().Set("Cache-Control", "no-cache, private")
	w.WriteHeader(http.StatusOK)
	_ = rc.Flush()
	enc := scope.newEventEncoder(watcher, si, table)
	var frame []byte
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
		if frame, err = enc.appendEvent(ctx, frame[:0], ev); err != nil {
			return
		}
		if _, err := w.Write(frame); err != nil {
			return
		}
		unflushed = true
	}
}

// eventEncoder frames the events of one watch.
type eventEncoder struct {
	scope     *RequestScope
	mediaType string
	encoder   serializer.Encoder
	stream    serializer.StreamSerializer
	table     *rest.TableOptions
	// shared is set when the watch's objects are shared by many watchers
	// and their encodings can be too (watch_shared.go).
	shared objectEncoder
}

func (scope *RequestScope) newEventEncoder(watcher api.Watcher, si serializer.SerializerInfo, table *rest.TableOptions) *eventEncoder {
	e := &eventEncoder{scope: scope, mediaType: si.MediaType, encoder: si.Encoder, stream: si.StreamSerializer, table: table}
	if table == nil {
		e.shared = sharedEncoder(watcher)
	}
	return e
}

// appendEvent appends one framed event to frame. Every event object,
// bookmarks included, carries its kind and apiVersion; with a Table asked
// for, each object event is a one-row Table.
func (e *eventEncoder) appendEvent(ctx context.Context, frame []byte, ev api.WatchEvent) ([]byte, error) {
	var (
		obj []byte
		err error
	)
	switch {
	case e.shared != nil && isObjectEvent(ev):
		obj, err = e.shared.EncodeObject(ev.Object, e.mediaType, e.encodeObject)
	case e.table != nil && isObjectEvent(ev):
		var t *rest.Table
		t, err = e.scope.TableConvertor.ConvertToTable(ctx, []api.Object{ev.Object},
			api.ListMeta{ResourceVersion: ev.Object.GetObjectMeta().ResourceVersion}, *e.table)
		if err == nil {
			obj, err = e.encoder.Encode(t)
		}
	default:
		obj, err = e.encoder.Encode(eventObject(e.scope.Kind, ev))
	}
	if err != nil {
		return frame, err
	}
	return e.stream.AppendEvent(frame, ev.Type, obj), nil
}

// encodeObject is the encoding of one event object with its kind.
func (e *eventEncoder) encodeObject(o api.Object) ([]byte, error) {
	return e.encoder.Encode(rest.WithTypeMeta(e.scope.Kind, o))
}

func isObjectEvent(ev api.WatchEvent) bool {
	return ev.Object != nil && (ev.Type == api.Added || ev.Type == api.Modified || ev.Type == api.Deleted)
}

// eventObject is the object of a bookmark or error event (or an object
// event without a shared encoding) with its kind and apiVersion.
func eventObject(k api.KindInfo, ev api.WatchEvent) any {
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
	return rest.WithTypeMeta(k, ev.Object)
}

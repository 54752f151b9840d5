package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"kubeloop/api"
)

// AcceptTable is the Accept header of `kubectl get`: the server renders the
// rows (a meta.k8s.io/v1 Table) with the same printers Kubernetes uses, so a
// client never computes columns itself. Kubernetes: cli-runtime's
// resource.Builder with TransformRequests(tableParam) in kubectl's get.go.
const AcceptTable = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"

// Table is the part of a meta.k8s.io/v1 Table a client prints: the column
// definitions and, per row, its cells and the row's object (by default a
// PartialObjectMetadata).
type Table struct {
	Kind              string                  `json:"kind"`
	Metadata          api.ListMeta            `json:"metadata"`
	ColumnDefinitions []TableColumnDefinition `json:"columnDefinitions"`
	Rows              []TableRow              `json:"rows"`
}

// TableColumnDefinition is one column: priority 0 is always shown, higher
// only with -o wide.
type TableColumnDefinition struct {
	Name     string `json:"name"`
	Priority int32  `json:"priority"`
}

// TableRow is one object's cells; numbers stay json.Numbers, so they print
// as the server wrote them.
type TableRow struct {
	Cells  []any           `json:"cells"`
	Object json.RawMessage `json:"object"`
}

// ObjectMeta is the metadata of the row's object (namespace for -A, labels
// for --show-labels).
func (r TableRow) ObjectMeta() (api.ObjectMeta, error) {
	var o struct {
		Metadata api.ObjectMeta `json:"metadata"`
	}
	err := json.Unmarshal(r.Object, &o)
	return o.Metadata, err
}

func decodeTable(data []byte) (*Table, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var t Table
	if err := d.Decode(&t); err != nil {
		return nil, fmt.Errorf("client: decode Table: %w", err)
	}
	if t.Kind != "Table" {
		return nil, fmt.Errorf("client: asked for a Table, the server answered a %q", t.Kind)
	}
	return &t, nil
}

// GetTable reads one object as a one-row Table; includeObject is as for
// ListTable.
func (r *DynamicResource) GetTable(ctx context.Context, name, includeObject string) (*Table, error) {
	q := url.Values{}
	if includeObject != "" {
		q.Set("includeObject", includeObject)
	}
	res, err := r.client.do(ctx, &request{verb: http.MethodGet, path: r.path(r.namespace, name), query: q, accept: AcceptTable})
	if err != nil {
		return nil, err
	}
	return decodeTable(res.body)
}

// ListTable reads the collection as one Table, following continue tokens;
// includeObject is "" (metadata) or "Object" (whole objects in the rows).
func (r *DynamicResource) ListTable(ctx context.Context, opts ListOptions, includeObject string) (*Table, error) {
	var all *Table
	for {
		q := listQuery(opts, false)
		if includeObject != "" {
			q.Set("includeObject", includeObject)
		}
		res, err := r.client.do(ctx, &request{verb: http.MethodGet, path: r.path(r.namespace, ""), query: q, accept: AcceptTable})
		if err != nil {
			return nil, err
		}
		page, err := decodeTable(res.body)
		if err != nil {
			return nil, err
		}
		if all == nil {
			all = page
		} else {
			all.Rows = append(all.Rows, page.Rows...)
		}
		if page.Metadata.Continue == "" {
			all.Metadata.Continue = ""
			return all, nil
		}
		opts.Continue, opts.ResourceVersion, opts.ResourceVersionMatch = page.Metadata.Continue, "", ""
	}
}

// TableEvent is one watch event whose object is a one-row Table (nil for
// BOOKMARK); Err is set for an ERROR event or a broken stream.
type TableEvent struct {
	Type  api.EventType
	Table *Table
	Err   error
}

// WatchTable watches with Tables asked for: `kubectl get -w`. The channel
// closes when the stream ends or ctx is done.
func (r *DynamicResource) WatchTable(ctx context.Context, opts ListOptions) (<-chan TableEvent, error) {
	req := &request{verb: http.MethodGet, path: r.path(r.namespace, ""), query: listQuery(opts, true), accept: AcceptTable}
	resp, err := r.client.send(ctx, req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		var buf bytes.Buffer
		_, _ = buf.ReadFrom(resp.Body)
		return nil, errorFromResponse(req.verb, resp.StatusCode, resp.Header.Get("Content-Type"), buf.Bytes())
	}
	out := make(chan TableEvent)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		frames := newFrameReader(resp.Body)
		for {
			var ev TableEvent
			err := frames.next(func(frame []byte) error {
				ev = decodeTableEvent(frame)
				return nil
			})
			if err != nil {
				return // the server or ctx ended the stream
			}
			select {
			case out <- ev:
			case <-ctx.Done():
				return
			}
			if ev.Err != nil {
				return
			}
		}
	}()
	return out, nil
}

func decodeTableEvent(frame []byte) TableEvent {
	var env struct {
		Type   api.EventType   `json:"type"`
		Object json.RawMessage `json:"object"`
	}
	if err := json.Unmarshal(frame, &env); err != nil {
		return TableEvent{Err: fmt.Errorf("unable to decode an event from the watch stream: %w", err)}
	}
	switch env.Type {
	case api.Bookmark:
		return TableEvent{Type: env.Type}
	case api.Error:
		st := &api.Status{}
		if err := json.Unmarshal(env.Object, st); err != nil {
			return TableEvent{Type: env.Type, Err: fmt.Errorf("watch error: %s", env.Object)}
		}
		return TableEvent{Type: env.Type, Err: &api.StatusError{ErrStatus: *st}}
	}
	t, err := decodeTable(env.Object)
	return TableEvent{Type: env.Type, Table: t, Err: err}
}

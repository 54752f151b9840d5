package customresource

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/jsonpath"
	"kubeloop/apiserver/registry/rest"
)

// TableConvertor renders custom resources with the version's
// additionalPrinterColumns after Name, or Name and Age when it has none.
// Kubernetes: pkg/registry/customresource/tableconvertor/tableconvertor.go
// (New, convertor.ConvertToTable) and the default Age column of
// customresource_handler.go.
type TableConvertor struct {
	kind    api.KindInfo
	columns []rest.TableColumnDefinition
	paths   []*jsonpath.Path
	types   []string
}

var _ rest.TableConvertor = (*TableConvertor)(nil)

// NewTableConvertor parses the columns' paths (CRD validation has checked
// them).
func NewTableConvertor(v *Version) (*TableConvertor, error) {
	cols := v.Columns
	if len(cols) == 0 {
		cols = []api.CustomResourceColumnDefinition{{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp",
			Description: "CreationTimestamp is a timestamp representing the server time when this object was created."}}
	}
	t := &TableConvertor{kind: v.KindInfo(), columns: []rest.TableColumnDefinition{{
		Name: "Name", Type: "string", Format: "name",
		Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"}}}
	for _, c := range cols {
		p, err := jsonpath.Parse(c.JSONPath)
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", c.Name, err)
		}
		t.paths, t.types = append(t.paths, p), append(t.types, c.Type)
		t.columns = append(t.columns, rest.TableColumnDefinition{Name: c.Name, Type: c.Type, Format: c.Format, Description: c.Description, Priority: c.Priority})
	}
	return t, nil
}

// ConvertToTable renders objs as one Table.
func (t *TableConvertor) ConvertToTable(_ context.Context, objs []api.Object, listMeta api.ListMeta, opts rest.TableOptions) (*rest.Table, error) {
	now := time.Now()
	out := &rest.Table{
		TypeMeta:          api.TypeMeta{Kind: "Table", APIVersion: "meta.k8s.io/" + opts.Version},
		ListMeta:          listMeta,
		ColumnDefinitions: t.columns,
		Rows:              make([]rest.TableRow, 0, len(objs)),
	}
	for _, obj := range objs {
		u := obj.(*api.Unstructured)
		full := fullObject(u)
		full["metadata"] = metadataMap(u)
		cells := []any{u.Name}
		for i, p := range t.paths {
			cells = append(cells, cell(p.Find(full), t.types[i], now))
		}
		row := rest.TableRow{Cells: cells}
		switch opts.IncludeObject {
		case "Metadata":
			m := u.ObjectMeta
			row.Object = &rest.PartialObjectMetadata{
				TypeMeta: api.TypeMeta{Kind: "PartialObjectMetadata", APIVersion: "meta.k8s.io/" + opts.Version},
				Metadata: &m,
			}
		case "Object":
			row.Object = rest.WithTypeMeta(t.kind, obj)
		}
		out.Rows = append(out.Rows, row)
	}
	return out, nil
}

// metadataMap is u's metadata as JSON values, for columns such as
// .metadata.creationTimestamp or .metadata.labels.app.
func metadataMap(u *api.Unstructured) map[string]any {
	b, err := json.Marshal(&u.ObjectMeta)
	if err != nil {
		return map[string]any{}
	}
	v, err := api.DecodeJSONValue(b)
	if m, ok := v.(map[string]any); ok && err == nil {
		return m
	}
	return map[string]any{}
}

// cell is one column's value: nothing found is null; several values are
// joined with commas; a date is shown as an age, as Kubernetes'
// convertor does; an object or list as JSON.
func cell(vals []any, typ string, now time.Time) any {
	if len(vals) == 0 {
		return nil
	}
	if len(vals) > 1 {
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = text(v)
		}
		return strings.Join(parts, ",")
	}
	v := vals[0]
	switch typ {
	case "date":
		s, ok := v.(string)
		if !ok {
			return nil
		}
		ts, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return nil
		}
		return api.HumanDuration(now.Sub(ts))
	case "integer":
		if n, ok := v.(int64); ok {
			return n
		}
	case "number":
		switch n := v.(type) {
		case int64, float64:
			return n
		}
	case "boolean":
		if b, ok := v.(bool); ok {
			return b
		}
	case "string":
		if s, ok := v.(string); ok {
			return s
		}
	}
	return text(v)
}

func text(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case nil:
		return "<nil>"
	case map[string]any, []any:
		b, _ := json.Marshal(t)
		return string(b)
	}
	return fmt.Sprint(v)
}

package rest

import (
	"context"

	"kubeloop/api"
)

// TableConvertor renders objects as a meta.k8s.io Table, the server-side
// columns of `kubectl get`. Kubernetes: registry/rest/table.go
// (TableConvertor) and the printers behind each registry.
type TableConvertor interface {
	ConvertToTable(ctx context.Context, objs []api.Object, listMeta api.ListMeta, opts TableOptions) (*Table, error)
}

// TableOptions is what the client asked the Table to carry.
type TableOptions struct {
	// Version is the meta.k8s.io version: "v1" or "v1beta1".
	Version string
	// IncludeObject says what each row's object is: "None", "Metadata"
	// (a PartialObjectMetadata, the default) or "Object".
	IncludeObject string
}

// Table is a meta.k8s.io Table (k8s.io/apimachinery/pkg/apis/meta/v1/types.go).
type Table struct {
	api.TypeMeta      `json:",inline"`
	api.ListMeta      `json:"metadata"`
	ColumnDefinitions []TableColumnDefinition `json:"columnDefinitions"`
	Rows              []TableRow              `json:"rows"`
}

// TableColumnDefinition is one column. Priority 0 columns are always
// shown; priority 1 only with `kubectl get -o wide`.
type TableColumnDefinition struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Format      string `json:"format"`
	Description string `json:"description"`
	Priority    int32  `json:"priority"`
}

// TableRow is one object's cells, and the object itself as IncludeObject
// asks.
type TableRow struct {
	Cells  []any `json:"cells"`
	Object any   `json:"object,omitempty"`
}

// PartialObjectMetadata is a row's object by default: just metadata, which
// is what kubectl needs for -A (namespace) and --show-labels.
type PartialObjectMetadata struct {
	api.TypeMeta `json:",inline"`
	Metadata     *api.ObjectMeta `json:"metadata"`
}

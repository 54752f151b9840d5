package apiserver

import (
	"net/http"
	"strings"
	"time"

	"kubeloop/api"
)

// Table output: kubectl get asks for
// `application/json;as=Table;v=v1;g=meta.k8s.io, ..., application/json` and
// prints the server's columns. Kubernetes:
// staging/src/k8s.io/apiserver/pkg/endpoints/handlers/response.go
// (transformResponseObject, asTable) and
// staging/src/k8s.io/apiserver/pkg/registry/rest/table.go.

// table is a meta.k8s.io Table.
type table struct {
	api.TypeMeta      `json:",inline"`
	api.ListMeta      `json:"metadata"`
	ColumnDefinitions []tableColumn `json:"columnDefinitions"`
	Rows              []tableRow    `json:"rows"`
}

type tableRow struct {
	Cells  []any `json:"cells"`
	Object any   `json:"object,omitempty"`
}

// partialObjectMetadata is the object of a row by default: just metadata,
// which is what kubectl needs for -A (namespace) and --show-labels.
type partialObjectMetadata struct {
	api.TypeMeta `json:",inline"`
	Metadata     *api.ObjectMeta `json:"metadata"`
}

// tableRequest is what the client asked for: a Table of this meta.k8s.io
// version, and what each row carries.
type tableRequest struct {
	version       string // "v1" or "v1beta1"
	includeObject string // "None", "Metadata" or "Object"
}

// wantsTable reads the Accept header: the first acceptable media type
// decides, so a client listing plain JSON first gets plain JSON.
func wantsTable(r *http.Request) (*tableRequest, error) {
	accept := r.Header.Get("Accept")
	if !strings.Contains(accept, "as=Table") {
		return nil, nil
	}
	for _, clause := range strings.Split(accept, ",") {
		parts := strings.Split(clause, ";")
		mt := strings.TrimSpace(parts[0])
		params := map[string]string{}
		for _, p := range parts[1:] {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			params[k] = v
		}
		if mt != "application/json" && mt != "*/*" && mt != "application/*" {
			continue
		}
		if params["as"] == "" {
			return nil, nil
		}
		if params["as"] != "Table" || params["g"] != "meta.k8s.io" || (params["v"] != "v1" && params["v"] != "v1beta1") {
			continue
		}
		inc := r.URL.Query().Get("includeObject")
		switch inc {
		case "":
			inc = "Metadata"
		case "None", "Metadata", "Object":
		default:
			return nil, api.NewBadRequest(`includeObject must be one of "None", "Metadata" or "Object"`)
		}
		return &tableRequest{version: params["v"], includeObject: inc}, nil
	}
	return nil, nil
}

// toTable renders objects as one Table.
func (tr *tableRequest) toTable(info *api.ResourceInfo, objs []api.Object, lm api.ListMeta) *table {
	p := tablePrinterFor(info)
	now := time.Now()
	t := &table{
		TypeMeta:          api.TypeMeta{Kind: "Table", APIVersion: "meta.k8s.io/" + tr.version},
		ListMeta:          lm,
		ColumnDefinitions: p.columns,
		Rows:              make([]tableRow, 0, len(objs)),
	}
	for _, obj := range objs {
		row := tableRow{Cells: p.cells(obj, now)}
		switch tr.includeObject {
		case "Metadata":
			m := *obj.GetObjectMeta()
			row.Object = &partialObjectMetadata{
				TypeMeta: api.TypeMeta{Kind: "PartialObjectMetadata", APIVersion: "meta.k8s.io/" + tr.version},
				Metadata: &m,
			}
		case "Object":
			row.Object = withTypeMeta(info, obj)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

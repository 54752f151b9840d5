package printers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

const kubectlTableAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"

func TestListAsTableHasKubectlColumnsAndPartialObjectMetadata(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", `{"metadata":{"name":"cm1","labels":{"a":"b"}},"data":{"x":"1","y":"2"}}`).Code)
	resp := doAccept(t, path, kubectlTableAccept)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	var tbl struct {
		Kind    string `json:"kind"`
		Columns []struct {
			Name     string `json:"name"`
			Priority int    `json:"priority"`
		} `json:"columnDefinitions"`
		Rows []struct {
			Cells  []any `json:"cells"`
			Object struct {
				Kind     string `json:"kind"`
				Metadata struct {
					Labels map[string]string `json:"labels"`
				} `json:"metadata"`
			} `json:"object"`
		} `json:"rows"`
	}
	resp.Decode(t, &tbl)
	assert.Equal(t, "Table", tbl.Kind)
	require.Len(t, tbl.Columns, 3)
	assert.Equal(t, []string{"Name", "Data", "Age"}, []string{tbl.Columns[0].Name, tbl.Columns[1].Name, tbl.Columns[2].Name})
	require.Len(t, tbl.Rows, 1)
	assert.Equal(t, "cm1", tbl.Rows[0].Cells[0])
	assert.Equal(t, float64(2), tbl.Rows[0].Cells[1])
	assert.Equal(t, "PartialObjectMetadata", tbl.Rows[0].Object.Kind)
	assert.Equal(t, "b", tbl.Rows[0].Object.Metadata.Labels["a"])

	plain := doAccept(t, path, "application/json")
	assert.Equal(t, "ConfigMapList", plain.Obj(t)["kind"])
	none := doAccept(t, path+"?includeObject=None", kubectlTableAccept)
	assert.NotContains(t, none.Body, "PartialObjectMetadata")
}

func TestHumanDurationMatchesKubectlAges(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-5 * time.Second:               "<invalid>",
		5 * time.Second:                "5s",
		119 * time.Second:              "119s",
		3*time.Minute + 20*time.Second: "3m20s",
		5 * time.Minute:                "5m",
		45 * time.Minute:               "45m",
		3*time.Hour + 20*time.Minute:   "3h20m",
		20 * time.Hour:                 "20h",
		50 * time.Hour:                 "2d2h",
		30 * 24 * time.Hour:            "30d",
		(3*365 + 10) * 24 * time.Hour:  "3y10d",
		10 * 365 * 24 * time.Hour:      "10y",
	} {
		assert.Equal(t, want, api.HumanDuration(d), d.String())
	}
}

package apiserver

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func doAccept(t *testing.T, path, accept string) response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, baseURL+path, nil)
	require.NoError(t, err)
	req.Header.Set("Accept", accept)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return response{Code: resp.StatusCode, Header: resp.Header, Body: string(data)}
}

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
	resp.decode(t, &tbl)
	assert.Equal(t, "Table", tbl.Kind)
	require.Len(t, tbl.Columns, 3)
	assert.Equal(t, []string{"Name", "Data", "Age"}, []string{tbl.Columns[0].Name, tbl.Columns[1].Name, tbl.Columns[2].Name})
	require.Len(t, tbl.Rows, 1)
	assert.Equal(t, "cm1", tbl.Rows[0].Cells[0])
	assert.Equal(t, float64(2), tbl.Rows[0].Cells[1])
	assert.Equal(t, "PartialObjectMetadata", tbl.Rows[0].Object.Kind)
	assert.Equal(t, "b", tbl.Rows[0].Object.Metadata.Labels["a"])

	plain := doAccept(t, path, "application/json")
	assert.Equal(t, "ConfigMapList", plain.obj(t)["kind"])
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

func TestAggregatedDiscoveryOnlyWhenAsked(t *testing.T) {
	resp := doAccept(t, "/apis", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json")
	require.Equal(t, http.StatusOK, resp.Code)
	assert.Equal(t, aggregatedDiscoveryType, resp.Header.Get("Content-Type"))
	assert.Contains(t, resp.Body, `"resource":"replicasets"`)
	assert.Contains(t, resp.Body, `"subresource":"scale","responseKind":{"group":"autoscaling","version":"v1","kind":"Scale"}`)
	legacy := doAccept(t, "/apis", "application/json")
	assert.Equal(t, "APIGroupList", legacy.obj(t)["kind"])
}

func TestOpenAPIV3DeclaresFieldValidationOnPatch(t *testing.T) {
	var index struct {
		Paths map[string]struct {
			URL string `json:"serverRelativeURL"`
		} `json:"paths"`
	}
	doAccept(t, "/openapi/v3", "application/json").decode(t, &index)
	require.Contains(t, index.Paths, "apis/apps/v1")
	doc := doAccept(t, index.Paths["apis/apps/v1"].URL, "application/json")
	require.Equal(t, http.StatusOK, doc.Code)
	var d struct {
		Paths map[string]map[string]struct {
			GVK    map[string]string `json:"x-kubernetes-group-version-kind"`
			Params []struct {
				Name string `json:"name"`
			} `json:"parameters"`
		} `json:"paths"`
	}
	require.NoError(t, json.Unmarshal([]byte(doc.Body), &d))
	patch := d.Paths["/apis/apps/v1/namespaces/{namespace}/replicasets/{name}"]["patch"]
	assert.Equal(t, "ReplicaSet", patch.GVK["kind"])
	var names []string
	for _, p := range patch.Params {
		names = append(names, p.Name)
	}
	assert.Contains(t, names, "fieldValidation")
	assert.Equal(t, http.StatusNotFound, doAccept(t, "/openapi/v3/apis/nope/v1", "application/json").Code)
}

func TestCreateConfigMapFromProtobufBody(t *testing.T) {
	ns := newNamespace(t)
	// k8s\0 + Unknown{typeMeta{v1, ConfigMap}, raw: ConfigMap{metadata{name: pb}, data{k: v}}}
	meta := pbBytes(1, []byte("pb"))
	cm := append(pbBytes(1, meta), pbBytes(2, append(pbBytes(1, []byte("k")), pbBytes(2, []byte("v"))...))...)
	tm := append(pbBytes(1, []byte("v1")), pbBytes(2, []byte("ConfigMap"))...)
	body := append([]byte("k8s\x00"), append(pbBytes(1, tm), pbBytes(2, cm)...)...)
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", protobufType, string(body))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Equal(t, map[string]any{"k": "v"}, resp.obj(t)["data"])
	resp = do(t, "POST", "/apis/apps/v1/namespaces/"+ns+"/replicasets", protobufType, string(body))
	assert.Equal(t, http.StatusUnsupportedMediaType, resp.Code)
}

// pbBytes encodes one length-delimited protobuf field (lengths < 128).
func pbBytes(num int, b []byte) []byte {
	return append([]byte{byte(num<<3 | 2), byte(len(b))}, b...)
}

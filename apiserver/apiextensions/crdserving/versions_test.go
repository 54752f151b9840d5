package crdserving_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/apiserver"
	"kubeloop/apiserver/apiservertest"
)

// twoVersions is widgetCRD served as v1beta1 and v1, stored as v1beta1
// first; storeV1 moves the storage version to v1.
func twoVersions(group string, storeV1 bool) string {
	return fmt.Sprintf(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
 "metadata":{"name":"gizmos.%[1]s"},
 "spec":{"group":%[1]q,"scope":"Cluster","names":{"plural":"gizmos","kind":"Gizmo"},
  "versions":[
   {"name":"v1beta1","served":true,"storage":%[2]t,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}},
   {"name":"v1","served":true,"storage":%[3]t,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"size":{"type":"integer"}}}}}}}]}}`,
		group, !storeV1, storeV1)
}

func TestVersionsServeTheSameObjectsWithTheirOwnAPIVersion(t *testing.T) {
	group := createCRD(t, func(g string) string { return twoVersions(g, false) })
	base := "/apis/" + group
	watchV1 := watchObjects(t, base+"/v1/gizmos?watch=true")
	watchBeta := watchObjects(t, base+"/v1beta1/gizmos?watch=true")
	resp := srv.Do(t, "POST", base+"/v1/gizmos", "", `{"apiVersion":"`+group+`/v1","kind":"Gizmo","metadata":{"name":"g"},"spec":{"size":3,"extra":true}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Equal(t, group+"/v1", resp.Obj(t)["apiVersion"])
	assert.Nil(t, apiservertest.Get(resp.Obj(t), "spec", "extra"), "v1's schema prunes")

	raw, err := srv.Etcd.Client().Get(context.Background(), "/registry/"+group+"/gizmos/g")
	require.NoError(t, err)
	require.Len(t, raw.Kvs, 1)
	assert.Contains(t, string(raw.Kvs[0].Value), `"apiVersion":"`+group+`/v1beta1"`, "stored in the storage version")

	beta := srv.Do(t, "GET", base+"/v1beta1/gizmos/g", "", "")
	require.Equal(t, http.StatusOK, beta.Code, beta.Body)
	assert.Equal(t, group+"/v1beta1", beta.Obj(t)["apiVersion"])
	assert.Equal(t, float64(3), apiservertest.Get(beta.Obj(t), "spec", "size"))
	list := srv.Do(t, "GET", base+"/v1/gizmos", "", "").Obj(t)
	assert.Equal(t, group+"/v1", list["apiVersion"])
	assert.Equal(t, group+"/v1", list["items"].([]any)[0].(map[string]any)["apiVersion"])

	// Each version's watch sees the object in its own apiVersion (the
	// watch cache's shared encoding is the storage version's).
	assert.Equal(t, group+"/v1", watchV1()["apiVersion"])
	assert.Equal(t, group+"/v1beta1", watchBeta()["apiVersion"])

	// Discovery prefers v1 over v1beta1.
	g := srv.Do(t, "GET", "/apis/"+group, "", "").Obj(t)
	assert.Equal(t, "v1", apiservertest.Get(g, "preferredVersion", "version"))

	// Moving the storage version adds it to status.storedVersions.
	crd := srv.Do(t, "GET", crdsPath+"/gizmos."+group, "", "").Obj(t)
	body := twoVersions(group, true)
	body = strings.Replace(body, `"metadata":{"name":"gizmos.`+group+`"}`,
		`"metadata":{"name":"gizmos.`+group+`","resourceVersion":"`+apiservertest.Get(crd, "metadata", "resourceVersion").(string)+`"}`, 1)
	u := srv.Do(t, "PUT", crdsPath+"/gizmos."+group, "", body)
	require.Equal(t, http.StatusOK, u.Code, u.Body)
	assert.Equal(t, []any{"v1beta1", "v1"}, apiservertest.Get(u.Obj(t), "status", "storedVersions"))

	// A deprecated version warns every request, in Kubernetes' words.
	d := srv.Do(t, "PATCH", crdsPath+"/gizmos."+group, "application/json-patch+json", `[{"op":"add","path":"/spec/versions/0/deprecated","value":true}]`)
	require.Equal(t, http.StatusOK, d.Code, d.Body)
	require.Eventually(t, func() bool {
		return strings.Contains(srv.Do(t, "GET", base+"/v1beta1/gizmos/g", "", "").Header.Get("Warning"), `299 - "`+group+`/v1beta1 Gizmo is deprecated"`)
	}, 10*time.Second, 20*time.Millisecond, "no deprecation warning")
	assert.Empty(t, srv.Do(t, "GET", base+"/v1/gizmos/g", "", "").Header.Get("Warning"))

	// A version no longer served is gone from its URLs and discovery; the
	// objects stay, at the versions still served.
	p := srv.Do(t, "PATCH", crdsPath+"/gizmos."+group, "application/json-patch+json", `[{"op":"replace","path":"/spec/versions/0/served","value":false}]`)
	require.Equal(t, http.StatusOK, p.Code, p.Body)
	require.Eventually(t, func() bool {
		return srv.Do(t, "GET", base+"/v1beta1/gizmos/g", "", "").Code == http.StatusNotFound
	}, 10*time.Second, 20*time.Millisecond, "v1beta1 is still served")
	assert.Equal(t, http.StatusOK, srv.Do(t, "GET", base+"/v1/gizmos/g", "", "").Code)
	versions := apiservertest.Get(srv.Do(t, "GET", "/apis/"+group, "", "").Obj(t), "versions").([]any)
	require.Len(t, versions, 1)
	assert.Equal(t, "v1", versions[0].(map[string]any)["version"])
}

func TestWebhookConversionIsRefusedClearly(t *testing.T) {
	body := strings.Replace(twoVersions("hook.example.com", false), `"scope":"Cluster",`,
		`"scope":"Cluster","conversion":{"strategy":"Webhook","webhook":{"conversionReviewVersions":["v1"],"clientConfig":{"url":"https://example.com/convert"}}},`, 1)
	resp := srv.Do(t, "POST", crdsPath, "", body)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Contains(t, resp.Obj(t)["message"], `spec.conversion.strategy: Invalid value: "Webhook": conversion webhooks are not supported by kubeloop`)
}

func TestCustomResourcesAreServedRightAfterARestart(t *testing.T) {
	group := createCRD(t, widgetCRD)
	ns := srv.NewNamespace(t)
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", widgets(group, ns), "", withGroup(widget("r", "red", 1), group)).Code)

	// A second apiserver on the same etcd: as after a restart, it serves
	// the CRD's resources as soon as New returns.
	s2, err := apiserver.New(apiserver.Config{Etcd: srv.Etcd.Client(), Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	defer s2.Close()
	hs := httptest.NewServer(s2.Handler())
	defer hs.Close()
	resp, err := http.Get(hs.URL + widgets(group, ns) + "/r")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	schema, ok := s2.StructuralSchema(group, "v1", "widgets")
	require.True(t, ok)
	assert.Equal(t, "map", *schema.Properties["spec"].Properties["ports"].XListType)
}

func TestDefaultsAddedLaterShowWhenObjectsAreReadFromEtcd(t *testing.T) {
	group := createCRD(t, widgetCRD)
	ns := srv.NewNamespace(t)
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", widgets(group, ns), "", withGroup(widget("old", "red", 2), group)).Code)
	assert.Nil(t, apiservertest.Get(srv.Do(t, "GET", widgets(group, ns)+"/old", "", "").Obj(t), "spec", "size"))

	// The schema gets a default for spec.size; the stored object, read
	// again, has it.
	patch := `[{"op":"add","path":"/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/size/default","value":"S"}]`
	resp := srv.Do(t, "PATCH", crdsPath+"/widgets."+group, "application/json-patch+json", patch)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	require.Eventually(t, func() bool {
		got := srv.Do(t, "GET", widgets(group, ns)+"/old", "", "")
		return got.Code == http.StatusOK && apiservertest.Get(got.Obj(t), "spec", "size") == "S"
	}, 10*time.Second, 20*time.Millisecond, "the new default never shows on the stored object")
}

// watchObjects opens a watch on path and returns a function that reads the
// next event's object.
func watchObjects(t *testing.T, path string) func() map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+path, nil)
	require.NoError(t, err)
	resp, err := srv.HTTPClient().Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	require.Equal(t, http.StatusOK, resp.StatusCode)
	dec := json.NewDecoder(resp.Body)
	return func() map[string]any {
		var ev struct {
			Object map[string]any `json:"object"`
		}
		require.NoError(t, dec.Decode(&ev))
		return ev.Object
	}
}

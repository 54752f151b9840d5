package crdserving_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/apiserver/apiservertest"
)

// The time to served is measured by BenchmarkCRDCreateToServed (tens of
// milliseconds); the deadline here is generous, for loaded machines.
func TestCreatedCRDIsAcceptedEstablishedAndServed(t *testing.T) {
	group := "fast.example.com"
	start := time.Now()
	resp := srv.Do(t, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "", widgetCRD(group))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	t.Cleanup(func() {
		srv.Do(t, "DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets."+group, "", "")
	})
	ns := srv.NewNamespace(t)
	require.Eventually(t, func() bool {
		return srv.Do(t, "GET", widgets(group, ns), "", "").Code == http.StatusOK
	}, 10*time.Second, 5*time.Millisecond)
	t.Logf("served %v after create", time.Since(start))
	waitEstablished(t, "widgets."+group)
	crd := srv.Do(t, "GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets."+group, "", "").Obj(t)
	assert.Equal(t, "True", conditionStatus(crd, "NamesAccepted"))
	assert.Equal(t, "Widget", apiservertest.Get(crd, "status", "acceptedNames", "kind"))
	assert.Equal(t, []any{"v1"}, apiservertest.Get(crd, "status", "storedVersions"))
}

func TestCustomResourceCRUDDefaultsAndGeneration(t *testing.T) {
	group := createCRD(t, widgetCRD)
	ns := srv.NewNamespace(t)
	resp := srv.Do(t, "POST", widgets(group, ns), "", `{"apiVersion":"`+group+`/v1","kind":"Widget","metadata":{"name":"a"},"spec":{"color":"red"},"status":{"replicas":9}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	obj := resp.Obj(t)
	assert.Equal(t, float64(1), apiservertest.Get(obj, "spec", "replicas"), "the schema's default is applied")
	assert.Nil(t, obj["status"], "with the status subresource, a create's status is dropped")
	assert.Equal(t, float64(1), apiservertest.Get(obj, "metadata", "generation"))
	assert.NotEmpty(t, apiservertest.Get(obj, "metadata", "uid"))

	got := srv.Do(t, "GET", widgets(group, ns)+"/a", "", "")
	require.Equal(t, http.StatusOK, got.Code, got.Body)
	assert.Equal(t, "red", apiservertest.Get(got.Obj(t), "spec", "color"))

	// A metadata-only change keeps the generation; a spec change bumps it.
	p := srv.Do(t, "PATCH", widgets(group, ns)+"/a", "application/merge-patch+json", `{"metadata":{"labels":{"x":"y"}}}`)
	require.Equal(t, http.StatusOK, p.Code, p.Body)
	assert.Equal(t, float64(1), apiservertest.Get(p.Obj(t), "metadata", "generation"))
	p = srv.Do(t, "PATCH", widgets(group, ns)+"/a", "application/merge-patch+json", `{"spec":{"replicas":3}}`)
	require.Equal(t, http.StatusOK, p.Code, p.Body)
	assert.Equal(t, float64(2), apiservertest.Get(p.Obj(t), "metadata", "generation"))

	// PUT of the whole object.
	body := p.Obj(t)
	body["spec"].(map[string]any)["color"] = "blue"
	u := srv.Do(t, "PUT", widgets(group, ns)+"/a", "", mustJSON(t, body))
	require.Equal(t, http.StatusOK, u.Code, u.Body)
	assert.Equal(t, float64(3), apiservertest.Get(u.Obj(t), "metadata", "generation"))

	// YAML bodies work; protobuf bodies are 415.
	y := srv.Do(t, "POST", widgets(group, ns), "application/yaml", "apiVersion: "+group+"/v1\nkind: Widget\nmetadata:\n  name: from-yaml\nspec:\n  color: blue\n")
	require.Equal(t, http.StatusCreated, y.Code, y.Body)
	pb := srv.Do(t, "POST", widgets(group, ns), "application/vnd.kubernetes.protobuf", "k8s\x00")
	assert.Equal(t, http.StatusUnsupportedMediaType, pb.Code, pb.Body)

	d := srv.Do(t, "DELETE", widgets(group, ns)+"/a", "", "")
	require.Equal(t, http.StatusOK, d.Code, d.Body)
	assert.Equal(t, http.StatusNotFound, srv.Do(t, "GET", widgets(group, ns)+"/a", "", "").Code)
}

func TestCustomResourceViolationsAreOne422ListingEveryField(t *testing.T) {
	group := createCRD(t, widgetCRD)
	ns := srv.NewNamespace(t)
	resp := srv.Do(t, "POST", widgets(group, ns), "", `{"apiVersion":"`+group+`/v1","kind":"Widget","metadata":{"name":"Bad_Name"},
		"spec":{"color":"green","replicas":11,"size":"huge","ports":[{"name":"a"},{"name":"a"}]}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	st := resp.Obj(t)
	assert.Equal(t, "Invalid", st["reason"])
	assert.Equal(t, "Widget", apiservertest.Get(st, "details", "kind"))
	assert.Equal(t, group, apiservertest.Get(st, "details", "group"))
	var fields []string
	for _, c := range apiservertest.Get(st, "details", "causes").([]any) {
		fields = append(fields, c.(map[string]any)["field"].(string))
	}
	for _, want := range []string{"metadata.name", "spec.color", "spec.replicas", "spec.size", "spec.ports[1]"} {
		assert.Contains(t, fields, want, st["message"])
	}
	assert.Contains(t, st["message"], `spec.color: Unsupported value: "green": supported values: "red", "blue"`)
	assert.Equal(t, http.StatusNotFound, srv.Do(t, "GET", widgets(group, ns)+"/Bad_Name", "", "").Code)

	// A CEL rule.
	cel := srv.Do(t, "POST", widgets(group, ns), "", `{"apiVersion":"`+group+`/v1","kind":"Widget","metadata":{"name":"c"},"spec":{"color":"blue","replicas":7}}`)
	require.Equal(t, http.StatusUnprocessableEntity, cel.Code, cel.Body)
	assert.Contains(t, cel.Obj(t)["message"], "spec: Invalid value: only red widgets scale past 5")
}

func TestUnknownFieldsArePrunedAndReportedByFieldValidation(t *testing.T) {
	group := createCRD(t, widgetCRD)
	ns := srv.NewNamespace(t)
	body := `{"apiVersion":"` + group + `/v1","kind":"Widget","metadata":{"name":"p"},"spec":{"color":"red","typo":1}}`
	strict := srv.Do(t, "POST", widgets(group, ns)+"?fieldValidation=Strict", "", body)
	require.Equal(t, http.StatusBadRequest, strict.Code, strict.Body)
	assert.Contains(t, strict.Obj(t)["message"], `strict decoding error: unknown field "spec.typo"`)

	warn := srv.Do(t, "POST", widgets(group, ns), "", body)
	require.Equal(t, http.StatusCreated, warn.Code, warn.Body)
	assert.Contains(t, warn.Header.Get("Warning"), `unknown field \"spec.typo\"`)
	assert.Nil(t, apiservertest.Get(warn.Obj(t), "spec", "typo"), "the unknown field is pruned")
	stored := srv.Do(t, "GET", widgets(group, ns)+"/p", "", "").Obj(t)
	assert.Nil(t, apiservertest.Get(stored, "spec", "typo"))

	ignore := srv.Do(t, "POST", widgets(group, ns)+"?fieldValidation=Ignore", "", strings.Replace(body, `"name":"p"`, `"name":"q"`, 1))
	require.Equal(t, http.StatusCreated, ignore.Code, ignore.Body)
	assert.Empty(t, ignore.Header.Values("Warning"), "Ignore drops unknown fields silently")
	assert.Nil(t, apiservertest.Get(ignore.Obj(t), "spec", "typo"))

	// A patch is pruned and validated too.
	p := srv.Do(t, "PATCH", widgets(group, ns)+"/p?fieldValidation=Strict", "application/merge-patch+json", `{"spec":{"other":2}}`)
	require.Equal(t, http.StatusUnprocessableEntity, p.Code, p.Body)
	smp := srv.Do(t, "PATCH", widgets(group, ns)+"/p", "application/strategic-merge-patch+json", `{"spec":{"replicas":2}}`)
	assert.Equal(t, http.StatusUnsupportedMediaType, smp.Code, smp.Body)
}

func TestFieldValidationReportsUnknownMetadataAndDuplicateFields(t *testing.T) {
	group := createCRD(t, widgetCRD)
	ns := srv.NewNamespace(t)
	body := `{"apiVersion":"` + group + `/v1","kind":"Widget","metadata":{"name":"m","foo":1},"spec":{"color":"red","color":"blue","ports":[{"name":"a","name":"b"}]}}`
	strict := srv.Do(t, "POST", widgets(group, ns)+"?fieldValidation=Strict", "", body)
	require.Equal(t, http.StatusBadRequest, strict.Code, strict.Body)
	msg := strict.Obj(t)["message"].(string)
	assert.Contains(t, msg, `strict decoding error: `)
	assert.Contains(t, msg, `duplicate field "spec.color"`)
	assert.Contains(t, msg, `duplicate field "spec.ports[0].name"`)
	assert.Contains(t, msg, `unknown field "metadata.foo"`)
	assert.Equal(t, http.StatusNotFound, srv.Do(t, "GET", widgets(group, ns)+"/m", "", "").Code, "nothing is stored")

	warn := srv.Do(t, "POST", widgets(group, ns), "", body)
	require.Equal(t, http.StatusCreated, warn.Code, warn.Body)
	warnings := strings.Join(warn.Header.Values("Warning"), "\n")
	assert.Contains(t, warnings, `unknown field \"metadata.foo\"`)
	assert.Contains(t, warnings, `duplicate field \"spec.color\"`)
	assert.Equal(t, "blue", apiservertest.Get(warn.Obj(t), "spec", "color"), "the last of a duplicate wins, as in encoding/json")

	// YAML bodies too.
	yml := "apiVersion: " + group + "/v1\nkind: Widget\nmetadata:\n  name: from-yaml\n  bar: 1\nspec:\n  color: red\n"
	y := srv.Do(t, "POST", widgets(group, ns)+"?fieldValidation=Strict", "application/yaml", yml)
	require.Equal(t, http.StatusBadRequest, y.Code, y.Body)
	assert.Contains(t, y.Obj(t)["message"], `unknown field "metadata.bar"`)
}

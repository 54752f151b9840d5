package handlers_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// badRequest sends a GET and requires a 400 Status with exactly message.
func badRequest(t *testing.T, path, message string) {
	t.Helper()
	resp := do(t, "GET", path, "", "")
	require.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)
	st := resp.Obj(t)
	assert.Equal(t, "Status", st["kind"])
	assert.Equal(t, "BadRequest", st["reason"])
	assert.Equal(t, message, st["message"])
}

// The message of a bad selector is the parser's own, as kube-apiserver
// returns it (DecodeParameters' error, unprefixed). Every expectation was
// produced by apimachinery v0.37.2's labels.Parse and fields.ParseSelector.
func TestBadSelectorsAreTheParsersMessages(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	for sel, msg := range map[string]string{
		"a in (": "unable to parse requirement: found '', expected: ',', ')' or identifier",
		"a=b c":  "found 'c', expected: ',' or 'end of string'",
		"a,":     "found '', expected: identifier after ','",
		"x=(":    "unable to parse requirement: found '(', expected: identifier",
		"a=-x": `unable to parse requirement: values[0][a]: Invalid value: "-x": a valid label must be an empty string ` +
			`or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ` +
			`(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
	} {
		t.Run("labelSelector="+sel, func(t *testing.T) {
			badRequest(t, path+"?labelSelector="+url.QueryEscape(sel), msg)
		})
	}
	for sel, msg := range map[string]string{
		"a=b=c":  "invalid field selector: unescaped character in value: 61",
		`a=x\y`:  `invalid field selector: invalid escape sequence: \y`,
		"abc":    "invalid selector: 'abc'; can't understand 'abc'",
		"a=1,xy": "invalid selector: 'a=1,xy'; can't understand 'xy'",
	} {
		t.Run("fieldSelector="+sel, func(t *testing.T) {
			badRequest(t, path+"?fieldSelector="+url.QueryEscape(sel), msg)
		})
	}
}

// Which fields each kind's field selectors may name, and the 400 for any
// other, in the words of the kind's field label conversion (Kubernetes:
// pkg/apis/core/v1/conversion.go; kinds without one get apimachinery's
// DefaultMetaV1FieldSelectorConversion).
func TestFieldSelectorFieldsPerKind(t *testing.T) {
	ns := newNamespace(t)
	defaultMessage := func(f string) string {
		return `"` + f + `" is not a known field selector: only "metadata.name", "metadata.namespace"`
	}
	notSupported := func(f string) string { return "field label not supported: " + f }
	cases := []struct {
		path        string
		supported   []string
		unsupported map[string]string // field → message
	}{
		{
			path: "/api/v1/namespaces/" + ns + "/pods",
			supported: []string{"metadata.name", "metadata.namespace", "spec.nodeName", "spec.restartPolicy",
				"spec.schedulerName", "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP",
				"status.podIPs", "status.nominatedNodeName", "spec.host"},
			unsupported: map[string]string{"spec.foo": notSupported("spec.foo"),
				"metadata.name ": notSupported("metadata.name "), "metadata.labels": notSupported("metadata.labels")},
		},
		{
			path:      "/api/v1/nodes",
			supported: []string{"metadata.name", "spec.unschedulable"},
			unsupported: map[string]string{"metadata.namespace": notSupported("metadata.namespace"),
				"spec.podCIDR": notSupported("spec.podCIDR")},
		},
		{
			path:      "/api/v1/namespaces",
			supported: []string{"metadata.name", "status.phase"},
			unsupported: map[string]string{"metadata.namespace": notSupported("metadata.namespace"),
				" metadata.name": notSupported(" metadata.name")},
		},
		{
			path: "/api/v1/namespaces/" + ns + "/events",
			supported: []string{"metadata.name", "metadata.namespace", "involvedObject.kind", "involvedObject.namespace",
				"involvedObject.name", "involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion",
				"involvedObject.fieldPath", "reason", "reportingComponent", "source", "type"},
			unsupported: map[string]string{"message": notSupported("message")},
		},
		{
			path:      "/api/v1/namespaces/" + ns + "/configmaps",
			supported: []string{"metadata.name", "metadata.namespace"},
			unsupported: map[string]string{"metadata.name ": defaultMessage("metadata.name "),
				"spec.foo": defaultMessage("spec.foo"), "data": defaultMessage("data")},
		},
		{
			path:        "/apis/apps/v1/namespaces/" + ns + "/replicasets",
			supported:   []string{"metadata.name", "metadata.namespace"},
			unsupported: map[string]string{"status.replicas": defaultMessage("status.replicas")},
		},
		{
			path:        "/apis/coordination.k8s.io/v1/namespaces/" + ns + "/leases",
			supported:   []string{"metadata.name", "metadata.namespace"},
			unsupported: map[string]string{"spec.holderIdentity": defaultMessage("spec.holderIdentity")},
		},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			for _, f := range tc.supported {
				resp := do(t, "GET", tc.path+"?fieldSelector="+url.QueryEscape(f+"=x"), "", "")
				assert.Equal(t, http.StatusOK, resp.Code, "%s: %s", f, resp.Body)
			}
			for f, msg := range tc.unsupported {
				badRequest(t, tc.path+"?fieldSelector="+url.QueryEscape(f+"=x"), msg)
				badRequest(t, tc.path+"?fieldSelector="+url.QueryEscape("metadata.name=a,"+f+"!=x"), msg)
			}
		})
	}
}

// "metadata.name =x" names the field "metadata.name " (the parser trims
// nothing): a 400, not a selector that silently matches nothing.
func TestFieldSelectorWithSpaceBeforeOperatorIsRefused(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", cmJSON("x", nil)).Code)
	badRequest(t, path+"?fieldSelector="+url.QueryEscape("metadata.name =x"),
		`"metadata.name " is not a known field selector: only "metadata.name", "metadata.namespace"`)
	list := do(t, "GET", path+"?fieldSelector="+url.QueryEscape("metadata.name=x"), "", "").Obj(t)
	assert.Len(t, list["items"], 1)
}

// With several unknown fields the message names the first in the order of
// the clauses' text, as Kubernetes' sorted terms do: "a.b=1" sorts before
// "a=1" although the field "a" sorts before "a.b".
func TestFieldSelectorNamesTheFirstUnknownFieldInKubernetesOrder(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps?fieldSelector="
	for _, sel := range []string{"a.b=1,a=1", "a=1,a.b=1"} {
		badRequest(t, path+url.QueryEscape(sel),
			`"a.b" is not a known field selector: only "metadata.name", "metadata.namespace"`)
	}
	badRequest(t, path+url.QueryEscape("b=1,a!=2"),
		`"a" is not a known field selector: only "metadata.name", "metadata.namespace"`)
}

// As in Kubernetes' listOpts, ValidateListOptions (422) runs before the
// fields are checked against the kind (400).
func TestListOptionsValidationComesBeforeFieldLabels(t *testing.T) {
	ns := newNamespace(t)
	resp := do(t, "GET", "/api/v1/namespaces/"+ns+"/configmaps?resourceVersionMatch=Exact&fieldSelector=spec.foo%3Dx", "", "")
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
}

// Pods accept the old spec.host for spec.nodeName, spec.hostNetwork, and
// status.podIPs, which no pod carries, so it matches as "".
func TestPodFieldSelectorsKubernetesAccepts(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/pods"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", podJSON("p1")).Code)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", podJSON("p2")).Code)
	node := ns + "-node"
	require.Equal(t, http.StatusCreated, do(t, "POST", path+"/p1/binding", "", `{"target":{"name":"`+node+`"}}`).Code)
	names := func(sel string) []string {
		t.Helper()
		resp := do(t, "GET", path+"?fieldSelector="+url.QueryEscape(sel), "", "")
		require.Equal(t, http.StatusOK, resp.Code, resp.Body)
		var out []string
		for _, it := range resp.Obj(t)["items"].([]any) {
			out = append(out, get(it.(map[string]any), "metadata", "name").(string))
		}
		return out
	}
	assert.Equal(t, []string{"p1"}, names("spec.host="+node))
	assert.Equal(t, []string{"p2"}, names("spec.host!="+node))
	assert.Equal(t, []string{"p1", "p2"}, names("spec.hostNetwork=false"))
	assert.Empty(t, names("spec.hostNetwork=true"))
	assert.Equal(t, []string{"p1", "p2"}, names("status.podIPs="))
	assert.Empty(t, names("status.podIPs=10.0.0.1"))
}

// WATCH and DELETE collection read their options the same way.
func TestWatchAndDeleteCollectionRefuseUnknownFields(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", cmJSON("keep", nil)).Code)
	msg := `"metadata.name " is not a known field selector: only "metadata.name", "metadata.namespace"`
	badRequest(t, path+"?watch=1&timeoutSeconds=5&fieldSelector="+url.QueryEscape("metadata.name =keep"), msg)

	resp := do(t, "DELETE", path+"?fieldSelector="+url.QueryEscape("metadata.name =keep"), "", "")
	require.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)
	assert.Equal(t, msg, resp.Obj(t)["message"])
	assert.Equal(t, http.StatusOK, do(t, "GET", path+"/keep", "", "").Code, "nothing was deleted")
}

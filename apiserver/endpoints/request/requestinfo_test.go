package request

import (
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNewRequestInfoReadsVerbAndPath(t *testing.T) {
	for _, c := range []struct {
		method, url string
		want        RequestInfo
	}{
		{"GET", "/api/v1/namespaces/ns1/pods", RequestInfo{IsResourceRequest: true, Verb: "list", APIPrefix: "api", APIVersion: "v1", Namespace: "ns1", Resource: "pods"}},
		{"GET", "/api/v1/namespaces/ns1/pods?watch=true", RequestInfo{IsResourceRequest: true, Verb: "watch", APIPrefix: "api", APIVersion: "v1", Namespace: "ns1", Resource: "pods"}},
		{"GET", "/api/v1/watch/namespaces/ns1/pods/p1", RequestInfo{IsResourceRequest: true, Verb: "watch", APIPrefix: "api", APIVersion: "v1", Namespace: "ns1", Resource: "pods", Name: "p1"}},
		{"GET", "/api/v1/pods", RequestInfo{IsResourceRequest: true, Verb: "list", APIPrefix: "api", APIVersion: "v1", Resource: "pods"}},
		{"POST", "/api/v1/namespaces/ns1/pods/p1/binding", RequestInfo{IsResourceRequest: true, Verb: "create", APIPrefix: "api", APIVersion: "v1", Namespace: "ns1", Resource: "pods", Name: "p1", Subresource: "binding"}},
		{"PATCH", "/apis/apps/v1/namespaces/ns1/replicasets/rs/scale", RequestInfo{IsResourceRequest: true, Verb: "patch", APIPrefix: "apis", APIGroup: "apps", APIVersion: "v1", Namespace: "ns1", Resource: "replicasets", Name: "rs", Subresource: "scale"}},
		{"DELETE", "/api/v1/namespaces/ns1/configmaps", RequestInfo{IsResourceRequest: true, Verb: "deletecollection", APIPrefix: "api", APIVersion: "v1", Namespace: "ns1", Resource: "configmaps"}},
		{"DELETE", "/api/v1/namespaces/ns1", RequestInfo{IsResourceRequest: true, Verb: "delete", APIPrefix: "api", APIVersion: "v1", Resource: "namespaces", Name: "ns1"}},
		{"PUT", "/api/v1/namespaces/ns1/status", RequestInfo{IsResourceRequest: true, Verb: "update", APIPrefix: "api", APIVersion: "v1", Resource: "namespaces", Name: "ns1", Subresource: "status"}},
		{"GET", "/apis/apps/v1", RequestInfo{Verb: "get", APIPrefix: "apis", APIGroup: "apps", APIVersion: "v1"}},
		{"GET", "/healthz", RequestInfo{Verb: "get"}},
	} {
		t.Run(c.method+" "+c.url, func(t *testing.T) {
			got := NewRequestInfo(httptest.NewRequest(c.method, c.url, nil))
			got.Path, got.Parts = "", nil
			assert.Equal(t, c.want, *got)
		})
	}
}

func TestContextCarriesRequestInfoAndNamespace(t *testing.T) {
	r := httptest.NewRequest("GET", "/api/v1/namespaces/a/pods", nil)
	_, ok := RequestInfoFrom(r.Context())
	assert.False(t, ok)
	info := NewRequestInfo(r)
	ctx := WithNamespace(WithRequestInfo(r.Context(), info), "a")
	got, ok := RequestInfoFrom(ctx)
	assert.True(t, ok)
	assert.Same(t, info, got)
	assert.Equal(t, "a", NamespaceValue(ctx))
	assert.Equal(t, "", NamespaceValue(r.Context()))
}

package apiserver_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/apiserver"
	"kubeloop/apiserver/apiservertest"
)

// BenchmarkCreateConfigMapsAuth is the price of knowing who asks: the
// same HTTPS apiserver driven by an anonymous client with authorization
// off (AlwaysAllow), and by a client certificate under RBAC (alice, bound
// to a Role on configmaps in the namespace, so every request is authenticated and
// authorized through a RoleBinding), beside raw etcd, in one run. The
// target: authn+rbac costs at most 10% of the create rate.
func BenchmarkCreateConfigMapsAuth(b *testing.B) {
	const concurrency = 64
	open, err := apiservertest.Start(srv.Etcd, apiserver.Config{})
	require.NoError(b, err)
	b.Cleanup(open.API.Close)
	secured, err := apiservertest.Start(srv.Etcd, apiserver.Config{AuthorizationModes: []string{apiserver.ModeRBAC}})
	require.NoError(b, err)
	b.Cleanup(secured.API.Close)

	b.Run(fmt.Sprintf("json/c=%d/https-anonymous-alwaysallow", concurrency), func(b *testing.B) {
		ns := benchNamespace(b, open)
		benchServer(b, open, open.AsUser(b, ""), ns, concurrency, jsonWire)
	})
	b.Run(fmt.Sprintf("json/c=%d/https-certificate-alwaysallow", concurrency), func(b *testing.B) {
		ns := benchNamespace(b, open)
		benchServer(b, open, open.AsUser(b, "alice", "dev"), ns, concurrency, jsonWire)
	})
	b.Run(fmt.Sprintf("json/c=%d/https-certificate-rbac", concurrency), func(b *testing.B) {
		ns := benchNamespace(b, secured)
		rbacNS := "/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns
		require.Equal(b, http.StatusCreated, secured.Do(b, "POST", rbacNS+"/roles", "", `{
			"metadata":{"name":"configmap-editor"},
			"rules":[{"apiGroups":[""],"resources":["configmaps"],"verbs":["create","get","list"]}]}`).Code)
		require.Equal(b, http.StatusCreated, secured.Do(b, "POST", rbacNS+"/rolebindings", "", `{
			"metadata":{"name":"alice-edits-configmaps"},
			"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"configmap-editor"},
			"subjects":[{"kind":"User","name":"alice"}]}`).Code)
		benchServer(b, secured, secured.AsUser(b, "alice", "dev"), ns, concurrency, jsonWire)
	})
	b.Run(fmt.Sprintf("json/c=%d/etcd", concurrency), func(b *testing.B) {
		benchEtcd(b, concurrency)
	})
}

func benchNamespace(b *testing.B, s *apiservertest.Server) string {
	ns := fmt.Sprintf("bench-auth-%d", benchSeq.Add(1))
	require.Equal(b, http.StatusCreated, s.Do(b, "POST", "/api/v1/namespaces", "", `{"metadata":{"name":"`+ns+`"}}`).Code)
	return ns
}

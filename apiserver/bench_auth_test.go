package apiserver_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver"
	"kubeloop/apiserver/apiservertest"
	"kubeloop/internal/benchtest"
)

// BenchmarkCreateConfigMapsAuth is the price of knowing who asks: creates
// over the same HTTPS at concurrency 64, with authentication and RBAC
// (kubeloop: alice's client certificate, allowed by a RoleBinding to a
// Role on configmaps) and without them (anonymous, AlwaysAllow: a
// kube-apiserver with no authentication or authorization configured),
// and, between the two, the certificate alone under AlwaysAllow; raw etcd
// beside them as in BenchmarkCreateConfigMaps. The target: authn+RBAC
// costs at most 10% of the rate without them (kubeloop ≥ 0.9× noauth),
// and at most 10% more CPU per create.
//
// The four arms are measured in one run, interleaved
// (internal/benchtest.Interleave): the b.N creates of each are cut into
// rounds, and the rounds alternate between the arms, forwards then
// backwards (ABCD DCBA ...), each arm timed on its own. On a shared, busy
// machine the load changes from second to second, and etcd grows with
// every object; measured one after the other, the arm that ran last would
// pay for both. Interleaved, they see the same machine and the same etcd.
// ns/op is the time of one create of every arm. Beside each arm's rate it
// reports the CPU time the process (apiservers, etcd and clients alike)
// spent per create during its rounds (cpu-us/object), which follows the
// neighbours' load less than the rate does; on a busy 2-core machine both
// still vary by a quarter from run to run. Its etcd arm is one of four and
// pays for more of the apiserver arms' asynchronous work (their garbage,
// three watch caches reading every write) than in
// BenchmarkCreateConfigMaps, so compare the apiserver with etcd there.
func BenchmarkCreateConfigMapsAuth(b *testing.B) {
	const concurrency = 64
	open, err := apiservertest.Start(srv.Etcd, apiserver.Config{AuthorizationModes: []string{apiserver.ModeAlwaysAllow}})
	require.NoError(b, err)
	b.Cleanup(open.API.Close)
	secured, err := apiservertest.Start(srv.Etcd, apiserver.Config{AuthorizationModes: []string{apiserver.ModeRBAC}})
	require.NoError(b, err)
	b.Cleanup(secured.API.Close)
	// One client per arm for the whole benchmark: its connection (and TLS
	// handshake) is made once, as a controller's would be.
	anonymous, alice, aliceRBAC := open.AsUser(b, ""), open.AsUser(b, "alice", "dev"), secured.AsUser(b, "alice", "dev")

	b.Run(fmt.Sprintf("json/c=%d/kubeloop", concurrency), func(b *testing.B) {
		arms := []*benchtest.Arm{
			{Unit: "", Op: newCreator(secured, aliceRBAC, rbacNamespace(b, secured))},
			{Unit: "authn-", Op: newCreator(open, alice, benchNamespace(b, open))},
			{Unit: "noauth-", Op: newCreator(open, anonymous, benchNamespace(b, open))},
			{Unit: "etcd-", Op: newEtcdSide(b, fmt.Sprintf("raw-auth-%d", benchSeq.Add(1))).create},
		}
		benchtest.Interleave(b, concurrency, arms...)
		for _, arm := range arms {
			arm.Report(b, "create")
		}
	})
}

// newCreator is a function creating configmap cm-<i> in ns through hc, as
// JSON. hc's transport is cloned with room for every worker's connection
// (HTTP/1.1 fallback) and shared by all calls.
func newCreator(s *apiservertest.Server, hc *http.Client, ns string) func(i int) error {
	tr := hc.Transport.(*http.Transport)
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost = 256, 256
	url := s.URL + "/api/v1/namespaces/" + ns + "/configmaps"
	return func(i int) error {
		body, err := jsonWire.encode(&api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("cm-%d", i)}, Data: map[string]string{"k": "v"}})
		if err != nil {
			return err
		}
		req, err := http.NewRequest("POST", url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", jsonWire.contentType)
		req.Header.Set("Accept", jsonWire.accept)
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			return fmt.Errorf("create in %s: %d", ns, resp.StatusCode)
		}
		return nil
	}
}

// rbacNamespace is a fresh namespace where alice may create configmaps
// through a RoleBinding, once the RBAC authorizer has seen it.
func rbacNamespace(b *testing.B, s *apiservertest.Server) string {
	ns := benchNamespace(b, s)
	rbacNS := "/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns
	require.Equal(b, http.StatusCreated, s.Do(b, "POST", rbacNS+"/roles", "", `{
		"metadata":{"name":"configmap-editor"},
		"rules":[{"apiGroups":[""],"resources":["configmaps"],"verbs":["create","get","list"]}]}`).Code)
	require.Equal(b, http.StatusCreated, s.Do(b, "POST", rbacNS+"/rolebindings", "", `{
		"metadata":{"name":"alice-edits-configmaps"},
		"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"configmap-editor"},
		"subjects":[{"kind":"User","name":"alice"}]}`).Code)
	// The policy cache lags the write by a watch event.
	alice := s.AsUser(b, "alice", "dev")
	require.Eventually(b, func() bool {
		return s.DoAs(b, alice, b.Context(), "GET", "/api/v1/namespaces/"+ns+"/configmaps", "", "", nil).Code == http.StatusOK
	}, 30*time.Second, 10*time.Millisecond, "alice may list configmaps in %s", ns)
	return ns
}

func benchNamespace(b *testing.B, s *apiservertest.Server) string {
	ns := fmt.Sprintf("bench-auth-%d", benchSeq.Add(1))
	require.Equal(b, http.StatusCreated, s.Do(b, "POST", "/api/v1/namespaces", "", `{"metadata":{"name":"`+ns+`"}}`).Code)
	return ns
}

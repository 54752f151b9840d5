package conformance

import (
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/apiserver"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/client"
)

// rbacServer is a kubeloop apiserver in Node,RBAC mode over the suite's
// etcd. Authentication is not what these tests are about: the server
// takes the Impersonate-User and Impersonate-Group headers that
// `kubectl --as`/`--as-group` send as the requester (with
// system:authenticated), and a request without them as system:admin in
// system:masters. It returns a kubeconfig for it.
func rbacServer(t *testing.T) string {
	t.Helper()
	srv, err := apiserver.New(apiserver.Config{Etcd: etcd.Client(), Logger: slog.New(slog.DiscardHandler),
		AuthorizationModes: []string{apiserver.ModeNode, apiserver.ModeRBAC}})
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	hs := &http.Server{ReadHeaderTimeout: 30 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := &user.Info{Name: "system:admin", Groups: []string{user.SystemPrivilegedGroup, user.AllAuthenticated}}
		if name := r.Header.Get("Impersonate-User"); name != "" {
			u = &user.Info{Name: name, Groups: append(r.Header.Values("Impersonate-Group"), user.AllAuthenticated)}
			r.Header.Del("Impersonate-User")
			r.Header.Del("Impersonate-Group")
		}
		srv.Handler().ServeHTTP(w, r.WithContext(user.WithUser(r.Context(), u)))
	})}
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() { _ = hs.Close() })
	path := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, client.WriteKubeconfig(path, &client.Config{Host: "http://" + ln.Addr().String()}))
	return path
}

// TestKubectlAuthCanI: the real kubectl asks the access reviews
// (`auth can-i`, `--list`) and prints Kubernetes' 403 for a refused request.
func TestKubectlAuthCanI(t *testing.T) {
	kubeconfig := rbacServer(t)
	for _, bin := range requireKubectls(t) {
		t.Run(bin.version, func(t *testing.T) {
			ns := "can-i-" + strings.ReplaceAll(bin.version, ".", "-")
			k := &kubectl{t: t, bin: bin, kubeconfig: kubeconfig}
			k.ok("create", "namespace", ns)
			k.namespace = ns
			k.ok("create", "role", "pod-reader", "--verb=get,list", "--resource=pods")
			k.ok("create", "rolebinding", "alice-reads", "--role=pod-reader", "--user=alice")
			require.Eventually(t, func() bool {
				r := k.run("auth", "can-i", "list", "pods", "--as", "alice")
				return r.code == 0
			}, 20*time.Second, 100*time.Millisecond, "the binding reaches the policy cache")

			assert.Equal(t, "yes\n", k.ok("auth", "can-i", "get", "pods", "--as", "alice"))
			r := k.run("auth", "can-i", "delete", "pods", "--as", "alice")
			assert.Equal(t, 1, r.code)
			assert.Equal(t, "no\n", r.stdout)
			r = k.run("auth", "can-i", "list", "secrets", "--as", "alice")
			assert.Equal(t, "no\n", r.stdout)
			assert.Equal(t, "yes\n", k.ok("auth", "can-i", "delete", "nodes"), "system:masters")

			list := k.ok("auth", "can-i", "--list", "--as", "alice")
			assert.Regexp(t, `(?m)^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$`, list)
			assert.Regexp(t, `(?m)^pods\s+\[\]\s+\[\]\s+\[get list\]$`, list)
			assert.Regexp(t, `(?m)^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$`, list)
			assert.Regexp(t, `(?m)^\s+\[/version\]\s+\[\]\s+\[get\]$`, list)

			out := k.fails("get", "pods", "--as", "bob")
			assert.Equal(t, `Error from server (Forbidden): pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "`+ns+`"`+"\n", out)
			out = k.fails("create", "role", "too-much", "--verb=delete", "--resource=pods", "--as", "alice")
			assert.Contains(t, out, `Error from server (Forbidden): roles.rbac.authorization.k8s.io is forbidden: User "alice" cannot create resource "roles"`)
		})
	}
}

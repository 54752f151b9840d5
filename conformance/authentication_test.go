package conformance

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// whoamiOf decodes `kubectl auth whoami -o json`.
func whoamiOf(t *testing.T, out string) authenticationv1.UserInfo {
	t.Helper()
	var r authenticationv1.SelfSubjectReview
	require.NoError(t, json.Unmarshal([]byte(out), &r), out)
	return r.Status.UserInfo
}

// The real kubectl authenticates with the kubeconfig's client
// certificate, impersonates with --as/--as-group, and reports a bad token
// as Kubernetes' "Unauthorized".
func TestKubectlAuthentication(t *testing.T) {
	for _, bin := range requireKubectls(t) {
		t.Run(bin.version, func(t *testing.T) {
			k := &kubectl{t: t, bin: bin}
			me := whoamiOf(t, k.ok("auth", "whoami", "-o", "json"))
			assert.Equal(t, "kubernetes-admin", me.Username)
			assert.Equal(t, []string{"system:masters", "system:authenticated"}, me.Groups)

			bob := whoamiOf(t, k.ok("auth", "whoami", "-o", "json", "--as", "bob", "--as-group", "dev"))
			assert.Equal(t, "bob", bob.Username)
			assert.Equal(t, []string{"dev", "system:authenticated"}, bob.Groups)

			// A kubeconfig with the CA and a bad token only (with the admin's
			// certificate beside it, the certificate would win).
			tokenOnly := tokenKubeconfig(t, "not-a-token")
			out := k.fails("get", "namespaces", "--kubeconfig", tokenOnly)
			// What kubectl prints against any Kubernetes for a 401 during discovery.
			assert.Contains(t, out, "error: You must be logged in to the server (the server has asked for the client to provide credentials)")
		})
	}
}

// tokenKubeconfig is a kubeconfig for the suite's cluster whose user has
// only a bearer token.
func tokenKubeconfig(t *testing.T, token string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, os.WriteFile(path, []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
current-context: token
clusters: [{name: kl, cluster: {server: %q, certificate-authority-data: %q}}]
contexts: [{name: token, context: {cluster: kl, user: token}}]
users: [{name: token, user: {token: %q}}]
`, kl.URL, base64.StdEncoding.EncodeToString(kl.CA.CertPEM), token)), 0o600))
	return path
}

// kubectl create token issues a ServiceAccount token that kubectl can then
// authenticate with.
func TestKubectlCreateTokenAuthenticatesAsTheServiceAccount(t *testing.T) {
	ns := newNamespace(t)
	_, err := clientset(t).CoreV1().ServiceAccounts(ns).Create(context.Background(),
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "robot"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	for _, bin := range requireKubectls(t) {
		t.Run(bin.version, func(t *testing.T) {
			k := &kubectl{t: t, bin: bin, namespace: ns}
			token := strings.TrimSpace(k.ok("create", "token", "robot", "--duration", "20m"))
			require.NotEmpty(t, token)
			me := whoamiOf(t, k.ok("auth", "whoami", "-o", "json", "--kubeconfig", tokenKubeconfig(t, token)))
			assert.Equal(t, "system:serviceaccount:"+ns+":robot", me.Username)
			assert.Contains(t, me.Groups, "system:serviceaccounts:"+ns)

			out := k.fails("create", "token", "nobody")
			assert.Contains(t, out, `serviceaccounts "nobody" not found`)
		})
	}
}

// client-go with a client certificate of its own, and impersonating
// through rest.Config.Impersonate.
func TestClientGoAuthenticatesWithCertificatesAndImpersonates(t *testing.T) {
	alice, err := kl.CA.IssueClient("alice", []string{"dev"})
	require.NoError(t, err)
	cfg := adminConfig(t)
	cfg.TLSClientConfig.CertData, cfg.TLSClientConfig.KeyData = alice.CertPEM, alice.KeyPEM
	cs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	r, err := cs.AuthenticationV1().SelfSubjectReviews().Create(context.Background(), &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "alice", r.Status.UserInfo.Username)
	assert.Equal(t, []string{"dev", "system:authenticated"}, r.Status.UserInfo.Groups)

	as := adminConfig(t)
	as.Impersonate = rest.ImpersonationConfig{UserName: "carol", Groups: []string{"qa"}}
	cs, err = kubernetes.NewForConfig(as)
	require.NoError(t, err)
	r, err = cs.AuthenticationV1().SelfSubjectReviews().Create(context.Background(), &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "carol", r.Status.UserInfo.Username)

	bad := adminConfig(t)
	bad.TLSClientConfig.CertData, bad.TLSClientConfig.KeyData = nil, nil
	bad.BearerToken = "not-a-token"
	cs, err = kubernetes.NewForConfig(bad)
	require.NoError(t, err)
	_, err = cs.CoreV1().Namespaces().List(context.Background(), metav1.ListOptions{})
	require.Error(t, err)
	assert.True(t, apierrors.IsUnauthorized(err), "%v", err)
}

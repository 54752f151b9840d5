package client

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// selfSignedPair returns a PEM certificate (valid for clients and servers)
// and its PEM key.
func selfSignedPair(t *testing.T, cn string) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth},
		IsCA:        true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	kder, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})
}

func writeFile(t *testing.T, path, content string) string {
	t.Helper()
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
	return path
}

const twoContexts = `apiVersion: v1
kind: Config
current-context: dev
clusters:
- name: dev-cluster
  cluster:
    server: https://dev.example:6443
    certificate-authority-data: %s
- name: prod-cluster
  cluster:
    server: https://prod.example:6443
    insecure-skip-tls-verify: true
contexts:
- name: dev
  context: {cluster: dev-cluster, user: dev-user, namespace: team-a}
- name: prod
  context: {cluster: prod-cluster, user: prod-user}
users:
- name: dev-user
  user:
    token: dev-token
- name: prod-user
  user:
    client-certificate: certs/client.crt
    client-key-data: %s
`

func TestConfigFromKubeconfigUsesCurrentContext(t *testing.T) {
	ca, _ := selfSignedPair(t, "ca")
	_, key := selfSignedPair(t, "client")
	path := writeFile(t, filepath.Join(t.TempDir(), "config"),
		fmt.Sprintf(twoContexts, base64.StdEncoding.EncodeToString(ca), base64.StdEncoding.EncodeToString(key)))

	cfg, err := ConfigFromKubeconfig(path, "")
	require.NoError(t, err)
	assert.Equal(t, "https://dev.example:6443", cfg.Host)
	assert.Equal(t, "dev-token", cfg.BearerToken)
	assert.Equal(t, ca, cfg.TLS.CAData, "certificate-authority-data is base64 PEM")
	assert.False(t, cfg.TLS.Insecure)

	kc, err := LoadKubeconfig(path)
	require.NoError(t, err)
	assert.Equal(t, "team-a", kc.Namespace(""))
	assert.Equal(t, "default", kc.Namespace("prod"))
}

func TestConfigFromKubeconfigNamedContextWithClientCert(t *testing.T) {
	ca, _ := selfSignedPair(t, "ca")
	_, key := selfSignedPair(t, "client")
	dir := t.TempDir()
	path := writeFile(t, filepath.Join(dir, "config"),
		fmt.Sprintf(twoContexts, base64.StdEncoding.EncodeToString(ca), base64.StdEncoding.EncodeToString(key)))

	cfg, err := ConfigFromKubeconfig(path, "prod")
	require.NoError(t, err)
	assert.Equal(t, "https://prod.example:6443", cfg.Host)
	assert.True(t, cfg.TLS.Insecure)
	assert.Empty(t, cfg.BearerToken)
	assert.Equal(t, filepath.Join(dir, "certs", "client.crt"), cfg.TLS.CertFile, "relative paths resolve against the kubeconfig's directory")
	assert.Equal(t, key, cfg.TLS.KeyData)
}

func TestKubeconfigEnvListMergesFirstDefinitionWins(t *testing.T) {
	dir := t.TempDir()
	first := writeFile(t, filepath.Join(dir, "a"), `
clusters:
- name: c
  cluster: {server: "http://first:1"}
users:
- name: u
  user: {token: first}
contexts:
- name: ctx
  context: {cluster: c, user: u}
`)
	second := writeFile(t, filepath.Join(dir, "b"), `
current-context: ctx
clusters:
- name: c
  cluster: {server: "http://second:2"}
- name: other
  cluster: {server: "http://other:3"}
contexts:
- name: ctx
  context: {cluster: other, user: u}
`)
	missing := filepath.Join(dir, "does-not-exist")
	t.Setenv(RecommendedConfigPathEnvVar, missing+string(os.PathListSeparator)+first+string(os.PathListSeparator)+second)

	cfg, err := ConfigFromKubeconfig("", "")
	require.NoError(t, err)
	assert.Equal(t, "http://first:1", cfg.Host, "context ctx and cluster c come from the first file")
	assert.Equal(t, "first", cfg.BearerToken)
	kc, err := LoadKubeconfig("")
	require.NoError(t, err)
	assert.Equal(t, "ctx", kc.CurrentContext, "current-context comes from the first file that sets one")
	assert.Len(t, kc.Clusters, 2)
}

func TestKubeconfigDefaultsToHomeDotKube(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv(RecommendedConfigPathEnvVar, "")
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".kube"), 0o700))
	writeFile(t, filepath.Join(home, ".kube", "config"), `
current-context: x
clusters: [{name: c, cluster: {server: "http://home:1"}}]
contexts: [{name: x, context: {cluster: c}}]
`)
	cfg, err := ConfigFromKubeconfig("", "")
	require.NoError(t, err)
	assert.Equal(t, "http://home:1", cfg.Host)
}

func TestKubeconfigErrorsAreClear(t *testing.T) {
	dir := t.TempDir()
	_, err := ConfigFromKubeconfig(filepath.Join(dir, "nope"), "")
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), "nope")

	t.Setenv(RecommendedConfigPathEnvVar, filepath.Join(dir, "a")+string(os.PathListSeparator)+filepath.Join(dir, "b"))
	_, err = LoadKubeconfig("")
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), "no kubeconfig found")

	p := writeFile(t, filepath.Join(dir, "c"), `
clusters: [{name: c, cluster: {server: "http://x:1"}}]
contexts: [{name: x, context: {cluster: missing}}]
`)
	_, err = ConfigFromKubeconfig(p, "")
	assert.ErrorContains(t, err, "no current-context")
	_, err = ConfigFromKubeconfig(p, "y")
	assert.ErrorContains(t, err, `no context "y"`)
	_, err = ConfigFromKubeconfig(p, "x")
	assert.ErrorContains(t, err, `cluster "missing"`)

	bad := writeFile(t, filepath.Join(dir, "bad"), "clusters: [\n")
	_, err = LoadKubeconfig(bad)
	assert.ErrorContains(t, err, "parse kubeconfig")
}

func TestWriteKubeconfigRoundTrips(t *testing.T) {
	ca, _ := selfSignedPair(t, "ca")
	path := filepath.Join(t.TempDir(), "sub", "kubeconfig")
	require.NoError(t, WriteKubeconfig(path, &Config{Host: "https://127.0.0.1:6443", BearerToken: "tok", TLS: TLSConfig{CAData: ca}}))
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())

	kc, err := LoadKubeconfig(path)
	require.NoError(t, err)
	assert.Equal(t, KubeconfigUser, kc.CurrentContext)
	cfg, err := kc.ClientConfig("")
	require.NoError(t, err)
	assert.Equal(t, "https://127.0.0.1:6443", cfg.Host)
	assert.Equal(t, "tok", cfg.BearerToken)
	assert.Equal(t, ca, cfg.TLS.CAData)
}

func TestTLSTrustsOnlyTheConfiguredCA(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"gitVersion":"v1.37.0-kubeloop"}`))
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the untrusted handshake is expected
	srv.StartTLS()
	defer srv.Close()
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	ctx := context.Background()

	trusted, err := NewForConfig(&Config{Host: srv.URL, TLS: TLSConfig{CAData: caPEM}})
	require.NoError(t, err)
	v, err := trusted.ServerVersion(ctx)
	require.NoError(t, err)
	assert.Equal(t, "v1.37.0-kubeloop", v.GitVersion)

	untrusted, err := NewForConfig(&Config{Host: srv.URL})
	require.NoError(t, err)
	_, err = untrusted.ServerVersion(ctx)
	assert.ErrorContains(t, err, "certificate")

	insecure, err := NewForConfig(&Config{Host: srv.URL, TLS: TLSConfig{Insecure: true}})
	require.NoError(t, err)
	_, err = insecure.ServerVersion(ctx)
	assert.NoError(t, err)

	_, err = NewForConfig(&Config{Host: srv.URL, TLS: TLSConfig{CAData: []byte("not pem")}})
	assert.Error(t, err)
}

func TestTLSPresentsClientCertificate(t *testing.T) {
	clientCert, clientKey := selfSignedPair(t, "kubeloop-admin")
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(clientCert))
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"gitVersion":"` + r.TLS.PeerCertificates[0].Subject.CommonName + `"}`))
	}))
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the rejected handshake is expected
	srv.StartTLS()
	defer srv.Close()

	dir := t.TempDir()
	c, err := NewForConfig(&Config{Host: srv.URL, TLS: TLSConfig{
		Insecure: true,
		CertFile: writeFile(t, filepath.Join(dir, "crt"), string(clientCert)),
		KeyData:  clientKey,
	}})
	require.NoError(t, err)
	v, err := c.ServerVersion(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "kubeloop-admin", v.GitVersion)

	noCert, err := NewForConfig(&Config{Host: srv.URL, TLS: TLSConfig{Insecure: true}})
	require.NoError(t, err)
	_, err = noCert.ServerVersion(context.Background())
	assert.Error(t, err)
}

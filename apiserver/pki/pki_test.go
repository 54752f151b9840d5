package pki

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLoadOrCreateCAKeepsTheSameCAAcrossRestarts(t *testing.T) {
	dir := t.TempDir()
	first, err := LoadOrCreateCA(dir)
	require.NoError(t, err)
	second, err := LoadOrCreateCA(dir)
	require.NoError(t, err)
	assert.Equal(t, first.CertPEM, second.CertPEM)
	assert.True(t, second.Cert.IsCA)

	info, err := os.Stat(filepath.Join(dir, "ca.key"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "the CA key is private")
}

func TestLoadOrCreateCARefusesAHalfPresentCA(t *testing.T) {
	dir := t.TempDir()
	_, err := LoadOrCreateCA(dir)
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(dir, "ca.key")))
	_, err = LoadOrCreateCA(dir)
	assert.ErrorContains(t, err, "must both exist")
}

func TestIssueClientPutsUserInCNAndGroupsInO(t *testing.T) {
	ca, err := NewCA("test")
	require.NoError(t, err)
	kp, err := ca.IssueClient("alice", []string{"dev", "ops"})
	require.NoError(t, err)
	cert, err := ParseCert(kp.CertPEM)
	require.NoError(t, err)
	assert.Equal(t, "alice", cert.Subject.CommonName)
	assert.Equal(t, []string{"dev", "ops"}, cert.Subject.Organization)
	_, err = cert.Verify(x509.VerifyOptions{Roots: ca.Pool(), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}})
	assert.NoError(t, err)
	_, err = cert.Verify(x509.VerifyOptions{Roots: ca.Pool(), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
	assert.Error(t, err, "a client certificate cannot serve")
	_, err = tls.X509KeyPair(kp.CertPEM, kp.KeyPEM)
	assert.NoError(t, err)
}

func TestLoadOrCreateServingReissuesOnlyWhenHostsChange(t *testing.T) {
	dir := t.TempDir()
	ca, err := LoadOrCreateCA(dir)
	require.NoError(t, err)
	first, err := LoadOrCreateServing(dir, "apiserver", ca, ServingHosts("127.0.0.1:6443"))
	require.NoError(t, err)
	again, err := LoadOrCreateServing(dir, "apiserver", ca, ServingHosts("127.0.0.1:7000"))
	require.NoError(t, err)
	assert.Equal(t, first.CertPEM, again.CertPEM, "same host, another port: the same certificate")

	moved, err := LoadOrCreateServing(dir, "apiserver", ca, ServingHosts("10.1.2.3:6443"))
	require.NoError(t, err)
	assert.NotEqual(t, first.CertPEM, moved.CertPEM)
	cert, err := ParseCert(moved.CertPEM)
	require.NoError(t, err)
	assert.NoError(t, cert.VerifyHostname("10.1.2.3"))
	assert.NoError(t, cert.VerifyHostname("kubernetes.default.svc"))
}

func TestLoadOrCreateClientReissuesForANewCA(t *testing.T) {
	dir := t.TempDir()
	ca, err := LoadOrCreateCA(dir)
	require.NoError(t, err)
	kp, err := LoadOrCreateClient(dir, "admin", ca, "kubernetes-admin", []string{"system:masters"})
	require.NoError(t, err)
	same, err := LoadOrCreateClient(dir, "admin", ca, "kubernetes-admin", []string{"system:masters"})
	require.NoError(t, err)
	assert.Equal(t, kp.CertPEM, same.CertPEM)

	other, err := NewCA("other")
	require.NoError(t, err)
	fresh, err := LoadOrCreateClient(dir, "admin", other, "kubernetes-admin", []string{"system:masters"})
	require.NoError(t, err)
	cert, err := ParseCert(fresh.CertPEM)
	require.NoError(t, err)
	assert.NoError(t, cert.CheckSignatureFrom(other.Cert))
}

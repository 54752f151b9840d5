package serviceaccount

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// accounts is a Getter over a fixed set of objects.
type accounts struct {
	sa  map[string]*api.ServiceAccount
	pod map[string]*api.Pod
}

func (a accounts) GetServiceAccount(_ context.Context, ns, name string) (*api.ServiceAccount, error) {
	if sa, ok := a.sa[ns+"/"+name]; ok {
		return sa, nil
	}
	return nil, api.NewNotFound(api.GroupResource{Resource: "serviceaccounts"}, name)
}

func (a accounts) GetPod(_ context.Context, ns, name string) (*api.Pod, error) {
	if p, ok := a.pod[ns+"/"+name]; ok {
		return p, nil
	}
	return nil, api.NewNotFound(api.GroupResource{Resource: "pods"}, name)
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	return k
}

func TestTokensExpire(t *testing.T) {
	key := newKey(t)
	sa := &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: "ci", UID: "u1"}}
	got := accounts{sa: map[string]*api.ServiceAccount{"ns/ci": sa}}
	start := time.Now()
	token, exp, err := NewGenerator(key, DefaultIssuer).Token(sa, nil, []string{DefaultIssuer}, start, 10*time.Minute)
	require.NoError(t, err)
	assert.Equal(t, start.Add(10*time.Minute).Unix(), exp.Unix())

	a := NewAuthenticator(key.Public(), DefaultIssuer, []string{DefaultIssuer}, got)
	a.now = func() time.Time { return start.Add(9 * time.Minute) }
	u, ok, err := a.AuthenticateToken(context.Background(), token)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "system:serviceaccount:ns:ci", u.Name)

	a.now = func() time.Time { return start.Add(11 * time.Minute) }
	_, ok, err = a.AuthenticateToken(context.Background(), token)
	assert.False(t, ok)
	assert.EqualError(t, err, "service account token has expired")
}

func TestTokensOfAnotherKeyOrIssuer(t *testing.T) {
	sa := &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: "ci", UID: "u1"}}
	got := accounts{sa: map[string]*api.ServiceAccount{"ns/ci": sa}}
	ours := NewAuthenticator(newKey(t).Public(), DefaultIssuer, []string{DefaultIssuer}, got)

	forged, _, err := NewGenerator(newKey(t), DefaultIssuer).Token(sa, nil, []string{DefaultIssuer}, time.Now(), time.Hour)
	require.NoError(t, err)
	_, ok, err := ours.AuthenticateToken(context.Background(), forged)
	assert.False(t, ok)
	assert.ErrorContains(t, err, "invalid service account token", "our issuer, not our signature: bad credentials")

	foreign, _, err := NewGenerator(newKey(t), "https://elsewhere").Token(sa, nil, []string{"https://elsewhere"}, time.Now(), time.Hour)
	require.NoError(t, err)
	_, ok, err = ours.AuthenticateToken(context.Background(), foreign)
	assert.False(t, ok)
	assert.NoError(t, err, "another issuer's token is not ours to judge")
	_, ok, err = ours.AuthenticateToken(context.Background(), "static-token")
	assert.False(t, ok)
	assert.NoError(t, err)
}

func TestSplitUsername(t *testing.T) {
	ns, name, ok := SplitUsername("system:serviceaccount:kube-system:default")
	require.True(t, ok)
	assert.Equal(t, "kube-system", ns)
	assert.Equal(t, "default", name)
	for _, bad := range []string{"alice", "system:serviceaccount:", "system:serviceaccount:ns", "system:serviceaccount:ns:a:b"} {
		_, _, ok := SplitUsername(bad)
		assert.False(t, ok, bad)
	}
	assert.Equal(t, "system:serviceaccount:ns:n", MakeUsername("ns", "n"))
}

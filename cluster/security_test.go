package cluster

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
	"kubeloop/apiserver/pki"
	"kubeloop/client"
)

func startCluster(t *testing.T, opts Options) *Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := Start(ctx, opts)
	require.NoError(t, err)
	t.Cleanup(c.Stop)
	return c
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func etcdRevision(t *testing.T, c *Cluster) int64 {
	t.Helper()
	resp, err := c.Etcd.Get(testCtx(t), "/registry/", clientv3.WithCountOnly())
	require.NoError(t, err)
	return resp.Header.Revision
}

func TestClusterServesHTTPSAndTheKubeconfigCarriesCAAndAdminCertificate(t *testing.T) {
	c := startCluster(t, Options{})
	require.True(t, strings.HasPrefix(c.URL, "https://"), c.URL)

	kc, err := client.LoadKubeconfig(c.KubeconfigPath)
	require.NoError(t, err)
	require.Len(t, kc.Clusters, 1)
	assert.NotEmpty(t, kc.Clusters[0].Cluster.CertificateAuthorityData)
	assert.False(t, kc.Clusters[0].Cluster.InsecureSkipTLSVerify)
	require.Len(t, kc.Users, 1)
	cert, err := pki.ParseCert(kc.Users[0].User.ClientCertificateData)
	require.NoError(t, err)
	assert.Equal(t, AdminUser, cert.Subject.CommonName)
	assert.Equal(t, []string{"system:masters"}, cert.Subject.Organization)

	cfg, err := client.ConfigFromKubeconfig(c.KubeconfigPath, "")
	require.NoError(t, err)
	cl, err := client.NewForConfig(cfg)
	require.NoError(t, err)
	_, err = client.For[*api.ConfigMap](cl).Namespace("default").Create(testCtx(t),
		&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "from-kubeconfig"}}, client.CreateOptions{})
	require.NoError(t, err)
}

func TestAClientThatDoesNotTrustTheCAIsRefusedAtTheHandshake(t *testing.T) {
	c := startCluster(t, Options{})
	cl, err := client.NewForConfig(&client.Config{Host: c.URL})
	require.NoError(t, err)
	_, err = cl.DoRaw(testCtx(t), "GET", "/version", nil, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "certificate signed by unknown authority")
}

// Bad credentials of every kind are a 401 Unauthorized Status, and not
// one of them writes anything.
func TestBadCredentialsAre401AndChangeNothing(t *testing.T) {
	c := startCluster(t, Options{})
	otherCA, err := pki.NewCA("someone-else")
	require.NoError(t, err)
	foreign, err := otherCA.IssueClient(AdminUser, []string{"system:masters"})
	require.NoError(t, err)
	trustOnly := client.TLSConfig{CAData: c.CA.CertPEM}

	for name, cfg := range map[string]*client.Config{
		"unknown bearer token": {Host: c.URL, TLS: trustOnly, BearerToken: "not-a-token"},
		"certificate from another CA": {Host: c.URL, TLS: client.TLSConfig{
			CAData: c.CA.CertPEM, CertData: foreign.CertPEM, KeyData: foreign.KeyPEM}},
	} {
		t.Run(name, func(t *testing.T) {
			cl, err := client.NewForConfig(cfg)
			require.NoError(t, err)
			before := etcdRevision(t, c)
			_, err = client.For[*api.ConfigMap](cl).Namespace("default").Create(testCtx(t),
				&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "intruder"}}, client.CreateOptions{})
			require.Error(t, err)
			assert.True(t, api.IsUnauthorized(err), "%v", err)
			assert.Equal(t, int32(http.StatusUnauthorized), api.CodeForError(err))
			assert.Equal(t, "Unauthorized", err.Error())
			assert.Equal(t, before, etcdRevision(t, c), "nothing was written")
			_, err = client.For[*api.ConfigMap](c.Client).Namespace("default").Get(testCtx(t), "intruder", client.GetOptions{})
			assert.True(t, api.IsNotFound(err), "%v", err)
		})
	}
}

func TestTokenAuthFileAuthenticatesItsTokens(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tokens.csv")
	require.NoError(t, os.WriteFile(file, []byte("s3cret,alice,1001,\"dev\"\n"), 0o600))
	c := startCluster(t, Options{TokenAuthFile: file})
	cl, err := client.NewForConfig(&client.Config{Host: c.URL, TLS: client.TLSConfig{CAData: c.CA.CertPEM}, BearerToken: "s3cret"})
	require.NoError(t, err)
	me, err := whoami(t, cl)
	require.NoError(t, err)
	assert.Equal(t, "alice", me.Status.UserInfo.Username)
	assert.Equal(t, []string{"dev", "system:authenticated"}, me.Status.UserInfo.Groups)
	// Authenticated is not authorized: under the default Node,RBAC she
	// may list configmaps once a role says so.
	cms := client.For[*api.ConfigMap](cl).Namespace("default")
	_, err = cms.List(testCtx(t), client.ListOptions{})
	require.Error(t, err)
	assert.Equal(t, `configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"`, err.Error())
	_, err = client.For[*api.RoleBinding](c.Client).Namespace("default").Create(testCtx(t), &api.RoleBinding{
		ObjectMeta: api.ObjectMeta{Name: "dev-view"},
		RoleRef:    api.RoleRef{APIGroup: api.RBACGroupName, Kind: "ClusterRole", Name: "system:aggregate-to-view"},
		Subjects:   []api.Subject{{Kind: api.GroupKind, APIGroup: api.RBACGroupName, Name: "dev"}},
	}, client.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		_, err := cms.List(testCtx(t), client.ListOptions{})
		return err == nil
	}, 10*time.Second, 20*time.Millisecond, "the RoleBinding lets her group read configmaps")
}

func TestRestartKeepsTheCAAndTheAdminCertificate(t *testing.T) {
	dir := t.TempDir()
	first := startCluster(t, Options{DataDir: dir})
	firstCfg, err := client.ConfigFromKubeconfig(first.KubeconfigPath, "")
	require.NoError(t, err)
	first.Stop()

	second := startCluster(t, Options{DataDir: dir})
	assert.Equal(t, first.CA.CertPEM, second.CA.CertPEM)
	// The old kubeconfig's credentials still work against the new server
	// (only the port may differ).
	firstCfg.Host = second.URL
	cl, err := client.NewForConfig(firstCfg)
	require.NoError(t, err)
	_, err = cl.DoRaw(testCtx(t), "GET", "/api/v1/namespaces/default", nil, nil)
	require.NoError(t, err)
}

func TestInsecureHTTPServesLoopbackWithAnAdminToken(t *testing.T) {
	c := startCluster(t, Options{InsecureHTTP: true})
	require.True(t, strings.HasPrefix(c.URL, "http://"), c.URL)
	require.NotEmpty(t, c.Config.BearerToken)
	_, err := client.For[*api.ConfigMap](c.Client).Namespace("default").Create(testCtx(t),
		&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "plain"}}, client.CreateOptions{})
	require.NoError(t, err)
	_, err = c.ConfigFor("alice")
	assert.Error(t, err, "no CA, no client certificates")
}

func TestInsecureHTTPRefusesANonLoopbackAddress(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := Start(ctx, Options{InsecureHTTP: true, Listen: "0.0.0.0:0"})
	if c != nil {
		c.Stop()
	}
	require.Error(t, err)
	assert.Contains(t, err.Error(), "refusing to serve plain HTTP")
}

// postToken asks for a token of the service account ns/name.
func postToken(t *testing.T, c *Cluster, ns, name, body string) (*api.TokenRequest, error) {
	t.Helper()
	data, err := c.Client.DoRaw(testCtx(t), "POST", "/api/v1/namespaces/"+ns+"/serviceaccounts/"+name+"/token", nil, []byte(body))
	if err != nil {
		return nil, err
	}
	tr := &api.TokenRequest{}
	require.NoError(t, json.Unmarshal(data, tr))
	return tr, nil
}

// whoami is the user a client is, by SelfSubjectReview.
func whoami(t *testing.T, cl *client.Client) (*api.SelfSubjectReview, error) {
	t.Helper()
	data, err := cl.DoRaw(testCtx(t), "POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", nil,
		[]byte(`{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}`))
	if err != nil {
		return nil, err
	}
	r := &api.SelfSubjectReview{}
	require.NoError(t, json.Unmarshal(data, r))
	return r, nil
}

func tokenClient(t *testing.T, c *Cluster, token string) *client.Client {
	t.Helper()
	cl, err := client.NewForConfig(&client.Config{Host: c.URL, TLS: client.TLSConfig{CAData: c.CA.CertPEM}, BearerToken: token})
	require.NoError(t, err)
	return cl
}

// A ServiceAccount token from TokenRequest authenticates as the account
// while the account (and the pod it is bound to) exists, and not after.
func TestServiceAccountTokensAuthenticateWhileTheirObjectsExist(t *testing.T) {
	c := startCluster(t, Options{})
	sas := client.For[*api.ServiceAccount](c.Client).Namespace("default")
	sa, err := sas.Create(testCtx(t), &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: "builder"}}, client.CreateOptions{})
	require.NoError(t, err)

	tr, err := postToken(t, c, "default", "builder", `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{}}`)
	require.NoError(t, err)
	require.NotEmpty(t, tr.Status.Token)
	assert.Equal(t, "TokenRequest", tr.Kind)
	assert.Equal(t, int64(3600), *tr.Spec.ExpirationSeconds)
	assert.WithinDuration(t, time.Now().Add(time.Hour), tr.Status.ExpirationTimestamp.Time, time.Minute)

	me, err := whoami(t, tokenClient(t, c, tr.Status.Token))
	require.NoError(t, err)
	assert.Equal(t, "system:serviceaccount:default:builder", me.Status.UserInfo.Username)
	assert.Equal(t, sa.UID, me.Status.UserInfo.UID)
	assert.Equal(t, []string{"system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"}, me.Status.UserInfo.Groups)

	// Bound to a pod: valid while that pod exists.
	pods := client.For[*api.Pod](c.Client).Namespace("default")
	pod, err := pods.Create(testCtx(t), &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p"},
		Spec: api.PodSpec{ServiceAccountName: "builder", Containers: []api.Container{{Name: "c", Image: "nginx"}}}}, client.CreateOptions{})
	require.NoError(t, err)
	bound, err := postToken(t, c, "default", "builder", `{"spec":{"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"p"}}}`)
	require.NoError(t, err)
	me, err = whoami(t, tokenClient(t, c, bound.Status.Token))
	require.NoError(t, err)
	assert.Equal(t, api.ExtraValue{Items: []string{"p"}}, me.Status.UserInfo.Extra["authentication.kubernetes.io/pod-name"])
	assert.Equal(t, api.ExtraValue{Items: []string{pod.UID}}, me.Status.UserInfo.Extra["authentication.kubernetes.io/pod-uid"])
	zero := int64(0)
	require.NoError(t, pods.Delete(testCtx(t), "p", api.DeleteOptions{GracePeriodSeconds: &zero}))
	require.Eventually(t, func() bool {
		_, err := whoami(t, tokenClient(t, c, bound.Status.Token))
		return api.IsUnauthorized(err)
	}, 20*time.Second, 50*time.Millisecond, "a token bound to a deleted pod stops working")

	require.NoError(t, sas.Delete(testCtx(t), "builder", api.DeleteOptions{}))
	require.Eventually(t, func() bool {
		_, err := whoami(t, tokenClient(t, c, tr.Status.Token))
		return api.IsUnauthorized(err)
	}, 20*time.Second, 50*time.Millisecond, "a token of a deleted account stops working")
	// A new account of the same name is another account: the old token
	// names the old UID.
	_, err = sas.Create(testCtx(t), &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: "builder"}}, client.CreateOptions{})
	require.NoError(t, err)
	_, err = whoami(t, tokenClient(t, c, tr.Status.Token))
	assert.True(t, api.IsUnauthorized(err), "%v", err)
}

func TestTokenRequestRefusesWhatKubernetesRefuses(t *testing.T) {
	c := startCluster(t, Options{})
	_, err := postToken(t, c, "default", "nobody", `{"spec":{}}`)
	assert.True(t, api.IsNotFound(err), "%v", err)

	_, err = client.For[*api.ServiceAccount](c.Client).Namespace("default").Create(testCtx(t),
		&api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: "short"}}, client.CreateOptions{})
	require.NoError(t, err)
	_, err = postToken(t, c, "default", "short", `{"spec":{"expirationSeconds":60}}`)
	require.True(t, api.IsInvalid(err), "%v", err)
	assert.Equal(t, `TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes`, err.Error())

	_, err = postToken(t, c, "default", "short", `{"spec":{"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"missing"}}}`)
	assert.True(t, api.IsNotFound(err), "%v", err)

	// An attestation asked for is refused, not dropped: no claim here is
	// one the server can vouch for.
	_, err = postToken(t, c, "default", "short", `{"spec":{"attestations":{"example.com/claim":["x"]}}}`)
	require.True(t, api.IsInvalid(err), "%v", err)
	assert.Equal(t, `TokenRequest.authentication.k8s.io "" is invalid: spec.attestations: Forbidden: this server attests to no claims`, err.Error())

	// A token for another audience is not the apiserver's to accept.
	tr, err := postToken(t, c, "default", "short", `{"spec":{"audiences":["vault"]}}`)
	require.NoError(t, err)
	assert.Equal(t, []string{"vault"}, tr.Spec.Audiences)
	_, err = whoami(t, tokenClient(t, c, tr.Status.Token))
	assert.True(t, api.IsUnauthorized(err), "%v", err)
}

func TestClientImpersonates(t *testing.T) {
	c := startCluster(t, Options{})
	cfg := *c.Config
	cfg.Impersonate = client.ImpersonationConfig{UserName: "bob", Groups: []string{"qa"}, Extra: map[string][]string{"scopes": {"view"}}}
	cl, err := client.NewForConfig(&cfg)
	require.NoError(t, err)
	me, err := whoami(t, cl)
	require.NoError(t, err)
	assert.Equal(t, "bob", me.Status.UserInfo.Username)
	assert.Equal(t, []string{"qa", "system:authenticated"}, me.Status.UserInfo.Groups)
	assert.Equal(t, api.ExtraValue{Items: []string{"view"}}, me.Status.UserInfo.Extra["scopes"])
}

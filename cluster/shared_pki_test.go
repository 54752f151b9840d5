package cluster

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/store"
)

// docs/chaos.md: two apiservers on one etcd trust the same clients only
// when they share pki/. Copied before the second starts, it is loaded, not
// replaced: the first one's kubeconfig works against the second, and a
// ServiceAccount token the first issued authenticates at the second.
func TestAPIServersThatShareThePKIDirAcceptEachOthersClientsAndTokens(t *testing.T) {
	etcd, err := store.StartEmbedded(store.EmbeddedConfig{DataDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(etcd.Close)

	dirA, dirB := t.TempDir(), t.TempDir()
	a := startCluster(t, Options{DataDir: dirA, EtcdEndpoints: etcd.Endpoints()})
	require.NoError(t, os.CopyFS(filepath.Join(dirB, "pki"), os.DirFS(filepath.Join(dirA, "pki"))))
	b := startCluster(t, Options{DataDir: dirB, EtcdEndpoints: etcd.Endpoints()})
	require.Equal(t, a.CA.CertPEM, b.CA.CertPEM, "the second apiserver loaded the copied CA")

	cfg, err := client.ConfigFromKubeconfig(a.KubeconfigPath, "")
	require.NoError(t, err)
	cfg.Host = b.URL
	viaA, err := client.NewForConfig(cfg)
	require.NoError(t, err)
	_, err = viaA.DoRaw(testCtx(t), "GET", "/api/v1/namespaces/default", nil, nil)
	require.NoError(t, err, "the first apiserver's kubeconfig works against the second")

	_, err = client.For[*api.ServiceAccount](a.Client).Namespace("default").Create(testCtx(t),
		&api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: "roamer"}}, client.CreateOptions{})
	require.NoError(t, err)
	tr, err := postToken(t, a, "default", "roamer", `{"spec":{}}`)
	require.NoError(t, err)
	var me *api.SelfSubjectReview
	require.Eventually(t, func() bool {
		me, err = whoami(t, tokenClient(t, b, tr.Status.Token))
		return err == nil
	}, 20*time.Second, 50*time.Millisecond, "a token from the first apiserver authenticates at the second: %v", err)
	assert.Equal(t, "system:serviceaccount:default:roamer", me.Status.UserInfo.Username)
}

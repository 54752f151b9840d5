package cmd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
)

// realKubectl finds a kubectl: $KUBECTL, else a versioned kubectl.1.33 or
// 1.32 beside the one on PATH, else kubectl itself.
func realKubectl() string {
	if k := os.Getenv("KUBECTL"); k != "" {
		return k
	}
	path, err := exec.LookPath("kubectl")
	if err != nil {
		return ""
	}
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		for _, v := range []string{"kubectl.1.33", "kubectl.1.32"} {
			if p := filepath.Join(filepath.Dir(resolved), v); fileExists(p) {
				return p
			}
		}
	}
	return path
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// storedShape is what both clients must agree on: the user-owned parts of
// the stored object, without last-applied-configuration.
func storedShape(t *testing.T, obj api.Object) map[string]any {
	t.Helper()
	m, err := toMap(obj)
	require.NoError(t, err)
	md := m["metadata"].(map[string]any)
	if ann, ok := md["annotations"].(map[string]any); ok {
		delete(ann, LastAppliedConfigAnnotation)
		if len(ann) == 0 {
			delete(md, "annotations")
		}
	}
	out := map[string]any{"labels": md["labels"], "annotations": md["annotations"]}
	for _, k := range []string{"spec", "data"} {
		out[k] = m[k]
	}
	return out
}

func TestApplyStoresWhatRealKubectlStores(t *testing.T) {
	kubectl := realKubectl()
	if kubectl == "" {
		t.Skip("SKIPPING the comparison with the real kubectl: none found ($KUBECTL, kubectl.1.33/1.32, kubectl)")
	}
	base := newNamespace(t)
	nsLite, nsReal := base+"-l", base+"-r"
	clustertest.CreateNamespace(t, testCluster, nsLite)
	clustertest.CreateNamespace(t, testCluster, nsReal)
	dir := t.TempDir()
	v1 := rsManifest("web", 2) + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, annotations: {note: one}}\ndata: {a: '1', b: '2'}\n"
	v2 := strings.Replace(rsManifest("web", 4), "image: nginx:1.27", "image: nginx:1.28", 1) +
		"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\ndata: {a: '1', c: '3'}\n"
	runReal := func(ns, file string) {
		t.Helper()
		c := exec.Command(kubectl, "--kubeconfig", testCluster.KubeconfigPath, "--cache-dir", t.TempDir(),
			"-n", ns, "apply", "--validate=false", "-f", file)
		out, err := c.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	for i, manifest := range []string{v1, v2} {
		file := filepath.Join(dir, "m"+string(rune('1'+i))+".yaml")
		require.NoError(t, os.WriteFile(file, []byte(manifest), 0o600))
		mustKL(t, nsLite, "", "apply", "-f", file)
		runReal(nsReal, file)

		for _, kind := range []string{"ReplicaSet", "ConfigMap"} {
			var lite, real api.Object
			var err error
			switch kind {
			case "ReplicaSet":
				lite, err = client.For[*api.ReplicaSet](testCluster.Client).Namespace(nsLite).Get(context.Background(), "web", client.GetOptions{})
				require.NoError(t, err)
				real, err = client.For[*api.ReplicaSet](testCluster.Client).Namespace(nsReal).Get(context.Background(), "web", client.GetOptions{})
			default:
				lite, err = client.For[*api.ConfigMap](testCluster.Client).Namespace(nsLite).Get(context.Background(), "cfg", client.GetOptions{})
				require.NoError(t, err)
				real, err = client.For[*api.ConfigMap](testCluster.Client).Namespace(nsReal).Get(context.Background(), "cfg", client.GetOptions{})
			}
			require.NoError(t, err)
			assert.Equal(t, storedShape(t, real), storedShape(t, lite), "apply #%d, %s", i+1, kind)
		}
	}
}

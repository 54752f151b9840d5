package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
)

func TestThreeWayMergePatchSetsChangesAndNullsDroppedFields(t *testing.T) {
	original := map[string]any{"data": map[string]any{"a": "1", "gone": "x"}}
	modified := map[string]any{"data": map[string]any{"a": "2"}}
	current := map[string]any{"data": map[string]any{"a": "1", "gone": "x", "theirs": "y"}}
	assert.Equal(t, map[string]any{"data": map[string]any{"a": "2", "gone": nil}}, threeWayMergePatch(original, modified, current))

	// Server defaults inside list items are not a change.
	withDefault := map[string]any{"c": []any{map[string]any{"name": "app", "imagePullPolicy": "Always"}}}
	asWritten := map[string]any{"c": []any{map[string]any{"name": "app"}}}
	assert.Empty(t, threeWayMergePatch(asWritten, asWritten, withDefault))
}

func TestApplyCreatesThenConfiguresThenIsUnchanged(t *testing.T) {
	ns := newNamespace(t)
	v1 := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app, labels: {team: a}}\ndata: {mode: fast, extra: 'yes'}\n"
	assert.Equal(t, "configmap/app created\n", mustKL(t, ns, v1, "apply", "-f", "-"))
	assert.Equal(t, "configmap/app unchanged\n", mustKL(t, ns, v1, "apply", "-f", "-"))

	// Someone else adds a label: apply must keep it (it was never applied).
	mustKL(t, ns, "", "label", "cm", "app", "owner=ops")
	v2 := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app, labels: {team: a}}\ndata: {mode: slow}\n"
	assert.Equal(t, "configmap/app configured\n", mustKL(t, ns, v2, "apply", "-f", "-"))
	cm, err := client.For[*api.ConfigMap](testCluster.Client).Namespace(ns).Get(context.Background(), "app", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"mode": "slow"}, cm.Data)
	assert.Equal(t, map[string]string{"team": "a", "owner": "ops"}, cm.Labels)
	assert.JSONEq(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"app","namespace":"`+ns+`","labels":{"team":"a"}},"data":{"mode":"slow"}}`,
		cm.Annotations[LastAppliedConfigAnnotation])
}

func TestApplyDirectoryWithYAMLAndJSON(t *testing.T) {
	ns := newNamespace(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(rsManifest("web", 2)+"---\n"+podManifest("solo", "app: solo")), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.json"), []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"j"}}`), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a manifest"), 0o600))
	assert.Equal(t, "replicaset.apps/web created\npod/solo created\nconfigmap/j created\n", mustKL(t, ns, "", "apply", "-f", dir))
	assert.Equal(t, "replicaset.apps/web unchanged\npod/solo unchanged\nconfigmap/j unchanged\n", mustKL(t, ns, "", "apply", "-f", dir))
}

func TestCreateReportsEachFailureAndGoesOn(t *testing.T) {
	ns := newNamespace(t)
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: dup}\n"
	mustKL(t, ns, cm, "create", "-f", "-")
	r := kl(t, ns, cm+"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: fresh}\n", "create", "-f", "-")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "configmap/fresh created\n", r.out)
	assert.Equal(t, "Error from server (AlreadyExists): error when creating \"STDIN\": configmaps \"dup\" already exists\n", r.err)

	r = kl(t, ns, strings.Replace(rsManifest("bad", 1), "replicas: 1", "replicas: -1", 1), "apply", "-f", "-")
	assert.Equal(t, 1, r.code)
	assert.Regexp(t, `^The ReplicaSet "bad" is invalid: spec.replicas: .*-1`, r.err)
}

func TestApplyRefusesADocumentThatIsNoObject(t *testing.T) {
	ns := newNamespace(t)
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kept}\n"
	for _, doc := range []string{"- a\n- b\n", "just words\n"} {
		r := kl(t, ns, cm+"---\n"+doc, "apply", "-f", "-")
		assert.Equal(t, 1, r.code, doc)
		assert.Regexp(t, `^error: error parsing STDIN: .*cannot unmarshal (array|string) into Go value of type map\[string\]interface \{\}\n$`, r.err, doc)
	}
	assert.Contains(t, kl(t, ns, "", "get", "cm", "kept").err, `"kept" not found`, "nothing of a refused file is applied")
}

func TestLabelNeedsOverwriteToChangeAndDashRemoves(t *testing.T) {
	ns := newNamespace(t)
	mustKL(t, ns, podManifest("p", "app: web, tier: front"), "create", "-f", "-")
	r := kl(t, ns, "", "label", "pod", "p", "app=api")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "error: 'app' already has a value (web), and --overwrite is false\n", r.err)
	assert.Equal(t, "pod/p labeled\n", mustKL(t, ns, "", "label", "po/p", "app=api", "tier-", "--overwrite"))
	assert.Equal(t, "pod/p not labeled\n", mustKL(t, ns, "", "label", "pod", "p", "app=api"))
	assert.Equal(t, "pod/p annotated\n", mustKL(t, ns, "", "annotate", "pod", "p", "note=hello world"))
	p, err := client.For[*api.Pod](testCluster.Client).Namespace(ns).Get(context.Background(), "p", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"app": "api"}, p.Labels)
	assert.Equal(t, "hello world", p.Annotations["note"])
}

func TestEditPutsBackTheEditedYAML(t *testing.T) {
	ns := newNamespace(t)
	mustKL(t, ns, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: e}\ndata: {color: red}\n", "create", "-f", "-")
	t.Setenv("KUBE_EDITOR", "sed -i s/red/blue/")
	assert.Equal(t, "configmap/e edited\n", mustKL(t, ns, "", "edit", "cm", "e"))
	cm, err := client.For[*api.ConfigMap](testCluster.Client).Namespace(ns).Get(context.Background(), "e", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "blue", cm.Data["color"])

	t.Setenv("KUBE_EDITOR", "true")
	assert.Equal(t, "Edit cancelled, no changes made.\n", mustKL(t, ns, "", "edit", "configmap/e"))
}

func TestDeleteFromFileAndCascadeValidation(t *testing.T) {
	ns := newNamespace(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "rs.yaml")
	require.NoError(t, os.WriteFile(file, []byte(rsManifest("gone", 1)), 0o600))
	mustKL(t, ns, "", "apply", "-f", file)
	assert.Equal(t, 2, kl(t, ns, "", "delete", "-f", file, "--cascade=sideways").code)
	// Orphan deletion waits for the garbage collector, which an API-only
	// cluster lacks: the object keeps the orphan finalizer.
	assert.Equal(t, "replicaset.apps \"gone\" deleted\n", mustKL(t, ns, "", "delete", "-f", file, "--cascade=orphan", "--wait=false"))
	rs, err := client.For[*api.ReplicaSet](testCluster.Client).Namespace(ns).Get(context.Background(), "gone", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{api.FinalizerOrphanDependents}, rs.Finalizers)
	_, err = client.For[*api.ReplicaSet](testCluster.Client).Namespace(ns).Patch(context.Background(), "gone", client.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), client.PatchOptions{})
	require.NoError(t, err)

	mustKL(t, ns, "", "apply", "-f", file)
	assert.Equal(t, "replicaset.apps \"gone\" deleted\n", mustKL(t, ns, "", "delete", "-f", file))
	r := kl(t, ns, "", "delete", "rs", "gone")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "Error from server (NotFound): replicasets.apps \"gone\" not found\n", r.err)
}

// fakeReplicaSetController stands in for the controller, scheduler and
// kubelet of an API-only cluster: it gives the ReplicaSet ready replicas
// one at a time, so scale --wait has progress to show.
func fakeReplicaSetStatus(t *testing.T, ns, name string, ready int32) {
	t.Helper()
	rss := client.For[*api.ReplicaSet](testCluster.Client).Namespace(ns)
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		rs, err := rss.Get(context.Background(), name, client.GetOptions{})
		if err != nil {
			return err
		}
		rs.Status.Replicas, rs.Status.ReadyReplicas, rs.Status.ObservedGeneration = *rs.Spec.Replicas, ready, rs.Generation
		_, err = rss.UpdateStatus(context.Background(), rs, client.UpdateOptions{})
		return err
	}))
}

func TestScaleWaitShowsProgressUntilReady(t *testing.T) {
	ns := newNamespace(t)
	mustKL(t, ns, rsManifest("web", 1), "apply", "-f", "-")
	out := &syncBuffer{}
	done := make(chan result, 1)
	go func() {
		done <- klContext(context.Background(), t, ns, "", out, "scale", "rs", "web", "--replicas", "3", "--wait")
	}()
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "0/3 ready") }, 20*time.Second, 10*time.Millisecond)
	for ready := int32(1); ready <= 3; ready++ {
		fakeReplicaSetStatus(t, ns, "web", ready)
		want := []string{"", "1/3 ready", "2/3 ready", "3/3 ready"}[ready]
		require.Eventually(t, func() bool { return strings.Contains(out.String(), want) }, 20*time.Second, 10*time.Millisecond)
	}
	r := <-done
	assert.Equal(t, 0, r.code, r.err)
	assert.Equal(t, "replicaset.apps/web scaled\n\r0/3 ready\r1/3 ready\r2/3 ready\r3/3 ready\n", r.out)

	r = kl(t, ns, "", "scale", "rs", "web")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.err, "--replicas=COUNT flag is required")
}

func TestCreateApplyAndEditLeaveUnknownFieldsToTheServer(t *testing.T) {
	ns := newNamespace(t)
	typo := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: typo, lables: {a: b}}\ndta: {k: v}\n"
	for _, verb := range []string{"create", "apply"} {
		r := kl(t, ns, typo, verb, "-f", "-")
		assert.Equal(t, 1, r.code, verb)
		assert.Regexp(t, `^Error from server \(BadRequest\): error when (creating|applying) "STDIN": .*unknown field "dta"`, r.err, verb)
		assert.Contains(t, r.err, `unknown field "metadata.lables"`, verb)
	}
	mustKL(t, ns, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: typo}\n", "apply", "-f", "-")
	r := kl(t, ns, typo, "apply", "-f", "-") // now a patch of the live object
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.err, `unknown field "dta"`)

	t.Setenv("KUBE_EDITOR", `sed -i "s/^kind: ConfigMap/kind: ConfigMap\ndta: {k: v}/"`)
	r = kl(t, ns, "", "edit", "cm", "typo")
	assert.Equal(t, 1, r.code)
	assert.Regexp(t, `^Error from server \(BadRequest\): .*unknown field "dta"`, r.err)
}

//go:build exercise || solution

package labeler

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
)

func configMaps(ns string) *client.Resource[*api.ConfigMap] {
	return client.For[*api.ConfigMap](testCluster.Client).Namespace(ns)
}

func createConfigMap(t *testing.T, ns, name string, labels map[string]string) *api.ConfigMap {
	t.Helper()
	cm, err := configMaps(ns).Create(context.Background(), &api.ConfigMap{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: labels},
		Data:       map[string]string{"greeting": "world"},
	}, client.CreateOptions{})
	require.NoError(t, err)
	return cm
}

func getConfigMap(t *testing.T, ns, name string) *api.ConfigMap {
	t.Helper()
	cm, err := configMaps(ns).Get(context.Background(), name, client.GetOptions{})
	require.NoError(t, err)
	return cm
}

// waitLabelled waits until the apiserver's copy carries the label.
func waitLabelled(t *testing.T, ns, name string) *api.ConfigMap {
	t.Helper()
	var got *api.ConfigMap
	waitUntil(t, ns, "ConfigMap "+ns+"/"+name+" carries "+LabelKey+"="+LabelValue, func() bool {
		cm, err := configMaps(ns).Get(context.Background(), name, client.GetOptions{})
		got = cm
		return err == nil && cm.Labels[LabelKey] == LabelValue
	})
	return got
}

// setLabels replaces a ConfigMap's labels as a user would, retrying if the
// controller wrote in between.
func setLabels(t *testing.T, ns, name string, labels map[string]string) {
	t.Helper()
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		cm, err := configMaps(ns).Get(context.Background(), name, client.GetOptions{})
		if err != nil {
			return err
		}
		cm.Labels = labels
		_, err = configMaps(ns).Update(context.Background(), cm, client.UpdateOptions{})
		return err
	}))
}

func TestUnlabelledConfigMapGetsTheLabel(t *testing.T) {
	ns := newNamespace(t)
	createConfigMap(t, ns, "hello", map[string]string{"app": "web"})
	cm := waitLabelled(t, ns, "hello")
	assert.Equal(t, "web", cm.Labels["app"], "the other labels are kept")
	assert.Equal(t, "world", cm.Data["greeting"], "the data is kept")
}

// A ConfigMap created without labels has a nil Labels map: writing into it
// without making one first panics.
func TestConfigMapWithNoLabelsAtAllGetsTheLabel(t *testing.T) {
	ns := newNamespace(t)
	createConfigMap(t, ns, "bare", nil)
	cm := waitLabelled(t, ns, "bare")
	assert.Len(t, cm.Labels, 1)
}

// Self-healing: someone removes the label, the controller puts it back.
func TestRemovedLabelIsPutBack(t *testing.T) {
	ns := newNamespace(t)
	createConfigMap(t, ns, "hello", nil)
	waitLabelled(t, ns, "hello")

	setLabels(t, ns, "hello", map[string]string{"app": "web"})
	cm := waitLabelled(t, ns, "hello")
	assert.Equal(t, "web", cm.Labels["app"])
}

func TestWrongLabelValueIsCorrected(t *testing.T) {
	ns := newNamespace(t)
	createConfigMap(t, ns, "hello", map[string]string{LabelKey: "someone-else"})
	waitLabelled(t, ns, "hello")
}

// Check before acting: a ConfigMap that is already right is not written,
// and the controller's own write, coming back through the informer,
// triggers a second reconcile that settles without writing.
func TestLabelledConfigMapIsNotWritten(t *testing.T) {
	ns := newNamespace(t)
	done := createConfigMap(t, ns, "done", map[string]string{LabelKey: LabelValue})
	createConfigMap(t, ns, "todo", nil)
	waitLabelled(t, ns, "todo")
	waitUntil(t, ns, "both ConfigMaps were reconciled, todo twice (before and after its label)", func() bool {
		return h.syncsOf(ns+"/done") >= 1 && h.syncsOf(ns+"/todo") >= 2
	})
	assert.Equal(t, 1, h.writes(ns), "one write in all: labelling todo")
	assert.Equal(t, done.ResourceVersion, getConfigMap(t, ns, "done").ResourceVersion,
		"the ConfigMap that already had the label was not rewritten")
}

// The reconcile reads the informer's cache: a GET per reconcile would turn
// every resync into a request per object.
func TestReconcileReadsTheCacheNotTheAPIServer(t *testing.T) {
	ns := newNamespace(t)
	createConfigMap(t, ns, "hello", nil)
	waitLabelled(t, ns, "hello")
	waitUntil(t, ns, "hello was reconciled twice", func() bool { return h.syncsOf(ns+"/hello") >= 2 })
	assert.Zero(t, h.reads(ns), "syncConfigMap sent GET requests for ConfigMaps; use c.cmLister instead")
}

// A key can be queued for a ConfigMap that is gone by the time a worker
// gets to it. That is not an error (it would be retried forever).
func TestDeletedConfigMapIsNotAnError(t *testing.T) {
	ns := newNamespace(t)
	createConfigMap(t, ns, "short-lived", nil)
	waitLabelled(t, ns, "short-lived")
	require.NoError(t, configMaps(ns).Delete(context.Background(), "short-lived", api.DeleteOptions{}))
	waitUntil(t, ns, "the cache saw the deletion", func() bool {
		_, err := h.ctrl.cmLister.Namespace(ns).Get("short-lived")
		return api.IsNotFound(err)
	})
	writesBefore := h.writes(ns)

	require.NoError(t, h.ctrl.syncHandler(context.Background(), ns+"/short-lived"))
	require.NoError(t, h.ctrl.syncHandler(context.Background(), ns+"/never-existed"))
	assert.Equal(t, writesBefore, h.writes(ns), "nothing is written for a ConfigMap that does not exist")
}

// The harness compares every cached object before and after each
// reconcile (newNamespace reports a change as a failure); this test makes
// sure such a comparison happens on an object with labels and data to
// scribble on.
func TestCachedObjectIsNeverModified(t *testing.T) {
	ns := newNamespace(t)
	createConfigMap(t, ns, "shared", map[string]string{"app": "web"})
	waitLabelled(t, ns, "shared")
	waitUntil(t, ns, "shared was reconciled twice", func() bool { return h.syncsOf(ns+"/shared") >= 2 })
	assert.Empty(t, h.problemsIn(ns))
}

//go:build exercise || solution

package finalizer

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
)

var ctx = context.Background()

func configMaps(ns string) *client.Resource[*api.ConfigMap] {
	return client.For[*api.ConfigMap](testCluster.Client).Namespace(ns)
}

// createSource creates a ConfigMap asking for a copy in target.
func createSource(t *testing.T, ns, name, target string, finalizers ...string) *api.ConfigMap {
	t.Helper()
	cm, err := configMaps(ns).Create(ctx, &api.ConfigMap{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{CopyToLabel: target}, Finalizers: finalizers},
		Data:       map[string]string{"greeting": "hello"},
	}, client.CreateOptions{})
	require.NoError(t, err)
	return cm
}

// get returns the ConfigMap, or nil if there is none.
func get(t *testing.T, ns, name string) *api.ConfigMap {
	t.Helper()
	cm, err := configMaps(ns).Get(ctx, name, client.GetOptions{})
	if api.IsNotFound(err) {
		return nil
	}
	require.NoError(t, err)
	return cm
}

// edit changes a ConfigMap as a user would and returns what was stored.
func edit(t *testing.T, ns, name string, change func(cm *api.ConfigMap)) *api.ConfigMap {
	t.Helper()
	var out *api.ConfigMap
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		cm, err := configMaps(ns).Get(ctx, name, client.GetOptions{})
		if err != nil {
			return err
		}
		change(cm)
		out, err = configMaps(ns).Update(ctx, cm, client.UpdateOptions{})
		return err
	}))
	return out
}

// waitCopied waits until the copy exists; by then the source must hold
// the finalizer, which goes on first.
func waitCopied(t *testing.T, src, target, name string) {
	t.Helper()
	waitUntil(t, []string{src, target}, "the copy of "+src+"/"+name+" exists", func() bool { return get(t, target, name) != nil })
	s := get(t, src, name)
	require.NotNil(t, s)
	require.Contains(t, s.Finalizers, FinalizerName, "the copy exists, but the source does not carry the finalizer: "+
		"deleting the source now would leave the copy behind")
}

func TestALabelledConfigMapGetsTheFinalizerBeforeItsCopy(t *testing.T) {
	src, target := newNamespaces(t)
	rec := record(t, src, target)
	createSource(t, src, "settings", target)
	waitCopied(t, src, target, "settings")

	cp := get(t, target, "settings")
	assert.Equal(t, map[string]string{"greeting": "hello"}, cp.Data, "the copy has the source's data")
	held, ok := rec.first(func(e event) bool {
		return e.Namespace == src && e.Name == "settings" && slices.Contains(e.Finalizers, FinalizerName)
	})
	require.True(t, ok, "no event shows the finalizer on the source:\n  %s", rec)
	created, ok := rec.first(func(e event) bool { return e.Type == api.Added && e.Namespace == target })
	require.True(t, ok, "no event shows the copy's creation:\n  %s", rec)
	assert.Less(t, held.RV, created.RV,
		"the finalizer must be on the source before the copy exists: deleted in between, the source would leave its copy behind\n  %s", rec)

	edit(t, src, "settings", func(cm *api.ConfigMap) { cm.Data["greeting"] = "bonjour" })
	waitUntil(t, []string{src, target}, "the copy follows the source's data", func() bool {
		c := get(t, target, "settings")
		return c != nil && c.Data["greeting"] == "bonjour"
	})
}

// The copy lives in another namespace: no ownerReference can reach it,
// and nothing but the controller will ever delete it. So the controller
// deletes it while its finalizer still holds the source, and only then lets
// the source go.
func TestDeletingTheSourceDeletesItsCopyFirst(t *testing.T) {
	src, target := newNamespaces(t)
	createSource(t, src, "settings", target)
	waitCopied(t, src, target, "settings")
	rec := record(t, src, target)

	require.NoError(t, configMaps(src).Delete(ctx, "settings", api.DeleteOptions{}))
	waitUntil(t, []string{src, target}, "the source is gone", func() bool { return get(t, src, "settings") == nil })
	assert.Nil(t, get(t, target, "settings"), "the source is gone and its copy is still there: it will never be deleted now")

	waitUntil(t, []string{src, target}, "the watch saw the source go", func() bool {
		_, ok := rec.first(deleted(src, "settings"))
		return ok
	})
	copyGone, ok := rec.first(deleted(target, "settings"))
	require.True(t, ok, "the copy was never deleted:\n  %s", rec)
	let, ok := rec.first(released(src, "settings"))
	require.True(t, ok, "the source never lost the finalizer:\n  %s", rec)
	assert.Less(t, copyGone.RV, let.RV, "delete the copy first, then remove the finalizer\n  %s", rec)
}

// A finalizer is a promise to one controller: removing it says "I am done",
// for that controller only. Another finalizer on the same object keeps it.
func TestOtherFinalizersAreLeftInPlace(t *testing.T) {
	src, target := newNamespaces(t)
	createSource(t, src, "settings", target, "example.com/keep")
	waitCopied(t, src, target, "settings")
	assert.Equal(t, []string{"example.com/keep", FinalizerName}, get(t, src, "settings").Finalizers)

	require.NoError(t, configMaps(src).Delete(ctx, "settings", api.DeleteOptions{}))
	waitUntil(t, []string{src, target}, "the copy is deleted and the controller let go", func() bool {
		s := get(t, src, "settings")
		return get(t, target, "settings") == nil && (s == nil || !slices.Contains(s.Finalizers, FinalizerName))
	})
	s := get(t, src, "settings")
	require.NotNil(t, s, "the source vanished although example.com/keep still held it: the controller removed a finalizer not its own")
	assert.Equal(t, []string{"example.com/keep"}, s.Finalizers)
	assert.NotNil(t, s.DeletionTimestamp)

	edit(t, src, "settings", func(cm *api.ConfigMap) { cm.Finalizers = nil })
	waitUntil(t, []string{src}, "the source is gone once the last finalizer is", func() bool { return get(t, src, "settings") == nil })
}

// Foreground deletion: the apiserver gives the source the garbage
// collector's foregroundDeletion finalizer next to ours; the garbage
// collector deletes the dependents that block it, then removes its
// finalizer; the controller deletes the copy, then removes its own. The
// source goes last, after all of them. The dependent here has a finalizer
// of its own, which the test removes: until then it is being deleted but
// not gone, and the source must wait for it, whatever the controller has
// finished.
func TestForegroundDeletionWaitsForDependentsAndTheFinalizer(t *testing.T) {
	src, target := newNamespaces(t)
	owner := createSource(t, src, "settings", target)
	waitCopied(t, src, target, "settings")
	yes := true
	_, err := configMaps(src).Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{
		Name:       "settings-derived",
		Finalizers: []string{"example.com/slow"},
		OwnerReferences: []api.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: owner.Name, UID: owner.UID,
			BlockOwnerDeletion: &yes}},
	}}, client.CreateOptions{})
	require.NoError(t, err)
	rec := record(t, src, target)

	fg := api.DeletePropagationForeground
	require.NoError(t, configMaps(src).Delete(ctx, "settings", api.DeleteOptions{PropagationPolicy: &fg}))
	waitUntil(t, []string{src, target}, "the garbage collector deleted the dependent and the controller deleted the copy and let go", func() bool {
		d, s := get(t, src, "settings-derived"), get(t, src, "settings")
		return d != nil && d.DeletionTimestamp != nil && get(t, target, "settings") == nil &&
			(s == nil || !slices.Contains(s.Finalizers, FinalizerName))
	})
	s := get(t, src, "settings")
	require.NotNil(t, s, "the source is gone while its dependent is still being deleted: the controller removed foregroundDeletion, "+
		"which is the garbage collector's to remove\n  %s", rec)
	assert.Equal(t, []string{api.FinalizerDeleteDependents}, s.Finalizers, "only the garbage collector's finalizer is left")

	edit(t, src, "settings-derived", func(cm *api.ConfigMap) { cm.Finalizers = nil })
	waitUntil(t, []string{src, target}, "the source, its dependent and its copy are gone", func() bool {
		return get(t, src, "settings") == nil && get(t, src, "settings-derived") == nil && get(t, target, "settings") == nil
	})
	waitUntil(t, []string{src, target}, "the watch saw the source go", func() bool {
		_, ok := rec.first(deleted(src, "settings"))
		return ok
	})

	both, ok := rec.first(func(e event) bool {
		return e.Namespace == src && e.Name == "settings" && e.Deleting &&
			slices.Contains(e.Finalizers, FinalizerName) && slices.Contains(e.Finalizers, api.FinalizerDeleteDependents)
	})
	assert.True(t, ok, "the deleting source should carry both finalizers, %s and %s, at first:\n  %s",
		FinalizerName, api.FinalizerDeleteDependents, rec)
	ownerGone, _ := rec.first(deleted(src, "settings"))
	dependentGone, ok := rec.first(deleted(src, "settings-derived"))
	require.True(t, ok, "the dependent was never deleted:\n  %s", rec)
	copyGone, ok := rec.first(deleted(target, "settings"))
	require.True(t, ok, "the copy was never deleted:\n  %s", rec)
	assert.Less(t, dependentGone.RV, ownerGone.RV,
		"foreground deletion: the owner goes after its blocking dependents; removing foregroundDeletion is the garbage collector's job\n  %s", rec)
	assert.Less(t, copyGone.RV, ownerGone.RV, "the copy goes before the source\n  %s", rec)
	if ok {
		assert.Less(t, both.RV, ownerGone.RV)
	}
}

// A source that stops asking for a copy is cleaned up like a deleted one,
// but stays.
func TestRemovingTheLabelDeletesTheCopyAndReleasesTheSource(t *testing.T) {
	src, target := newNamespaces(t)
	createSource(t, src, "settings", target)
	waitCopied(t, src, target, "settings")

	unlabelled := edit(t, src, "settings", func(cm *api.ConfigMap) { delete(cm.Labels, CopyToLabel) })
	waitUntil(t, []string{src, target}, "a sync read the unlabelled source", func() bool {
		return h.syncedAt(src, "settings", unlabelled.ResourceVersion)
	})
	assert.Nil(t, get(t, target, "settings"), "the source no longer asks for a copy: the copy must be deleted")
	s := get(t, src, "settings")
	require.NotNil(t, s)
	assert.Nil(t, s.DeletionTimestamp, "the source itself is not deleted")
	assert.Empty(t, s.Finalizers, "nothing is left to clean up: the finalizer goes")
}

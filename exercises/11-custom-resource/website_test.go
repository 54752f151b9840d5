//go:build exercise || solution

package website

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
)

var ctx = context.Background()

func websites(ns string) *client.DynamicResource {
	return testCluster.Client.Dynamic(websiteInfo).Namespace(ns)
}

func configMaps(ns string) *client.Resource[*api.ConfigMap] {
	return client.For[*api.ConfigMap](testCluster.Client).Namespace(ns)
}

func createWebsite(t *testing.T, ns, name, html string) *api.Unstructured {
	t.Helper()
	site := &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: Group + "/" + Version, Kind: Kind},
		Content: map[string]any{"spec": map[string]any{"html": html}}}
	site.Name = name
	out, err := websites(ns).Create(ctx, site, client.CreateOptions{})
	require.NoError(t, err)
	return out.(*api.Unstructured)
}

func getWebsite(t *testing.T, ns, name string) *api.Unstructured {
	t.Helper()
	out, err := websites(ns).Get(ctx, name, client.GetOptions{})
	require.NoError(t, err)
	return out.(*api.Unstructured)
}

// editWebsite changes a Website as a user would and returns what was stored.
func editWebsite(t *testing.T, ns, name string, change func(site *api.Unstructured)) *api.Unstructured {
	t.Helper()
	var out *api.Unstructured
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		site := getWebsite(t, ns, name)
		change(site)
		stored, err := websites(ns).Update(ctx, site, client.UpdateOptions{})
		if err == nil {
			out = stored.(*api.Unstructured)
		}
		return err
	}))
	return out
}

// getConfigMap returns the ConfigMap, or nil if there is none.
func getConfigMap(t *testing.T, ns, name string) *api.ConfigMap {
	t.Helper()
	cm, err := configMaps(ns).Get(ctx, name, client.GetOptions{})
	if api.IsNotFound(err) {
		return nil
	}
	require.NoError(t, err)
	return cm
}

func status(t *testing.T, site *api.Unstructured) WebsiteStatus {
	t.Helper()
	s, err := statusOf(site)
	require.NoError(t, err)
	return s
}

// settle makes sure the controller has seen the world as it is now,
// including its own last write: it changes a label of the Website (no new
// generation, nothing to do) and waits for a sync that started from that
// version or a later one.
func settle(t *testing.T, ns, name string) {
	t.Helper()
	poked := editWebsite(t, ns, name, func(site *api.Unstructured) {
		if site.Labels == nil {
			site.Labels = map[string]string{}
		}
		n, _ := strconv.Atoi(site.Labels["poke"])
		site.Labels["poke"] = strconv.Itoa(n + 1)
	})
	rv, _ := strconv.ParseInt(poked.ResourceVersion, 10, 64)
	waitUntil(t, ns, "a sync read the Website at resourceVersion "+poked.ResourceVersion, func() bool {
		return h.syncedAt(ns+"/"+name, rv)
	})
}

// waitStatus waits until the stored status satisfies cond.
func waitStatus(t *testing.T, ns, name, what string, cond func(s WebsiteStatus, site *api.Unstructured) bool) *api.Unstructured {
	t.Helper()
	var site *api.Unstructured
	waitUntil(t, ns, what, func() bool {
		site = getWebsite(t, ns, name)
		return cond(status(t, site), site)
	})
	return site
}

// published is the status of a Website whose ConfigMap holds generation gen.
func published(gen int64) func(WebsiteStatus, *api.Unstructured) bool {
	return func(s WebsiteStatus, _ *api.Unstructured) bool {
		c := findCondition(s.Conditions, ConditionReady)
		return s.ObservedGeneration == gen && c != nil && c.Status == "True" && c.ObservedGeneration == gen
	}
}

// requireControlledBy checks the one owner reference a controller's child
// carries.
func requireControlledBy(t *testing.T, cm *api.ConfigMap, site *api.Unstructured) {
	t.Helper()
	require.Len(t, cm.OwnerReferences, 1, "the ConfigMap must carry exactly one ownerReference, to its Website: "+
		"without it the garbage collector never deletes it, and nobody can tell whose it is")
	ref := cm.OwnerReferences[0]
	assert.Equal(t, Group+"/"+Version, ref.APIVersion, "ownerReference.apiVersion")
	assert.Equal(t, Kind, ref.Kind, "ownerReference.kind")
	assert.Equal(t, site.Name, ref.Name, "ownerReference.name")
	assert.Equal(t, site.UID, ref.UID, "ownerReference.uid: the garbage collector matches owners by UID")
	if assert.NotNil(t, ref.Controller, "ownerReference.controller") {
		assert.True(t, *ref.Controller, "ownerReference.controller must be true: the Website is the ConfigMap's controller")
	}
	if assert.NotNil(t, ref.BlockOwnerDeletion, "ownerReference.blockOwnerDeletion") {
		assert.True(t, *ref.BlockOwnerDeletion, "blockOwnerDeletion: true, so a foreground deletion of the Website waits for it")
	}
}

func TestAWebsiteIsPublishedAsAConfigMapItControls(t *testing.T) {
	ns := newNamespace(t)
	site := createWebsite(t, ns, "home", "<h1>hello</h1>")
	var cm *api.ConfigMap
	waitUntil(t, ns, "the ConfigMap home-html exists", func() bool { cm = getConfigMap(t, ns, "home-html"); return cm != nil })
	assert.Equal(t, map[string]string{HTMLKey: "<h1>hello</h1>"}, cm.Data)
	requireControlledBy(t, cm, site)

	editWebsite(t, ns, "home", func(s *api.Unstructured) { api.SetNestedField(s.Content, "<h1>bonjour</h1>", "spec", "html") })
	waitUntil(t, ns, "the ConfigMap follows the Website's spec.html", func() bool {
		cm = getConfigMap(t, ns, "home-html")
		return cm != nil && cm.Data[HTMLKey] == "<h1>bonjour</h1>"
	})
}

func TestStatusSaysWhichGenerationItDescribes(t *testing.T) {
	ns := newNamespace(t)
	createWebsite(t, ns, "home", "<h1>hello</h1>")
	waitUntil(t, ns, "the ConfigMap exists", func() bool { return getConfigMap(t, ns, "home-html") != nil })
	settle(t, ns, "home")
	s := status(t, getWebsite(t, ns, "home"))
	require.Equal(t, int64(1), s.ObservedGeneration, "status.observedGeneration must be the generation the controller "+
		"acted on; the stored status is %+v (status sent with an update of the Website itself is dropped by the server: "+
		"write it through the status subresource)", s)
	assert.Equal(t, "home-html", s.ConfigMapName)
	ready := findCondition(s.Conditions, ConditionReady)
	require.NotNil(t, ready, "no Ready condition in %+v", s)
	assert.Equal(t, "True", ready.Status)
	assert.Equal(t, ReasonPublished, ready.Reason)
	assert.Equal(t, int64(1), ready.ObservedGeneration, "the condition's observedGeneration")
	since := ready.LastTransitionTime

	edited := editWebsite(t, ns, "home", func(s *api.Unstructured) { api.SetNestedField(s.Content, "<p>v2</p>", "spec", "html") })
	require.Equal(t, int64(2), edited.Generation, "a change of spec is a new generation")
	site := waitStatus(t, ns, "home", "the status reports generation 2", published(2))
	settle(t, ns, "home")
	site = getWebsite(t, ns, "home")
	ready = findCondition(status(t, site).Conditions, ConditionReady)
	require.NotNil(t, ready)
	assert.True(t, since.Equal(ready.LastTransitionTime.Time), "Ready stayed True, so its lastTransitionTime must stay %v, not move to %v: "+
		"a condition's time moves only when its status changes (setCondition does that)", since, ready.LastTransitionTime)
}

// With the status subresource, PUT .../websites/NAME keeps the stored
// status whatever the body says, and PUT .../websites/NAME/status changes
// only the status: the controller writes the status there, and never the
// Website itself, which belongs to the user.
func TestStatusGoesThroughTheStatusSubresource(t *testing.T) {
	ns := newNamespace(t)
	createWebsite(t, ns, "home", "<h1>hello</h1>")
	waitUntil(t, ns, "the ConfigMap exists", func() bool { return getConfigMap(t, ns, "home-html") != nil })
	settle(t, ns, "home")
	_, main := h.writes(ns, writeWebsite)
	require.Zero(t, main, "the controller wrote the Website itself %d times (PUT or PATCH .../websites/home): the spec is "+
		"the user's, and status sent there is dropped, since the CRD has the status subresource", main)
	statusWrites, _ := h.writes(ns, writeStatus)
	assert.Positive(t, statusWrites, "no write through .../websites/home/status was accepted")
	waitStatus(t, ns, "home", "the status reports generation 1", published(1))
}

func TestTheSteadyStateWritesNothing(t *testing.T) {
	ns := newNamespace(t)
	createWebsite(t, ns, "home", "<h1>hello</h1>")
	waitStatus(t, ns, "home", "the status reports generation 1", published(1))
	settle(t, ns, "home")
	before := h.allAttempts(ns)

	settle(t, ns, "home") // a new label: an event, a sync, nothing to do
	assert.Equal(t, before, h.allAttempts(ns), "a sync of an unchanged Website made write requests: the steady state "+
		"must write nothing (compare the computed status with the current one, and the ConfigMap's data with the wanted)")

	// The ConfigMap changes in a way that does not matter: its event wakes
	// the Website (handleConfigMap), whose sync has nothing to do.
	cm := getConfigMap(t, ns, "home-html")
	require.NotNil(t, cm)
	cm.Annotations = map[string]string{"example.com/seen": "yes"}
	_, err := configMaps(ns).Update(ctx, cm, client.UpdateOptions{})
	require.NoError(t, err)
	settle(t, ns, "home")
	assert.Equal(t, before, h.allAttempts(ns), "a sync after an irrelevant change of the ConfigMap made write requests")
}

// The ConfigMap's ownerReference is what the garbage collector follows:
// when the Website goes, so does its ConfigMap, without the controller
// doing anything.
func TestDeletingTheWebsiteDeletesItsConfigMap(t *testing.T) {
	ns := newNamespace(t)
	site := createWebsite(t, ns, "home", "<h1>hello</h1>")
	var cm *api.ConfigMap
	waitUntil(t, ns, "the ConfigMap exists", func() bool { cm = getConfigMap(t, ns, "home-html"); return cm != nil })
	requireControlledBy(t, cm, site)

	require.NoError(t, websites(ns).Delete(ctx, "home", api.DeleteOptions{}))
	waitUntil(t, ns, "the garbage collector deleted the ConfigMap of the deleted Website", func() bool {
		return getConfigMap(t, ns, "home-html") == nil
	})
}

// A ConfigMap of the wanted name that the Website does not control is
// someone else's: the controller must neither overwrite nor adopt it, and
// says so in the Ready condition (sample-controller's ErrResourceExists).
func TestAConfigMapItDoesNotControlIsLeftAlone(t *testing.T) {
	ns := newNamespace(t)
	_, err := configMaps(ns).Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "home-html"},
		Data: map[string]string{HTMLKey: "somebody else's"}}, client.CreateOptions{})
	require.NoError(t, err)
	createWebsite(t, ns, "home", "<h1>hello</h1>")
	site := waitStatus(t, ns, "home", "the status reports the ConfigMap that is in the way", func(s WebsiteStatus, _ *api.Unstructured) bool {
		return s.ObservedGeneration == 1 && findCondition(s.Conditions, ConditionReady) != nil
	})
	ready := findCondition(status(t, site).Conditions, ConditionReady)
	assert.Equal(t, "False", ready.Status, "the Website is not published: its ConfigMap's name is taken")
	assert.Equal(t, ReasonConfigMapExists, ready.Reason)
	cm := getConfigMap(t, ns, "home-html")
	require.NotNil(t, cm, "the controller deleted a ConfigMap it did not own")
	assert.Equal(t, "somebody else's", cm.Data[HTMLKey], "the controller overwrote a ConfigMap it does not control")
	assert.Empty(t, cm.OwnerReferences, "the controller adopted a ConfigMap it did not create")
}

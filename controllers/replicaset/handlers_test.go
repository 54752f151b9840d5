package replicaset

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client/record"
	"kubeloop/deltafifo"
	"kubeloop/informers"
	"kubeloop/reflector"
)

// newHandlerController is a controller whose informers never run: the test
// fills the ReplicaSet cache by hand and calls the handlers directly.
func newHandlerController(t *testing.T, rss ...*api.ReplicaSet) *Controller {
	t.Helper()
	factory := informers.NewSharedInformerFactory(func(*api.ResourceInfo) reflector.ListerWatcher { return nil }, 0)
	rsInf := informers.For[*api.ReplicaSet](factory)
	rsc := NewController(nil, rsInf, informers.For[*api.Pod](factory), &record.FakeRecorder{}, Options{})
	for _, rs := range rss {
		require.NoError(t, rsInf.GetIndexer().Add(rs))
	}
	t.Cleanup(rsc.queue.ShutDown)
	return rsc
}

func cachedRS(name, app, uid string) *api.ReplicaSet {
	rs := newReplicaSet("ns", name, app, 1)
	rs.UID = uid
	return rs
}

func podOwnedBy(name string, rs *api.ReplicaSet, labels map[string]string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns", Labels: labels, ResourceVersion: "1"}}
	if rs != nil {
		p.OwnerReferences = []api.OwnerReference{newControllerRef(rs)}
	}
	return p
}

// drain returns the keys queued right now.
func drain(rsc *Controller) []string {
	var keys []string
	for rsc.queue.Len() > 0 {
		k, _ := rsc.queue.Get()
		rsc.queue.Done(k)
		keys = append(keys, k)
	}
	return keys
}

func TestAddPodObservesCreationForItsController(t *testing.T) {
	web := cachedRS("web", "web", "uid-web")
	rsc := newHandlerController(t, web)
	rsc.expectations.ExpectCreations("ns/web", 2)

	rsc.addPod(podOwnedBy("web-1", web, map[string]string{"app": "web"}))
	add, _, _ := rsc.expectations.GetExpectations("ns/web")
	assert.Equal(t, int64(1), add)
	assert.Equal(t, []string{"ns/web"}, drain(rsc))

	stale := cachedRS("web", "web", "uid-of-a-deleted-namesake")
	rsc.addPod(podOwnedBy("web-2", stale, map[string]string{"app": "web"}))
	add, _, _ = rsc.expectations.GetExpectations("ns/web")
	assert.Equal(t, int64(1), add, "a pod of another ReplicaSet with the same name is not ours")
	assert.Empty(t, drain(rsc))
}

func TestAddOrphanPodWakesEveryMatchingReplicaSet(t *testing.T) {
	rsc := newHandlerController(t, cachedRS("a", "web", "ua"), cachedRS("b", "web", "ub"), cachedRS("c", "db", "uc"))
	rsc.expectations.ExpectCreations("ns/a", 1)
	rsc.addPod(podOwnedBy("stray", nil, map[string]string{"app": "web"}))
	assert.ElementsMatch(t, []string{"ns/a", "ns/b"}, drain(rsc))
	add, _, _ := rsc.expectations.GetExpectations("ns/a")
	assert.Equal(t, int64(1), add, "an orphan is nobody's creation")
}

func TestDeletePodTombstoneObservesDeletion(t *testing.T) {
	web := cachedRS("web", "web", "uid-web")
	rsc := newHandlerController(t, web)
	pod := podOwnedBy("web-1", web, map[string]string{"app": "web"})
	rsc.expectations.ExpectDeletions("ns/web", []string{"ns/web-1"})

	rsc.deletePod(deltafifo.DeletedFinalStateUnknown{Key: "ns/web-1", Obj: pod})
	assert.True(t, rsc.expectations.SatisfiedExpectations("ns/web"))
	assert.Equal(t, []string{"ns/web"}, drain(rsc))

	rsc.deletePod(deltafifo.DeletedFinalStateUnknown{Key: "ns/x", Obj: "not a pod"})
	assert.Empty(t, drain(rsc), "a tombstone without a pod is ignored")
}

func TestUpdatePodWakesOldAndNewReplicaSets(t *testing.T) {
	web, db := cachedRS("web", "web", "uw"), cachedRS("db", "db", "ud")
	rsc := newHandlerController(t, web, db)

	// An orphan relabeled from app=web to app=db: the new match may adopt it.
	oldPod := podOwnedBy("p", nil, map[string]string{"app": "web"})
	newPod := podOwnedBy("p", nil, map[string]string{"app": "db"})
	newPod.ResourceVersion = "2"
	rsc.updatePod(oldPod, newPod)
	assert.Equal(t, []string{"ns/db"}, drain(rsc))

	// The controller reference moved from web to db: both must look again.
	oldPod = podOwnedBy("q", web, map[string]string{"app": "web"})
	newPod = podOwnedBy("q", db, map[string]string{"app": "web"})
	newPod.ResourceVersion = "2"
	rsc.updatePod(oldPod, newPod)
	assert.ElementsMatch(t, []string{"ns/web", "ns/db"}, drain(rsc))

	// A resync (same resourceVersion) wakes nobody.
	rsc.updatePod(oldPod, oldPod)
	assert.Empty(t, drain(rsc))
}

func TestUpdatePodWithDeletionTimestampIsADeletion(t *testing.T) {
	web := cachedRS("web", "web", "uw")
	rsc := newHandlerController(t, web)
	rsc.expectations.ExpectDeletions("ns/web", []string{"ns/p"})
	oldPod := podOwnedBy("p", web, map[string]string{"app": "web"})
	newPod := podOwnedBy("p", web, map[string]string{"app": "web"})
	newPod.ResourceVersion = "2"
	now := api.Now()
	newPod.DeletionTimestamp = &now
	rsc.updatePod(oldPod, newPod)
	assert.True(t, rsc.expectations.SatisfiedExpectations("ns/web"))
	assert.Equal(t, []string{"ns/web"}, drain(rsc))
}

func TestDeleteReplicaSetForgetsItsExpectations(t *testing.T) {
	web := cachedRS("web", "web", "uw")
	rsc := newHandlerController(t, web)
	rsc.expectations.ExpectCreations("ns/web", 3)
	rsc.deleteRS(deltafifo.DeletedFinalStateUnknown{Key: "ns/web", Obj: web})
	_, _, exists := rsc.expectations.GetExpectations("ns/web")
	assert.False(t, exists)
	assert.Equal(t, []string{"ns/web"}, drain(rsc))
}

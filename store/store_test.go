package store_test

import (
	"bytes"
	"errors"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
)

func TestCreateSetsRevisionAndStoresNoResourceVersion(t *testing.T) {
	f := newFixture(t)
	out := f.create("a", nil)
	assert.Equal(t, "v1", out.APIVersion)
	assert.Equal(t, "ConfigMap", out.Kind)
	rv := rvOf(t, out)

	raw, err := f.client().Get(f.ctx, f.key("a"))
	require.NoError(t, err)
	require.Len(t, raw.Kvs, 1)
	assert.Equal(t, rv, raw.Kvs[0].ModRevision)
	value := raw.Kvs[0].Value
	assert.True(t, bytes.HasPrefix(value, []byte(api.ProtobufPrefix)), "a ConfigMap is stored as protobuf: %q", value)
	var stored api.ConfigMap
	tm, err := api.DecodeProtobuf(value, &stored)
	require.NoError(t, err)
	assert.Equal(t, api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, tm, "the envelope carries apiVersion and kind")
	assert.Empty(t, stored.ResourceVersion, "the revision is the resourceVersion, never the value")
	assert.Equal(t, "uid-a", stored.UID)

	got, err := f.store.Get(f.ctx, f.key("a"), store.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, out, got)
}

func TestCreateTwiceIsAlreadyExists(t *testing.T) {
	f := newFixture(t)
	f.create("a", nil)
	_, err := f.store.Create(f.ctx, f.key("a"), f.configMap("a", nil, nil))
	require.True(t, api.IsAlreadyExists(err), "got %v", err)
	assert.Equal(t, `configmaps "a" already exists`, err.Error())
}

func TestCreateWithResourceVersionIsRefused(t *testing.T) {
	f := newFixture(t)
	cm := f.configMap("a", nil, nil)
	cm.ResourceVersion = "5"
	_, err := f.store.Create(f.ctx, f.key("a"), cm)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "resourceVersion should not be set on objects to be created")
}

func TestGetMissingIsNotFound(t *testing.T) {
	f := newFixture(t)
	_, err := f.store.Get(f.ctx, f.key("nope"), store.GetOptions{})
	require.True(t, api.IsNotFound(err), "got %v", err)
	assert.Equal(t, `configmaps "nope" not found`, err.Error())
}

func TestGetAheadOfEtcdIsTooLargeResourceVersion(t *testing.T) {
	f := newFixture(t)
	f.create("a", nil)
	future := strconv.FormatInt(f.currentRV()+1000, 10)
	_, err := f.store.Get(f.ctx, f.key("a"), store.GetOptions{ResourceVersion: future})
	require.True(t, api.IsTooLargeResourceVersion(err), "got %v", err)
}

// increment adds one to data["n"].
func increment(obj api.Object) (api.Object, error) {
	cm := obj.(*api.ConfigMap)
	n, err := strconv.Atoi(cm.Data["n"])
	if err != nil {
		return nil, err
	}
	cm.Data["n"] = strconv.Itoa(n + 1)
	return cm, nil
}

func TestConcurrentGuaranteedUpdatesLoseNoIncrement(t *testing.T) {
	// 64 writers on one key make nearly every transaction lose, so each
	// increment costs about 64 etcd transactions: 64x50 takes a minute on a
	// small machine, and ten times that under -race. The default keeps the
	// 64-way contention and scales the increments; -counter.full runs the
	// full 64x50.
	workers, perWorker := 64, 10
	switch {
	case *fullCounter:
		perWorker = 50
	case raceEnabled:
		perWorker = 2
	}
	f := newFixture(t)
	_, err := f.store.Create(f.ctx, f.key("counter"), f.configMap("counter", nil, map[string]string{"n": "0"}))
	require.NoError(t, err)

	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for range workers {
		wg.Go(func() {
			for range perWorker {
				if _, err := f.store.GuaranteedUpdate(f.ctx, f.key("counter"), nil, increment, nil); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}

	got, err := f.store.Get(f.ctx, f.key("counter"), store.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, strconv.Itoa(workers*perWorker), got.(*api.ConfigMap).Data["n"])
	t.Logf("%d updates, %d compare-and-swap retries", workers*perWorker, f.store.Stats().GuaranteedUpdateRetries)
}

func TestGuaranteedUpdateWithStaleResourceVersionIsConflict(t *testing.T) {
	f := newFixture(t)
	first := f.create("a", nil)
	_, err := f.store.GuaranteedUpdate(f.ctx, f.key("a"), nil, increment0, nil)
	require.NoError(t, err)

	stale := first.ResourceVersion
	_, err = f.store.GuaranteedUpdate(f.ctx, f.key("a"), &store.Preconditions{ResourceVersion: &stale}, increment0, nil)
	require.True(t, api.IsConflict(err), "got %v", err)
	assert.Contains(t, err.Error(), "Precondition failed: ResourceVersion in precondition: "+stale)
}

// increment0 sets data["n"] one higher, starting from nothing.
func increment0(obj api.Object) (api.Object, error) {
	cm := obj.(*api.ConfigMap)
	n, _ := strconv.Atoi(cm.Data["n"])
	cm.Data["n"] = strconv.Itoa(n + 1)
	return cm, nil
}

func TestGuaranteedUpdateWithUnchangedObjectWritesNothing(t *testing.T) {
	f := newFixture(t)
	created := f.create("a", map[string]string{"x": "y"})
	before := f.currentRV()

	out, err := f.store.GuaranteedUpdate(f.ctx, f.key("a"), nil,
		func(obj api.Object) (api.Object, error) { return obj, nil }, nil)
	require.NoError(t, err)
	assert.Equal(t, created.ResourceVersion, out.GetObjectMeta().ResourceVersion)
	assert.Equal(t, before, f.currentRV(), "a no-op update must not create a revision")
}

func TestGuaranteedUpdateOfMissingObjectIsNotFound(t *testing.T) {
	f := newFixture(t)
	called := false
	_, err := f.store.GuaranteedUpdate(f.ctx, f.key("nope"), nil,
		func(obj api.Object) (api.Object, error) { called = true; return obj, nil }, nil)
	require.True(t, api.IsNotFound(err), "got %v", err)
	assert.False(t, called, "tryUpdate must not be called without an object")
}

func TestGuaranteedUpdateReturnsTryUpdateError(t *testing.T) {
	f := newFixture(t)
	f.create("a", nil)
	refuse := errors.New("refused")
	_, err := f.store.GuaranteedUpdate(f.ctx, f.key("a"), nil,
		func(api.Object) (api.Object, error) { return nil, refuse }, nil)
	require.ErrorIs(t, err, refuse)
}

func TestGuaranteedUpdateWithStaleCachedObjectRetriesOnCurrent(t *testing.T) {
	f := newFixture(t)
	created, err := f.store.Create(f.ctx, f.key("a"), f.configMap("a", nil, map[string]string{"n": "0"}))
	require.NoError(t, err)
	_, err = f.store.GuaranteedUpdate(f.ctx, f.key("a"), nil, increment, nil)
	require.NoError(t, err)

	// created is now stale (n=0); the update must land on n=1.
	out, err := f.store.GuaranteedUpdate(f.ctx, f.key("a"), nil, increment, created)
	require.NoError(t, err)
	assert.Equal(t, "2", out.(*api.ConfigMap).Data["n"])
	assert.Equal(t, "0", created.(*api.ConfigMap).Data["n"], "the cached object must not be changed")
}

func TestDeleteWithWrongUIDIsConflict(t *testing.T) {
	f := newFixture(t)
	f.create("a", nil)
	wrong := "someone-else"
	_, err := f.store.Delete(f.ctx, f.key("a"), &store.Preconditions{UID: &wrong}, nil, nil)
	require.True(t, api.IsConflict(err), "got %v", err)
	assert.Contains(t, err.Error(), "Precondition failed: UID in precondition: someone-else, UID in object meta: uid-a")

	_, err = f.store.Get(f.ctx, f.key("a"), store.GetOptions{})
	require.NoError(t, err, "the object must survive a failed precondition")
}

func TestDeleteReturnsLastStateAtDeleteRevision(t *testing.T) {
	f := newFixture(t)
	created := f.create("a", nil)
	uid := created.UID
	out, err := f.store.Delete(f.ctx, f.key("a"), &store.Preconditions{UID: &uid}, nil, nil)
	require.NoError(t, err)
	assert.Equal(t, f.currentRV(), rvOf(t, out))
	assert.Greater(t, rvOf(t, out), rvOf(t, created))
	assert.Equal(t, created.Data, out.(*api.ConfigMap).Data)

	_, err = f.store.Get(f.ctx, f.key("a"), store.GetOptions{})
	require.True(t, api.IsNotFound(err), "got %v", err)
	_, err = f.store.Delete(f.ctx, f.key("a"), nil, nil, nil)
	require.True(t, api.IsNotFound(err), "got %v", err)
}

func TestDeleteRefusedByValidateKeepsObject(t *testing.T) {
	f := newFixture(t)
	f.create("a", nil)
	refuse := api.NewBadRequest("not now")
	_, err := f.store.Delete(f.ctx, f.key("a"), nil, func(api.Object) error { return refuse }, nil)
	require.ErrorIs(t, err, refuse)
	_, err = f.store.Get(f.ctx, f.key("a"), store.GetOptions{})
	require.NoError(t, err)
}

func TestDeleteWithStaleCachedObjectDeletesCurrent(t *testing.T) {
	f := newFixture(t)
	created := f.create("a", nil)
	_, err := f.store.GuaranteedUpdate(f.ctx, f.key("a"), nil, increment0, nil)
	require.NoError(t, err)

	out, err := f.store.Delete(f.ctx, f.key("a"), nil, nil, created)
	require.NoError(t, err)
	assert.Equal(t, "1", out.(*api.ConfigMap).Data["n"], "the returned state is the one deleted")
	assert.Equal(t, uint64(1), f.store.Stats().DeleteRetries)
}

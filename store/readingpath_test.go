package store_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// Reading path, step 2 (docs/reading-path.md): the store commits a write
// with a compare-and-swap on etcd's ModRevision. Here a second writer gets
// in between GuaranteedUpdate's read and its write: the transaction fails,
// GuaranteedUpdate re-reads and calls tryUpdate again on the newer object,
// so neither write is lost; the resourceVersion it returns is etcd's
// revision of the write. Break in Store.GuaranteedUpdate and watch `orig`
// change between the two passes of its loop.
func TestReadingPathStep2GuaranteedUpdateRetriesOnConflict(t *testing.T) {
	f := newFixture(t)
	created := f.create("web", nil)

	calls := 0
	out, err := f.store.GuaranteedUpdate(f.ctx, f.key("web"), nil, func(obj api.Object) (api.Object, error) {
		calls++
		if calls == 1 {
			// Someone else writes first: our read is now stale.
			_, err := f.store.GuaranteedUpdate(f.ctx, f.key("web"), nil, func(o api.Object) (api.Object, error) {
				o.(*api.ConfigMap).Data["other"] = "writer"
				return o, nil
			}, nil)
			require.NoError(t, err)
		}
		cm := obj.(*api.ConfigMap)
		cm.Data["replicas"] = strconv.Itoa(5)
		return cm, nil
	}, nil)
	require.NoError(t, err)

	assert.Equal(t, 2, calls, "the compare-and-swap failed once, so tryUpdate ran on the newer object")
	cm := out.(*api.ConfigMap)
	assert.Equal(t, map[string]string{"k": "v", "other": "writer", "replicas": "5"}, cm.Data, "no write is lost")
	assert.Greater(t, rvOf(t, cm), rvOf(t, created))
	assert.Equal(t, f.currentRV(), rvOf(t, cm), "the resourceVersion is the etcd revision of the write")
}

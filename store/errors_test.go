package store_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
)

// etcd's default request limit is 1.5 MiB; the apiserver's body limit is
// 3 MiB; the gRPC client's send limit is 2 MiB. These sizes fall on either
// side of the last two.
const (
	overEtcdLimit   = 1600 << 10 // etcd refuses it
	overClientLimit = 2500 << 10 // a socket client refuses to send it
)

func bigConfigMap(f *fixture, name string, size int) *api.ConfigMap {
	return f.configMap(name, nil, map[string]string{"blob": strings.Repeat("x", size)})
}

func assertTooLarge(t *testing.T, err error) {
	t.Helper()
	require.Error(t, err)
	require.True(t, api.IsRequestEntityTooLarge(err), "got %v", err)
	st := err.(*api.StatusError).Status()
	assert.Equal(t, int32(http.StatusRequestEntityTooLarge), st.Code)
	assert.Equal(t, api.StatusReasonRequestEntityTooLarge, st.Reason)
	assert.True(t, strings.HasPrefix(st.Message, "Request entity too large: "), st.Message)
}

func TestCreateOverEtcdsRequestLimitIsRequestEntityTooLarge(t *testing.T) {
	f := newFixture(t)
	_, err := f.store.Create(f.ctx, f.key("big"), bigConfigMap(f, "big", overEtcdLimit))
	assertTooLarge(t, err)
	assert.Equal(t, "Request entity too large: etcdserver: request is too large", err.Error())

	_, err = f.store.Get(f.ctx, f.key("big"), store.GetOptions{})
	assert.True(t, api.IsNotFound(err), "nothing was stored: %v", err)
}

func TestUpdateThatGrowsPastEtcdsLimitIsRequestEntityTooLargeAndKeepsTheObject(t *testing.T) {
	f := newFixture(t)
	before := f.create("a", nil)
	_, err := f.store.GuaranteedUpdate(f.ctx, f.key("a"), nil,
		func(obj api.Object) (api.Object, error) {
			cm := obj.(*api.ConfigMap)
			cm.Data = map[string]string{"blob": strings.Repeat("x", overEtcdLimit)}
			return cm, nil
		}, nil)
	assertTooLarge(t, err)

	after, err := f.store.Get(f.ctx, f.key("a"), store.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, before, after)
}

// Over a socket (an external etcd, or a second process) the same object
// reaches etcd's check through real gRPC, and a bigger one is refused by
// the client's own send limit before it leaves: both are 413.
func TestWritesOverASocketClientAreRequestEntityTooLargeOnEitherLimit(t *testing.T) {
	f := newFixture(t)
	client, err := store.NewClient(etcd.Endpoints())
	require.NoError(t, err)
	t.Cleanup(func() { _ = client.Close() })
	s := store.New(client, f.info)

	_, err = s.Create(f.ctx, f.key("server-refuses"), bigConfigMap(f, "server-refuses", overEtcdLimit))
	assertTooLarge(t, err)
	assert.Contains(t, err.Error(), "etcdserver: request is too large")

	_, err = s.Create(f.ctx, f.key("client-refuses"), bigConfigMap(f, "client-refuses", overClientLimit))
	assertTooLarge(t, err)
	assert.Contains(t, err.Error(), "trying to send message larger than max")

	// Under both limits the write goes through.
	_, err = s.Create(f.ctx, f.key("fits"), bigConfigMap(f, "fits", 1<<20))
	require.NoError(t, err)
}

package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/store"
)

func TestStartEtcdServesReadsAndWrites(t *testing.T) {
	e := StartEtcd(t)
	require.NotEmpty(t, e.Endpoints())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := e.Client().Put(ctx, "/registry/test/k", "v")
	require.NoError(t, err)
	resp, err := e.Client().Get(ctx, "/registry/test/k")
	require.NoError(t, err)
	require.Len(t, resp.Kvs, 1)
	require.Equal(t, "v", string(resp.Kvs[0].Value))
}

func TestTwoEtcdsRunSideBySide(t *testing.T) {
	a, b := StartEtcd(t), StartEtcd(t)
	require.NotEqual(t, a.Endpoints(), b.Endpoints())
}

// The embedded server is reached two ways: its own Client calls the server
// in-process, other processes dial Endpoints over gRPC. Both see one store,
// including a watch opened on one side for a write from the other.
func TestInProcessAndSocketClientsShareOneStore(t *testing.T) {
	e := StartEtcd(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	remote, err := store.NewClient(e.Endpoints())
	require.NoError(t, err)
	defer remote.Close()

	w := e.Client().Watch(ctx, "/registry/shared/", clientv3.WithPrefix())
	_, err = remote.Put(ctx, "/registry/shared/a", "from the socket")
	require.NoError(t, err)
	select {
	case resp := <-w:
		require.NoError(t, resp.Err())
		require.Len(t, resp.Events, 1)
		require.Equal(t, "from the socket", string(resp.Events[0].Kv.Value))
	case <-ctx.Done():
		t.Fatal("the in-process watch never saw the socket client's write")
	}

	_, err = e.Client().Put(ctx, "/registry/shared/b", "in process")
	require.NoError(t, err)
	got, err := remote.Get(ctx, "/registry/shared/b")
	require.NoError(t, err)
	require.Len(t, got.Kvs, 1)
	require.Equal(t, "in process", string(got.Kvs[0].Value))
	require.NoError(t, e.Client().RequestProgress(ctx), "progress requests (consistent reads) work in-process")
}

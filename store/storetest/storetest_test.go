package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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

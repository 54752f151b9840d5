package apiserver_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/apiserver"
	"kubeloop/apiserver/apiservertest"
)

// Several apiservers share one etcd in a test binary (the benchmarks start
// and close their own beside the package's). Closing one cancels all its
// watches at once; on a shared in-process etcd client that could deadlock
// the one watch stream every server's watch caches used, leaving the
// package's server "ready" but deaf: its namespace cache never saw a new
// namespace again, and every create in one paid a live etcd read. Each
// watch now has a stream of its own (store/watch_streams.go).
func TestClosingAnotherServerLeavesTheWatchCachesFollowing(t *testing.T) {
	for round := range 3 {
		others := make([]*apiservertest.Server, 2)
		for i := range others {
			s, err := apiservertest.Start(srv.Etcd, apiserver.Config{})
			require.NoError(t, err)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			require.NoError(t, s.API.WaitReady(ctx))
			cancel()
			others[i] = s
		}
		for _, s := range others {
			s.API.Close()
		}

		// A namespace written through another client of the same etcd
		// (the package's server's own write would not prove its watch).
		name := fmt.Sprintf("after-close-%d-%d", round, time.Now().UnixNano())
		writer, err := apiservertest.Start(srv.Etcd, apiserver.Config{})
		require.NoError(t, err)
		require.Equal(t, http.StatusCreated,
			writer.Do(t, "POST", "/api/v1/namespaces", "application/json", `{"metadata":{"name":"`+name+`"}}`).Code)
		writer.API.Close()

		require.Eventually(t, func() bool {
			// resourceVersion=0: served from the package server's cache.
			return srv.Do(t, "GET", "/api/v1/namespaces/"+name+"?resourceVersion=0", "", "").Code == http.StatusOK
		}, 30*time.Second, 20*time.Millisecond, "round %d: the package server's namespace cache stopped following etcd", round)
	}
}

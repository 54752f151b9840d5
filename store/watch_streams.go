package store

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"

	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/grpc/metadata"
)

// Each watch on a stream of its own.
//
// etcd's client carries every watch whose context has the same gRPC
// metadata on one stream (clientv3/watch.go:streamKeyFromCtx), and
// Kubernetes' watches share theirs (etcd3/watcher.go, WithRequireLeader):
// over the network that is cheap and safe. On the in-process client of an
// embedded etcd (v3client) the stream is a pair of Go channels with no
// HTTP/2 flow control under it, and a storm of cancellations can deadlock
// it for good (etcd-io/etcd#18879 and #20716; the fix, etcd-io/etcd#21065,
// is not released). Every watch on it then goes quiet, the watch caches'
// among them, while the server still looks healthy: closing one apiserver
// of a test binary used to silence the others'. A stream per watch keeps a
// storm to the watches that cancel (store/watch_storm_test.go).
//
// A progress request reaches only the watches of its stream, so the Store
// keeps its open watches' metadata and asks on each (RequestWatchProgress).
// It asks under the lock that a watch takes to be forgotten before its
// context is cancelled: a request never reaches a stream already gone,
// which would make the client open a new one that nothing closes.

const streamKey = "kubeloop-watch-stream"

var streamSeq atomic.Uint64

// openStreams are the metadata of a Store's open watches, one per stream.
type openStreams struct {
	mu   sync.Mutex
	open map[uint64]metadata.MD
}

// newStream returns ctx with the metadata of a stream no other watch
// uses, and the function that forgets it; call that before cancelling.
func (s *Store) newStream(ctx context.Context) (context.Context, func()) {
	id := streamSeq.Add(1)
	ctx = clientv3.WithRequireLeader(metadata.AppendToOutgoingContext(ctx, streamKey, strconv.FormatUint(id, 10)))
	md, _ := metadata.FromOutgoingContext(ctx)
	s.streams.mu.Lock()
	if s.streams.open == nil {
		s.streams.open = map[uint64]metadata.MD{}
	}
	s.streams.open[id] = md
	s.streams.mu.Unlock()
	return ctx, func() {
		s.streams.mu.Lock()
		delete(s.streams.open, id)
		s.streams.mu.Unlock()
	}
}

// requestProgress asks for a progress notification on the stream of every
// open watch of s.
func (s *Store) requestProgress(ctx context.Context) error {
	s.streams.mu.Lock()
	defer s.streams.mu.Unlock()
	for _, md := range s.streams.open {
		if err := s.client.RequestProgress(metadata.NewOutgoingContext(ctx, md)); err != nil {
			return err
		}
	}
	return nil
}

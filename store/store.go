package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
)

// Store is the etcd-backed Interface for one resource. It holds no objects:
// every call is a round trip to etcd, and etcd's revision is the only clock.
type Store struct {
	client *clientv3.Client
	info   *api.ResourceInfo
	// protobuf: this kind's values are protobuf (codec.go).
	protobuf bool
	// streams: the open watches' gRPC streams (watch_streams.go).
	streams openStreams

	// Counters only grow; Stats reads them.
	updateRetries atomic.Uint64
	deleteRetries atomic.Uint64
}

var _ Interface = (*Store)(nil)

// New returns the storage of one resource on client.
func New(client *clientv3.Client, info *api.ResourceInfo) *Store {
	return &Store{client: client, info: info, protobuf: storedAsProtobuf(info.New())}
}

// Stats counts the optimistic-concurrency retries of a Store: how often a
// compare-and-swap lost to a concurrent writer and was tried again.
type Stats struct {
	GuaranteedUpdateRetries uint64
	DeleteRetries           uint64
}

// Stats returns the retry counters since New.
func (s *Store) Stats() Stats {
	return Stats{
		GuaranteedUpdateRetries: s.updateRetries.Load(),
		DeleteRetries:           s.deleteRetries.Load(),
	}
}

// Create writes obj under key in one transaction that succeeds only if the
// key has never been written or was deleted (ModRevision 0). obj becomes
// the stored object: Create sets its apiVersion and kind, and once etcd
// has committed it its resourceVersion, and returns it. The caller hands
// it over, as tryUpdate hands over the object it returns to
// GuaranteedUpdate: the apiserver drops the body it decoded once it is
// written, so copying it first would only make garbage. (Kubernetes'
// etcd3 store changes obj too, clearing its resourceVersion, and decodes
// the stored bytes into a second object, out.)
func (s *Store) Create(ctx context.Context, key string, obj api.Object) (api.Object, error) {
	if obj.GetObjectMeta().ResourceVersion != "" {
		return nil, api.NewBadRequest("resourceVersion should not be set on objects to be created")
	}
	// The stored bytes always carry apiVersion and kind, like Kubernetes',
	// so that re-encoding a decoded object gives the same bytes and an
	// unchanged update is recognised as one.
	s.setTypeMeta(obj)
	data, err := encodeAs(obj, s.protobuf)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", key, err)
	}
	s.traceWriting(ctx, obj)
	resp, err := s.client.Txn(ctx).
		If(clientv3.Compare(clientv3.ModRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, string(data))).
		Commit()
	if err != nil {
		return nil, interpretWriteError("create", key, err)
	}
	if !resp.Succeeded {
		return nil, api.NewAlreadyExists(s.info.GroupResource(), nameOf(key))
	}
	// The object we encoded is the stored object: no decode, no read.
	setRV(obj, resp.Header.Revision)
	s.traceCommitted(ctx, "create", obj, resp.Header.Revision)
	return obj, nil
}

// Get reads one object. A ResourceVersion "N" requires etcd to be at least at
// revision N; the read itself is always the latest.
func (s *Store) Get(ctx context.Context, key string, opts GetOptions) (api.Object, error) {
	minRV, err := parseRV(opts.ResourceVersion)
	if err != nil {
		return nil, err
	}
	resp, err := s.client.Get(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", key, err)
	}
	if err := checkMinimumRV(minRV, resp.Header.Revision); err != nil {
		return nil, err
	}
	if len(resp.Kvs) == 0 {
		return nil, api.NewNotFound(s.info.GroupResource(), nameOf(key))
	}
	kv := resp.Kvs[0]
	return s.decode(kv.Value, kv.ModRevision)
}

// CurrentResourceVersion asks etcd for its revision with a count-only read
// of a key that never exists: the answer is only the response header.
func (s *Store) CurrentResourceVersion(ctx context.Context) (uint64, error) {
	resp, err := s.client.Get(ctx, "/registry/", clientv3.WithCountOnly())
	if err != nil {
		return 0, fmt.Errorf("read etcd revision: %w", err)
	}
	return uint64(resp.Header.Revision), nil
}

// decode turns stored bytes, protobuf or JSON (codec.go), into an object
// of this resource. The stored value has no resourceVersion; the revision
// of the key becomes it.
// apiVersion and kind come from the ResourceInfo (the same values
// api.Builtin().SetTypeMeta would set, without a registry lookup).
func (s *Store) decode(data []byte, rev int64) (api.Object, error) {
	obj := s.info.New()
	if err := decodeAs(data, obj, s.protobuf); err != nil {
		return nil, fmt.Errorf("decode %s: %w", s.info.GroupResource(), err)
	}
	if s.info.Decoded != nil {
		s.info.Decoded(obj)
	}
	s.setTypeMeta(obj)
	setRV(obj, rev)
	return obj, nil
}

func (s *Store) setTypeMeta(obj api.Object) {
	tm := obj.GetTypeMeta()
	tm.APIVersion, tm.Kind = s.info.GroupVersion(), s.info.Kind
}

// encode writes obj (codec.go) without its resourceVersion, which is the
// key's revision and must never be stored (it would be stale the moment it
// is written). obj must be owned by the caller: its RV is cleared and
// restored.
func (s *Store) encode(obj api.Object) ([]byte, error) {
	m := obj.GetObjectMeta()
	rv := m.ResourceVersion
	m.ResourceVersion = ""
	data, err := encodeAs(obj, s.protobuf)
	m.ResourceVersion = rv
	return data, err
}

func setRV(obj api.Object, rev int64) {
	obj.GetObjectMeta().ResourceVersion = strconv.FormatInt(rev, 10)
}

// nameOf is the last segment of a key, the object's name, for messages.
func nameOf(key string) string {
	return key[strings.LastIndexByte(key, '/')+1:]
}

// parseRV reads a resourceVersion parameter; "" and "0" are 0.
func parseRV(rv string) (int64, error) {
	if rv == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(rv, 10, 63)
	if err != nil {
		return 0, api.NewBadRequest(fmt.Sprintf("invalid resource version: %v", err))
	}
	return int64(n), nil
}

// checkMinimumRV fails a read that asked for a revision etcd has not reached.
// Kubernetes answers the same way: 504 with a ResourceVersionTooLarge cause,
// and the client retries.
func checkMinimumRV(minRV, current int64) error {
	if minRV > current {
		return api.NewTooLargeResourceVersion(uint64(minRV), uint64(current), 1)
	}
	return nil
}

// isCompacted / isFutureRev classify etcd's answers to reads at a revision.
func isCompacted(err error) bool { return errors.Is(err, rpctypes.ErrCompacted) }
func isFutureRev(err error) bool { return errors.Is(err, rpctypes.ErrFutureRev) }

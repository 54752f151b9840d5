package guaranteedupdate

import (
	"errors"
	"fmt"
	"strconv"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
	"kubeloop/store"
)

// ErrNotImplemented is what the stub returns, so the grader can say "not
// written yet" instead of reporting a wrong answer.
var ErrNotImplemented = errors.New("not implemented yet")

// Store keeps the objects of one resource in etcd exactly as kubeloop's
// store does: one key per object (ResourceInfo.Key), the value is the
// object without its resourceVersion in the store's encoding (protobuf for
// a built-in kind such as a ConfigMap, JSON for a custom resource:
// store.EncodeValue and store.DecodeValue), and the key's ModRevision is
// the resourceVersion. So objects written here can be read, watched and
// updated by store.Store, and the other way round.
type Store struct {
	client *clientv3.Client
	info   *api.ResourceInfo
}

// New returns the storage of one resource on client.
func New(client *clientv3.Client, info *api.ResourceInfo) *Store {
	return &Store{client: client, info: info}
}

// UpdateFunc computes the new object from the current one. It gets a copy
// of its own, which it may change and return. An error stops the update:
// nothing is written and GuaranteedUpdate returns that error.
type UpdateFunc func(current api.Object) (api.Object, error)

// objState is what one read of a key gave: the object, the exact bytes it
// is stored as, and the revision those bytes were written at (the key's
// ModRevision). The compare-and-swap is guarded by rev.
type objState struct {
	obj  api.Object
	data []byte
	rev  int64
}

// stateFromKVs turns the answer of a Get of key (resp.Kvs, or the Kvs of a
// transaction's Get branch) into an objState. No key-value means the
// object does not exist: a 404 NotFound, as the apiserver would answer.
func (s *Store) stateFromKVs(key string, kvs []*mvccpb.KeyValue) (*objState, error) {
	if len(kvs) == 0 {
		return nil, api.NewNotFound(s.info.GroupResource(), nameOf(key))
	}
	obj := s.info.New()
	if err := store.DecodeValue(kvs[0].Value, obj); err != nil {
		return nil, fmt.Errorf("decode %s: %w", key, err)
	}
	s.setTypeMeta(obj)
	setResourceVersion(obj, kvs[0].ModRevision)
	return &objState{obj: obj, data: kvs[0].Value, rev: kvs[0].ModRevision}, nil
}

// encode gives the bytes to store for obj: the store's encoding, with
// apiVersion and kind, without the resourceVersion (the key's revision is
// the resourceVersion; a stored copy would be stale the moment it is
// written). Two objects that encode to the same bytes are the same object.
// obj's resourceVersion is cleared and restored, so obj must be the
// caller's own.
func (s *Store) encode(obj api.Object) ([]byte, error) {
	s.setTypeMeta(obj)
	m := obj.GetObjectMeta()
	rv := m.ResourceVersion
	m.ResourceVersion = ""
	data, err := store.EncodeValue(obj)
	m.ResourceVersion = rv
	return data, err
}

func (s *Store) setTypeMeta(obj api.Object) {
	tm := obj.GetTypeMeta()
	tm.APIVersion, tm.Kind = s.info.GroupVersion(), s.info.Kind
}

// setResourceVersion stamps obj with an etcd revision.
func setResourceVersion(obj api.Object, rev int64) {
	obj.GetObjectMeta().ResourceVersion = strconv.FormatInt(rev, 10)
}

// nameOf is the last segment of a key, the object's name, for messages.
func nameOf(key string) string {
	for i := len(key) - 1; i >= 0; i-- {
		if key[i] == '/' {
			return key[i+1:]
		}
	}
	return key
}

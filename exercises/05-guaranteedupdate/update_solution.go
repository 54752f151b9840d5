//go:build solution

package guaranteedupdate

import (
	"bytes"
	"context"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
)

// GuaranteedUpdate is optimistic concurrency: nothing is locked, every
// writer computes from what it read, and etcd refuses any write whose read
// has gone stale. A lost race costs one more tryUpdate, never a lost
// update.
func (s *Store) GuaranteedUpdate(ctx context.Context, key string, tryUpdate UpdateFunc) (api.Object, error) {
	resp, err := s.client.Get(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", key, err)
	}
	cur, err := s.stateFromKVs(key, resp.Kvs)
	if err != nil {
		return nil, err
	}
	for {
		// cur.obj is a fresh decode, ours alone: tryUpdate may change it.
		updated, err := tryUpdate(cur.obj)
		if err != nil {
			return nil, err
		}
		data, err := s.encode(updated)
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", key, err)
		}
		if bytes.Equal(data, cur.data) {
			// No change: no write, no new revision, the same resourceVersion.
			return updated, nil
		}
		txn, err := s.client.Txn(ctx).
			If(clientv3.Compare(clientv3.ModRevision(key), "=", cur.rev)).
			Then(clientv3.OpPut(key, string(data))).
			Else(clientv3.OpGet(key)).
			Commit()
		if err != nil {
			return nil, fmt.Errorf("update %s: %w", key, err)
		}
		if txn.Succeeded {
			setResourceVersion(updated, txn.Header.Revision)
			return updated, nil
		}
		// The else branch read the winner's value in the same round trip:
		// retry from it. (If the object was deleted meanwhile, this is
		// NotFound.)
		if cur, err = s.stateFromKVs(key, txn.Responses[0].GetResponseRange().Kvs); err != nil {
			return nil, err
		}
	}
}

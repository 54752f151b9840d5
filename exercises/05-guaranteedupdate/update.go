//go:build !solution

package guaranteedupdate

import (
	"context"
	"fmt"

	"kubeloop/api"
)

// This is your file. Write GuaranteedUpdate; keep the signature.
// Run the grader with: go test -tags exercise ./exercises/05-guaranteedupdate/

// GuaranteedUpdate reads the object at key, calls tryUpdate with it, and
// writes the result only if the key still has the revision it read, in one
// etcd transaction:
//
//	s.client.Txn(ctx).
//		If(clientv3.Compare(clientv3.ModRevision(key), "=", rev)).
//		Then(clientv3.OpPut(key, string(data))).
//		Else(clientv3.OpGet(key)).
//		Commit()
//
// If the transaction did not succeed, someone wrote in between: take the
// value its Else branch read (resp.Responses[0].GetResponseRange().Kvs)
// and call tryUpdate again with that, until the write succeeds. Return the
// written object with its new resourceVersion (the transaction's
// resp.Header.Revision).
//
//   - A missing object is NotFound (s.stateFromKVs says so).
//   - An error from tryUpdate is returned as is, with nothing written.
//   - If tryUpdate's result encodes to the bytes already stored, write
//     nothing and return it with the resourceVersion it has.
func (s *Store) GuaranteedUpdate(ctx context.Context, key string, tryUpdate UpdateFunc) (api.Object, error) {
	// TODO: read with s.client.Get and s.stateFromKVs, then loop.
	return nil, fmt.Errorf("GuaranteedUpdate %s: %w", key, ErrNotImplemented)
}

package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
)

// objState is what one read of a key gave us: the object, the exact bytes it
// was stored as, and the revision those bytes were written at. The
// compare-and-swap that follows is guarded by rev.
type objState struct {
	obj  api.Object
	data []byte
	rev  int64
}

// startState is where GuaranteedUpdate and Delete begin: the cached object
// if the caller has one (not yet known to be current), else a fresh read.
func (s *Store) startState(ctx context.Context, key string, cachedExisting api.Object) (orig *objState, current bool, err error) {
	if cachedExisting != nil {
		orig, err = s.stateFromObject(cachedExisting)
		return orig, false, err
	}
	orig, err = s.readState(ctx, key)
	return orig, true, err
}

// GuaranteedUpdate is optimistic concurrency: read, compute, and write only
// if the key still has the revision we read; otherwise take the value the
// failed transaction returned and try again, until tryUpdate or a
// precondition says no.
//
// cachedExisting (from the watch cache) saves the first read. It may be
// stale, so anything it makes fail (a precondition, tryUpdate, or "no
// change") is checked again against a fresh read before it is believed.
// The caller hands it over: tryUpdate may change it.
func (s *Store) GuaranteedUpdate(ctx context.Context, key string, preconditions *Preconditions,
	tryUpdate UpdateFunc, cachedExisting api.Object) (api.Object, error) {
	orig, origIsCurrent, err := s.startState(ctx, key, cachedExisting)
	if err != nil {
		return nil, err
	}

	for {
		if err := s.checkPreconditions(key, preconditions, orig.obj); err != nil {
			if !origIsCurrent {
				if orig, err = s.readState(ctx, key); err != nil {
					return nil, err
				}
				origIsCurrent = true
				continue
			}
			return nil, err
		}

		// orig.obj is ours (a fresh decode, or the copy the caller handed
		// over as cachedExisting) and is dropped after this attempt, so
		// tryUpdate may change it in place: no copy needed.
		updated, err := tryUpdate(orig.obj)
		if err != nil {
			if !origIsCurrent {
				if orig, err = s.readState(ctx, key); err != nil {
					return nil, err
				}
				origIsCurrent = true
				continue
			}
			return nil, err
		}
		s.setTypeMeta(updated)
		data, err := s.encode(updated)
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", key, err)
		}
		if bytes.Equal(data, orig.data) {
			// Nothing changed: no write, no new revision, same RV. A stale
			// cached copy may only look unchanged, so confirm with etcd.
			if !origIsCurrent {
				if orig, err = s.readState(ctx, key); err != nil {
					return nil, err
				}
				origIsCurrent = true
				continue
			}
			return updated, nil
		}

		s.traceWriting(ctx, updated)
		resp, err := s.client.Txn(ctx).
			If(clientv3.Compare(clientv3.ModRevision(key), "=", orig.rev)).
			Then(clientv3.OpPut(key, string(data))).
			Else(clientv3.OpGet(key)).
			Commit()
		if err != nil {
			return nil, interpretWriteError("update", key, err)
		}
		if !resp.Succeeded {
			// Someone wrote in between. The else branch already read the
			// new value, so the retry costs no extra round trip.
			s.updateRetries.Add(1)
			if orig, err = s.stateFromGet(key, resp.Responses[0].GetResponseRange().Kvs); err != nil {
				return nil, err
			}
			origIsCurrent = true
			continue
		}
		setRV(updated, resp.Header.Revision)
		s.traceCommitted(ctx, "update", updated, resp.Header.Revision)
		return updated, nil
	}
}

// Delete removes the key with the same compare-and-swap loop as
// GuaranteedUpdate, so a delete never removes a version it has not checked.
func (s *Store) Delete(ctx context.Context, key string, preconditions *Preconditions,
	validate ValidateDeletionFunc, cachedExisting api.Object) (api.Object, error) {
	orig, origIsCurrent, err := s.startState(ctx, key, cachedExisting)
	if err != nil {
		return nil, err
	}

	for {
		err := s.checkPreconditions(key, preconditions, orig.obj)
		if err == nil && validate != nil {
			err = validate(orig.obj)
		}
		if err != nil {
			if !origIsCurrent {
				if orig, err = s.readState(ctx, key); err != nil {
					return nil, err
				}
				origIsCurrent = true
				continue
			}
			return nil, err
		}

		resp, err := s.client.Txn(ctx).
			If(clientv3.Compare(clientv3.ModRevision(key), "=", orig.rev)).
			Then(clientv3.OpDelete(key)).
			Else(clientv3.OpGet(key)).
			Commit()
		if err != nil {
			return nil, fmt.Errorf("delete %s: %w", key, err)
		}
		if !resp.Succeeded {
			s.deleteRetries.Add(1)
			if orig, err = s.stateFromGet(key, resp.Responses[0].GetResponseRange().Kvs); err != nil {
				return nil, err
			}
			origIsCurrent = true
			continue
		}
		// The last state, stamped with the revision of its deletion: the
		// same object and RV a watcher sees in the DELETED event.
		out := orig.obj
		setRV(out, resp.Header.Revision)
		return out, nil
	}
}

// checkPreconditions says Conflict when the caller's expectations about the
// object (its UID, its resourceVersion) do not hold.
func (s *Store) checkPreconditions(key string, p *Preconditions, obj api.Object) error {
	if p == nil {
		return nil
	}
	m := obj.GetObjectMeta()
	var msg string
	switch {
	case p.UID != nil && *p.UID != m.UID:
		msg = fmt.Sprintf("Precondition failed: UID in precondition: %v, UID in object meta: %v", *p.UID, m.UID)
	case p.ResourceVersion != nil && *p.ResourceVersion != m.ResourceVersion:
		msg = fmt.Sprintf("Precondition failed: ResourceVersion in precondition: %v, ResourceVersion in object meta: %v",
			*p.ResourceVersion, m.ResourceVersion)
	default:
		return nil
	}
	return api.NewConflict(s.info.GroupResource(), nameOf(key), errors.New(msg))
}

func (s *Store) readState(ctx context.Context, key string) (*objState, error) {
	resp, err := s.client.Get(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", key, err)
	}
	return s.stateFromGet(key, resp.Kvs)
}

func (s *Store) stateFromGet(key string, kvs []*mvccpb.KeyValue) (*objState, error) {
	if len(kvs) == 0 {
		// tryUpdate never sees nil: an update of a missing object is NotFound.
		return nil, api.NewNotFound(s.info.GroupResource(), nameOf(key))
	}
	obj, err := s.decode(kvs[0].Value, kvs[0].ModRevision)
	if err != nil {
		return nil, err
	}
	return &objState{obj: obj, data: kvs[0].Value, rev: kvs[0].ModRevision}, nil
}

// stateFromObject builds the state from a cached object: its bytes are what
// encode would store, its revision is its resourceVersion. The copy keeps
// the cache's shared object untouched.
func (s *Store) stateFromObject(cached api.Object) (*objState, error) {
	obj := cached.DeepCopyObject()
	s.setTypeMeta(obj)
	rev, err := strconv.ParseInt(obj.GetObjectMeta().ResourceVersion, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("cached object has resourceVersion %q: %w", obj.GetObjectMeta().ResourceVersion, err)
	}
	data, err := s.encode(obj)
	if err != nil {
		return nil, fmt.Errorf("encode cached object: %w", err)
	}
	return &objState{obj: obj, data: data, rev: rev}, nil
}

package store

import (
	"context"
	"fmt"
	"strings"

	clientv3 "go.etcd.io/etcd/client/v3"

	"kubeloop/api"
)

// maxListChunk caps how many keys one range read fetches while a selective
// list hunts for enough matches.
const maxListChunk = 10000

// The messages of Kubernetes' 410 answers to lists.
const (
	listExpiredMsg     = "The resourceVersion for the provided list is too old."
	continueExpiredMsg = "The provided continue parameter is too old to display a consistent list result. " +
		"You can start a new list without the continue parameter."
)

// List reads the objects under prefix.
//
// Which revision it reads at:
//   - a continue token: the token's revision, so all pages are one snapshot;
//   - ResourceVersion "N" with match Exact: revision N (410 if compacted);
//   - otherwise the latest, and with "N" the latest must be at least N.
//
// With a limit it returns at most limit objects and a continue token if
// there may be more. With a selector it keeps reading chunks (doubling, as
// Kubernetes does) until it has limit matches or the range is exhausted.
func (s *Store) List(ctx context.Context, prefix string, opts ListOptions) (*ListResult, error) {
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	pred := opts.Predicate
	rangeEnd := clientv3.GetPrefixRangeEnd(prefix)
	startKey := prefix

	requestedRV, err := parseRV(opts.ResourceVersion)
	if err != nil {
		return nil, err
	}
	var withRev, minRV int64
	paging := pred.Continue != ""
	switch {
	case paging:
		if requestedRV != 0 {
			return nil, api.NewBadRequest("specifying resource version is not allowed when using continue")
		}
		if startKey, withRev, err = decodeContinue(pred.Continue, prefix); err != nil {
			return nil, err
		}
		if withRev < 0 {
			withRev = 0
		}
	case opts.ResourceVersionMatch == ResourceVersionMatchExact && requestedRV > 0:
		withRev = requestedRV
	case opts.ResourceVersionMatch == "" || opts.ResourceVersionMatch == ResourceVersionMatchNotOlderThan ||
		opts.ResourceVersionMatch == ResourceVersionMatchExact:
		minRV = requestedRV
	default:
		return nil, api.NewBadRequest(fmt.Sprintf("unknown resourceVersionMatch %q", opts.ResourceVersionMatch))
	}

	limit := pred.Limit
	chunk := limit
	if limit > 0 && !pred.Empty() {
		// A selective list will skip some keys; start with a bigger chunk.
		chunk = min(maxListChunk, limit*2)
	}

	result := &ListResult{Items: []api.Object{}}
	var lastKey string
	var firstCount int64 = -1
	hasMore := false
	for {
		options := []clientv3.OpOption{clientv3.WithRange(rangeEnd)}
		if chunk > 0 {
			options = append(options, clientv3.WithLimit(chunk))
		}
		if withRev != 0 {
			options = append(options, clientv3.WithRev(withRev))
		}
		resp, err := s.client.Get(ctx, startKey, options...)
		if err != nil {
			return nil, s.listError(ctx, err, paging, requestedRV)
		}
		if withRev == 0 {
			// Every later chunk reads at this revision: one snapshot.
			withRev = resp.Header.Revision
			if err := checkMinimumRV(minRV, withRev); err != nil {
				return nil, err
			}
		}
		if firstCount < 0 {
			firstCount = resp.Count
		}

		full := false
		for i, kv := range resp.Kvs {
			lastKey = string(kv.Key)
			if s.notOurs(kv.Value) {
				continue
			}
			obj, err := s.decode(kv.Value, kv.ModRevision)
			if err != nil {
				return nil, err
			}
			if pred.Matches(s.info, obj) {
				result.Items = append(result.Items, obj)
			}
			if limit > 0 && int64(len(result.Items)) >= limit {
				full = true
				hasMore = i < len(resp.Kvs)-1 || resp.More
				break
			}
		}
		if full || !resp.More || len(resp.Kvs) == 0 {
			break
		}
		startKey = lastKey + "\x00"
		chunk = min(maxListChunk, chunk*2)
	}

	result.ResourceVersion = uint64(withRev)
	if hasMore {
		if result.Continue, err = encodeContinue(lastKey, prefix, withRev); err != nil {
			return nil, err
		}
		// Without selectors every remaining key is an item, and the first
		// read's count (keys from the start key to the end) says how many.
		if pred.Empty() {
			remaining := firstCount - int64(len(result.Items))
			result.RemainingItemCount = &remaining
		}
	}
	return result, nil
}

// listError turns etcd's refusals into the Status a client understands.
func (s *Store) listError(ctx context.Context, err error, paging bool, requestedRV int64) error {
	switch {
	case isCompacted(err) && paging:
		return api.NewResourceExpired(continueExpiredMsg)
	case isCompacted(err):
		return api.NewResourceExpired(listExpiredMsg)
	case isFutureRev(err):
		current, cerr := s.CurrentResourceVersion(ctx)
		if cerr != nil {
			return fmt.Errorf("list at future revision %d: %w", requestedRV, err)
		}
		return api.NewTooLargeResourceVersion(uint64(requestedRV), current, 1)
	}
	return fmt.Errorf("list %s: %w", s.info.GroupResource(), err)
}

package store

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Compact discards etcd's history before rev. Reads and watches at older
// revisions then fail with 410 Expired. Compacting to a revision that is
// already compacted is not an error.
func Compact(ctx context.Context, client *clientv3.Client, rev int64) error {
	if _, err := client.Compact(ctx, rev); err != nil && !isCompacted(err) {
		return fmt.Errorf("compact etcd to revision %d: %w", rev, err)
	}
	return nil
}

// RunCompactor compacts every interval so that only the last keepRevisions
// revisions stay, until ctx is done. Run it in its own goroutine.
//
// Kubernetes compacts by time: every 5 minutes each apiserver compacts to
// the revision it saw 5 minutes earlier, coordinating through a
// compare-and-swap on the key "compact_rev_key" so that several servers do
// it once. We keep a number of revisions instead: one process owns the
// etcd, and a revision budget makes 410s reproducible in tests and
// exercises, whatever the wall clock does.
func RunCompactor(ctx context.Context, client *clientv3.Client, interval time.Duration, keepRevisions int64) {
	log := slog.With("component", "compactor")
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	var compacted int64
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		resp, err := client.Get(ctx, "/registry/", clientv3.WithCountOnly())
		if err != nil {
			if ctx.Err() == nil {
				log.Warn("read revision", "err", err)
			}
			continue
		}
		target := resp.Header.Revision - keepRevisions
		if target <= compacted {
			continue
		}
		if err := Compact(ctx, client, target); err != nil {
			if ctx.Err() == nil {
				log.Warn("compact", "rev", target, "err", err)
			}
			continue
		}
		compacted = target
		log.Debug("compacted", "rev", target)
	}
}

package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/store"
)

// A single member snapshots every thousand writes, so that its raft log in
// memory stays short (etcd's default is ten times that, plus 5000 entries
// kept for followers it does not have). With etcd's defaults no snapshot
// file would exist after 1500 writes.
func TestASingleMemberSnapshotsEveryThousandWrites(t *testing.T) {
	dir := t.TempDir()
	e, err := store.StartEmbedded(store.EmbeddedConfig{DataDir: dir, UnsafeNoFsync: true})
	require.NoError(t, err)
	defer e.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for i := range 1500 {
		_, err := e.Client().Put(ctx, "/snapshot-test/"+strconv.Itoa(i), "v")
		require.NoError(t, err)
	}
	snaps := func() []string {
		m, _ := filepath.Glob(filepath.Join(dir, "member", "snap", "*.snap"))
		return m
	}
	require.Eventually(t, func() bool { return len(snaps()) > 0 }, 30*time.Second, 20*time.Millisecond,
		"no snapshot after 1500 writes")
	info, err := os.Stat(snaps()[0])
	require.NoError(t, err)
	require.Positive(t, info.Size())
}

package fieldmanager_test

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
)

// Reading path, step 10 (docs/reading-path.md): field ownership as merge
// conflict resolution, through a real apiserver. A user applies a
// ReplicaSet with replicas 3; an autoscaler changes replicas to 5 with a
// plain update (and so takes that field over); the user's next apply with
// replicas 3 is a 409 naming the autoscaler and .spec.replicas, and only
// with force does the field change hands back. Break in FieldManager.Apply,
// then takeOwnership (apiserver/fieldmanager/apply.go) and FieldManager.Update.
func TestReadingPathStep10ApplyConflictsWithAnotherManager(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := cluster.Start(ctx, cluster.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	require.NoError(t, err)
	defer c.Stop()
	rss := client.For[*api.ReplicaSet](c.Client).Namespace("default")
	manifest := func(replicas int) []byte {
		return []byte(`{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"web"},
			"spec":{"replicas":` + strconv.Itoa(replicas) + `,"selector":{"matchLabels":{"app":"web"}},
			"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx"}]}}}}`)
	}

	applied, err := rss.Patch(ctx, "web", client.ApplyPatchType, manifest(3), client.PatchOptions{FieldManager: "user"})
	require.NoError(t, err, "an apply creates a missing object")
	assert.Equal(t, map[string]api.ManagedFieldsOperationType{"user": api.ManagedFieldsOperationApply}, operations(applied))

	five := int32(5)
	applied.Spec.Replicas = &five
	scaled, err := rss.Update(ctx, applied, client.UpdateOptions{FieldManager: "autoscaler"})
	require.NoError(t, err)
	assert.Equal(t, map[string]api.ManagedFieldsOperationType{"user": api.ManagedFieldsOperationApply,
		"autoscaler": api.ManagedFieldsOperationUpdate}, operations(scaled), "the update moved .spec.replicas to the autoscaler")

	_, err = rss.Patch(ctx, "web", client.ApplyPatchType, manifest(3), client.PatchOptions{FieldManager: "user"})
	require.Error(t, err)
	assert.True(t, api.IsConflict(err), "a 409, got %v", err)
	assert.Contains(t, err.Error(), `conflict with "autoscaler"`)
	assert.Contains(t, err.Error(), ".spec.replicas")
	got, err := rss.Get(ctx, "web", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, int32(5), *got.Spec.Replicas, "a refused apply changes nothing")

	force := true
	taken, err := rss.Patch(ctx, "web", client.ApplyPatchType, manifest(3), client.PatchOptions{FieldManager: "user", Force: &force})
	require.NoError(t, err)
	assert.Equal(t, int32(3), *taken.Spec.Replicas)
	assert.Equal(t, map[string]api.ManagedFieldsOperationType{"user": api.ManagedFieldsOperationApply}, operations(taken),
		"forced, the field changed hands and the autoscaler's emptied entry went")
}

func operations(rs *api.ReplicaSet) map[string]api.ManagedFieldsOperationType {
	ops := map[string]api.ManagedFieldsOperationType{}
	for _, e := range rs.ManagedFields {
		ops[e.Manager] = e.Operation
	}
	return ops
}

package fieldmanager

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// A heartbeat-like update (the writer changes a value it owns) keeps every
// entry's stored FieldsV1, the very bytes, and moves only the writer's
// time; an update that changes ownership writes the sets anew.
func TestSameOwnershipKeepsTheStoredBytes(t *testing.T) {
	f := configMapManager("")
	live := create(t, f, cm(map[string]string{"a": "1", "b": "1"}, nil), "m")
	next := cm(map[string]string{"a": "1", "b": "1", "c": "1"}, live.ManagedFields)
	f.Update(live, next, "other")
	live = next
	require.Equal(t, []string{`m/Update/={"f:data":{".":{},"f:a":{},"f:b":{}}}`, `other/Update/={"f:data":{"f:c":{}}}`}, summary(live.ManagedFields))

	clock = clock.Add(time.Minute)
	defer func() { clock = clock.Add(-time.Minute) }()
	for _, sendBack := range []bool{true, false} {
		next = cm(map[string]string{"a": "2", "b": "1", "c": "1"}, nil)
		if sendBack {
			next.ManagedFields = live.ManagedFields
		}
		f.Update(live, next, "m")
		require.Len(t, next.ManagedFields, 2)
		assert.ElementsMatch(t, summary(live.ManagedFields), summary(next.ManagedFields), "sent back: %v", sendBack)
		before, after := byManager(live.ManagedFields), byManager(next.ManagedFields)
		for _, m := range []string{"m", "other"} {
			assert.Same(t, &before[m].FieldsV1.Raw[0], &after[m].FieldsV1.Raw[0], "%s's bytes are the stored ones", m)
		}
		assert.Equal(t, clock, after["m"].Time.Time, "the writer's time moves")
		assert.Equal(t, before["other"].Time, after["other"].Time)
	}

	next = cm(map[string]string{"a": "2", "c": "2"}, live.ManagedFields)
	f.Update(live, next, "m")
	assert.Equal(t, []string{`m/Update/={"f:data":{".":{},"f:a":{},"f:c":{}}}`}, summary(next.ManagedFields),
		"m lost b (removed), took c from other, which is left with nothing")
}

func byManager(entries []api.ManagedFieldsEntry) map[string]*api.ManagedFieldsEntry {
	out := map[string]*api.ManagedFieldsEntry{}
	for i := range entries {
		out[entries[i].Manager] = &entries[i]
	}
	return out
}

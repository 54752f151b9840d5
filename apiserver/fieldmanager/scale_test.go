package fieldmanager

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/fieldpath"
)

func entry(manager string, op api.ManagedFieldsOperationType, apiVersion, sub, fields string, t *api.Time) api.ManagedFieldsEntry {
	return api.ManagedFieldsEntry{Manager: manager, Operation: op, APIVersion: apiVersion, Subresource: sub, Time: t,
		FieldsType: "FieldsV1", FieldsV1: &api.FieldsV1{Raw: []byte(fields)}}
}

const (
	apply  = api.ManagedFieldsOperationApply
	update = api.ManagedFieldsOperationUpdate
)

var replicasAndSelector = `{"f:spec":{"f:replicas":{},"f:selector":{}}}`

// The cases are Kubernetes' (apimachinery managedfields scalehandler_test.go
// TestTransformingManagedFieldsToParent); the expected entries are what its
// ScaleHandler returns, conformance/fieldmanager_scale_test.go checks
// more sequences against it directly.
func TestScaleHandlerToParentMovesReplicas(t *testing.T) {
	for name, tc := range map[string]struct {
		parent, scale, want []api.ManagedFieldsEntry
	}{
		"an Update through scale takes replicas from an applier": {
			parent: []api.ManagedFieldsEntry{entry("test", apply, "apps/v1", "", replicasAndSelector, nil)},
			scale:  []api.ManagedFieldsEntry{entry("scale", update, "autoscaling/v1", "scale", `{"f:spec":{"f:replicas":{}}}`, nil)},
			want: []api.ManagedFieldsEntry{entry("test", apply, "apps/v1", "", `{"f:spec":{"f:selector":{}}}`, nil),
				entry("scale", update, "apps/v1", "scale", `{"f:spec":{"f:replicas":{}}}`, nil)},
		},
		"an Update entry always loses replicas, even to its own manager": {
			parent: []api.ManagedFieldsEntry{entry("test", update, "apps/v1", "", replicasAndSelector, nil)},
			scale:  []api.ManagedFieldsEntry{entry("test", update, "autoscaling/v1", "scale", `{"f:spec":{"f:replicas":{}}}`, nil)},
			want: []api.ManagedFieldsEntry{entry("test", update, "apps/v1", "", `{"f:spec":{"f:selector":{}}}`, nil),
				entry("test", update, "apps/v1", "scale", `{"f:spec":{"f:replicas":{}}}`, nil)},
		},
		"an applier still owning replicas in the Scale keeps its entry": {
			parent: []api.ManagedFieldsEntry{entry("test", apply, "apps/v1", "", replicasAndSelector, nil)},
			scale: []api.ManagedFieldsEntry{entry("test", apply, "autoscaling/v1", "", `{"f:spec":{"f:replicas":{}}}`, nil),
				entry("other", apply, "autoscaling/v1", "scale", `{"f:spec":{"f:replicas":{}}}`, nil)},
			want: []api.ManagedFieldsEntry{entry("other", apply, "apps/v1", "scale", `{"f:spec":{"f:replicas":{}}}`, nil),
				entry("test", apply, "apps/v1", "", replicasAndSelector, nil)},
		},
		"an entry left with nothing goes": {
			parent: []api.ManagedFieldsEntry{entry("test", update, "apps/v1", "", `{"f:spec":{"f:replicas":{}}}`, nil)},
			scale:  []api.ManagedFieldsEntry{entry("hpa", update, "autoscaling/v1", "scale", `{"f:spec":{"f:replicas":{}}}`, nil)},
			want:   []api.ManagedFieldsEntry{entry("hpa", update, "apps/v1", "scale", `{"f:spec":{"f:replicas":{}}}`, nil)},
		},
	} {
		t.Run(name, func(t *testing.T) {
			h := NewScaleHandler(tc.parent, "apps/v1", fieldpath.MakePath("spec", "replicas"))
			got, err := h.ToParent(tc.scale)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestScaleHandlerToSubresourceShowsWhoOwnsReplicas(t *testing.T) {
	at := api.NewTime(clock)
	parent := []api.ManagedFieldsEntry{
		entry("creator", update, "apps/v1", "", replicasAndSelector, &at),
		entry("labeler", update, "apps/v1", "", `{"f:metadata":{"f:labels":{"f:x":{}}}}`, &at),
		entry("hpa", update, "apps/v1", "scale", `{"f:spec":{"f:replicas":{}}}`, nil),
	}
	h := NewScaleHandler(parent, "apps/v1", fieldpath.MakePath("spec", "replicas"))
	got, err := h.ToSubresource()
	require.NoError(t, err)
	assert.Equal(t, []api.ManagedFieldsEntry{
		entry("hpa", update, "autoscaling/v1", "scale", `{"f:spec":{"f:replicas":{}}}`, nil),
		entry("creator", update, "autoscaling/v1", "", `{"f:spec":{"f:replicas":{}}}`, &at),
	}, got, "the labeler has no say in the Scale; times and subresources kept")
}

func TestScaleHandlerRefusesUndecodableEntries(t *testing.T) {
	bad := []api.ManagedFieldsEntry{{Manager: "m", Operation: update, FieldsType: "FieldsV2"}}
	_, err := NewScaleHandler(bad, "apps/v1", fieldpath.MakePath("spec", "replicas")).ToSubresource()
	assert.Error(t, err)
	_, err = NewScaleHandler(nil, "apps/v1", fieldpath.MakePath("spec", "replicas")).ToParent(bad)
	assert.Error(t, err)
}

package fieldmanager

import (
	"fmt"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/fieldpath"
)

// ScaleAPIVersion is the group/version of the Scale every scale
// subresource serves.
const ScaleAPIVersion = "autoscaling/v1"

// replicasInScale is where a Scale keeps its replicas.
var replicasInScale = fieldpath.MakePath("spec", "replicas")

// ScaleHandler moves the ownership of replicas between an object and its
// Scale: a write through /scale is tracked by the Scale's own field
// manager, on a Scale whose managedFields say who owns .spec.replicas in
// the object (ToSubresource), and what that write leaves is put back into
// the object's managedFields (ToParent). So `kubectl scale` or an
// autoscaler takes .spec.replicas from the Deployment's creator, and a
// later apply of the Deployment that sets replicas conflicts with it.
//
// Kubernetes: k8s.io/apimachinery/pkg/util/managedfields/scalehandler.go
// (ScaleHandler, ToSubresource, ToParent), called by each kind's
// scaleUpdatedObjectInfo.UpdatedObject (pkg/registry/apps/replicaset/
// storage/storage.go, pkg/registry/apps/deployment/storage/storage.go,
// k8s.io/apiextensions-apiserver/pkg/registry/customresource/etcd.go).
//
// What we simplify: one version per kind, so one replicas path. Entries of
// another apiVersion (a custom resource served in several versions) are
// left as they are; Kubernetes maps each version by its own path and
// drops entries of versions the CRD no longer has.
type ScaleHandler struct {
	parent     []api.ManagedFieldsEntry
	apiVersion string
	replicas   fieldpath.Path
}

// NewScaleHandler converts the managedFields parent of an object of
// apiVersion whose replicas live at replicasPath (".spec.replicas").
func NewScaleHandler(parent []api.ManagedFieldsEntry, apiVersion string, replicasPath fieldpath.Path) *ScaleHandler {
	return &ScaleHandler{parent: parent, apiVersion: apiVersion, replicas: replicasPath}
}

// ToSubresource is the Scale's managedFields: every entry of the object
// that owns replicas, owning .spec.replicas of autoscaling/v1, with its
// manager, operation, subresource and time; the other entries are not the
// Scale's business.
func (h *ScaleHandler) ToSubresource() ([]api.ManagedFieldsEntry, error) {
	parent, err := DecodeManagedFields(h.parent)
	if err != nil {
		return nil, err
	}
	out := map[string]*Entry{}
	for id, e := range parent.entries {
		if e.APIVersion != h.apiVersion || !e.Fields.Has(h.replicas) {
			continue
		}
		out[id] = &Entry{Manager: e.Manager, Operation: e.Operation, APIVersion: ScaleAPIVersion,
			Subresource: e.Subresource, Time: e.Time, Fields: fieldpath.NewSet(replicasInScale)}
	}
	return (&Managed{entries: out}).Encode()
}

// ToParent is the object's managedFields after a write through /scale
// that left the Scale with scaleEntries. An entry of the object that owns
// replicas loses them unless the Scale still has that very entry (by
// identity, which for an Update includes the apiVersion: so an Update entry
// always loses them, and an Apply entry only if its applier no longer owns
// them); each Scale entry owning .spec.replicas becomes an entry owning
// the object's replicas. Such an entry takes the time the object's entry
// of that identity had, so an Update through /scale has none: Kubernetes'
// ScaleHandler does exactly this, and kubeloop writes what Kubernetes
// writes.
func (h *ScaleHandler) ToParent(scaleEntries []api.ManagedFieldsEntry) ([]api.ManagedFieldsEntry, error) {
	parent, err := DecodeManagedFields(h.parent)
	if err != nil {
		return nil, err
	}
	scale, err := DecodeManagedFields(scaleEntries)
	if err != nil {
		return nil, fmt.Errorf("the Scale's managedFields: %w", err)
	}
	out := map[string]*Entry{}
	for id, e := range parent.entries {
		if e.APIVersion != h.apiVersion || !e.Fields.Has(h.replicas) {
			out[id] = e
			continue
		}
		if _, kept := scale.entries[id]; kept {
			out[id] = e
			delete(scale.entries, id)
			continue
		}
		if rest := e.Fields.Difference(fieldpath.NewSet(h.replicas)); !rest.Empty() {
			stolen := *e
			stolen.Fields, stolen.raw, stolen.rawOf = rest, nil, nil
			out[id] = &stolen
		}
	}
	for id, e := range scale.entries {
		if !e.Fields.Has(replicasInScale) {
			continue
		}
		var t *api.Time
		if p, ok := parent.entries[id]; ok {
			t = p.Time
		}
		out[id] = &Entry{Manager: e.Manager, Operation: e.Operation, APIVersion: h.apiVersion,
			Subresource: e.Subresource, Time: t, Fields: fieldpath.NewSet(h.replicas)}
	}
	return (&Managed{entries: out}).Encode()
}

package admission

import (
	"context"

	"kubeloop/api"
)

// Validation checks every create and update against the rules of its kind
// and refuses the write with 422 Invalid, listing every problem as a cause
// with its field path. It never changes the object.
//
// As in Kubernetes, these rules are not an admission plugin of the default
// chain: each registry strategy calls its kind's rules from Validate and
// ValidateUpdate (ValidateCreate and ValidateUpdate below; Kubernetes:
// pkg/apis/core/validation, pkg/apis/apps/validation, called from
// rest.BeforeCreate / BeforeUpdate), after the mutating admission plugins
// and before the validating ones. Validation stays usable as a plugin, for
// tests that check a stored object against the same rules.
type Validation struct{}

var _ ValidationInterface = Validation{}

// NewValidation returns the validation plugin.
func NewValidation() Validation { return Validation{} }

// Validate refuses an invalid object. Deletes carry no object and are not
// validated.
func (Validation) Validate(_ context.Context, a *Attributes) error {
	if a.Operation == Delete || a.Object == nil {
		return nil
	}
	var errs errorList
	if a.Operation == Update && a.OldObject != nil {
		errs = validateUpdate(a)
	} else {
		errs = validateCreate(a)
	}
	if len(errs) == 0 {
		return nil
	}
	group, kind := invalidKind(a)
	return api.NewInvalid(group, kind, a.Object.GetObjectMeta().Name, errs.causes())
}

// ValidateCreate checks a new object of resource (or the body of one of its
// subresources: a Binding, a Scale) against its kind's rules.
func ValidateCreate(resource *api.ResourceInfo, subresource string, obj api.Object) error {
	return Validation{}.Validate(context.Background(), &Attributes{
		Operation: Create, Resource: resource, Subresource: subresource, Object: obj,
	})
}

// ValidateUpdate checks an updated object against its kind's rules and
// against the stored one. For the status subresource only metadata is
// checked: the registry keeps the stored spec.
func ValidateUpdate(resource *api.ResourceInfo, subresource string, obj, old api.Object) error {
	return Validation{}.Validate(context.Background(), &Attributes{
		Operation: Update, Resource: resource, Subresource: subresource, Object: obj, OldObject: old,
	})
}

// validateCreate dispatches on the Go type of the object. Subresource
// bodies (Scale, Binding) have their own rules.
func validateCreate(a *Attributes) errorList {
	ns := namespaced(a)
	switch obj := a.Object.(type) {
	case *api.Pod:
		return validatePod(obj, ns)
	case *api.ReplicaSet:
		return validateReplicaSet(obj, ns)
	case *api.Deployment:
		return validateDeployment(obj, ns)
	case *api.Job:
		return validateJob(obj, ns, true)
	case *api.Secret:
		return validateSecret(obj, ns)
	case *api.ServiceAccount:
		return validateServiceAccount(obj, ns)
	case *api.Scale:
		return validateScale(obj, ns)
	case *api.Binding:
		return validateBinding(obj)
	case *api.Node:
		return validateNode(obj, ns)
	case *api.Namespace:
		return validateNamespace(obj, ns)
	case *api.ConfigMap:
		return validateConfigMap(obj, ns)
	case *api.Event:
		return validateEvent(obj, ns)
	case *api.Lease:
		return validateLease(obj, ns)
	case *api.Role:
		return validateRole(obj, ns)
	case *api.ClusterRole:
		return validateClusterRole(obj, ns)
	case *api.RoleBinding:
		return validateRoleBinding(obj, ns)
	case *api.ClusterRoleBinding:
		return validateClusterRoleBinding(obj, ns)
	}
	return validateObjectMeta(a.Object.GetObjectMeta(), ns, api.NameIsDNSSubdomain, newPath("metadata"))
}

// validateUpdate checks the new object as on create (minus the name, which
// cannot change) and then what may not change. A status write checks only
// the metadata rules: the apiserver keeps the stored spec for it.
func validateUpdate(a *Attributes) errorList {
	meta := newPath("metadata")
	if a.Subresource == "status" {
		errs := validateObjectMetaUpdate(a.Object.GetObjectMeta(), a.OldObject.GetObjectMeta(), meta)
		return append(errs, validateStatusUpdate(a.Object, a.OldObject)...)
	}
	switch obj := a.Object.(type) {
	case *api.Pod:
		if old, ok := a.OldObject.(*api.Pod); ok {
			return validatePodUpdate(obj, old)
		}
	case *api.ReplicaSet:
		if old, ok := a.OldObject.(*api.ReplicaSet); ok {
			return validateReplicaSetUpdate(obj, old)
		}
	case *api.ConfigMap:
		if old, ok := a.OldObject.(*api.ConfigMap); ok {
			return validateConfigMapUpdate(obj, old)
		}
	case *api.Deployment:
		if old, ok := a.OldObject.(*api.Deployment); ok {
			return validateDeploymentUpdate(obj, old)
		}
	case *api.Job:
		if old, ok := a.OldObject.(*api.Job); ok {
			return validateJobUpdate(obj, old)
		}
	case *api.Secret:
		if old, ok := a.OldObject.(*api.Secret); ok {
			return validateSecretUpdate(obj, old)
		}
	case *api.Scale:
		// The scale body is a view of its parent; only its spec is checked.
		return validateScaleSpec(obj)
	}
	errs := validateCreate(a)
	// The metadata rules of an update replace those of a create: checking
	// the name again would only repeat what the immutability check says.
	kept := errs[:0]
	for _, e := range errs {
		if !isUnder(e.Field, meta) {
			kept = append(kept, e)
		}
	}
	kept = append(kept, validateObjectMetaUpdate(a.Object.GetObjectMeta(), a.OldObject.GetObjectMeta(), meta)...)
	return append(kept, validateRoleRefUpdate(a.Object, a.OldObject)...)
}

// validateStatusUpdate holds the status rules of the kinds that have any;
// the status of other kinds is taken as written.
func validateStatusUpdate(obj, old api.Object) errorList {
	switch obj := obj.(type) {
	case *api.Deployment:
		if old, ok := old.(*api.Deployment); ok {
			return validateDeploymentStatusUpdate(&obj.Status, &old.Status)
		}
	case *api.Job:
		return validateJobStatus(&obj.Status)
	}
	return nil
}

func isUnder(f, parent fieldPath) bool {
	return f == parent || len(f) > len(parent) && f[:len(parent)] == parent && (f[len(parent)] == '.' || f[len(parent)] == '[')
}

// namespaced tells whether the request's resource lives in namespaces. A
// subresource body (Scale, Binding) is namespaced like its parent.
func namespaced(a *Attributes) bool {
	if a.Resource != nil {
		return a.Resource.Namespaced
	}
	if info, ok := api.Builtin().ForObject(a.Object); ok {
		return info.Namespaced
	}
	return a.Namespace != ""
}

// invalidKind is the group and kind a 422 names: the kind of the body,
// which for a subresource is not the parent's ("Scale" in "autoscaling"),
// even when the apiserver hands us the parent object to check.
func invalidKind(a *Attributes) (group, kind string) {
	if k, ok := api.SubresourceKind(a.Subresource); ok {
		return k.Group, k.Kind
	}
	if info, ok := api.Builtin().ForObject(a.Object); ok {
		return info.Group, info.Kind
	}
	if a.Resource != nil {
		return a.Resource.Group, a.Resource.Kind
	}
	tm := a.Object.GetTypeMeta()
	return "", tm.Kind
}

package admission

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"kubeloop/api"
)

// Messages and limits shared by many rules; the wording is Kubernetes'.
const (
	fieldImmutableErrorMsg = "field is immutable"
	isNegativeErrorMsg     = "must be greater than or equal to 0"
	// totalAnnotationSizeLimitB caps the sum of annotation keys and values.
	totalAnnotationSizeLimitB = 256 * 1024
)

// nameFunc checks a name; prefix is true for a generateName prefix.
type nameFunc func(name string, prefix bool) []string

// validateObjectMeta is ValidateObjectMeta (apimachinery's plus core's
// finalizer rule): the metadata rules every kind shares on create.
func validateObjectMeta(m *api.ObjectMeta, namespaced bool, nameFn nameFunc, p fieldPath) errorList {
	var errs errorList
	if m.GenerateName != "" {
		for _, msg := range nameFn(m.GenerateName, true) {
			errs = append(errs, invalid(p.Child("generateName"), m.GenerateName, msg))
		}
	}
	switch {
	case m.Name != "":
		for _, msg := range nameFn(m.Name, false) {
			errs = append(errs, invalid(p.Child("name"), m.Name, msg))
		}
	case m.GenerateName == "":
		errs = append(errs, required(p.Child("name"), "name or generateName is required"))
		// A name still to be generated from generateName is fine: Kubernetes
		// generates it before validating, and either order is safe here.
	}
	if namespaced {
		if m.Namespace == "" {
			errs = append(errs, required(p.Child("namespace"), ""))
		} else {
			for _, msg := range api.NameIsDNSLabel(m.Namespace, false) {
				errs = append(errs, invalid(p.Child("namespace"), m.Namespace, msg))
			}
		}
	} else if m.Namespace != "" {
		errs = append(errs, forbidden(p.Child("namespace"), "not allowed on this type"))
	}
	return append(errs, validateMetaCommon(m, p)...)
}

// validateMetaCommon is what both create and update check.
func validateMetaCommon(m *api.ObjectMeta, p fieldPath) errorList {
	// An empty field has nothing to check; skipping it also saves building
	// its path, a string per field on every write.
	var errs errorList
	if len(m.Labels) > 0 {
		errs = validateLabels(m.Labels, p.Child("labels"))
	}
	if len(m.Annotations) > 0 {
		errs = append(errs, validateAnnotations(m.Annotations, p.Child("annotations"))...)
	}
	if len(m.OwnerReferences) > 0 {
		errs = append(errs, validateOwnerReferences(m.OwnerReferences, p.Child("ownerReferences"))...)
	}
	if len(m.Finalizers) > 0 {
		errs = append(errs, validateFinalizers(m.Finalizers, p.Child("finalizers"))...)
	}
	return errs
}

// validateObjectMetaUpdate is ValidateObjectMetaUpdate: identity fields are
// immutable, and a dying object may not gain finalizers (that would keep it
// alive forever). Defaulting has already copied uid and creationTimestamp
// from the stored object when the client left them out, so only a real
// change to them is refused here. The deletion fields and resourceVersion
// belong to the apiserver and are not checked.
func validateObjectMetaUpdate(m, old *api.ObjectMeta, p fieldPath) errorList {
	var errs errorList
	if old.DeletionTimestamp != nil {
		var added []string
		for _, f := range m.Finalizers {
			if !slices.Contains(old.Finalizers, f) && !slices.Contains(added, f) {
				added = append(added, f)
			}
		}
		if len(added) > 0 {
			slices.Sort(added)
			errs = append(errs, forbidden(p.Child("finalizers"),
				fmt.Sprintf("no new finalizers can be added if the object is being deleted, found new finalizers %#v", added)))
		}
	}
	errs = append(errs, immutable(m.Name, old.Name, p.Child("name"))...)
	errs = append(errs, immutable(m.Namespace, old.Namespace, p.Child("namespace"))...)
	errs = append(errs, immutable(m.UID, old.UID, p.Child("uid"))...)
	if !m.CreationTimestamp.Equal(old.CreationTimestamp.Time) {
		errs = append(errs, invalid(p.Child("creationTimestamp"), m.CreationTimestamp, fieldImmutableErrorMsg))
	}
	return append(errs, validateMetaCommon(m, p)...)
}

func immutable[T comparable](v, old T, p fieldPath) errorList {
	if v != old {
		return errorList{invalid(p, v, fieldImmutableErrorMsg)}
	}
	return nil
}

// semanticallyEqual compares two values by their wire form, so a nil and an
// empty list or map are the same, as with Kubernetes' Semantic.DeepEqual.
func semanticallyEqual(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// validateLabels checks label keys as qualified names and values as label
// values. Like Kubernetes, every error points at the map, not the key.
func validateLabels(labels map[string]string, p fieldPath) errorList {
	var errs errorList
	for _, k := range sortedKeys(labels) {
		for _, msg := range api.IsQualifiedName(k) {
			errs = append(errs, invalid(p, k, msg))
		}
		for _, msg := range api.IsValidLabelValue(labels[k]) {
			errs = append(errs, invalid(p, labels[k], msg))
		}
	}
	return errs
}

// validateAnnotations: keys are qualified names (case does not matter) and
// the whole set is bounded, because annotations ride along on every watch
// event of the object.
func validateAnnotations(annotations map[string]string, p fieldPath) errorList {
	var errs errorList
	total := 0
	for _, k := range sortedKeys(annotations) {
		total += len(k) + len(annotations[k])
		for _, msg := range api.IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, invalid(p, k, msg))
		}
	}
	if total > totalAnnotationSizeLimitB {
		errs = append(errs, tooLong(p, totalAnnotationSizeLimitB))
	}
	return errs
}

// validateOwnerReferences: the garbage collector follows owner references
// by apiVersion, kind, name and uid, so all four are needed; and an object
// has at most one controller.
func validateOwnerReferences(refs []api.OwnerReference, p fieldPath) errorList {
	var errs errorList
	firstController := ""
	for _, ref := range refs {
		if ref.APIVersion == "" || strings.HasSuffix(ref.APIVersion, "/") {
			errs = append(errs, invalid(p.Child("apiVersion"), ref.APIVersion, "version must not be empty"))
		}
		if ref.Kind == "" {
			errs = append(errs, invalid(p.Child("kind"), ref.Kind, "must not be empty"))
		}
		if ref.Name == "" {
			errs = append(errs, invalid(p.Child("name"), ref.Name, "must not be empty"))
		}
		if ref.UID == "" {
			errs = append(errs, invalid(p.Child("uid"), ref.UID, "must not be empty"))
		}
		if ref.APIVersion == "v1" && ref.Kind == "Event" {
			errs = append(errs, invalid(p, ref.APIVersion+", Kind="+ref.Kind, "is disallowed from being an owner"))
		}
		if ref.Controller != nil && *ref.Controller {
			name := ref.Kind + "/" + ref.Name
			if firstController != "" {
				errs = append(errs, invalid(p, name, fmt.Sprintf(
					"Only one reference can have Controller set to true. Found \"true\" in references for %s and %s",
					firstController, name)))
			} else {
				firstController = name
			}
		}
	}
	return errs
}

// The finalizers Kubernetes itself knows; any other must be qualified
// ("example.com/cleanup") so that two controllers cannot collide.
const (
	finalizerOrphanDependents = "orphan"
	finalizerDeleteDependents = "foregroundDeletion"
	finalizerKubernetes       = "kubernetes"
)

func validateFinalizers(finalizers []string, p fieldPath) errorList {
	var errs errorList
	for i, f := range finalizers {
		for _, msg := range api.IsQualifiedName(f) {
			errs = append(errs, invalid(p, f, msg))
		}
		standard := f == finalizerOrphanDependents || f == finalizerDeleteDependents || f == finalizerKubernetes
		if !standard && !strings.Contains(f, "/") {
			errs = append(errs, invalid(p.Index(i), f, "name is neither a standard finalizer name nor is it fully qualified"))
		}
	}
	if slices.Contains(finalizers, finalizerOrphanDependents) && slices.Contains(finalizers, finalizerDeleteDependents) {
		errs = append(errs, invalid(p, finalizers, fmt.Sprintf("finalizer %s and %s cannot be both set",
			finalizerOrphanDependents, finalizerDeleteDependents)))
	}
	return errs
}

// validateNonnegative is ValidateNonnegativeField.
func validateNonnegative[T int32 | int64](v T, p fieldPath) errorList {
	if v < 0 {
		return errorList{invalid(p, v, isNegativeErrorMsg)}
	}
	return nil
}

// sortedKeys makes error order deterministic; Go map order is random and a
// client comparing two replies should see the same list.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

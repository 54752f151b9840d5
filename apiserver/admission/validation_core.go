package admission

import (
	"fmt"
	"slices"

	"kubeloop/api"
)

// validateNode is ValidateNode, reduced to the taints: the scheduler and the
// taint manager act on them, so an effect they do not know would be ignored
// silently.
func validateNode(n *api.Node, namespaced bool) errorList {
	errs := validateObjectMeta(&n.ObjectMeta, namespaced, api.NameIsDNSSubdomain, newPath("metadata"))
	seen := map[string]bool{}
	for i, t := range n.Spec.Taints {
		tp := newPath("spec", "taints").Index(i)
		for _, msg := range api.IsQualifiedName(t.Key) {
			errs = append(errs, invalid(tp.Child("key"), t.Key, msg))
		}
		for _, msg := range api.IsValidLabelValue(t.Value) {
			errs = append(errs, invalid(tp.Child("value"), t.Value, msg))
		}
		switch {
		case t.Effect == "":
			errs = append(errs, required(tp.Child("effect"), ""))
		case !slices.Contains(supportedTaintEffects(), t.Effect):
			errs = append(errs, notSupported(tp.Child("effect"), t.Effect, supportedTaintEffects()))
		}
		id := t.Key + ":" + string(t.Effect)
		if seen[id] {
			errs = append(errs, duplicate(tp, id))
		}
		seen[id] = true
	}
	return errs
}

// validateNamespace is ValidateNamespace: namespace names are DNS labels
// (they become part of other names, such as service DNS names), and the
// spec finalizers are qualified names.
func validateNamespace(ns *api.Namespace, namespaced bool) errorList {
	errs := validateObjectMeta(&ns.ObjectMeta, namespaced, api.NameIsDNSLabel, newPath("metadata"))
	for i, f := range ns.Spec.Finalizers {
		for _, msg := range api.IsQualifiedName(string(f)) {
			errs = append(errs, invalid(newPath("spec", "finalizers").Index(i), string(f), msg))
		}
	}
	return errs
}

// maxConfigMapSize is core.MaxSecretSize, the cap on a ConfigMap's data:
// every object must fit in one etcd value and one watch event.
const maxConfigMapSize = 1024 * 1024

// validateConfigMap is ValidateConfigMap: keys become file names when the
// ConfigMap is mounted, hence the file-name-safe syntax.
func validateConfigMap(cm *api.ConfigMap, namespaced bool) errorList {
	errs := validateObjectMeta(&cm.ObjectMeta, namespaced, api.NameIsDNSSubdomain, newPath("metadata"))
	total := 0
	for _, k := range sortedKeys(cm.Data) {
		total += len(cm.Data[k])
		for _, msg := range isConfigMapKey(k) {
			errs = append(errs, invalid(newPath("data").Key(k), k, msg))
		}
	}
	for _, k := range sortedKeys(cm.BinaryData) {
		total += len(cm.BinaryData[k])
		for _, msg := range isConfigMapKey(k) {
			errs = append(errs, invalid(newPath("binaryData").Key(k), k, msg))
		}
		if _, dup := cm.Data[k]; dup {
			errs = append(errs, invalid(newPath("binaryData").Key(k), k, "duplicate of key present in data"))
		}
	}
	if total > maxConfigMapSize {
		// An empty path: the error is about the whole object.
		errs = append(errs, tooLong("", maxConfigMapSize))
	}
	return errs
}

// validateConfigMapUpdate: an immutable ConfigMap keeps its data forever,
// which is what lets kubelets stop watching it.
func validateConfigMapUpdate(cm, old *api.ConfigMap) errorList {
	errs := validateConfigMap(cm, true)
	kept := errs[:0]
	for _, e := range errs {
		if !isUnder(e.Field, "metadata") {
			kept = append(kept, e)
		}
	}
	errs = append(kept, validateObjectMetaUpdate(&cm.ObjectMeta, &old.ObjectMeta, newPath("metadata"))...)
	if old.Immutable != nil && *old.Immutable {
		const msg = "field is immutable when `immutable` is set"
		if cm.Immutable == nil || !*cm.Immutable {
			errs = append(errs, forbidden(newPath("immutable"), msg))
		}
		if !semanticallyEqual(cm.Data, old.Data) {
			errs = append(errs, forbidden(newPath("data"), msg))
		}
		if !semanticallyEqual(cm.BinaryData, old.BinaryData) {
			errs = append(errs, forbidden(newPath("binaryData"), msg))
		}
	}
	return errs
}

// isConfigMapKey is IsConfigMapKey, with Kubernetes' messages.
func isConfigMapKey(k string) []string {
	var errs []string
	if len(k) > api.DNS1123SubdomainMaxLength {
		errs = append(errs, fmt.Sprintf("must be no more than %d characters", api.DNS1123SubdomainMaxLength))
	}
	ok := k != ""
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_') {
			ok = false
		}
	}
	if !ok {
		errs = append(errs, "a valid config key must consist of alphanumeric characters, '-', '_' or '.' "+
			"(e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')")
	}
	switch {
	case k == ".":
		errs = append(errs, "must not be '.'")
	case k == "..":
		errs = append(errs, "must not be '..'")
	case len(k) > 2 && k[:2] == "..":
		errs = append(errs, "must not start with '..'")
	}
	return errs
}

// Event field limits (legacyValidateEvent).
const (
	eventReasonMaxLength = 128
	eventActionMaxLength = 128
)

// validateEvent is legacyValidateEvent, the rules core/v1 Events get: an
// event lives in its object's namespace (so kubectl describe finds it
// there); events about cluster-scoped objects live in "default".
func validateEvent(e *api.Event, namespaced bool) errorList {
	errs := validateObjectMeta(&e.ObjectMeta, namespaced, api.NameIsDNSSubdomain, newPath("metadata"))
	ip := newPath("involvedObject", "namespace")
	if e.InvolvedObject.Namespace == "" {
		if e.Namespace != "" && e.Namespace != api.NamespaceDefault {
			errs = append(errs, invalid(ip, e.InvolvedObject.Namespace, "does not match event.namespace"))
		}
	} else if e.Namespace != e.InvolvedObject.Namespace {
		errs = append(errs, invalid(ip, e.InvolvedObject.Namespace, "does not match event.namespace"))
	}
	if !e.EventTime.IsZero() {
		// New-style events (with eventTime) must say who reported them.
		if e.ReportingController == "" {
			errs = append(errs, required(newPath("reportingComponent"), ""))
		}
		if e.ReportingInstance == "" {
			errs = append(errs, required(newPath("reportingInstance"), ""))
		}
	}
	if e.ReportingController != "" {
		for _, msg := range api.IsQualifiedName(e.ReportingController) {
			errs = append(errs, invalid(newPath("reportingComponent"), e.ReportingController, msg))
		}
	}
	if len(e.Reason) > eventReasonMaxLength {
		errs = append(errs, invalid(newPath("reason"), e.Reason, fmt.Sprintf("can have at most %d characters", eventReasonMaxLength)))
	}
	if len(e.Action) > eventActionMaxLength {
		errs = append(errs, invalid(newPath("action"), e.Action, fmt.Sprintf("can have at most %d characters", eventActionMaxLength)))
	}
	return errs
}

// validateLease is ValidateLease (pkg/apis/coordination/validation): a lease
// that lasts zero seconds could never be held.
func validateLease(l *api.Lease, namespaced bool) errorList {
	errs := validateObjectMeta(&l.ObjectMeta, namespaced, api.NameIsDNSSubdomain, newPath("metadata"))
	if d := l.Spec.LeaseDurationSeconds; d != nil && *d <= 0 {
		errs = append(errs, invalid(newPath("spec", "leaseDurationSeconds"), *d, "must be greater than 0"))
	}
	if t := l.Spec.LeaseTransitions; t != nil {
		errs = append(errs, validateNonnegative(*t, newPath("spec", "leaseTransitions"))...)
	}
	return errs
}

// validateBinding is ValidatePodBinding: a pod can only be bound to a node.
func validateBinding(b *api.Binding) errorList {
	var errs errorList
	if b.Target.Kind != "" && b.Target.Kind != "Node" {
		errs = append(errs, notSupported(newPath("target", "kind"), b.Target.Kind, []string{"Node", "<empty>"}))
	}
	if b.Target.Name == "" {
		errs = append(errs, required(newPath("target", "name"), ""))
	}
	return errs
}

package namespace

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"kubeloop/api"
	"kubeloop/client"
)

// conditionTypes are the conditions the namespace controller owns, in the
// order it writes them. Kubernetes: pkg/controller/namespace/deletion/
// status_condition_utils.go, conditionTypes.
var conditionTypes = []api.NamespaceConditionType{
	api.NamespaceDeletionDiscoveryFailure,
	api.NamespaceDeletionGVParsingFailure,
	api.NamespaceDeletionContentFailure,
	api.NamespaceContentRemaining,
	api.NamespaceFinalizersRemaining,
}

// okReasons and okMessages are what each condition says, False, when
// nothing is wrong (Kubernetes: okReasons, okMessages).
var (
	okReasons = map[api.NamespaceConditionType]string{
		api.NamespaceDeletionDiscoveryFailure: "ResourcesDiscovered",
		api.NamespaceDeletionGVParsingFailure: "ParsedGroupVersions",
		api.NamespaceDeletionContentFailure:   "ContentDeleted",
		api.NamespaceContentRemaining:         "ContentRemoved",
		api.NamespaceFinalizersRemaining:      "ContentRemoved",
	}
	okMessages = map[api.NamespaceConditionType]string{
		api.NamespaceDeletionDiscoveryFailure: "All resources successfully discovered",
		api.NamespaceDeletionGVParsingFailure: "All legacy kube types successfully parsed",
		api.NamespaceDeletionContentFailure:   "All content successfully deleted, may be waiting on finalization",
		api.NamespaceContentRemaining:         "All content successfully removed",
		api.NamespaceFinalizersRemaining:      "All content successfully removed",
	}
)

// namespaceConditionUpdater collects what one pass of deleteAllContent ran
// into and turns it into conditions. Kubernetes: namespaceConditionUpdater.
type namespaceConditionUpdater struct {
	newConditions       []api.NamespaceCondition
	deleteContentErrors []error
}

func trueCondition(t api.NamespaceConditionType, reason, message string) api.NamespaceCondition {
	return api.NamespaceCondition{Type: t, Status: api.ConditionTrue, LastTransitionTime: api.Now(), Reason: reason, Message: message}
}

// ProcessDiscoverResourcesErr records a failed discovery.
func (u *namespaceConditionUpdater) ProcessDiscoverResourcesErr(err error) {
	msg := err.Error()
	var failed *client.ErrGroupDiscoveryFailed
	if errors.As(err, &failed) {
		msg = fmt.Sprintf("Discovery failed for some groups, %d failing: %v", len(failed.Groups), err)
	}
	u.newConditions = append(u.newConditions, trueCondition(api.NamespaceDeletionDiscoveryFailure, "DiscoveryFailed", msg))
}

// ProcessGroupVersionErr records a group version that did not parse.
func (u *namespaceConditionUpdater) ProcessGroupVersionErr(err error) {
	u.newConditions = append(u.newConditions, trueCondition(api.NamespaceDeletionGVParsingFailure, "GroupVersionParsingFailed", err.Error()))
}

// ProcessDeleteContentErr records the failure of one resource's deletion.
func (u *namespaceConditionUpdater) ProcessDeleteContentErr(err error) {
	u.deleteContentErrors = append(u.deleteContentErrors, err)
}

// ProcessContentTotals records what is left: per resource, and per
// finalizer that holds it.
func (u *namespaceConditionUpdater) ProcessContentTotals(totals allGVRDeletionMetadata) {
	if len(totals.gvrToNumRemaining) > 0 {
		var remaining []string
		for gvr, n := range totals.gvrToNumRemaining {
			if n > 0 {
				remaining = append(remaining, fmt.Sprintf("%s.%s has %d resource instances", gvr.Resource, gvr.Group, n))
			}
		}
		// Sorted, so an unchanged situation writes nothing.
		sort.Strings(remaining)
		u.newConditions = append(u.newConditions, trueCondition(api.NamespaceContentRemaining, "SomeResourcesRemain",
			"Some resources are remaining: "+strings.Join(remaining, ", ")))
	}
	if len(totals.finalizersToNumRemaining) > 0 {
		var byFinalizer []string
		for f, n := range totals.finalizersToNumRemaining {
			if n > 0 {
				byFinalizer = append(byFinalizer, fmt.Sprintf("%s in %d resource instances", f, n))
			}
		}
		sort.Strings(byFinalizer)
		u.newConditions = append(u.newConditions, trueCondition(api.NamespaceFinalizersRemaining, "SomeFinalizerRemain",
			"Some finalizers are remaining: "+strings.Join(byFinalizer, ", ")))
	}
}

// Update writes the collected conditions into ns's status, each condition
// type False with its ok reason when nothing went wrong with it, and says
// whether anything changed.
func (u *namespaceConditionUpdater) Update(ns *api.Namespace) bool {
	if getCondition(u.newConditions, api.NamespaceDeletionContentFailure) == nil && len(u.deleteContentErrors) > 0 {
		msgs := make([]string, 0, len(u.deleteContentErrors))
		for _, e := range u.deleteContentErrors {
			msgs = append(msgs, e.Error())
		}
		sort.Strings(msgs)
		u.newConditions = append(u.newConditions, trueCondition(api.NamespaceDeletionContentFailure, "ContentDeletionFailed",
			fmt.Sprintf("Failed to delete all resource types, %d remaining: %v", len(u.deleteContentErrors), strings.Join(msgs, ", "))))
	}
	return updateConditions(&ns.Status, u.newConditions)
}

// updateConditions merges newConditions into status; a condition's
// lastTransitionTime moves only when its status does.
func updateConditions(status *api.NamespaceStatus, newConditions []api.NamespaceCondition) (changed bool) {
	for _, t := range conditionTypes {
		next := getCondition(newConditions, t)
		if next == nil {
			next = &api.NamespaceCondition{Type: t, Status: api.ConditionFalse, LastTransitionTime: api.Now(),
				Reason: okReasons[t], Message: okMessages[t]}
		}
		old := getCondition(status.Conditions, t)
		switch {
		case old == nil:
			status.Conditions = append(status.Conditions, *next)
			changed = true
		case old.Status != next.Status || old.Reason != next.Reason || old.Message != next.Message:
			if old.Status != next.Status {
				old.LastTransitionTime = api.Now()
			}
			old.Status, old.Reason, old.Message = next.Status, next.Reason, next.Message
			changed = true
		}
	}
	return changed
}

func getCondition(conditions []api.NamespaceCondition, t api.NamespaceConditionType) *api.NamespaceCondition {
	for i := range conditions {
		if conditions[i].Type == t {
			return &conditions[i]
		}
	}
	return nil
}

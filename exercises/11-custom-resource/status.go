package website

import (
	"encoding/json"
	"fmt"
	"time"

	"kubeloop/api"
)

// A Website is *api.Unstructured: typed metadata, and spec and status as
// JSON values (map[string]any). These types and converters give the
// reconcile typed spec and status to work with, as a generated client
// would; what goes to the server is still the unstructured object.

// WebsiteSpec is what the user asks for.
type WebsiteSpec struct {
	HTML string `json:"html"`
}

// WebsiteStatus is what the controller reports.
type WebsiteStatus struct {
	// ObservedGeneration is the metadata.generation this status describes.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// ConfigMapName names the ConfigMap that publishes the page.
	ConfigMapName string      `json:"configMapName,omitempty"`
	Conditions    []Condition `json:"conditions,omitempty"`
}

// Condition is metav1.Condition: the shape every new API uses.
type Condition struct {
	Type   string `json:"type"`
	Status string `json:"status"`
	// ObservedGeneration is the generation the condition was computed for.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime api.Time `json:"lastTransitionTime"`
	Reason             string   `json:"reason,omitempty"`
	Message            string   `json:"message,omitempty"`
}

// specOf reads a Website's spec.
func specOf(site *api.Unstructured) (WebsiteSpec, error) {
	var spec WebsiteSpec
	err := convert(site.Content["spec"], &spec)
	return spec, err
}

// statusOf reads a Website's status (the zero status if it has none).
func statusOf(site *api.Unstructured) (WebsiteStatus, error) {
	var status WebsiteStatus
	err := convert(site.Content["status"], &status)
	return status, err
}

// withStatus returns a deep copy of site carrying status: the object to
// send. site, from the informer's cache, is left as it is.
func withStatus(site *api.Unstructured, status WebsiteStatus) (*api.Unstructured, error) {
	var content map[string]any
	if err := convert(status, &content); err != nil {
		return nil, err
	}
	out := site.DeepCopy()
	out.Content["status"] = content
	return out, nil
}

// convert goes through JSON, as a generated client's decoder would.
func convert(in, out any) error {
	if in == nil {
		return nil
	}
	data, err := json.Marshal(in)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("website: %w", err)
	}
	return nil
}

// setCondition returns conds with cond in place of the condition of its
// type, as Kubernetes' meta.SetStatusCondition does: LastTransitionTime
// moves to now only when the status changes (or the condition is new);
// reason, message and observedGeneration are updated in place. conds is
// not changed (it may be the cache's).
func setCondition(conds []Condition, cond Condition, now time.Time) []Condition {
	out := append([]Condition(nil), conds...)
	for i := range out {
		if out[i].Type != cond.Type {
			continue
		}
		if out[i].Status == cond.Status {
			cond.LastTransitionTime = out[i].LastTransitionTime
		} else {
			cond.LastTransitionTime = api.NewTime(now)
		}
		out[i] = cond
		return out
	}
	cond.LastTransitionTime = api.NewTime(now)
	return append(out, cond)
}

// findCondition returns the condition of type t, or nil.
func findCondition(conds []Condition, t string) *Condition {
	for i := range conds {
		if conds[i].Type == t {
			return &conds[i]
		}
	}
	return nil
}

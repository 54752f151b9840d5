//go:build !solution

package website

import (
	"context"
	"fmt"
	"time"

	"kubeloop/api"
)

// This is your file. Write newConfigMap, calculateStatus and syncWebsite;
// keep the signatures.
// Run the grader with: go test -tags exercise ./exercises/11-custom-resource/

// newConfigMap is the ConfigMap that publishes site: named
// configMapName(site), in site's namespace, data {HTMLKey: spec.HTML}, and
// owned by site: one ownerReference with site's apiVersion, kind, name and
// UID, controller: true and blockOwnerDeletion: true. That reference is
// what lets the garbage collector delete the ConfigMap when the Website
// goes, and what tells everyone (handleConfigMap, other controllers) whose
// ConfigMap it is.
func newConfigMap(site *api.Unstructured, spec WebsiteSpec) *api.ConfigMap {
	// TODO
	return nil
}

// calculateStatus is the status site should have, given the Ready
// condition the reconcile decided on: start from site's current status;
// set ObservedGeneration to site.Generation (the spec this status
// describes), ConfigMapName to configMapName(site), and put ready (with
// its ObservedGeneration set to site.Generation too) into the conditions
// with setCondition and now. The same world gives the same status: that
// is what lets syncWebsite write nothing on a second pass.
func calculateStatus(site *api.Unstructured, current WebsiteStatus, ready Condition, now time.Time) WebsiteStatus {
	// TODO
	return WebsiteStatus{}
}

// syncWebsite reconciles one Website (key is "namespace/name"):
//
//   - read it from c.siteLister; gone: nothing to do (the garbage
//     collector deletes its ConfigMap, if it owned one);
//   - read its spec (specOf) and its ConfigMap from c.cmLister;
//   - no ConfigMap: create newConfigMap(site, spec); one that site does not
//     control (isControlledBy): leave it alone, report Ready False with
//     reason ReasonConfigMapExists, and return an error (the key is
//     retried later); one whose data differs: Update a DeepCopy with the
//     right data;
//   - then Ready True, reason ReasonPublished; compute the status
//     (calculateStatus, with c.clock.Now()) and, only if it differs from
//     the current one (api.SemanticEqual), write it through the status
//     subresource: c.websites.Namespace(ns).UpdateStatus with
//     withStatus(site, status). The main resource ignores status changes.
func (c *Controller) syncWebsite(ctx context.Context, key string) error {
	// TODO
	return fmt.Errorf("syncWebsite %q: %w", key, ErrNotImplemented)
}

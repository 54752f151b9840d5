//go:build !solution

package apply

import (
	"context"
	"fmt"

	"kubeloop/client"
)

// This is your file. Write applyConfiguration and Apply; keep the
// signatures.
// Run the grader with: go test -tags exercise ./exercises/12-server-side-apply/

// applyConfiguration is the Deployment as the operator wants it, with the
// fields it has an opinion on and no other, as JSON values (what
// json.Marshal makes of it is the body of the apply):
//
//	apiVersion: apps/v1
//	kind: Deployment
//	metadata: {name: NAME, namespace: NS, labels: {app: NAME, ...app.Labels}}
//	spec:
//	  replicas: N                       # only if app.Replicas is set
//	  selector: {matchLabels: {app: NAME}}
//	  template:
//	    metadata: {labels: {app: NAME}}
//	    spec: {containers: [{name: web, image: IMAGE}]}
//
// Every field present is a field the operator will own: no status, no
// resourceVersion, no defaults, no zero values standing for "unset".
func applyConfiguration(app WebApp) map[string]any {
	// TODO
	return nil
}

// Apply sends applyConfiguration(app) as a server-side apply: a PATCH of
// type client.ApplyPatchType with FieldManager, and force only if
// app.ForceConflicts. The server creates the Deployment if it is missing,
// merges the configuration with the fields other managers own, removes
// the fields the operator owned and no longer sends (unless someone else
// owns them too), and records the operator's fields in managedFields.
//
// A 409 Conflict means another manager owns a field the configuration
// sets to another value. Without force, give the field up: remove each
// field the conflict names (conflictingFields, removeField) from the
// configuration and apply once more; report them in Result.Yielded. A
// second conflict, and every other error, is returned.
func Apply(ctx context.Context, c *client.Client, app WebApp) (Result, error) {
	// TODO
	return Result{}, fmt.Errorf("apply %s/%s: %w", app.Namespace, app.Name, ErrNotImplemented)
}

// Package deployment is the registry of Deployments: their strategy and the
// REST storage of deployments, deployments/status and deployments/scale.
//
// Where it sits on the spine: `kubectl create deployment`, `kubectl scale
// deployment` and every write of the deployment controller land here. A
// spec change bumps metadata.generation, which is how the controller (and
// `kubectl rollout status`, through status.observedGeneration) tells a new
// spec from one it has already rolled out.
//
// Kubernetes counterparts (v1.37.2): pkg/registry/apps/deployment/strategy.go
// (deploymentStrategy.PrepareForCreate, PrepareForUpdate, Validate,
// ValidateUpdate; deploymentStatusStrategy) and
// pkg/registry/apps/deployment/storage/storage.go (NewStorage, ScaleREST,
// scaleUpdatedObjectInfo, scaleFromDeployment); ScaleREST is
// generic.ScaleREST over this package's Scale view (storage.go scaler).
//
// What we simplify: one API version (apps/v1), so there is no
// extensions/v1beta1 or apps/v1beta2 Scale and no rollback subresource
// (apps/v1 has none either); the Scale's selector is the Deployment's
// selector as a string.
package deployment

// Package admission is the apiserver's last word on a write: a chain of
// plugins that may change an object (mutating) and then may refuse it
// (validating) before it is stored, and the per-kind validation rules the
// registry's strategies call.
//
// Where it sits on the spine: between the endpoint handler and the
// registry. The handler decodes a request body and runs the mutating phase
// (Chain.Admit); the registry prepares the object for storage (uid,
// generation, generated name), validates it with its kind's rules
// (ValidateCreate, ValidateUpdate, called from the strategy), runs the
// validating phase (Chain.Validate, handed down by the handler) and only
// then writes to the store:
//
//	decode → admission mutate → prepare → strategy validate → admission validate → store
//
// Every refusal is an *api.StatusError the apiserver sends as is: 404 for a
// missing namespace, 403 Forbidden for a terminating or immortal one, 422
// Invalid with one cause per bad field (`spec.replicas: Invalid value: -1:
// must be greater than or equal to 0`), worded as Kubernetes words them so
// kubectl prints the same lines.
//
// The plugins, in NewDefaultChain's order:
//   - NamespaceLifecycle (first in both phases, never mutates): no creates
//     in a missing or terminating namespace, no deleting default,
//     kube-system, kube-public or kube-node-lease.
//   - Defaulting (mutating): the SetDefaults_* values — restartPolicy
//     Always, terminationGracePeriodSeconds 30, imagePullPolicy from the
//     tag, requests from limits, replicas 1, a Deployment's RollingUpdate
//     25%/25%, a Job's backoffLimit 6, a Secret's type Opaque, namespace
//     phase Active, ... — and a Secret's stringData folded into data.
//
// The optional plugins, which NewChainWith adds by name (kube-apiserver's
// --enable-admission-plugins; the cluster package decides which are on):
//   - ServiceAccount (both phases, after NamespaceLifecycle): a pod runs
//     as its namespace's "default" account unless it names another, is
//     refused until that account exists, and gets the kube-api-access-*
//     token volume mounted in every container.
//   - NodeRestriction (validating, last): a kubelet writes only its own
//     Node, Lease and pods.
//
// The rules (Validation, ValidateCreate, ValidateUpdate): per-kind checks
// with field paths, called by the registry strategies.
//
// Kubernetes counterparts (release v1.37.2):
//   - staging/src/k8s.io/apiserver/pkg/admission/chain.go (chainAdmissionHandler:
//     Admit runs the mutating plugins, Validate the validating ones, each in
//     order; kube-apiserver runs every mutating plugin before any validating
//     one, in the order of pkg/kubeapiserver/options/plugins.go
//     AllOrderedPlugins, which --enable-admission-plugins cannot reorder).
//   - staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go
//     (Lifecycle.Admit). It implements only Admit, so it runs in the
//     mutating phase, and it is first in the default order. Ours also
//     validates, because kubeloop's apiserver runs only the validating
//     phase for a delete.
//   - pkg/apis/core/v1/defaults.go (SetDefaults_Pod, SetDefaults_PodSpec,
//     SetDefaults_Container, SetDefaults_NamespaceStatus, SetDefaults_NodeStatus,
//     SetDefaults_Secret), pkg/apis/apps/v1/defaults.go (SetDefaults_ReplicaSet,
//     SetDefaults_Deployment), pkg/apis/batch/v1/defaults.go (SetDefaults_Job),
//     and the v1 → internal Secret conversion that folds stringData into data
//     (Convert_v1_Secret_To_core_Secret).
//   - pkg/apis/core/validation/validation.go (ValidatePodCreate,
//     ValidatePodSpec, ValidatePodUpdate, ValidateNode, ValidateNamespace,
//     ValidateConfigMap, ValidatePodBinding, ValidateEventCreate,
//     ValidateSecret, ValidateSecretUpdate, ValidateServiceAccount),
//     pkg/apis/apps/validation/validation.go (ValidateReplicaSet,
//     ValidateReplicaSetSpec, ValidatePodTemplateSpecForReplicaSet,
//     ValidateDeployment, ValidateDeploymentSpec, ValidateDeploymentStrategy,
//     ValidateRollingUpdateDeployment, ValidateDeploymentUpdate),
//     pkg/apis/batch/validation/validation.go (ValidateJob, ValidateJobSpec,
//     ValidateJobSpecUpdate, validateGeneratedSelector),
//     pkg/apis/coordination/validation/validation.go (ValidateLease),
//     pkg/apis/autoscaling/validation/validation.go (ValidateScale), and
//     staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go
//     (ValidateObjectMeta, ValidateObjectMetaUpdate).
//   - staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go
//     (the message shapes field.go reproduces).
//   - plugin/pkg/admission/serviceaccount/admission.go (Plugin.Admit,
//     Validate, getServiceAccount, mountServiceAccountToken,
//     TokenVolumeSource) and plugin/pkg/admission/noderestriction/admission.go.
//
// What we simplify:
//   - In Kubernetes, defaulting happens while decoding, not as an admission
//     plugin. Here it is the second mutating plugin; the order an object
//     goes through is the same. The validation rules live in this package
//     rather than in a package of their own (Kubernetes:
//     pkg/apis/<group>/validation).
//   - No webhooks (MutatingAdmissionWebhook, ValidatingAdmissionWebhook),
//     no ValidatingAdmissionPolicy/CEL, no dynamic plugin configuration,
//     no admission for connect verbs, no audit annotations. Dry runs are
//     admitted like any write: no plugin here has side effects, so none
//     needs to know (Kubernetes tells plugins through Attributes.IsDryRun).
//   - No other built-in plugins: LimitRanger, ResourceQuota, PodSecurity,
//     Priority, DefaultTolerationSeconds, TaintNodesByCondition, and the
//     rest are absent. ServiceAccount and NodeRestriction leave parts out
//     (see their types).
//   - NamespaceLifecycle asks its NamespaceGetter every time; Kubernetes
//     reads an informer cache, waits briefly for a just-created namespace
//     and falls back to a live read. A malformed namespace name skips the
//     lookup so that validation answers 422 instead of 404.
//   - Far fewer rules: no volumes, probes, security contexts, init or
//     ephemeral containers, env sources, affinity terms, host networking,
//     pod-level resources, status-subresource rules, or the
//     declarative-validation layer. A pod update may change container and
//     init container images, activeDeadlineSeconds and add tolerations
//     (Kubernetes also allows in-place resizes). A status write checks
//     metadata, and only Deployments' and Jobs' status rules beyond it. Of a Job's podFailurePolicy only the actions, the exit code
//     operator, non-empty values and "exactly one of onExitCodes and
//     onPodConditions" are checked (Kubernetes also checks value order, 0
//     with In, container names and condition types); successPolicy rules
//     and the scheduling configuration are not checked at all.
//   - Update keeps uid and creationTimestamp only when the client leaves
//     them out (Kubernetes overwrites creationTimestamp silently); a
//     different value is refused as immutable. The deletion fields and
//     resourceVersion are left to the apiserver.
//   - The namespace "kubernetes" spec finalizer is not added on create,
//     because only a namespace controller could remove it.
//   - Quantities are compared as numbers but otherwise kept as written.
package admission

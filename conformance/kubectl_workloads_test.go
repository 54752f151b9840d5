package conformance

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

const deployV1 = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: applied
spec:
  replicas: 0
  selector: {matchLabels: {app: applied}}
  template:
    metadata: {labels: {app: applied}}
    spec:
      containers:
      - name: web
        image: nginx:1
`

// deployV2 switches to Recreate: kubectl's patch carries $retainKeys for
// spec.strategy, which must drop the defaulted rollingUpdate bounds.
const deployV2 = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: applied
spec:
  replicas: 0
  strategy: {type: Recreate}
  selector: {matchLabels: {app: applied}}
  template:
    metadata: {labels: {app: applied}}
    spec:
      containers:
      - name: web
        image: nginx:2
`

// TestKubectlWorkloads drives every real kubectl found through the
// Deployment, Job, Secret and ServiceAccount commands users run, asserting
// what a real cluster prints. The cluster's controllers act on the objects
// meanwhile (the Job controller runs Jobs, job_kubectl_test.go follows one
// to completion; a Deployment controller creates ReplicaSets and writes
// status), so the columns they fill are matched loosely and a
// read-then-write command is retried on a conflict, as a user would.
func TestKubectlWorkloads(t *testing.T) {
	for _, bin := range requireKubectls(t) {
		t.Run(bin.version, func(t *testing.T) {
			k := &kubectl{t: t, bin: bin, namespace: newNamespace(t)}
			t.Run("api-resources", func(t *testing.T) { kubectlWorkloadResources(t, k) })
			t.Run("deployment", func(t *testing.T) { kubectlDeployment(t, k) })
			t.Run("apply-deployment", func(t *testing.T) { kubectlApplyDeployment(t, k) })
			t.Run("job", func(t *testing.T) { kubectlJob(t, k) })
			t.Run("secret", func(t *testing.T) { kubectlSecret(t, k) })
			t.Run("serviceaccount", func(t *testing.T) { kubectlServiceAccount(t, k) })
			t.Run("get-all", func(t *testing.T) { kubectlGetAll(t, k) })
		})
	}
}

func kubectlWorkloadResources(t *testing.T, k *kubectl) {
	out := k.ok("api-resources")
	assert.Regexp(t, `(?m)^deployments\s+deploy\s+apps/v1\s+true\s+Deployment$`, out)
	assert.Regexp(t, `(?m)^jobs\s+batch/v1\s+true\s+Job$`, out)
	assert.Regexp(t, `(?m)^secrets\s+v1\s+true\s+Secret$`, out)
	assert.Regexp(t, `(?m)^serviceaccounts\s+sa\s+v1\s+true\s+ServiceAccount$`, out)
	assert.Contains(t, k.ok("api-resources", "--categories=all"), "deployments")
}

func kubectlDeployment(t *testing.T, k *kubectl) {
	assert.Equal(t, "deployment.apps/web created\n", k.ok("create", "deployment", "web", "--image=nginx"))
	out := k.ok("get", "deploy")
	assert.Equal(t, "NAME READY UP-TO-DATE AVAILABLE AGE", header(out))
	assert.Regexp(t, `(?m)^web\s+[01]/1\s+[01]\s+[01]\s+\d+s$`, out)
	out = k.ok("get", "deployments", "web", "-o", "wide")
	assert.Equal(t, "NAME READY UP-TO-DATE AVAILABLE AGE CONTAINERS IMAGES SELECTOR", header(out))
	assert.Regexp(t, `(?m)^web\s+[01]/1\s+[01]\s+[01]\s+\d+s\s+nginx\s+nginx\s+app=web$`, out)
	assert.Equal(t, "RollingUpdate 25% 25% 10 600", k.ok("get", "deploy", "web", "-o",
		"jsonpath={.spec.strategy.type} {.spec.strategy.rollingUpdate.maxSurge} {.spec.strategy.rollingUpdate.maxUnavailable} {.spec.revisionHistoryLimit} {.spec.progressDeadlineSeconds}"))

	assert.Equal(t, "deployment.apps/web scaled\n", k.ok("scale", "deployment", "web", "--replicas=3"))
	assert.Equal(t, "3 2", k.ok("get", "deploy", "web", "-o", "jsonpath={.spec.replicas} {.metadata.generation}"))
	assert.Equal(t, "deployment.apps/web scaled\n", okDespiteConflicts(t, k, "scale", "deploy/web", "--current-replicas=3", "--replicas=2"))
	assert.Contains(t, k.fails("scale", "deploy", "web", "--current-replicas=7", "--replicas=1"), "error: Expected replicas to be 7, was 2")
	assert.Equal(t, "2", k.ok("get", "deploy", "web", "-o", "jsonpath={.spec.replicas}"))

	assert.Equal(t, `The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`+"\n",
		k.fails("patch", "deploy", "web", "--type=merge", "-p", `{"spec":{"replicas":-1}}`))
	assert.Contains(t, k.ok("set", "image", "deployment/web", "nginx=nginx:1.27"), "deployment.apps/web image updated")
	assert.Equal(t, "nginx:1.27 4", k.ok("get", "deploy", "web", "-o", "jsonpath={.spec.template.spec.containers[0].image} {.metadata.generation}"))

	assert.Equal(t, "deployment.apps/web paused\n", k.ok("rollout", "pause", "deployment/web"))
	assert.Equal(t, "true", k.ok("get", "deploy", "web", "-o", "jsonpath={.spec.paused}"))
	assert.Equal(t, "deployment.apps/web resumed\n", k.ok("rollout", "resume", "deployment/web"))
	assert.Equal(t, "deployment.apps/web restarted\n", k.ok("rollout", "restart", "deployment/web"))
	assert.NotEmpty(t, k.ok("get", "deploy", "web", "-o", `jsonpath={.spec.template.metadata.annotations.kubectl\.kubernetes\.io/restartedAt}`))
	assert.Equal(t, "7", k.ok("get", "deploy", "web", "-o", "jsonpath={.metadata.generation}"), "pause, resume and restart are spec changes")

	out = k.ok("describe", "deployment", "web")
	assert.Regexp(t, `(?m)^Name:\s+web$`, out)
	assert.Regexp(t, `(?m)^StrategyType:\s+RollingUpdate$`, out)
	assert.Regexp(t, `(?m)^RollingUpdateStrategy:\s+25% max unavailable, 25% max surge$`, out)
}

func kubectlApplyDeployment(t *testing.T, k *kubectl) {
	assert.Equal(t, "deployment.apps/applied created\n", k.ok("apply", "-f", writeFile(t, "d1.yaml", deployV1)))
	assert.Equal(t, "deployment.apps/applied configured\n", k.ok("apply", "-f", writeFile(t, "d2.yaml", deployV2)))
	assert.Equal(t, "Recreate  nginx:2", k.ok("get", "deploy", "applied", "-o",
		"jsonpath={.spec.strategy.type} {.spec.strategy.rollingUpdate} {.spec.template.spec.containers[0].image}"))
}

func kubectlJob(t *testing.T, k *kubectl) {
	assert.Equal(t, "job.batch/j created\n", k.ok("create", "job", "j", "--image=busybox"))
	// The Job controller starts it: a startTime (the DURATION column) and a pod.
	k.ok("wait", "--for=jsonpath={.status.active}=1", "job/j", "--timeout=60s")
	out := k.ok("get", "jobs")
	assert.Equal(t, "NAME STATUS COMPLETIONS DURATION AGE", header(out))
	assert.Regexp(t, `(?m)^j\s+Running\s+0/1\s+\d+s\s+\d+s$`, out)
	out = k.ok("get", "job", "j", "-o", "wide")
	assert.Equal(t, "NAME STATUS COMPLETIONS DURATION AGE CONTAINERS IMAGES SELECTOR", header(out))
	assert.Regexp(t, `(?m)^j\s+Running\s+0/1\s+\d+s\s+\d+s\s+j\s+busybox\s+batch.kubernetes.io/controller-uid=[0-9a-f-]{36}$`, out)

	uid := k.ok("get", "job", "j", "-o", "jsonpath={.metadata.uid}")
	assert.Equal(t, uid+" j "+uid+" j", k.ok("get", "job", "j", "-o",
		`jsonpath={.spec.template.metadata.labels.batch\.kubernetes\.io/controller-uid} {.spec.template.metadata.labels.job-name} {.metadata.labels.controller-uid} {.metadata.labels.batch\.kubernetes\.io/job-name}`))
	assert.Equal(t, "1 1 6 NonIndexed false Never", k.ok("get", "job", "j", "-o",
		"jsonpath={.spec.parallelism} {.spec.completions} {.spec.backoffLimit} {.spec.completionMode} {.spec.suspend} {.spec.template.spec.restartPolicy}"))
	// kubectl finds the Job's pod by its generated label; busybox without a
	// command never exits.
	assert.Regexp(t, `(?m)^j-\S+\s+\d/1\s+\S+\s+0\s+`, k.ok("get", "pods", "-l", "job-name=j"))

	out = k.fails("patch", "job", "j", "--type=merge", "-p", `{"spec":{"template":{"spec":{"containers":[{"name":"j","image":"alpine"}]}}}}`)
	assert.True(t, strings.HasPrefix(out, `The Job "j" is invalid: spec.template: Invalid value: `), out)
	assert.True(t, strings.HasSuffix(out, ": field is immutable\n"), out)
	assert.Contains(t, k.ok("patch", "job", "j", "--type=merge", "-p", `{"spec":{"suspend":true}}`), "job.batch/j patched")

	out = k.ok("describe", "job", "j")
	assert.Regexp(t, `(?m)^Name:\s+j$`, out)
	assert.Regexp(t, `(?m)^Completions:\s+1$`, out)
}

func kubectlSecret(t *testing.T, k *kubectl) {
	assert.Equal(t, "secret/s created\n", k.ok("create", "secret", "generic", "s", "--from-literal=a=b", "--from-literal=c=d"))
	out := k.ok("get", "secrets", "s")
	assert.Equal(t, "NAME TYPE DATA AGE", header(out))
	assert.Regexp(t, `(?m)^s\s+Opaque\s+2\s+\d+s$`, out)

	var secret struct {
		Data map[string]string `json:"data"`
		Type string            `json:"type"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(k.ok("get", "secret", "s", "-o", "yaml")), &secret))
	assert.Equal(t, map[string]string{"a": "Yg==", "c": "ZA=="}, secret.Data, "data is base64 on the wire")
	assert.Equal(t, "Opaque", secret.Type)

	assert.Equal(t, "secret/reg created\n", k.ok("create", "secret", "docker-registry", "reg",
		"--docker-server=registry.example", "--docker-username=u", "--docker-password=p"))
	assert.Regexp(t, `(?m)^reg\s+kubernetes.io/dockerconfigjson\s+1\s+`, k.ok("get", "secret", "reg"))
	assert.Equal(t, "secret/tls-s created\n", k.ok("apply", "-f", writeFile(t, "tls.yaml",
		"apiVersion: v1\nkind: Secret\nmetadata: {name: tls-s}\ntype: kubernetes.io/tls\nstringData: {tls.crt: c, tls.key: k}\n")))
	assert.Equal(t, "secret/tls-s\n", k.ok("get", "secrets", "--field-selector=type=kubernetes.io/tls", "-o", "name"))

	out = k.fails("patch", "secret", "s", "--type=merge", "-p", `{"type":"kubernetes.io/basic-auth"}`)
	assert.Contains(t, out, `The Secret "s" is invalid: `)
	assert.Contains(t, out, `type: Invalid value: "kubernetes.io/basic-auth": field is immutable`)
}

func kubectlServiceAccount(t *testing.T, k *kubectl) {
	assert.Equal(t, "serviceaccount/builder created\n", k.ok("create", "serviceaccount", "builder"))
	out := k.ok("get", "sa", "builder")
	assert.Equal(t, "NAME SECRETS AGE", header(out))
	assert.Regexp(t, `(?m)^builder\s+0\s+\d+s$`, out)
	assert.Contains(t, k.fails("get", "sa", "nope"), `serviceaccounts "nope" not found`)
}

func kubectlGetAll(t *testing.T, k *kubectl) {
	out := k.ok("get", "all")
	assert.Contains(t, out, "deployment.apps/web")
	assert.Contains(t, out, "job.batch/j")
	assert.NotContains(t, out, "secret/", "secrets are not in the all category")
	assert.NotContains(t, out, "serviceaccount/")
}

// okDespiteConflicts runs a command that reads and then writes with the
// read resourceVersion (kubectl scale --current-replicas), again while a
// controller's write in between makes it a conflict.
func okDespiteConflicts(t *testing.T, k *kubectl, args ...string) string {
	t.Helper()
	for range 10 {
		r := k.run(args...)
		if r.code == 0 {
			return r.stdout
		}
		require.Contains(t, r.stderr, "the object has been modified", "kubectl %v: %s", args, r.out())
	}
	t.Fatalf("kubectl %v: still conflicting after 10 tries", args)
	return ""
}

package conformance

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKubectlRollsDeploymentsOut drives every real kubectl found through a
// Deployment's life as a user lives it: create, rollout status, set image,
// rollout history and undo, pause and resume, restart, scale, describe, get
// all, delete. The cluster's Deployment controller does the work; kubectl
// only reads what it reports.
func TestKubectlRollsDeploymentsOut(t *testing.T) {
	for _, bin := range requireKubectls(t) {
		t.Run(bin.version, func(t *testing.T) {
			k := &kubectl{t: t, bin: bin, namespace: newNamespace(t)}
			kubectlRollout(t, k)
			kubectlProgressDeadline(t, k)
		})
	}
}

// rolledOut runs `kubectl rollout status` until the rollout is done.
func rolledOut(t *testing.T, k *kubectl, name string) string {
	t.Helper()
	out := k.ok("rollout", "status", "deployment/"+name, "--timeout=50s")
	require.True(t, strings.HasSuffix(out, `deployment "`+name+`" successfully rolled out`+"\n"), out)
	return out
}

// jsonpath reads one field with kubectl get -o jsonpath.
func (k *kubectl) jsonpath(resource, path string) string {
	k.t.Helper()
	return k.ok("get", resource, "-o", "jsonpath="+path)
}

func kubectlRollout(t *testing.T, k *kubectl) {
	assert.Equal(t, "deployment.apps/web created\n", k.ok("create", "deployment", "web", "--image=nginx:1.27", "--replicas=3"))
	rolledOut(t, k, "web")
	assert.Regexp(t, `(?m)^web\s+3/3\s+3\s+3\s+\d+s$`, k.ok("get", "deploy", "web"))
	hash1 := k.jsonpath("rs", "{.items[0].metadata.labels.pod-template-hash}")
	require.NotEmpty(t, hash1)
	out := k.ok("get", "rs")
	assert.Equal(t, "NAME DESIRED CURRENT READY AGE", header(out))
	assert.Regexp(t, `(?m)^web-`+hash1+`\s+3\s+3\s+3\s+\d+s$`, out)
	assert.Equal(t, "1", k.jsonpath("deploy/web", `{.metadata.annotations.deployment\.kubernetes\.io/revision}`))

	// Scaling is no rollout: the one ReplicaSet takes the new size. The
	// events are checked now: the recorder's spam filter (Kubernetes': 25
	// per object, then one per 5 minutes) drops those of later rollouts.
	assert.Equal(t, "deployment.apps/web scaled\n", k.ok("scale", "deployment", "web", "--replicas=5"))
	rolledOut(t, k, "web")
	assert.Regexp(t, `(?m)^web\s+5/5\s+5\s+5\s+\d+s$`, k.ok("get", "deploy", "web"))
	out = k.ok("describe", "deployment", "web")
	assert.Regexp(t, `(?m)^NewReplicaSet:\s+web-`+hash1+` \(5/5 replicas created\)$`, out)
	assert.Regexp(t, `(?m)^OldReplicaSets:\s+<none>$`, out)
	assert.Regexp(t, `(?m)^\s+Normal\s+ScalingReplicaSet\s+\S+\s+deployment-controller\s+Scaled up replica set web-`+hash1+` to 3 from 0$`, out)
	assert.Regexp(t, `(?m)^\s+Normal\s+ScalingReplicaSet\s+\S+\s+deployment-controller\s+Scaled up replica set web-`+hash1+` to 5 from 3$`, out)

	assert.Equal(t, "deployment.apps/web image updated\n", k.ok("set", "image", "deployment/web", "nginx=nginx:1.28"))
	rolledOut(t, k, "web")
	assert.Equal(t, "nginx:1.28", k.jsonpath("deploy/web", "{.spec.template.spec.containers[0].image}"))
	assert.Equal(t, "5 5 5 5", k.jsonpath("deploy/web", "{.status.replicas} {.status.updatedReplicas} {.status.readyReplicas} {.status.availableReplicas}"))

	out = k.ok("rollout", "history", "deployment/web")
	assert.Regexp(t, `(?s)^deployment.apps/web\s*\nREVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>\n`, out)
	out = k.ok("rollout", "history", "deployment/web", "--revision=1")
	assert.Contains(t, out, "deployment.apps/web with revision #1")
	assert.Contains(t, out, "pod-template-hash="+hash1)
	assert.Regexp(t, `Image:\s+nginx:1.27`, out)

	assert.Equal(t, "deployment.apps/web rolled back\n", k.ok("rollout", "undo", "deployment/web"))
	rolledOut(t, k, "web")
	assert.Equal(t, "nginx:1.27", k.jsonpath("deploy/web", "{.spec.template.spec.containers[0].image}"))
	assert.Equal(t, "3", k.jsonpath("rs/web-"+hash1, `{.metadata.annotations.deployment\.kubernetes\.io/revision}`),
		"the first ReplicaSet is new again, with the next revision")
	assert.Equal(t, "1", k.jsonpath("rs/web-"+hash1, `{.metadata.annotations.deployment\.kubernetes\.io/revision-history}`))
	assert.Regexp(t, `(?s)REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>\n`, k.ok("rollout", "history", "deployment/web"))
	assert.Contains(t, k.ok("rollout", "undo", "deployment/web", "--to-revision=3"), "skipped rollback (current template already matches revision 3)")

	assert.Equal(t, "deployment.apps/web paused\n", k.ok("rollout", "pause", "deployment/web"))
	k.ok("set", "image", "deployment/web", "nginx=nginx:1.29")
	require.Eventually(t, func() bool {
		return k.jsonpath("deploy/web", `{.status.conditions[?(@.type=="Progressing")].reason}`) == "DeploymentPaused"
	}, 30*time.Second, 100*time.Millisecond)
	assert.Equal(t, `Waiting for deployment "web" rollout to finish: 0 out of 5 new replicas have been updated...`+"\n",
		k.ok("rollout", "status", "deployment/web", "--watch=false"), "a paused rollout does not move")
	assert.Contains(t, k.fails("rollout", "undo", "deployment/web"), "you cannot rollback a paused deployment")
	assert.Equal(t, "deployment.apps/web resumed\n", k.ok("rollout", "resume", "deployment/web"))
	rolledOut(t, k, "web")
	assert.Equal(t, "4", k.jsonpath("deploy/web", `{.metadata.annotations.deployment\.kubernetes\.io/revision}`))

	assert.Equal(t, "deployment.apps/web restarted\n", k.ok("rollout", "restart", "deployment/web"))
	rolledOut(t, k, "web")
	assert.NotEmpty(t, k.jsonpath("deploy/web", `{.spec.template.metadata.annotations.kubectl\.kubernetes\.io/restartedAt}`))
	assert.Equal(t, "5", k.jsonpath("deploy/web", `{.metadata.annotations.deployment\.kubernetes\.io/revision}`))

	current := k.ok("get", "rs", "-l", "app=web", "-o", `jsonpath={range .items[?(@.spec.replicas==5)]}{.metadata.name}{end}`)
	require.NotEmpty(t, current)

	out = k.ok("describe", "deployment", "web")
	assert.Regexp(t, `(?m)^Replicas:\s+5 desired \| 5 updated \| 5 total \| 5 available \| 0 unavailable`, out)
	assert.Regexp(t, `(?m)^\s+Available\s+True\s+MinimumReplicasAvailable$`, out)
	assert.Regexp(t, `(?m)^\s+Progressing\s+True\s+NewReplicaSetAvailable$`, out)
	assert.Regexp(t, `(?m)^NewReplicaSet:\s+`+regexp.QuoteMeta(current)+` \(5/5 replicas created\)$`, out)
	assert.Regexp(t, `(?m)^OldReplicaSets:\s+.*web-`+hash1+` \(0/0 replicas created\)`, out)

	out = k.ok("get", "all")
	assert.Contains(t, out, "deployment.apps/web")
	assert.Contains(t, out, "replicaset.apps/"+current)
	assert.Regexp(t, `(?m)^pod/`+regexp.QuoteMeta(current)+`-\w{5}\s+1/1\s+Running`, out)

	assert.Equal(t, `deployment.apps "web" deleted`+"\n", k.ok("delete", "deployment", "web"))
	require.Eventually(t, func() bool {
		return k.run("get", "rs,pods", "-l", "app=web", "-o", "name").stdout == ""
	}, 30*time.Second, 100*time.Millisecond, "the garbage collector removes the ReplicaSets and their pods")
}

// brokenDeployment's pods crash at once (the simulated kubelet's
// kubeloop.dev/exit-code), so its rollout never progresses.
const brokenDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: broken
spec:
  replicas: 1
  progressDeadlineSeconds: 2
  selector: {matchLabels: {app: broken}}
  template:
    metadata:
      labels: {app: broken}
      annotations: {kubeloop.dev/exit-code: "1"}
    spec:
      containers:
      - name: web
        image: nginx
`

func kubectlProgressDeadline(t *testing.T, k *kubectl) {
	assert.Equal(t, "deployment.apps/broken created\n", k.ok("apply", "-f", writeFile(t, "broken.yaml", brokenDeployment)))
	r := k.run("rollout", "status", "deployment/broken", "--timeout=50s")
	assert.Equal(t, 1, r.code, r.out())
	assert.Contains(t, r.stderr, `error: deployment "broken" exceeded its progress deadline`)
	assert.Equal(t, "False ProgressDeadlineExceeded", k.jsonpath("deploy/broken",
		`{.status.conditions[?(@.type=="Progressing")].status} {.status.conditions[?(@.type=="Progressing")].reason}`))
	assert.Equal(t, "False MinimumReplicasUnavailable", k.jsonpath("deploy/broken",
		`{.status.conditions[?(@.type=="Available")].status} {.status.conditions[?(@.type=="Available")].reason}`))
}

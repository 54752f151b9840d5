package conformance

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
)

// failingJob fails its only pod, and backoffLimit 0 allows no retry.
const failingJob = `apiVersion: batch/v1
kind: Job
metadata:
  name: fail
spec:
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: work
        image: busybox
        command: ["sh", "-c", "sleep 0.5; exit 3"]
`

// TestKubectlJobs runs the tutorial's Job commands with every real kubectl:
// create job, wait for completion, get jobs, and a Job that fails.
func TestKubectlJobs(t *testing.T) {
	for _, bin := range requireKubectls(t) {
		t.Run(bin.version, func(t *testing.T) {
			k := &kubectl{t: t, bin: bin, namespace: newNamespace(t)}
			t.Run("complete", func(t *testing.T) { kubectlJobCompletes(t, k) })
			t.Run("fail", func(t *testing.T) { kubectlJobFails(t, k) })
		})
	}
}

func kubectlJobCompletes(t *testing.T, k *kubectl) {
	out := k.ok("create", "job", "j", "--image=busybox", "--", "sh", "-c", "sleep 1; exit 0")
	assert.Equal(t, "job.batch/j created\n", out)
	assert.Equal(t, "job.batch/j condition met\n", k.ok("wait", "--for=condition=complete", "job/j", "--timeout=60s"))

	out = k.ok("get", "jobs")
	assert.Equal(t, "NAME STATUS COMPLETIONS DURATION AGE", header(out))
	assert.Regexp(t, `(?m)^j\s+Complete\s+1/1\s+\d+s\s+\d+s$`, out)
	out = k.ok("get", "jobs", "-o", "wide")
	assert.Equal(t, "NAME STATUS COMPLETIONS DURATION AGE CONTAINERS IMAGES SELECTOR", header(out))
	assert.Regexp(t, `(?m)^j\s+Complete\s+1/1\s+\d+s\s+\d+s\s+j\s+busybox\s+batch.kubernetes.io/controller-uid=[0-9a-f-]+$`, out)

	var job batchv1.Job
	require.NoError(t, json.Unmarshal([]byte(k.ok("get", "job", "j", "-o", "json")), &job))
	assert.Equal(t, int32(1), job.Status.Succeeded)
	assert.NotNil(t, job.Status.CompletionTime)
	require.Len(t, job.Status.Conditions, 2)
	assert.Equal(t, batchv1.JobSuccessCriteriaMet, job.Status.Conditions[0].Type)
	assert.Equal(t, batchv1.JobComplete, job.Status.Conditions[1].Type)
	assert.Equal(t, batchv1.JobReasonCompletionsReached, job.Status.Conditions[1].Reason)

	// The pod ran the command and exited 0; its finalizer is gone.
	var pods corev1.PodList
	require.NoError(t, json.Unmarshal([]byte(k.ok("get", "pods", "-l", "job-name=j", "-o", "json")), &pods))
	require.Len(t, pods.Items, 1)
	p := pods.Items[0]
	assert.True(t, strings.HasPrefix(p.Name, "j-"), p.Name)
	assert.Equal(t, corev1.PodSucceeded, p.Status.Phase)
	assert.Empty(t, p.Finalizers)
	require.Len(t, p.Status.ContainerStatuses, 1)
	term := p.Status.ContainerStatuses[0].State.Terminated
	require.NotNil(t, term)
	assert.Equal(t, int32(0), term.ExitCode)
	assert.Equal(t, "Completed", term.Reason)
	assert.Regexp(t, `(?m)^j-\S+\s+0/1\s+Completed\s+0\s+`, k.ok("get", "pods"))

	out = k.ok("describe", "job", "j")
	assert.Regexp(t, `Pods Statuses:\s+0 Active \(0 Ready\) / 1 Succeeded / 0 Failed`, out)
	assert.Regexp(t, `SuccessfulCreate\s+\S+\s+job-controller\s+Created pod: j-`, out)
	assert.Regexp(t, `Completed\s+\S+\s+job-controller\s+Job completed`, out)
}

func kubectlJobFails(t *testing.T, k *kubectl) {
	assert.Equal(t, "job.batch/fail created\n", k.stdin(failingJob, "create", "-f", "-").stdout)
	assert.Equal(t, "job.batch/fail condition met\n", k.ok("wait", "--for=condition=failed", "job/fail", "--timeout=60s"))
	assert.Equal(t, "BackoffLimitExceeded", k.ok("get", "job", "fail", "-o", `jsonpath={.status.conditions[?(@.type=="Failed")].reason}`))
	assert.Equal(t, "1", k.ok("get", "job", "fail", "-o", "jsonpath={.status.failed}"))
	assert.Regexp(t, `(?m)^fail\s+Failed\s+0/1\s+\d+s\s+\d+s$`, k.ok("get", "jobs"))
	assert.Regexp(t, `(?m)^fail-\S+\s+0/1\s+Error\s+0\s+`, k.ok("get", "pods", "-l", "job-name=fail"))
	out := k.ok("describe", "job", "fail")
	assert.Regexp(t, `Warning\s+BackoffLimitExceeded\s+\S+\s+job-controller\s+Job has reached the specified backoff limit`, out)
}

package job_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCreateGeneratesSelectorAndLabelsFromNameAndUID(t *testing.T) {
	path := jobsPath(t)
	resp := do(t, "POST", path, "", jobJSON("pi", ""))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	j := resp.Obj(t)
	uid := get(j, "metadata", "uid").(string)
	require.NotEmpty(t, uid)
	assert.Equal(t, map[string]any{"batch.kubernetes.io/controller-uid": uid}, get(j, "spec", "selector", "matchLabels"))
	want := map[string]any{
		"batch.kubernetes.io/controller-uid": uid, "controller-uid": uid,
		"batch.kubernetes.io/job-name": "pi", "job-name": "pi",
	}
	assert.Equal(t, want, get(j, "spec", "template", "metadata", "labels"))
	assert.Equal(t, want, get(j, "metadata", "labels"), "a Job without labels gets its template's")
	assert.Equal(t, false, get(j, "spec", "manualSelector"))
}

func TestGenerateNameJobsAreLabelledWithTheGeneratedName(t *testing.T) {
	path := jobsPath(t)
	resp := do(t, "POST", path, "", `{"metadata":{"generateName":"batch-"},"spec":{"template":{"spec":{"restartPolicy":"OnFailure","containers":[{"name":"c","image":"busybox"}]}}}}`)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	j := resp.Obj(t)
	name := get(j, "metadata", "name").(string)
	assert.Regexp(t, `^batch-[a-z0-9]{5}$`, name)
	assert.Equal(t, name, get(j, "spec", "template", "metadata", "labels", "batch.kubernetes.io/job-name"))
}

func TestCreateDefaultsLikeSetDefaultsJob(t *testing.T) {
	path := jobsPath(t)
	resp := do(t, "POST", path, "", jobJSON("pi", ""))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	spec := get(resp.Obj(t), "spec").(map[string]any)
	assert.EqualValues(t, 1, spec["parallelism"])
	assert.EqualValues(t, 1, spec["completions"])
	assert.EqualValues(t, 6, spec["backoffLimit"])
	assert.Equal(t, "NonIndexed", spec["completionMode"])
	assert.Equal(t, false, spec["suspend"])
	assert.Equal(t, "TerminatingOrFailed", spec["podReplacementPolicy"])
	assert.Equal(t, "ClusterFirst", get(spec, "template", "spec", "dnsPolicy"), "the template gets the pod defaults")
	assert.EqualValues(t, 1, get(resp.Obj(t), "metadata", "generation"))

	// A work queue: parallelism alone leaves completions unset.
	resp = do(t, "POST", path, "", jobJSON("queue", `"parallelism":3,`))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Nil(t, get(resp.Obj(t), "spec", "completions"))
	// A budget per index turns the Job-wide limit off.
	resp = do(t, "POST", path, "", jobJSON("indexed", `"completionMode":"Indexed","completions":3,"backoffLimitPerIndex":1,`))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.EqualValues(t, 2147483647, get(resp.Obj(t), "spec", "backoffLimit"))
	// A failure policy waits for pods to have failed, and its patterns default to True.
	resp = do(t, "POST", path, "", jobJSON("policy", `"podFailurePolicy":{"rules":[{"action":"Ignore","onPodConditions":[{"type":"DisruptionTarget"}]}]},`))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Equal(t, "Failed", get(resp.Obj(t), "spec", "podReplacementPolicy"))
	rule := get(resp.Obj(t), "spec", "podFailurePolicy", "rules").([]any)[0].(map[string]any)
	assert.Equal(t, "True", rule["onPodConditions"].([]any)[0].(map[string]any)["status"])
}

func TestManualSelectorIsTakenAsWritten(t *testing.T) {
	path := jobsPath(t)
	body := `{"metadata":{"name":"m"},"spec":{"manualSelector":true,"selector":{"matchLabels":{"app":"x"}},
		"template":{"metadata":{"labels":{"app":"x"}},"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}`
	resp := do(t, "POST", path, "", body)
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	assert.Equal(t, map[string]any{"app": "x"}, get(resp.Obj(t), "spec", "selector", "matchLabels"))
	assert.Equal(t, map[string]any{"app": "x"}, get(resp.Obj(t), "spec", "template", "metadata", "labels"))
}

func TestValidationNamesTheFieldsKubernetesNames(t *testing.T) {
	tmpl := func(policy string) string {
		return `"template":{"spec":{"restartPolicy":"` + policy + `","containers":[{"name":"c","image":"busybox"}]}}`
	}
	for _, tc := range []struct {
		name, body, field, message string
	}{
		{"pods that restart forever", `{"metadata":{"name":"j"},"spec":{"template":{"spec":{"containers":[{"name":"c","image":"busybox"}]}}}}`,
			"spec.template.spec.restartPolicy", `Required value: valid values: "OnFailure", "Never"`},
		{"negative parallelism", jobJSON("j", `"parallelism":-1,`), "spec.parallelism", "Invalid value: -1: must be greater than or equal to 0"},
		{"negative completions", jobJSON("j", `"completions":-2,`), "spec.completions", "Invalid value: -2: must be greater than or equal to 0"},
		{"negative backoff", jobJSON("j", `"backoffLimit":-1,`), "spec.backoffLimit", "Invalid value: -1: must be greater than or equal to 0"},
		{"unknown completion mode", jobJSON("j", `"completionMode":"Sometimes",`), "spec.completionMode",
			`Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"`},
		{"indexed without completions", jobJSON("j", `"completionMode":"Indexed","parallelism":2,`), "spec.completions",
			"Required value: when completion mode is Indexed"},
		{"per-index budget without indexes", jobJSON("j", `"backoffLimitPerIndex":1,`), "spec.backoffLimitPerIndex",
			"Forbidden: requires indexed completion mode"},
		{"failure policy with OnFailure", `{"metadata":{"name":"j"},"spec":{"podFailurePolicy":{"rules":[{"action":"FailJob","onExitCodes":{"operator":"In","values":[42]}}]},` + tmpl("OnFailure") + `}}`,
			"spec.template.spec.restartPolicy", `Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified`},
		{"conflicting generated label", `{"metadata":{"name":"j"},"spec":{"template":{"metadata":{"labels":{"job-name":"other"}},"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}`,
			"spec.template.metadata.labels[job-name]", "Invalid value: {\"batch.kubernetes.io/controller-uid\":"},
		{"manual selector that does not match", `{"metadata":{"name":"j"},"spec":{"manualSelector":true,"selector":{"matchLabels":{"app":"x"}},` + tmpl("Never") + `}}`,
			"spec.template.metadata.labels", "Invalid value: null: `selector` does not match template `labels`"},
		{"manual without selector", `{"metadata":{"name":"j"},"spec":{"manualSelector":true,` + tmpl("Never") + `}}`, "spec.selector", "Required value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := jobsPath(t)
			resp := do(t, "POST", path, "", tc.body)
			require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
			assert.Equal(t, "Job", get(resp.Obj(t), "details", "kind"))
			assert.Equal(t, "batch", get(resp.Obj(t), "details", "group"))
			assert.Contains(t, causes(t, resp)[tc.field], tc.message, resp.Body)
			assert.Equal(t, http.StatusNotFound, do(t, "GET", path+"/j", "", "").Code, "nothing is stored")
		})
	}
}

func TestUpdateKeepsWhatTheControllerActedOn(t *testing.T) {
	path := jobsPath(t)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", jobJSON("pi", `"completions":3,"parallelism":1,`)).Code)
	for _, tc := range []struct{ patch, field string }{
		{`{"spec":{"completions":4}}`, "spec.completions"},
		{`{"spec":{"selector":{"matchLabels":{"app":"x"}}}}`, "spec.selector"},
		{`{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"alpine"}]}}}}`, "spec.template"},
		{`{"spec":{"completionMode":"Indexed"}}`, "spec.completionMode"},
	} {
		resp := do(t, "PATCH", path+"/pi", mergePatch, tc.patch)
		require.Equal(t, http.StatusUnprocessableEntity, resp.Code, "%s: %s", tc.patch, resp.Body)
		assert.Contains(t, causes(t, resp)[tc.field], "field is immutable", tc.patch)
	}
	// parallelism may change, and that is a new generation.
	resp := do(t, "PATCH", path+"/pi", mergePatch, `{"spec":{"parallelism":2}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 2, get(resp.Obj(t), "metadata", "generation"))
	// suspend may change too.
	require.Equal(t, http.StatusOK, do(t, "PATCH", path+"/pi", mergePatch, `{"spec":{"suspend":true}}`).Code)
}

func TestSuspendedJobThatNeverStartedMayBeSteered(t *testing.T) {
	path := jobsPath(t)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", jobJSON("pi", `"suspend":true,`)).Code)
	resp := do(t, "PATCH", path+"/pi", mergePatch, `{"spec":{"template":{"spec":{"nodeSelector":{"zone":"a"}}}}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	// The image is still fixed.
	resp = do(t, "PATCH", path+"/pi", mergePatch, `{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"alpine"}]}}}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	// Once started, the node selector is fixed too.
	require.Equal(t, http.StatusOK, do(t, "PATCH", path+"/pi/status", mergePatch, `{"status":{"startTime":"2026-01-01T00:00:00Z"}}`).Code)
	resp = do(t, "PATCH", path+"/pi", mergePatch, `{"spec":{"template":{"spec":{"nodeSelector":{"zone":"b"}}}}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
}

func TestElasticIndexedJobScalesCompletionsWithParallelism(t *testing.T) {
	path := jobsPath(t)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", jobJSON("ix", `"completionMode":"Indexed","completions":2,"parallelism":2,`)).Code)
	require.Equal(t, http.StatusOK, do(t, "PATCH", path+"/ix", mergePatch, `{"spec":{"completions":4,"parallelism":4}}`).Code)
	resp := do(t, "PATCH", path+"/ix", mergePatch, `{"spec":{"completions":5}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	assert.Equal(t, "Invalid value: 5: can only be modified in tandem with spec.parallelism", causes(t, resp)["spec.completions"])
}

func TestStatusSubresourceAndFieldSelector(t *testing.T) {
	ns := srv.NewNamespace(t)
	path := "/apis/batch/v1/namespaces/" + ns + "/jobs"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", jobJSON("a", "")).Code)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", jobJSON("b", "")).Code)
	resp := do(t, "PATCH", path+"/a/status", mergePatch, `{"spec":{"parallelism":9},"status":{"succeeded":1,"conditions":[{"type":"Complete","status":"True"}]}}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.EqualValues(t, 1, get(resp.Obj(t), "spec", "parallelism"), "/status keeps the spec")
	assert.EqualValues(t, 1, get(resp.Obj(t), "metadata", "generation"))

	list := do(t, "GET", path+"?fieldSelector=status.successful%3D1", "", "").Obj(t)
	items := list["items"].([]any)
	require.Len(t, items, 1)
	assert.Equal(t, "a", get(items[0].(map[string]any), "metadata", "name"))

	resp = do(t, "GET", path+"?fieldSelector=status.succeeded%3D1", "", "")
	require.Equal(t, http.StatusBadRequest, resp.Code, resp.Body)
	assert.Equal(t, `field label "status.succeeded" not supported for batchv1.Job`, resp.Obj(t)["message"])
}

func TestDeleteWithoutPolicyOrphansThePods(t *testing.T) {
	path := jobsPath(t)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", jobJSON("old-client", "")).Code)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", jobJSON("kubectl", "")).Code)

	// client-go's Delete with empty options: batch/v1's default is to
	// orphan, so the garbage collector's orphan finalizer holds the Job.
	resp := do(t, "DELETE", path+"/old-client", "", `{"kind":"DeleteOptions","apiVersion":"v1"}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	j := do(t, "GET", path+"/old-client", "", "").Obj(t)
	assert.Equal(t, []any{"orphan"}, get(j, "metadata", "finalizers"))
	assert.NotNil(t, get(j, "metadata", "deletionTimestamp"))

	// kubectl delete asks for Background: gone at once.
	resp = do(t, "DELETE", path+"/kubectl", "", `{"propagationPolicy":"Background"}`)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Equal(t, http.StatusNotFound, do(t, "GET", path+"/kubectl", "", "").Code)
}

func TestStatusCountersAreNotNegative(t *testing.T) {
	path := jobsPath(t)
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", jobJSON("pi", "")).Code)
	resp := do(t, "PATCH", path+"/pi/status", mergePatch, `{"status":{"failed":-1,"ready":-2}}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	c := causes(t, resp)
	assert.Equal(t, "Invalid value: -1: must be greater than or equal to 0", c["status.failed"])
	assert.Equal(t, "Invalid value: -2: must be greater than or equal to 0", c["status.ready"])
}

package printers

import (
	"fmt"
	"strings"
	"time"

	"kubeloop/api"
)

// The columns of Deployments, Jobs, Secrets and ServiceAccounts, as
// kube-apiserver v1.37.2 serves them: pkg/printers/internalversion/printers.go
// (AddHandlers; printDeployment, printJob, printSecret, printServiceAccount).
// The descriptions are ours.

func workloadPrinter(info *api.ResourceInfo) tablePrinter {
	templateColumns := []tableColumn{
		col("Containers", "string", "The names of the template's containers.", 1),
		col("Images", "string", "The images of the template's containers.", 1),
		col("Selector", "string", "The label selector of the pods.", 1),
	}
	switch info.Kind {
	case "Deployment":
		return tablePrinter{columns: append([]tableColumn{
			nameColumn(),
			col("Ready", "string", "Ready pods out of spec.replicas.", 0),
			col("Up-to-date", "string", "status.updatedReplicas: pods made from the current template.", 0),
			col("Available", "string", "status.availableReplicas: pods ready for at least minReadySeconds.", 0),
			ageColumn(),
		}, templateColumns...), cells: deploymentCells}
	case "Job":
		return tablePrinter{columns: append([]tableColumn{
			nameColumn(),
			col("Status", "string", "Where the Job stands: Running, Complete, Failed, Suspended, ...", 0),
			col("Completions", "string", "Succeeded pods out of the completions wanted.", 0),
			col("Duration", "string", "How long the Job ran, or has been running.", 0),
			ageColumn(),
		}, templateColumns...), cells: jobCells}
	case "Secret":
		return tablePrinter{columns: []tableColumn{
			nameColumn(),
			col("Type", "string", "What the Secret is for (its type).", 0),
			col("Data", "string", "How many keys the Secret holds.", 0),
			ageColumn(),
		}, cells: secretCells}
	}
	return tablePrinter{columns: []tableColumn{
		nameColumn(),
		col("Secrets", "string", "How many secrets the account lists.", 0),
		ageColumn(),
	}, cells: serviceAccountCells}
}

// templateCells are the wide columns of a kind with a pod template.
func templateCells(t *api.PodTemplateSpec, sel *api.LabelSelector) []any {
	var names, images []string
	for _, c := range t.Spec.Containers {
		names = append(names, c.Name)
		images = append(images, c.Image)
	}
	selector := "<invalid>"
	if s, err := api.LabelSelectorAsSelector(sel); err == nil {
		selector = s.String()
	}
	return []any{strings.Join(names, ","), strings.Join(images, ","), selector}
}

func deploymentCells(obj api.Object, now time.Time) []any {
	d := obj.(*api.Deployment)
	desired := int32(1)
	if d.Spec.Replicas != nil {
		desired = *d.Spec.Replicas
	}
	return append([]any{
		d.Name, fmt.Sprintf("%d/%d", d.Status.ReadyReplicas, desired),
		int64(d.Status.UpdatedReplicas), int64(d.Status.AvailableReplicas),
		api.HumanAge(d.CreationTimestamp, now),
	}, templateCells(&d.Spec.Template, d.Spec.Selector)...)
}

func jobCells(obj api.Object, now time.Time) []any {
	j := obj.(*api.Job)
	completions := fmt.Sprintf("%d/1", j.Status.Succeeded)
	switch {
	case j.Spec.Completions != nil:
		completions = fmt.Sprintf("%d/%d", j.Status.Succeeded, *j.Spec.Completions)
	case j.Spec.Parallelism != nil && *j.Spec.Parallelism > 1:
		// A work queue: one success finishes it, whatever the parallelism.
		completions = fmt.Sprintf("%d/1 of %d", j.Status.Succeeded, *j.Spec.Parallelism)
	}
	duration := ""
	switch st := j.Status; {
	case st.StartTime == nil:
	case st.CompletionTime == nil:
		duration = api.HumanDuration(now.Sub(st.StartTime.Time))
	default:
		duration = api.HumanDuration(st.CompletionTime.Sub(st.StartTime.Time))
	}
	return append([]any{
		j.Name, jobStatus(j), completions, duration, api.HumanAge(j.CreationTimestamp, now),
	}, templateCells(&j.Spec.Template, j.Spec.Selector)...)
}

// jobStatus is the first that holds of: finished (Complete, Failed), being
// deleted, Suspended, about to finish (FailureTarget, SuccessCriteriaMet),
// else Running.
func jobStatus(j *api.Job) string {
	has := func(t api.JobConditionType) bool {
		for _, c := range j.Status.Conditions {
			if c.Type == t && c.Status == api.ConditionTrue {
				return true
			}
		}
		return false
	}
	switch {
	case has(api.JobComplete):
		return "Complete"
	case has(api.JobFailed):
		return "Failed"
	case j.DeletionTimestamp != nil:
		return "Terminating"
	case has(api.JobSuspended):
		return "Suspended"
	case has(api.JobFailureTarget):
		return "FailureTarget"
	case has(api.JobSuccessCriteriaMet):
		return "SuccessCriteriaMet"
	}
	return "Running"
}

func secretCells(obj api.Object, now time.Time) []any {
	s := obj.(*api.Secret)
	return []any{s.Name, string(s.Type), int64(len(s.Data)), api.HumanAge(s.CreationTimestamp, now)}
}

func serviceAccountCells(obj api.Object, now time.Time) []any {
	sa := obj.(*api.ServiceAccount)
	return []any{sa.Name, int64(len(sa.Secrets)), api.HumanAge(sa.CreationTimestamp, now)}
}

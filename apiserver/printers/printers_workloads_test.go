package printers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// table is the columns (with priorities) and the first row of a Table.
type table struct {
	Columns []struct {
		Name     string `json:"name"`
		Priority int    `json:"priority"`
	} `json:"columnDefinitions"`
	Rows []struct {
		Cells []any `json:"cells"`
	} `json:"rows"`
}

func getTable(t *testing.T, path string) (names []string, wide []bool, row []any) {
	t.Helper()
	resp := doAccept(t, path, kubectlTableAccept)
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	var tbl table
	resp.Decode(t, &tbl)
	for _, c := range tbl.Columns {
		names = append(names, c.Name)
		wide = append(wide, c.Priority == 1)
	}
	require.Len(t, tbl.Rows, 1)
	return names, wide, tbl.Rows[0].Cells
}

func TestDeploymentColumnsAreKubectls(t *testing.T) {
	ns := newNamespace(t)
	path := "/apis/apps/v1/namespaces/" + ns + "/deployments"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", `{"metadata":{"name":"web"},"spec":{"replicas":3,
		"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
		"spec":{"containers":[{"name":"a","image":"nginx"},{"name":"b","image":"redis"}]}}}}`).Code)
	require.Equal(t, http.StatusOK, do(t, "PATCH", path+"/web/status", "application/merge-patch+json",
		`{"status":{"replicas":3,"readyReplicas":2,"updatedReplicas":3,"availableReplicas":1}}`).Code)
	names, wide, row := getTable(t, path)
	assert.Equal(t, []string{"Name", "Ready", "Up-to-date", "Available", "Age", "Containers", "Images", "Selector"}, names)
	assert.Equal(t, []bool{false, false, false, false, false, true, true, true}, wide)
	assert.Equal(t, []any{"web", "2/3", float64(3), float64(1)}, row[:4])
	assert.Equal(t, []any{"a,b", "nginx,redis", "app=web"}, row[5:])
}

func TestJobColumnsShowStatusCompletionsAndDuration(t *testing.T) {
	ns := newNamespace(t)
	path := "/apis/batch/v1/namespaces/" + ns + "/jobs"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", `{"metadata":{"name":"pi"},"spec":{"completions":3,
		"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"perl"}]}}}}`).Code)
	names, wide, row := getTable(t, path)
	assert.Equal(t, []string{"Name", "Status", "Completions", "Duration", "Age", "Containers", "Images", "Selector"}, names)
	assert.Equal(t, []bool{false, false, false, false, false, true, true, true}, wide)
	assert.Equal(t, []any{"pi", "Running", "0/3", ""}, row[:4])
	assert.Regexp(t, `^batch.kubernetes.io/controller-uid=[0-9a-f-]{36}$`, row[7])

	start := time.Now().Add(-90 * time.Second).UTC().Format(time.RFC3339)
	done := time.Now().Add(-30 * time.Second).UTC().Format(time.RFC3339)
	require.Equal(t, http.StatusOK, do(t, "PATCH", path+"/pi/status", "application/merge-patch+json",
		`{"status":{"succeeded":3,"startTime":"`+start+`","completionTime":"`+done+`",
		"conditions":[{"type":"SuccessCriteriaMet","status":"True"},{"type":"Complete","status":"True"}]}}`).Code)
	_, _, row = getTable(t, path)
	assert.Equal(t, []any{"pi", "Complete", "3/3", "60s"}, row[:4])
}

func TestJobCompletionsOfAWorkQueue(t *testing.T) {
	ns := newNamespace(t)
	path := "/apis/batch/v1/namespaces/" + ns + "/jobs"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", `{"metadata":{"name":"q"},"spec":{"parallelism":4,
		"template":{"spec":{"restartPolicy":"OnFailure","containers":[{"name":"c","image":"perl"}]}}}}`).Code)
	_, _, row := getTable(t, path)
	assert.Equal(t, "0/1 of 4", row[2])
}

func TestSecretAndServiceAccountColumns(t *testing.T) {
	ns := newNamespace(t)
	path := "/api/v1/namespaces/" + ns + "/secrets"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", `{"metadata":{"name":"s"},"stringData":{"a":"1","b":"2"}}`).Code)
	names, _, row := getTable(t, path)
	assert.Equal(t, []string{"Name", "Type", "Data", "Age"}, names)
	assert.Equal(t, []any{"s", "Opaque", float64(2)}, row[:3])

	path = "/api/v1/namespaces/" + ns + "/serviceaccounts"
	require.Equal(t, http.StatusCreated, do(t, "POST", path, "", `{"metadata":{"name":"sa"},"secrets":[{"name":"x"}]}`).Code)
	names, _, row = getTable(t, path)
	assert.Equal(t, []string{"Name", "Secrets", "Age"}, names)
	assert.Equal(t, []any{"sa", float64(1)}, row[:2])
}

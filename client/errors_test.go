package client

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func TestStatusBodyBecomesStatusError(t *testing.T) {
	body := `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"p1\" not found","reason":"NotFound","details":{"name":"p1","kind":"pods"},"code":404}`
	err := errorFromResponse(http.MethodGet, 404, ContentTypeJSON, []byte(body))
	require.True(t, api.IsNotFound(err))
	var se *api.StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, `pods "p1" not found`, se.Error())
	assert.Equal(t, "p1", se.ErrStatus.Details.Name)
	assert.EqualValues(t, 404, api.CodeForError(err))
}

func TestStatusReasonsSurviveDecoding(t *testing.T) {
	cases := []struct {
		name string
		want *api.StatusError
		is   func(error) bool
	}{
		{"conflict", api.NewConflict(api.GroupResource{Resource: "configmaps"}, "cm", api.ErrObjectModified), api.IsConflict},
		{"exists", api.NewAlreadyExists(api.GroupResource{Group: "apps", Resource: "replicasets"}, "rs"), api.IsAlreadyExists},
		{"expired", api.NewResourceExpired("too old resource version: 1 (200)"), api.IsExpired},
		{"invalid", api.NewInvalid("", "Pod", "bad", []api.StatusCause{{Type: api.CauseTypeFieldValueInvalid, Field: "spec.x", Message: "bad"}}), api.IsInvalid},
		{"too large rv", api.NewTooLargeResourceVersion(10, 5, 1), api.IsTooLargeResourceVersion},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.want.Status()
			body, err := json.Marshal(&s)
			require.NoError(t, err)
			got := errorFromResponse(http.MethodPut, int(s.Code), ContentTypeJSON, body)
			assert.True(t, tc.is(got), "%v", got)
			assert.Equal(t, tc.want.Error(), got.Error())
		})
	}
}

func TestStatusWithoutCodeTakesTheHTTPCode(t *testing.T) {
	err := errorFromResponse(http.MethodGet, 410, ContentTypeJSON, []byte(`{"kind":"Status","reason":"Expired","message":"gone"}`))
	assert.EqualValues(t, 410, api.CodeForError(err))
	assert.True(t, api.IsExpired(err))
}

func TestNonStatusBodyGetsReasonFromHTTPCode(t *testing.T) {
	cases := []struct {
		verb   string
		code   int
		reason api.StatusReason
		msg    string
	}{
		{http.MethodGet, 404, api.StatusReasonNotFound, "the server could not find the requested resource"},
		{http.MethodPost, 409, api.StatusReasonAlreadyExists, "the server reported a conflict"},
		{http.MethodPut, 409, api.StatusReasonConflict, "the server reported a conflict"},
		{http.MethodGet, 400, api.StatusReasonBadRequest, "the server rejected our request for an unknown reason"},
		{http.MethodGet, 503, api.StatusReasonServiceUnavailable, "the server is currently unable to handle the request"},
		{http.MethodGet, 500, api.StatusReasonInternalError, `an error on the server ("<html>oops</html>") has prevented the request from succeeding`},
		{http.MethodGet, 418, api.StatusReasonUnknown, "the server responded with the status code 418 but did not return more information"},
	}
	for _, tc := range cases {
		err := errorFromResponse(tc.verb, tc.code, "text/html", []byte("<html>oops</html>\n"))
		assert.Equal(t, tc.reason, api.ReasonForError(err), "%s %d", tc.verb, tc.code)
		assert.EqualValues(t, tc.code, api.CodeForError(err))
		assert.Equal(t, tc.msg, err.Error())
	}
}

func TestServerErrorReachesCallerAsStatusError(t *testing.T) {
	srv, _ := recordingServer(t, http.StatusNotFound,
		`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"replicasets.apps \"x\" not found","reason":"NotFound","details":{"name":"x","group":"apps","kind":"replicasets"},"code":404}`)
	c, err := NewForConfig(&Config{Host: srv.URL})
	require.NoError(t, err)
	_, err = For[*api.ReplicaSet](c).Namespace("default").Get(context.Background(), "x", GetOptions{})
	require.True(t, api.IsNotFound(err), "%v", err)
	assert.Equal(t, `replicasets.apps "x" not found`, err.Error())
}

package api

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTimeJSONIsRFC3339SecondsInUTC(t *testing.T) {
	local := time.Date(2026, 3, 4, 5, 6, 7, 891_000_000, time.FixedZone("X", 3600))
	b, err := json.Marshal(NewTime(local))
	require.NoError(t, err)
	assert.Equal(t, `"2026-03-04T04:06:07Z"`, string(b))

	var back Time
	require.NoError(t, json.Unmarshal([]byte(`"2026-03-04T05:06:07.5+01:00"`), &back))
	assert.True(t, back.Equal(time.Date(2026, 3, 4, 4, 6, 7, 0, time.UTC)))

	b, err = json.Marshal(Time{})
	require.NoError(t, err)
	assert.Equal(t, "null", string(b))
	require.NoError(t, json.Unmarshal([]byte("null"), &back))
	assert.True(t, back.IsZero())
	assert.Error(t, json.Unmarshal([]byte(`"yesterday"`), &back))
}

func TestMicroTimeJSONHasSixFractionalDigits(t *testing.T) {
	ts := time.Date(2026, 3, 4, 5, 6, 7, 120_000_999, time.UTC)
	b, err := json.Marshal(NewMicroTime(ts))
	require.NoError(t, err)
	assert.Equal(t, `"2026-03-04T05:06:07.120000Z"`, string(b))

	b, err = json.Marshal(NewMicroTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)))
	require.NoError(t, err)
	assert.Equal(t, `"2026-01-01T00:00:00.000000Z"`, string(b))

	var back MicroTime
	require.NoError(t, json.Unmarshal([]byte(`"2026-03-04T05:06:07.123456789Z"`), &back))
	assert.Equal(t, 123_456_000, back.Nanosecond())
	require.NoError(t, json.Unmarshal([]byte(`"2026-03-04T05:06:07Z"`), &back))
	assert.Equal(t, 0, back.Nanosecond())

	b, err = json.Marshal(MicroTime{})
	require.NoError(t, err)
	assert.Equal(t, "null", string(b))
	assert.Error(t, json.Unmarshal([]byte(`12`), &back))
}

func TestLeaseTimesRoundTripWithMicroseconds(t *testing.T) {
	in := `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"n1","namespace":"kube-node-lease"},` +
		`"spec":{"holderIdentity":"n1","leaseDurationSeconds":40,"acquireTime":"2026-01-02T03:04:05.000001Z",` +
		`"renewTime":"2026-01-02T03:04:45.654321Z","leaseTransitions":2}}`
	var l Lease
	require.NoError(t, Decode([]byte(in), &l))
	assert.Equal(t, 654_321_000, l.Spec.RenewTime.Nanosecond())
	out, err := Encode(&l)
	require.NoError(t, err)
	// An unset creationTimestamp is left out (omitzero), as Kubernetes
	// v1.37 writes it.
	assert.JSONEq(t, in, string(out))
	var again Lease
	require.NoError(t, Decode(out, &again))
	assert.Equal(t, l, again)
}

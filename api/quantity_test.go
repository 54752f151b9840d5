package api

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestQuantityParsesCPUIntoMilliUnits(t *testing.T) {
	cases := map[string]int64{
		"100m": 100, "2": 2000, "0.5": 500, "1.5": 1500, "250m": 250, "1k": 1_000_000,
		"1e3": 1_000_000, "0.0001": 1, // rounds up, as Kubernetes does
		"500000u": 500, "+1": 1000, "1000m": 1000, "0": 0,
	}
	for in, want := range cases {
		got, err := Quantity(in).MilliValue()
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
}

func TestQuantityParsesMemoryIntoBytes(t *testing.T) {
	cases := map[string]int64{
		"128Mi": 128 << 20, "1Gi": 1 << 30, "1G": 1_000_000_000, "1000": 1000, "1Ki": 1024,
		"1k": 1000, "1M": 1_000_000, "1.5Gi": 3 << 29, "100m": 1, "2e6": 2_000_000, "1Ti": 1 << 40,
	}
	for in, want := range cases {
		got, err := Quantity(in).Value()
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
}

func TestQuantityRejectsInvalidInput(t *testing.T) {
	for _, bad := range []string{"", "abc", "1Q", "Mi", "1.2.3", "1 Mi", "--1", "1ki", "1e", ".", "1e99999"} {
		_, err := ParseQuantity(bad)
		assert.Error(t, err, bad)
		_, err = Quantity(bad).MilliValue()
		assert.Error(t, err, bad)
	}
	_, err := Quantity("10E").Value()
	assert.ErrorContains(t, err, "too large")
}

func TestQuantityJSONIsAStringAndAcceptsNumbers(t *testing.T) {
	var rl ResourceList
	require.NoError(t, json.Unmarshal([]byte(`{"cpu":2,"memory":"128Mi","pods":"110"}`), &rl))
	assert.Equal(t, ResourceList{"cpu": "2", "memory": "128Mi", "pods": "110"}, rl)
	b, err := json.Marshal(rl)
	require.NoError(t, err)
	assert.JSONEq(t, `{"cpu":"2","memory":"128Mi","pods":"110"}`, string(b))

	err = json.Unmarshal([]byte(`{"cpu":"lots"}`), &rl)
	assert.ErrorContains(t, err, `"lots"`)
	err = json.Unmarshal([]byte(`{"cpu":true}`), &rl)
	assert.Error(t, err)
}

func TestMustParseQuantityPanicsOnGarbage(t *testing.T) {
	assert.Equal(t, Quantity("1Gi"), MustParseQuantity("1Gi"))
	assert.Panics(t, func() { MustParseQuantity("one") })
}

// TestQuantityIntegerPathAgreesWithExactPath: MilliValue and Value answer
// plain whole quantities with int64 arithmetic; every such answer must be
// what the exact big.Rat path gives, and overflow must fall back to it.
func TestQuantityIntegerPathAgreesWithExactPath(t *testing.T) {
	suffixes := []string{"", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
	numbers := []string{"0", "1", "7", "999", "1000", "1001", "123456", "999999999999999", "9223372"}
	fast := 0
	for _, n := range numbers {
		for _, suf := range suffixes {
			q := Quantity(n + suf)
			r, err := q.amount()
			require.NoError(t, err, q)
			exactMilli, errMilli := ceilInt64(new(big.Rat).Mul(r, big.NewRat(1000, 1)), q)
			exactUnits, errUnits := ceilInt64(r, q)

			milli, units, ok := q.wholeAmount()
			if ok {
				fast++
				require.NoError(t, errMilli, q)
				require.NoError(t, errUnits, q)
				assert.Equal(t, exactMilli, milli, "milli of %s", q)
				assert.Equal(t, exactUnits, units, "units of %s", q)
			}
			gotMilli, err := q.MilliValue()
			assert.Equal(t, errMilli != nil, err != nil, "MilliValue error of %s: %v", q, err)
			assert.Equal(t, exactMilli, gotMilli, "MilliValue of %s", q)
			gotUnits, err := q.Value()
			assert.Equal(t, errUnits != nil, err != nil, "Value error of %s: %v", q, err)
			assert.Equal(t, exactUnits, gotUnits, "Value of %s", q)
		}
	}
	assert.Greater(t, fast, len(numbers)*len(suffixes)/2, "most of these take the integer path")
	_, _, ok := Quantity("9999999999999999").wholeAmount()
	assert.False(t, ok, "16 digits go the exact way")
}

package api

import "time"

// RFC3339Micro is the wire layout of MicroTime: always six fractional digits.
const RFC3339Micro = "2006-01-02T15:04:05.000000Z07:00"

// MicroTime is a timestamp with microsecond precision, used where whole
// seconds are too coarse: lease acquire and renew times, event times. Like
// Time it is UTC on the wire and null when zero (metav1.MicroTime in
// apimachinery/pkg/apis/meta/v1/micro_time.go).
type MicroTime struct {
	time.Time
}

// NowMicro returns the current time truncated to microseconds.
func NowMicro() MicroTime { return NewMicroTime(time.Now()) }

// NewMicroTime wraps t, truncated to what the wire keeps.
func NewMicroTime(t time.Time) MicroTime { return MicroTime{t.UTC().Truncate(time.Microsecond)} }

// MarshalJSON writes RFC 3339 with six fractional digits, or null.
func (t MicroTime) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return appendTimeJSON(make([]byte, 0, len(RFC3339Micro)+2), t.Time, RFC3339Micro), nil
}

// UnmarshalJSON reads RFC 3339 with any number of fractional digits, or null.
func (t *MicroTime) UnmarshalJSON(b []byte) error {
	return unmarshalTime(b, &t.Time, time.RFC3339Nano, time.Microsecond)
}

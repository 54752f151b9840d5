package api

import (
	"fmt"
	"time"
)

// HumanAge is an AGE column: how long before now t was, or <unknown> for no
// time. The apiserver's Table output and kubectl-lite print the same.
func HumanAge(t Time, now time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return HumanDuration(now.Sub(t.Time))
}

// HumanDuration renders a duration the way kubectl users know from real
// clusters: exact seconds below two minutes, then ever coarser units, two
// at most ("5m30s", "3h20m", "2d4h", "1y100d"). Kubernetes:
// staging/src/k8s.io/apimachinery/pkg/util/duration (HumanDuration).
func HumanDuration(d time.Duration) string {
	sec := int64(d / time.Second)
	switch {
	case sec < -1:
		// Clocks a little apart are "now"; further apart is nonsense.
		return "<invalid>"
	case sec < 0:
		return "0s"
	case sec < 120:
		return fmt.Sprintf("%ds", sec)
	}
	pair := func(big int64, bigUnit string, small int64, smallUnit string) string {
		if small == 0 {
			return fmt.Sprintf("%d%s", big, bigUnit)
		}
		return fmt.Sprintf("%d%s%d%s", big, bigUnit, small, smallUnit)
	}
	min := sec / 60
	hours := min / 60
	days := hours / 24
	switch {
	case min < 10:
		return pair(min, "m", sec%60, "s")
	case min < 3*60:
		return fmt.Sprintf("%dm", min)
	case hours < 8:
		return pair(hours, "h", min%60, "m")
	case hours < 48:
		return fmt.Sprintf("%dh", hours)
	case hours < 8*24:
		return pair(days, "d", hours%24, "h")
	case hours < 2*365*24:
		return fmt.Sprintf("%dd", days)
	case hours < 8*365*24:
		return pair(days/365, "y", days%365, "d")
	}
	return fmt.Sprintf("%dy", days/365)
}

package api

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// ResourceName names a compute resource: "cpu", "memory", "pods".
type ResourceName string

// The resource names the scheduler and kubelet understand.
const (
	ResourceCPU              ResourceName = "cpu"
	ResourceMemory           ResourceName = "memory"
	ResourcePods             ResourceName = "pods"
	ResourceEphemeralStorage ResourceName = "ephemeral-storage"
)

// ResourceList maps a resource to an amount: {"cpu":"100m","memory":"128Mi"}.
type ResourceList map[ResourceName]Quantity

// Quantity is an amount of a resource as the user wrote it: "100m", "2",
// "128Mi", "1G". It travels as a JSON string and is parsed only when a number
// is needed (MilliValue for cpu, Value for memory).
//
// Kubernetes' resource.Quantity (apimachinery/pkg/api/resource/quantity.go)
// parses on decode and re-prints in canonical form ("1000m" comes back as
// "1"); we keep the text the client sent, which is simpler to read and
// still means the same amount.
type Quantity string

// MustParseQuantity is for tests and constants; it panics on bad input.
func MustParseQuantity(s string) Quantity {
	q := Quantity(s)
	if _, err := q.amount(); err != nil {
		panic(err)
	}
	return q
}

// ParseQuantity checks s and returns it as a Quantity.
func ParseQuantity(s string) (Quantity, error) {
	q := Quantity(s)
	if _, _, err := q.split(); err != nil {
		return "", err
	}
	return q, nil
}

// MarshalJSON writes the quantity as a JSON string.
func (q Quantity) MarshalJSON() ([]byte, error) { return quoteJSON(nil, string(q)), nil }

// UnmarshalJSON accepts a string or a bare number (YAML "cpu: 2" becomes the
// JSON number 2), as Kubernetes does, and rejects anything that does not
// parse as a quantity.
func (q *Quantity) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		*q = ""
		return nil
	}
	if strings.HasPrefix(s, `"`) {
		var err error
		if s, err = unquoteJSON(b); err != nil {
			return err
		}
	}
	parsed, err := ParseQuantity(s)
	if err != nil {
		return err
	}
	*q = parsed
	return nil
}

// String returns the quantity as written.
func (q Quantity) String() string { return string(q) }

// IsZero is true for the empty quantity.
func (q Quantity) IsZero() bool { return q == "" }

// MilliValue is the amount in thousandths, rounded up: "100m" → 100,
// "2" → 2000, "0.5" → 500. It is how cpu is counted.
func (q Quantity) MilliValue() (int64, error) {
	if milli, _, ok := q.wholeAmount(); ok {
		return milli, nil
	}
	r, err := q.amount()
	if err != nil {
		return 0, err
	}
	return ceilInt64(new(big.Rat).Mul(r, big.NewRat(1000, 1)), q)
}

// Value is the amount in units, rounded up: "128Mi" → 134217728,
// "1G" → 1000000000, "100m" → 1. It is how memory is counted (in bytes).
func (q Quantity) Value() (int64, error) {
	if _, units, ok := q.wholeAmount(); ok {
		return units, nil
	}
	r, err := q.amount()
	if err != nil {
		return 0, err
	}
	return ceilInt64(r, q)
}

func ceilInt64(r *big.Rat, q Quantity) (int64, error) {
	n, rem := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if rem.Sign() > 0 {
		n.Add(n, big.NewInt(1))
	}
	if !n.IsInt64() {
		return 0, fmt.Errorf("quantity %q is too large", string(q))
	}
	return n.Int64(), nil
}

// quantityMultiplier is the exact multiplier of a suffix Kubernetes
// accepts: binary (Ki..Ei) and decimal SI (n..E); decimal exponents (1e3)
// are handled separately. The whole ones come from wholeMultiplier, so the
// table of suffixes exists once.
func quantityMultiplier(suffix string) (*big.Rat, bool) {
	if whole, ok := wholeMultiplier(suffix); ok {
		return big.NewRat(whole, 1), true
	}
	switch suffix {
	case "n":
		return big.NewRat(1, 1_000_000_000), true
	case "u":
		return big.NewRat(1, 1_000_000), true
	case "m":
		return big.NewRat(1, 1000), true
	}
	return nil, false
}

// split checks the quantity against Kubernetes' grammar — an optional
// sign, digits with an optional fraction, then a suffix (binary, SI, or an
// exponent "e3"/"E-2") — and returns the number and the suffix. It
// allocates nothing, so validating a decoded object stays cheap.
func (q Quantity) split() (number, suffix string, err error) {
	s := string(q)
	bad := func(why string) error {
		return fmt.Errorf("quantity %q is invalid: %s (want e.g. \"100m\", \"2\", \"128Mi\", \"1G\")", s, why)
	}
	if s == "" {
		return "", "", bad("empty")
	}
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return "", "", bad("no digits")
	}
	number, suffix = s[:i], s[i:]
	if _, whole := wholeMultiplier(suffix); whole || suffix == "m" || suffix == "u" || suffix == "n" {
		return number, suffix, nil
	}
	// Decimal exponent: "1e3", "5E-2". A lone "E" was an SI suffix above.
	if len(suffix) >= 2 && (suffix[0] == 'e' || suffix[0] == 'E') {
		if e, err := strconv.ParseInt(suffix[1:], 10, 64); err == nil && e >= -30 && e <= 30 {
			return number, suffix, nil
		}
	}
	return "", "", bad(fmt.Sprintf("unknown suffix %q", suffix))
}

// amount parses the quantity into an exact rational number.
func (q Quantity) amount() (*big.Rat, error) {
	number, suffix, err := q.split()
	if err != nil {
		return nil, err
	}
	num, ok := new(big.Rat).SetString(number)
	if !ok {
		return nil, fmt.Errorf("quantity %q is invalid: bad number", string(q))
	}
	if mult, ok := quantityMultiplier(suffix); ok {
		return num.Mul(num, mult), nil
	}
	e, _ := strconv.ParseInt(suffix[1:], 10, 64) // split checked it
	ten := new(big.Int).Exp(big.NewInt(10), big.NewInt(abs64(e)), nil)
	if e >= 0 {
		return num.Mul(num, new(big.Rat).SetInt(ten)), nil
	}
	return num.Quo(num, new(big.Rat).SetInt(ten)), nil
}

// wholeMultiplier is the multiplier of a suffix when it is a whole number:
// every suffix but the fractional "m", "u" and "n".
func wholeMultiplier(suffix string) (int64, bool) {
	switch suffix {
	case "":
		return 1, true
	case "k":
		return 1e3, true
	case "M":
		return 1e6, true
	case "G":
		return 1e9, true
	case "T":
		return 1e12, true
	case "P":
		return 1e15, true
	case "E":
		return 1e18, true
	case "Ki", "Mi", "Gi", "Ti", "Pi", "Ei":
		return 1 << (10 * (1 + strings.IndexByte("KMGTPE", suffix[0]))), true
	}
	return 0, false
}

// wholeAmount is the common case done with integers: a non-negative whole
// number of at most 15 digits with "m" or a whole multiplier, as in
// "100m", "2", "128Mi". It returns the amount in thousandths and in units
// (both rounded up, as MilliValue and Value do); ok is false for anything
// else, and on overflow, which the exact path then handles.
func (q Quantity) wholeAmount() (milli, units int64, ok bool) {
	s := string(q)
	i := 0
	var n int64
	for i < len(s) && i < 15 && s[i] >= '0' && s[i] <= '9' {
		n = n*10 + int64(s[i]-'0')
		i++
	}
	if i == 0 || (i < len(s) && s[i] >= '0' && s[i] <= '9') {
		return 0, 0, false
	}
	suffix := s[i:]
	if suffix == "m" {
		return n, (n + 999) / 1000, true
	}
	mult, known := wholeMultiplier(suffix)
	if !known || (n != 0 && mult > math.MaxInt64/1000/n) {
		return 0, 0, false
	}
	return n * mult * 1000, n * mult, true
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

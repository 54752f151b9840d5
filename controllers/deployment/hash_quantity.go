package deployment

// Skip on a first reading: part of hash_dump.go's imitation of
// kube-controller-manager's hash. It re-derives, from a quantity's text,
// the fields of the resource.Quantity that apimachinery's ParseQuantity
// builds on its int64 fast path (apimachinery/pkg/api/resource/quantity.go,
// ParseQuantity and parseQuantityString).

import (
	"math"
	"strconv"
	"strings"
)

// quantitySuffix is what a suffix means: a power of base and the format
// the quantity keeps.
type quantitySuffix struct {
	exponent int32
	format   string
}

var quantitySuffixes = map[string]quantitySuffix{
	"": {0, "DecimalSI"}, "n": {-9, "DecimalSI"}, "u": {-6, "DecimalSI"}, "m": {-3, "DecimalSI"},
	"k": {3, "DecimalSI"}, "M": {6, "DecimalSI"}, "G": {9, "DecimalSI"}, "T": {12, "DecimalSI"},
	"P": {15, "DecimalSI"}, "E": {18, "DecimalSI"},
	"Ki": {10, "BinarySI"}, "Mi": {20, "BinarySI"}, "Gi": {30, "BinarySI"}, "Ti": {40, "BinarySI"},
	"Pi": {50, "BinarySI"}, "Ei": {60, "BinarySI"},
}

// interpretSuffix also accepts decimal exponents ("e3", "E-2").
func interpretSuffix(s string) (quantitySuffix, bool) {
	if q, ok := quantitySuffixes[s]; ok {
		return q, true
	}
	if len(s) > 1 && (s[0] == 'e' || s[0] == 'E') {
		n, err := strconv.ParseInt(s[1:], 10, 32)
		if err == nil {
			return quantitySuffix{int32(n), "DecimalExponent"}, true
		}
	}
	return quantitySuffix{}, false
}

// splitQuantity cuts "-1.5Gi" into sign, integer digits without leading
// zeros ("1"), fraction digits ("5") and suffix ("Gi").
func splitQuantity(str string) (positive bool, num, denom, suffix string) {
	positive, s := true, str
	if s != "" && (s[0] == '-' || s[0] == '+') {
		positive = s[0] == '+'
		s = s[1:]
	}
	s = strings.TrimLeft(s, "0")
	i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if i < 0 {
		i = len(s)
	}
	num, s = s[:i], s[i:]
	if num == "" {
		num = "0"
	}
	if strings.HasPrefix(s, ".") {
		s = s[1:]
		j := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
		if j < 0 {
			j = len(s)
		}
		denom, s = s[:j], s[j:]
	}
	return positive, num, denom, s
}

// parseQuantityForHash returns the int64Amount (value, scale), the format
// and the cached string of ParseQuantity(str); ok is false when Kubernetes
// would leave the int64 path.
func parseQuantityForHash(str string) (value int64, scale int32, format, cached string, ok bool) {
	if str == "0" {
		return 0, 0, "DecimalSI", str, true
	}
	positive, num, denom, suf := splitQuantity(str)
	sx, known := interpretSuffix(suf)
	if !known {
		return 0, 0, "", "", false
	}
	const maxInt64Factors = 18
	precision, mantissa := int32(0), int64(1)
	switch sx.format {
	case "BinarySI":
		if sx.exponent >= 0 && denom == "" {
			mantissa <<= uint(sx.exponent)
			precision = 15 - int32(len(num)) - int32(float32(sx.exponent)*3/10) - 1
		} else {
			precision = -1
		}
	default:
		scale = sx.exponent
		precision = maxInt64Factors - int32(len(num)+len(denom))
	}
	if precision < 0 {
		return 0, 0, "", "", false
	}
	scale -= int32(len(denom))
	if scale < -9 {
		return 0, 0, "", "", false
	}
	shifted := num + denom
	v, err := strconv.ParseInt(shifted, 10, 64)
	if err != nil {
		return 0, 0, "", "", false
	}
	if v != 0 && (mantissa > math.MaxInt64/v || mantissa < math.MinInt64/v) {
		return 0, 0, "", "", false
	}
	result := v * mantissa
	if !positive {
		result = -result
	}
	// ParseQuantity keeps the string when it is already canonical.
	canonical := false
	if sx.format == "BinarySI" {
		canonical = sx.exponent%10 == 0 && v&0x07 != 0
	} else {
		canonical = scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0'
	}
	if canonical {
		cached = str
	}
	return result, scale, sx.format, cached, true
}

package fieldpath

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// Values are what encoding/json decodes into with UseNumber: nil, bool,
// string, json.Number, []any and map[string]any. SMD orders them numbers
// first (ints and floats compared numerically), then strings, booleans,
// lists, maps and null last; a set-like list's members and a key's values
// sort in that order in FieldsV1.

// valueRank is a value's place in that order.
func valueRank(v any) int {
	switch v.(type) {
	case json.Number, float64, int64, int:
		return 0
	case string:
		return 1
	case bool:
		return 2
	case []any:
		return 3
	case map[string]any:
		return 4
	case nil:
		return 5
	}
	return 6
}

// CompareValues orders two values as SMD's value.Compare does.
func CompareValues(a, b any) int {
	ra, rb := valueRank(a), valueRank(b)
	if ra != rb {
		if ra < rb {
			return -1
		}
		return 1
	}
	switch a := a.(type) {
	case string:
		return strings.Compare(a, b.(string))
	case bool:
		bb := b.(bool)
		switch {
		case a == bb:
			return 0
		case !a:
			return -1
		}
		return 1
	case []any:
		bl := b.([]any)
		for i := 0; i < len(a) && i < len(bl); i++ {
			if c := CompareValues(a[i], bl[i]); c != 0 {
				return c
			}
		}
		return compareInts(int64(len(a)), int64(len(bl)))
	case map[string]any:
		return compareMaps(a, b.(map[string]any))
	case nil:
		return 0
	}
	return compareNumbers(a, b)
}

// compareNumbers compares integers exactly and anything else as floats.
func compareNumbers(a, b any) int {
	ai, aInt := asInt(a)
	bi, bInt := asInt(b)
	if aInt && bInt {
		return compareInts(ai, bi)
	}
	af, bf := asFloat(a), asFloat(b)
	switch {
	case af < bf:
		return -1
	case af > bf:
		return 1
	}
	return 0
}

func compareInts(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compareMaps compares maps by their sorted keys, then their values, then
// their sizes, the way SMD's MapCompare walks them.
func compareMaps(a, b map[string]any) int {
	ak, bk := sortedKeys(a), sortedKeys(b)
	for i := 0; i < len(ak) && i < len(bk); i++ {
		if c := strings.Compare(ak[i], bk[i]); c != 0 {
			return c
		}
		if c := CompareValues(a[ak[i]], b[bk[i]]); c != 0 {
			return c
		}
	}
	return compareInts(int64(len(ak)), int64(len(bk)))
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func asInt(v any) (int64, bool) {
	switch v := v.(type) {
	case json.Number:
		i, err := strconv.ParseInt(string(v), 10, 64)
		return i, err == nil
	case int64:
		return v, true
	case int:
		return int64(v), true
	}
	return 0, false
}

func asFloat(v any) float64 {
	switch v := v.(type) {
	case json.Number:
		f, _ := v.Float64()
		return f
	case float64:
		return v
	case int64:
		return float64(v)
	case int:
		return float64(v)
	}
	return 0
}

// EqualValues reports whether two values are the same JSON value.
func EqualValues(a, b any) bool {
	return CompareValues(a, b) == 0
}

package api

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// manyKeysConfigMap is a ConfigMap whose data has n keys, about 20 bytes a
// key: 150k keys make a 3 MB body, just under the apiserver's 3 MiB limit.
// extra is appended inside data (a duplicate key, say).
func manyKeysConfigMap(n int, extra string) []byte {
	var b strings.Builder
	b.WriteString(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"big"},"data":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"key-%07d":"v"`, i)
	}
	b.WriteString(extra)
	b.WriteString(`}}`)
	return []byte(b.String())
}

// The fast scan compares each key of a big map once: the count of key
// comparisons grows with n, not n².
func TestCleanBodyComparesEachMapKeyOnce(t *testing.T) {
	compares := func(n int, extra string) (bool, int) {
		s := newKeyScanner(manyKeysConfigMap(n, extra))
		clean := s.clean(reflect.TypeFor[ConfigMap]())
		return clean, s.keyCompares
	}
	// the small array's comparisons of its first keys, per object
	const setup = smallKeys * smallKeys
	for _, n := range []int{150_000 / 4, 150_000} {
		clean, c := compares(n, "")
		assert.True(t, clean)
		assert.LessOrEqual(t, c, n+3*setup, "n=%d", n)

		clean, c = compares(n, `,"key-0000000":"again"`)
		assert.False(t, clean, "a duplicate is not clean")
		assert.LessOrEqual(t, c, n+1+3*setup, "n=%d", n)
	}
}

// A body at the apiserver's size limit with a duplicate key and an unknown
// field among 150k keys: both are reported and the last duplicate wins.
// That the walk stays linear in the keys is a speed claim, measured by
// BenchmarkDecodeStrictManyKeys (the same MB/s at 18k and 150k keys) and
// counted for the clean scan by TestCleanBodyComparesEachMapKeyOnce, not
// timed here.
func TestDecodeStrictReportsDuplicatesAndUnknownsAmongManyKeys(t *testing.T) {
	const n = 150_000
	body := manyKeysConfigMap(n, `,"key-0000007":"again"},"bogus":{"x":1`)
	require.Less(t, len(body), 3<<20, "the body must fit the apiserver's limit")
	var cm ConfigMap
	unknown, dups, err := DecodeStrict(body, &cm)
	require.NoError(t, err)
	assert.Equal(t, []string{"data.key-0000007"}, dups)
	assert.Equal(t, []string{"bogus"}, unknown)
	assert.Len(t, cm.Data, n)
	assert.Equal(t, "again", cm.Data["key-0000007"])
}

func BenchmarkDecodeStrictManyKeys(b *testing.B) {
	for _, c := range []struct{ name, extra string }{
		{"clean", ""},
		{"duplicate", `,"key-0000000":"again"`},
	} {
		for _, n := range []int{150_000 / 8, 150_000} {
			body := manyKeysConfigMap(n, c.extra)
			b.Run(fmt.Sprintf("%s/%dk-keys", c.name, n/1000), func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				for b.Loop() {
					var cm ConfigMap
					if _, _, err := DecodeStrict(body, &cm); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

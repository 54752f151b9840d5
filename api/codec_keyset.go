package api

import "bytes"

// Part of the strict decoder's fast path (codec_scan.go): skip on a first
// reading. It keeps duplicate detection linear in the number of keys;
// BenchmarkDecodeStrictManyKeys shows it.

// keySet is the set of keys one object has shown so far. A struct's
// object has a handful of keys, best compared in a small array; a map
// (ConfigMap data, labels) can have a hundred thousand, and comparing each
// new key with every earlier one made a 150k-key body take 45 s, so past
// smallKeys the keys move into a hash set.
type keySet struct {
	small [smallKeys][]byte
	n     int
	large map[string]struct{}
}

const smallKeys = 16

// add records key and reports false if it was already there. compares
// counts the comparisons made.
func (k *keySet) add(key []byte, compares *int) bool {
	if k.large != nil {
		*compares++
		if _, dup := k.large[string(key)]; dup {
			return false
		}
		k.large[string(key)] = struct{}{}
		return true
	}
	for _, seen := range k.small[:k.n] {
		*compares++
		if bytes.Equal(seen, key) {
			return false
		}
	}
	if k.n < smallKeys {
		k.small[k.n] = key
		k.n++
		return true
	}
	k.large = make(map[string]struct{}, 2*smallKeys)
	for _, seen := range k.small {
		k.large[string(seen)] = struct{}{}
	}
	k.large[string(key)] = struct{}{}
	return true
}

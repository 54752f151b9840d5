//go:build race

package store_test

// raceEnabled scales heavy tests down: the race detector makes etcd several
// times slower.
const raceEnabled = true

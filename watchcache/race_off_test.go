//go:build !race

package watchcache

const raceEnabled = false

//go:build race

package watchcache

// raceEnabled scales heavy tests down under the race detector.
const raceEnabled = true

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// machine is what the numbers were measured on. Load is the 1/5/15-minute
// load average when the table was made: on a shared machine it says how far
// to trust the latencies.
type machine struct {
	CPU       string `json:"cpu"`
	CPUs      int    `json:"cpus"`
	GoVersion string `json:"goVersion"`
	Load      string `json:"loadAverage"`
	When      string `json:"when"`
}

func (m *machine) fill() {
	m.CPUs = runtime.NumCPU()
	m.GoVersion = runtime.Version()
	m.When = time.Now().UTC().Format(time.RFC3339)
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		f := strings.Fields(string(b))
		if len(f) >= 3 {
			m.Load = strings.Join(f[:3], " ")
		}
	}
}

func (m machine) String() string {
	return fmt.Sprintf("%s, %d CPUs, %s, load %s, %s", m.CPU, m.CPUs, m.GoVersion, m.Load, m.When)
}

func writeResults(dir string, lines []line, m machine) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var js, md bytes.Buffer
	if err := writeJSON(&js, lines, m); err != nil {
		return err
	}
	writeMarkdown(&md, lines, m)
	if err := os.WriteFile(filepath.Join(dir, "bench.json"), js.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "bench.md"), md.Bytes(), 0o644)
}

package apiserver

import (
	"context"
	"net/http"
	"runtime"
	"time"

	"kubeloop/apiserver/endpoints/handlers/responsewriters"
)

// serveHealth answers /healthz and /livez: the process is up and serving.
func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("ok"))
}

// serveReady answers /readyz: etcd answers and every watch cache is synced.
func (s *Server) serveReady(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if err := s.checkReady(ctx); err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("readyz check failed: " + err.Error()))
		return
	}
	_, _ = w.Write([]byte("ok"))
}

// versionInfo is the body of /version (k8s.io/apimachinery/pkg/version.Info).
type versionInfo struct {
	Major        string `json:"major"`
	Minor        string `json:"minor"`
	GitVersion   string `json:"gitVersion"`
	GitCommit    string `json:"gitCommit"`
	GitTreeState string `json:"gitTreeState"`
	BuildDate    string `json:"buildDate"`
	GoVersion    string `json:"goVersion"`
	Compiler     string `json:"compiler"`
	Platform     string `json:"platform"`
}

// GitVersion is what /version reports. kubectl parses it as semver, so it
// must look like a Kubernetes release.
const GitVersion = "v1.37.0-kubeloop"

func (s *Server) serveVersion(w http.ResponseWriter, r *http.Request) {
	responsewriters.WriteRawJSON(w, http.StatusOK, versionInfo{
		Major: "1", Minor: "37", GitVersion: GitVersion, GitTreeState: "clean",
		BuildDate: "1970-01-01T00:00:00Z", GoVersion: runtime.Version(), Compiler: runtime.Compiler,
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
	})
}

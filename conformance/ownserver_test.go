package conformance

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/apiserver"
)

// ownAPIServer is a kubeloop apiserver (no controllers, no nodes) over the
// suite's etcd that a test can stop and start again on the same address,
// the way a real apiserver restart drops every watch. It logs the list and
// watch requests it serves, so tests can tell how clients synced.
type ownAPIServer struct {
	tb   testing.TB
	addr string
	log  *requestLog

	srv  *apiserver.Server
	hs   *http.Server
	done chan struct{}
}

func startOwnAPIServer(tb testing.TB) *ownAPIServer {
	o := &ownAPIServer{tb: tb, addr: "127.0.0.1:0", log: &requestLog{}}
	o.start()
	tb.Cleanup(o.stop)
	return o
}

func (o *ownAPIServer) url() string { return "http://" + o.addr }

func (o *ownAPIServer) start() {
	srv, err := apiserver.New(apiserver.Config{Etcd: etcd.Client(), Logger: slog.New(slog.DiscardHandler)})
	require.NoError(o.tb, err)
	var ln net.Listener
	require.Eventually(o.tb, func() bool {
		ln, err = net.Listen("tcp", o.addr)
		return err == nil
	}, 10*time.Second, 20*time.Millisecond, "listen %s", o.addr)
	o.addr = ln.Addr().String()
	o.srv, o.done = srv, make(chan struct{})
	o.hs = &http.Server{Handler: o.log.wrap(srv.Handler()), ReadHeaderTimeout: 30 * time.Second}
	go func() { defer close(o.done); _ = o.hs.Serve(ln) }()
}

// stop ends every watch (Server.Close) and then the HTTP server.
func (o *ownAPIServer) stop() {
	if o.srv == nil {
		return
	}
	o.srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = o.hs.Shutdown(ctx)
	<-o.done
	o.srv = nil
}

// requestLog remembers how reads were asked for.
type requestLog struct {
	mu sync.Mutex
	// lists are plain LISTs; initialEvents are WATCHes with
	// sendInitialEvents=true (WatchList).
	lists, initialEvents, watches int
}

func (l *requestLog) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/configmaps") {
			q := r.URL.Query()
			l.mu.Lock()
			switch {
			case q.Get("sendInitialEvents") == "true":
				l.initialEvents++
			case q.Get("watch") == "true" || q.Get("watch") == "1":
				l.watches++
			default:
				l.lists++
			}
			l.mu.Unlock()
		}
		next.ServeHTTP(w, r)
	})
}

// counts returns lists, initialEvents and watches.
func (l *requestLog) counts() (int, int, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lists, l.initialEvents, l.watches
}

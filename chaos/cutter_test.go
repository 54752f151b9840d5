package chaos

import (
	"io"
	"math/rand/v2"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// cutter is a TCP proxy in front of the apiserver that can cut its
// connections: a watch (or any request) through it ends with the
// connection, as when a load balancer or a NAT drops it. TLS passes
// through untouched.
type cutter struct {
	ln       net.Listener
	upstream string

	mu    sync.Mutex
	conns map[net.Conn]net.Conn // client side → upstream side
	cuts  int
}

func startCutter(t *testing.T, upstream string) *cutter {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &cutter{ln: ln, upstream: upstream, conns: map[net.Conn]net.Conn{}}
	go p.accept()
	t.Cleanup(func() { _ = ln.Close(); p.cutAll() })
	return p
}

func (p *cutter) addr() string { return p.ln.Addr().String() }

func (p *cutter) accept() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.upstream)
		if err != nil {
			_ = in.Close()
			continue
		}
		p.mu.Lock()
		p.conns[in] = out
		p.mu.Unlock()
		go p.pipe(in, out)
	}
}

func (p *cutter) pipe(in, out net.Conn) {
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(out, in); done <- struct{}{} }()
	go func() { _, _ = io.Copy(in, out); done <- struct{}{} }()
	<-done
	p.drop(in)
}

func (p *cutter) drop(in net.Conn) {
	p.mu.Lock()
	out, ok := p.conns[in]
	delete(p.conns, in)
	p.mu.Unlock()
	if ok {
		_ = in.Close()
		_ = out.Close()
	}
}

// cutOne closes one open connection chosen at random; false if none.
func (p *cutter) cutOne(r *rand.Rand) bool {
	p.mu.Lock()
	var all []net.Conn
	for in := range p.conns {
		all = append(all, in)
	}
	if len(all) > 0 {
		p.cuts++
	}
	p.mu.Unlock()
	if len(all) == 0 {
		return false
	}
	p.drop(all[r.IntN(len(all))])
	return true
}

func (p *cutter) cutAll() {
	p.mu.Lock()
	var all []net.Conn
	for in := range p.conns {
		all = append(all, in)
	}
	p.mu.Unlock()
	for _, in := range all {
		p.drop(in)
	}
}

// cutAtRandom cuts a random connection every 50–250 ms until stop closes.
func (p *cutter) cutAtRandom(seed uint64, stop <-chan struct{}) {
	r := rand.New(rand.NewPCG(seed, seed))
	for {
		select {
		case <-stop:
			return
		case <-time.After(time.Duration(50+r.IntN(200)) * time.Millisecond):
			p.cutOne(r)
		}
	}
}

func (p *cutter) cutCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cuts
}

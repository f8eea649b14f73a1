package proc

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// InstallSignalHandler makes SIGINT and SIGTERM kill every registered child
// and then exit with the shell's conventional status, 128 plus the signal
// number (130 for SIGINT, 143 for SIGTERM). The returned stop function
// uninstalls the handler; it is safe to call more than once.
//
// Install it once, early in main, together with `defer proc.KillAll()` for
// the normal and panicking exits of the main goroutine.
func InstallSignalHandler() (stop func()) {
	ch := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		select {
		case sig := <-ch:
			KillAll()
			code := 1
			if s, ok := sig.(syscall.Signal); ok {
				code = 128 + int(s)
			}
			os.Exit(code)
		case <-done:
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
		})
	}
}

package trogdor

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestPlatformConfig(t *testing.T) {
	coord := Node{Name: CoordinatorName, Port: 9000}
	for _, tc := range []struct {
		name    string
		agents  []Node
		wantErr string
		want    map[string]map[string]any
	}{
		{
			name:   "two agents",
			agents: []Node{{Name: "agent-1", Port: 9001}, {Name: "agent-2", Port: 9002}},
			want: map[string]map[string]any{
				"coordinator": {"hostname": Loopback, "trogdor.coordinator.port": 9000.0, "trogdor.agent.port": 0.0},
				"agent-1":     {"hostname": Loopback, "trogdor.agent.port": 9001.0},
				"agent-2":     {"hostname": Loopback, "trogdor.agent.port": 9002.0},
			},
		},
		{name: "duplicate name", agents: []Node{{Name: "agent-1"}, {Name: "agent-1"}}, wantErr: `"agent-1" used twice`},
		{name: "agent named like the coordinator", agents: []Node{{Name: CoordinatorName}}, wantErr: "used twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := platformConfig(coord, tc.agents)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Platform string                    `json:"platform"`
				Nodes    map[string]map[string]any `json:"nodes"`
			}
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatal(err)
			}
			if got.Platform != basicPlatform {
				t.Errorf("platform %q", got.Platform)
			}
			gotJSON, _ := json.Marshal(got.Nodes)
			wantJSON, _ := json.Marshal(tc.want)
			if string(gotJSON) != string(wantJSON) {
				t.Errorf("nodes %s\nwant  %s", gotJSON, wantJSON)
			}
		})
	}
}

func TestConfigCheck(t *testing.T) {
	jar := filepath.Join(t.TempDir(), "w.jar")
	if err := os.WriteFile(jar, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		cfg     Config
		wantErr string
	}{
		{"ok", Config{Agents: 2, WorkerJar: jar, Dir: "d"}, ""},
		{"no agents", Config{Agents: 0, WorkerJar: jar, Dir: "d"}, "between 1 and"},
		{"too many agents", Config{Agents: MaxAgents + 1, WorkerJar: jar, Dir: "d"}, "between 1 and"},
		{"bad release", Config{Agents: 1, Release: "latest", WorkerJar: jar, Dir: "d"}, `"latest" is not a Kafka release`},
		{"no dir", Config{Agents: 1, WorkerJar: jar}, "no directory"},
		{"release before 3.0", Config{Agents: 1, Release: "2.8.2", WorkerJar: jar, Dir: "d"}, "older than 3.0"},
		{"no worker jar", Config{Agents: 1, WorkerJar: jar + ".missing", Dir: "d"}, "worker jar"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.check()
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("check: %v", err)
				}
				if tc.cfg.Release != DefaultRelease {
					t.Errorf("release %q, want the default %s", tc.cfg.Release, DefaultRelease)
				}
				// The daemons run in Dir: a relative config path would
				// name another file there.
				if !filepath.IsAbs(tc.cfg.Dir) {
					t.Errorf("dir %q left relative", tc.cfg.Dir)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestOwnsCmdline(t *testing.T) {
	cfg := "/d/trogdor.json"
	for _, tc := range []struct {
		name string
		args []string
		want bool
	}{
		{"launcher", []string{"java", "-cp", "x", daemonMain, "agent", cfg, "agent-1"}, true},
		{"launcher, other fleet", []string{"java", "-cp", "x", daemonMain, "agent", "/e/trogdor.json", "agent-1"}, false},
		{"agent", []string{"java", "-cp", "x", agentMain, "--agent.config", cfg, "--node-name", "agent-1"}, true},
		{"coordinator", []string{"java", coordinatorMain, "--coordinator.config", cfg}, true},
		{"other fleet", []string{"java", agentMain, "--agent.config", "/e/trogdor.json"}, false},
		{"other program", []string{"sleep", cfg}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ownsCmdline(tc.args, cfg); got != tc.want {
				t.Errorf("ownsCmdline = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestStateRoundTripAndLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trogdor.json")
	if _, err := LoadState(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("LoadState of nothing: %v, want os.ErrNotExist", err)
	}
	s := State{Release: "4.3.1", URL: "http://127.0.0.1:1", Dir: "/nowhere",
		Coordinator: Node{Name: CoordinatorName, Port: 1, PID: 1}, Agents: []Node{{Name: "agent-1", Port: 2, PID: os.Getpid()}}}
	if err := SaveState(path, s); err != nil {
		t.Fatal(err)
	}
	got, err := LoadState(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.URL != s.URL || len(got.Nodes()) != 2 {
		t.Errorf("loaded %+v", got)
	}
	// pid 1 and this test are alive but are not Trogdor daemons of /nowhere.
	if live := got.LiveNodes(); len(live) != 0 {
		t.Errorf("LiveNodes = %+v, want none", live)
	}
	unlock, err := LockState(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LockState(path); !errors.Is(err, ErrStateLocked) {
		t.Errorf("second lock: %v, want ErrStateLocked", err)
	}
	unlock()
	unlock2, err := LockState(path)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	unlock2()
}

func TestClient(t *testing.T) {
	var created map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method + " " + r.URL.Path {
		case "GET /coordinator/status":
			_, _ = w.Write([]byte(`{"serverStartMs":42}`))
		case "GET /coordinator/tasks/t1":
			_, _ = w.Write([]byte(`{"state":"DONE","error":"","status":{"agent-1":{"ok":true}}}`))
		case "GET /coordinator/tasks/t2":
			_, _ = w.Write([]byte(`{"state":"RUNNING"}`))
		case "DELETE /coordinator/tasks":
			if r.URL.Query().Get("taskId") != "t1" {
				http.Error(w, "no taskId", http.StatusBadRequest)
			}
			_, _ = w.Write([]byte(`{}`))
		case "POST /coordinator/task/create":
			_ = json.NewDecoder(r.Body).Decode(&created)
			_, _ = w.Write([]byte(`{}`))
		default:
			http.Error(w, `{"error":"no such thing"}`, http.StatusNotFound)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	c := NewClient(srv.URL + "/")

	for _, tc := range []struct {
		name    string
		call    func() error
		wantErr string
	}{
		{"status", func() error {
			s, err := c.Status(ctx)
			if err == nil && s.ServerStartMs != 42 {
				return errors.New("wrong serverStartMs")
			}
			return err
		}, ""},
		{"done task", func() error {
			tk, err := c.Task(ctx, "t1")
			if err == nil && (!tk.Done() || !strings.Contains(string(tk.Status), "agent-1")) {
				return errors.New("wrong task")
			}
			return err
		}, ""},
		{"unknown task", func() error { _, err := c.Task(ctx, "t9"); return err }, `trogdor task "t9"`},
		{"destroy", func() error { return c.DestroyTask(ctx, "t1") }, ""},
		{"destroy unknown", func() error { return c.DestroyTask(ctx, "t9") }, "400"},
		{"create", func() error {
			if err := c.CreateTask(ctx, "t3", map[string]any{"class": "X"}); err != nil {
				return err
			}
			if created["id"] != "t3" {
				return errors.New("id not sent")
			}
			return nil
		}, ""},
		{"HTTP error", func() error { return c.StopTask(ctx, "t1") }, "404"},
		{"wait times out", func() error {
			// The deadline must fall between polls, not cut one short: the
			// first poll gets 3 s on a busy machine, and there is no second.
			ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			defer cancel()
			_, err := c.WaitTask(ctx, "t2", time.Hour)
			return err
		}, "still RUNNING"},
		{"unreachable", func() error {
			_, err := NewClient("http://127.0.0.1:1").Status(ctx)
			return err
		}, "trogdor coordinator http://127.0.0.1:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

// TestNodeStatuses splits task statuses by node: a task on one node is
// that node's status itself, one on several is keyed by node; a probe's
// status names its agent itself.
func TestNodeStatuses(t *testing.T) {
	for _, tc := range []struct {
		name, status string
		nodes        []string
		probe        bool
		want         string // node=status pairs, sorted
		err          string // a substring of the error; "" when none is wanted
	}{
		{"one node", `{"op":"result"}`, []string{"a"}, false, `a={"op":"result"}`, ""},
		{"two nodes", `{"a":{"op":"result"},"b":{"op":"progress"}}`, []string{"a", "b"}, false, `a={"op":"result"} b={"op":"progress"}`, ""},
		{"none yet", ``, []string{"a", "b"}, false, ``, ""},
		{"null", `null`, []string{"a", "b"}, false, ``, ""},
		{"not keyed", `[1]`, []string{"a", "b"}, false, ``, `want an object keyed by node`},
		{"probe of one agent", `{"node":"a","task_api":1}`, nil, true, `a={"node":"a","task_api":1}`, ""},
		{"probe of two agents", `{"a":{"node":"a"},"b":{"node":"b"}}`, nil, true, `a={"node":"a"} b={"node":"b"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got map[string]json.RawMessage
			var err error
			if tc.probe {
				got, err = probeStatuses(json.RawMessage(tc.status))
			} else {
				got, err = NodeStatuses(json.RawMessage(tc.status), tc.nodes)
			}
			if tc.err != "" || err != nil {
				if err == nil || tc.err == "" || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("err %v, want %q", err, tc.err)
				}
				return
			}
			var parts []string
			for _, n := range slices.Sorted(maps.Keys(got)) {
				parts = append(parts, n+"="+string(got[n]))
			}
			if s := strings.Join(parts, " "); s != tc.want {
				t.Errorf("got %q, want %q", s, tc.want)
			}
		})
	}
}

// TestClientClipsErrorBodies: a coordinator's error body is text from
// outside: a 5 MB one with terminal escapes and line breaks reaches a
// message as one escaped line of at most a few hundred characters.
func TestClientClipsErrorBodies(t *testing.T) {
	body := "\x1b[2J" + strings.Repeat("boom\r\n", 1<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(body))
	}))
	defer srv.Close()
	_, err := NewClient(srv.URL).Task(context.Background(), "t")
	if err == nil {
		t.Fatal("a 500 answer gave no error")
	}
	msg := err.Error()
	if len(msg) > 1000 || strings.ContainsAny(msg, "\r\n\x1b") || !strings.Contains(msg, `\x1b[2Jboom\r\nboom`) {
		t.Errorf("error of %d bytes, want one escaped line under 1000: %.200q", len(msg), msg)
	}
}

package cluster

// Pids returns the process id of every running embedded broker, by node
// id, so the lab can read what each broker spent in CPU. An external
// cluster has none.
func (c *Cluster) Pids() map[int]int {
	out := map[int]int{}
	for i, n := range c.nodes {
		n.mu.Lock()
		if n.pid > 0 {
			out[i+1] = n.pid
		}
		n.mu.Unlock()
	}
	return out
}

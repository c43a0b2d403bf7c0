package sim

// BlockStats exposes blockStats to the package's external tests.
type BlockStats = blockStats

// WithoutBlocks makes runs of c go cycle by cycle (Config.noBlocks).
func WithoutBlocks(c *Config) { c.noBlocks = true }

// ForceBlocks lets runs of c take blocks whatever the network's size
// (Config.forceBlocks).
func ForceBlocks(c *Config) { c.forceBlocks = true }

// ForceWarm makes runs of c warm each word's state ahead of its cycle whatever
// the network's size (Config.forceWarm).
func ForceWarm(c *Config) { c.forceWarm = true }

// WithoutPass makes VC allocation of runs of c try every waiting head
// (Config.noPass).
func WithoutPass(c *Config) { c.noPass = true }

// SlowSwitch makes switch allocation of runs of c take its general path
// (Config.slowSwitch).
func SlowSwitch(c *Config) { c.slowSwitch = true }

// CountBlocks makes runs of c count their blocks into s (Config.blocks).
func CountBlocks(c *Config, s *BlockStats) { c.blocks = s }

// TimeBlocks makes runs counting their blocks into s time each partition's part
// of a block with clock, a thread's CPU time (blockStats.clock).
func (s *BlockStats) TimeBlocks(clock func() int64) { s.clock = clock }

// Crit and Work read the times (blockStats).
func (s *BlockStats) Crit() int64 { return s.crit }
func (s *BlockStats) Work() int64 { return s.work }

// Blocks, Cycles and Rechecked read s.
func (s *BlockStats) Blocks() int64    { return s.blocks }
func (s *BlockStats) Cycles() int64    { return s.cycles }
func (s *BlockStats) Rechecked() int64 { return s.rechecked }

// Spins is the barrier's spins tried and those that saw their count (barrier.go).
func (s *BlockStats) Spins() (tried, won int64) { return s.spins, s.spinWins }

// Stolen is the words the partitions' threads ran of others', or on two
// threads past an even split (claims).
func (s *BlockStats) Stolen() int64 { return s.stolen }

// StealFirst makes a block's threads run other partitions' words before their
// own, on two threads too (Config.stealFirst).
func StealFirst(c *Config) { c.stealFirst = true }

// WithoutPartial turns off runs of c's look for a deadlock of part of the
// network (Config.noPartial).
func WithoutPartial(c *Config) { c.noPartial = true }

package explore

// splitmix64 is the output function of Steele, Lea and Flood's SplitMix64 ("Fast
// splittable pseudorandom number generators", OOPSLA 2014): consecutive inputs give
// unrelated outputs.
func splitmix64(x uint64) uint64 {
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// golden is SplitMix64's increment, the odd number nearest 2⁶⁴/φ.
const golden = 0x9e3779b97f4a7c15

// RunSeed is run i's seed: the i-th output of a SplitMix64 generator started at the
// master seed, its top bit cleared. Any run can be made again alone from the master
// seed and its index, and shards split the runs without changing any run's seed.
// The top bit goes because a finding's scenario file holds its seed, and TOML's
// integers are signed 64-bit: a seed above 2⁶³−1 could not be written (a search
// whose shrinking kept such a seed failed to write its finding).
func RunSeed(master uint64, i int) uint64 {
	return splitmix64(master+uint64(i+1)*golden) &^ (1 << 63)
}

// Package mutex holds clusterlab's distributed mutual-exclusion algorithms, the
// second half of the course's coordination chapter (course notes 002 and 003):
//
//   - central   — central server (notes 002, 003), optional lease
//   - tokenring — token ring (notes 002, 003), optional token regeneration
//   - ricart    — Ricart & Agrawala 1981
//   - lamport   — Lamport 1978
//   - maekawa   — Maekawa 1985, grid voting sets, optional deadlock freedom
//   - quorum    — majority quorums of volatile coordinators (notes 003)
//
// Every algorithm is a pure state machine that embeds the shared workload: a user
// request "cs" (or the generator, parameters cs_rate and cs_hold) makes the process
// WANTED; the algorithm calls workload.enter when it may enter; the workload holds
// the critical section for cs_hold and then calls the algorithm's exit. Status.CS is
// released, wanted or held; the "entries" counter counts entries of this
// incarnation; ricart and lamport also report "req_ts", the timestamp of the current
// request, for the order monitor.
//
// A process never sends a network message to itself: where an algorithm makes a
// process its own coordinator or voter, the message is delivered locally within the
// same step (see loopback) and is not counted.
//
// Messages per critical-section entry, without contention (one requester at a time):
//
//	central    3 (REQUEST, GRANT, RELEASE) when the requester is not the coordinator, else 0
//	tokenring  0 to N (the token circulates all the time: N per round)
//	ricart     2(N−1)
//	lamport    3(N−1)
//	maekawa    3(|V_i|−1), |V_i| ≈ 2√N
//	quorum     3n, less 3 when the requester is a coordinator (n coordinators)
package mutex

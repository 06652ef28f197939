package mutex

import (
	"testing"

	"github.com/clusterlab/clusterlab/node"
)

func ack(stamp, pending int64) node.Message {
	return node.Message{Type: "ACK", Stamp: stamp, Term: pending}
}

func TestLamportRequestAckRelease(t *testing.T) {
	h, _ := start(t, "lamport", 3, 1, nil)
	wantSends(t, h.Request("cs"), to(2, msg("REQUEST", 1)), to(3, msg("REQUEST", 1)))
	wantCounter(t, h, "req_ts", 1)
	wantCounter(t, h, "queue", 1)
	wantSends(t, h.Deliver(2, ack(1, 0)))
	wantCS(t, h, node.CSWanted)
	wantSends(t, h.Deliver(3, ack(1, 0)))
	wantCS(t, h, node.CSHeld)
	wantSends(t, h.Fire(timerHold), to(2, msg("RELEASE", 1)), to(3, msg("RELEASE", 1)))
	wantCounter(t, h, "queue", 0)
}

func TestLamportAcksAndWaitsForHeadOfQueue(t *testing.T) {
	h, _ := start(t, "lamport", 3, 2, nil)
	// Released: acknowledge, queue it.
	wantSends(t, h.Deliver(1, msg("REQUEST", 3)), to(1, ack(3, 0)))
	wantCounter(t, h, "queue", 1)
	wantSends(t, h.Request("cs"), to(1, msg("REQUEST", 4)), to(3, msg("REQUEST", 4)))
	// Wanted: the ACK carries our pending request.
	wantSends(t, h.Deliver(3, msg("REQUEST", 2)), to(3, ack(2, 4)))
	wantSends(t, h.Deliver(1, ack(4, 3)))
	wantSends(t, h.Deliver(3, ack(4, 2)))
	wantCS(t, h, node.CSWanted) // all acknowledged, but (2,n3) and (3,n1) come first
	wantSends(t, h.Deliver(1, msg("RELEASE", 3)))
	wantCS(t, h, node.CSWanted)
	wantSends(t, h.Deliver(3, msg("RELEASE", 2)))
	wantCS(t, h, node.CSHeld)
	wantCounter(t, h, "req_ts", 4)
}

func TestLamportAckCarriesPendingRequest(t *testing.T) {
	// n3's REQUEST (2) is still on its way when its ACK (carrying 2) arrives: n1
	// must not enter before it.
	h, _ := start(t, "lamport", 3, 1, nil)
	h.Deliver(2, msg("REQUEST", 4))
	h.Deliver(2, msg("RELEASE", 4))
	wantSends(t, h.Request("cs"), to(2, msg("REQUEST", 5)), to(3, msg("REQUEST", 5)))
	wantSends(t, h.Deliver(2, ack(5, 0)))
	wantSends(t, h.Deliver(3, ack(5, 2)))
	wantCS(t, h, node.CSWanted)
	wantCounter(t, h, "queue", 2)
	// The REQUEST itself, late, is not queued twice; RELEASE lets n1 in.
	wantSends(t, h.Deliver(3, msg("REQUEST", 2)), to(3, ack(2, 5)))
	wantCounter(t, h, "queue", 2)
	wantSends(t, h.Deliver(3, msg("RELEASE", 2)))
	wantCS(t, h, node.CSHeld)
}

func TestLamportReleaseOvertakesRequest(t *testing.T) {
	h, _ := start(t, "lamport", 2, 1, nil)
	wantSends(t, h.Deliver(2, msg("RELEASE", 3)))
	wantSends(t, h.Deliver(2, msg("REQUEST", 3))) // stale: no ACK, not queued
	wantCounter(t, h, "queue", 0)
	wantSends(t, h.Request("cs"), to(2, msg("REQUEST", 4)))
	wantSends(t, h.Deliver(2, ack(4, 0)))
	wantCS(t, h, node.CSHeld)
}

//go:build !unix

package membudget

// addressLimit is 0 where there is no address-space limit to read (Windows): the
// budget then follows the machine's memory alone.
func addressLimit() uint64 { return 0 }

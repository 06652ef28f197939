// Command clusterlab is a terminal lab for distributed algorithms: the command line
// of package lab with the built-in algorithms.
package main

import (
	"os"

	"github.com/clusterlab/clusterlab/lab"
)

func main() { os.Exit(lab.Main(os.Args[1:])) }

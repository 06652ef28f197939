// Package cputime reads the CPU time the process has used, user and system: what
// a benchmark divides its work by to give a figure that does not depend on how
// busy the machine is with other work.
package cputime

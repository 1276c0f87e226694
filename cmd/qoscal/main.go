// Command qoscal calibrates and runs benchmark QoS gates in CI: it stores
// runs of unchanged code, measures how much their geometric-mean score
// moves, recommends a floor, and judges new runs against it.
//
// Run "qoscal help" for the commands.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

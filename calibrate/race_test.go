//go:build race

package calibrate

// raceBuild is true under the race detector, which slows the Monte Carlo
// tests tenfold; they check statistics, not concurrency.
const raceBuild = true

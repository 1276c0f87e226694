//go:build !race

package calibrate

const raceBuild = false

// Package calibtest holds the runs and calibrations that the tests of
// calibrate's packages share.
package calibtest

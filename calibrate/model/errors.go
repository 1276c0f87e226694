package model

import (
	"fmt"
)

// FloorTooLowError is a floor a model method put below MinFloorShare of
// the lowest calibration score (CheckFloorUseful): recommend does not
// write it, and the calibration file's reader refuses it.
type FloorTooLowError struct {
	Method Method
	// Floor is the floor, on the grid of Step; Lowest the lowest of the
	// Runs calibration scores.
	Floor, Step, Lowest float64
	Runs                int
}

func (e *FloorTooLowError) Error() string {
	return fmt.Sprintf("the %s method puts the floor below half the lowest calibration score: the gate would pass a candidate more than twice as slow as every calibration run", e.Method)
}

// FloorMismatchError is a calibration file whose floor is not what its
// method gives on its matrix: the field errors of the file name the
// field; this one says what would put it right too.
type FloorMismatchError struct {
	Floor, Want float64
	Method      Method
}

func (e *FloorMismatchError) Error() string {
	return fmt.Sprintf("field floor %v is not what the %s method gives on the matrix (%v)", e.Floor, e.Method, e.Want)
}

// UnknownFieldError is a calibration file field the reader does not
// know: a later version that adds one raises the version.
type UnknownFieldError struct {
	Field string // as a message shows it (quoted when it needs to be)
}

func (e *UnknownFieldError) Error() string {
	return "field " + e.Field + " is unknown: expected only the fields of a calibration file (docs/json.md)"
}

package floor

import (
	"fmt"

	"github.com/qoscal/qoscal/calibrate/model"
)

// NoFloorError is a method whose floor rounds to zero or below on the
// step grid: nothing to gate on.
type NoFloorError struct {
	Method model.Method
	// Raw is the method's bound, Floor that rounded down to the grid of
	// Step.
	Raw, Floor, Step float64
}

func (e *NoFloorError) Error() string {
	return fmt.Sprintf("the %s method gives no floor above 0 on its step's grid: nothing to gate on", e.Method)
}

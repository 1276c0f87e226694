package calibrate

// Unit is a benchmark's unit and the direction it improves in.
type Unit struct {
	Unit      string `json:"unit"`
	Direction string `json:"direction"` // "higher" or "lower"
}

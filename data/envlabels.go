package data

// The labels a run's environment gives it (qoscal.json's environment,
// read by package load): what decides a runner's speed, so that runs can
// be told apart, selected and calibrated by it, and a calibration can say
// which environments it rests on.
const (
	LabelCPU    = "cpu"    // the processor's model
	LabelCPUs   = "cpus"   // the logical processors
	LabelKernel = "kernel" // the kernel's release
	LabelArch   = "arch"   // Go's name of the architecture (amd64)
	LabelImage  = "image"  // the Actions runner image: "ubuntu24 20261124.1"
)

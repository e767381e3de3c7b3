package alloc

import "strconv"

// Kind is the kind of a device.
type Kind uint8

const (
	// KindCPU is host memory.
	KindCPU Kind = iota
	// KindCUDA is the memory of a CUDA GPU.
	KindCUDA
)

// Device names where memory lives: the CPU, or one CUDA GPU. Devices are
// comparable values; two are equal when kind and ordinal are equal. The zero
// Device is the CPU.
type Device struct {
	kind Kind
	id   int
}

// CPU is the host.
var CPU = Device{}

// CUDA returns the CUDA device with ordinal id (0 for the first GPU). It
// panics with an ArgumentError for a negative id.
func CUDA(id int) Device {
	if id < 0 {
		panic(invalid("alloc.CUDA", "id", id, "a device ordinal must not be negative"))
	}
	return Device{kind: KindCUDA, id: id}
}

// Kind returns the device's kind.
func (d Device) Kind() Kind { return d.kind }

// ID returns the device's ordinal (0 for the CPU).
func (d Device) ID() int { return d.id }

// IsCPU reports whether d is host memory.
func (d Device) IsCPU() bool { return d.kind == KindCPU }

// String returns "cpu" or "cuda:N", as PyTorch names devices.
func (d Device) String() string {
	if d.kind == KindCUDA {
		return "cuda:" + strconv.Itoa(d.id)
	}
	return "cpu"
}

package alloc

import (
	"fmt"
	"sync"

	"github.com/laze-go/laze/shape"
)

// DeviceAllocator is an Allocator of memory the host cannot address (a
// GPU's): besides handing out blocks it copies bytes between them and host
// memory. Package cuda implements it and registers one per GPU with
// Register; package tensor finds it with For to move tensors (Tensor.To) and
// to allocate device tensors.
//
// Offsets and lengths are in bytes. Each copy returns when the bytes have
// arrived (device work queued before it, on any stream, is finished first),
// so the host may read dst, or reuse src, at once.
type DeviceAllocator interface {
	Allocator
	// CopyIn copies src into the block dst, starting at byte offset off.
	CopyIn(dst *Allocation, off int, src []byte) error
	// CopyOut copies len(dst) bytes of the block src, starting at byte
	// offset off, into dst.
	CopyOut(dst []byte, src *Allocation, off int) error
	// Zero sets the first Size bytes of the block a to zero.
	Zero(a *Allocation) error
}

var registry struct {
	mu      sync.RWMutex
	devices map[Device]DeviceAllocator
}

// Register makes a the allocator that For returns for a.Device(), replacing
// any earlier one. Backends call it when a device is opened. It panics with
// an ArgumentError when a is for the CPU, whose allocator is Default.
func Register(a DeviceAllocator) {
	dev := a.Device()
	if dev.IsCPU() {
		panic(invalid("alloc.Register", "allocator", fmt.Sprintf("%T", a), "the CPU's allocator is Default; Register is for devices"))
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if registry.devices == nil {
		registry.devices = make(map[Device]DeviceAllocator)
	}
	registry.devices[dev] = a
}

// For returns the allocator of dev: Default for the CPU, else the one
// registered for it. A device nobody registered gives a DeviceError
// (errors.Is(err, shape.ErrDevice)) that says how to get one.
func For(dev Device) (Allocator, error) {
	if dev.IsCPU() {
		return Default(), nil
	}
	a, err := DeviceFor(dev)
	if err != nil {
		return nil, err
	}
	return a, nil
}

// DeviceFor returns the allocator registered for dev, which must not be the
// CPU, or a DeviceError.
func DeviceFor(dev Device) (DeviceAllocator, error) {
	registry.mu.RLock()
	a, ok := registry.devices[dev]
	registry.mu.RUnlock()
	if !ok {
		return nil, &shape.DeviceError{Op: "alloc.For", Devices: []fmt.Stringer{dev},
			Reason: "no allocator is registered for this device (build with -tags cuda and open it with cuda.Open)"}
	}
	return a, nil
}

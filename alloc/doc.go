// Package alloc provides devices, allocations and allocators: where tensor
// memory lives and how it is obtained and given back.
//
// A Device names a place memory can live (CPU, or CUDA(id)). An Allocation
// is one block of bytes on one device, released exactly once. An Allocator
// hands out Allocations; the CPU caching allocator here (NewCaching, and the
// process-wide Default) keeps released blocks and hands them out again by
// size class (a size-keyed free list), and the GPU allocator in
// package cuda implements the same interface. A caching allocator limits the
// bytes it has in use (SetLimit; DefaultLimit, the machine's memory, at
// first) and answers a request it cannot serve with a *shape.MemoryError, so
// that a program gets an error where the Go runtime would end it.
package alloc

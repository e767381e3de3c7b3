module github.com/laze-go/laze/kernels/internal/vmath/asmgen

go 1.26.0

require github.com/mmcloughlin/avo v0.6.0

require golang.org/x/exp v0.0.0-20260908205506-85c1c2202aba // indirect

require (
	github.com/laze-go/laze v0.0.0
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)

replace github.com/laze-go/laze => ../../../..

package kernels

import "github.com/laze-go/laze/kernels/internal/cpu"

// bandGroup returns the end of the group of steps starting at steps[i]
// that the CPU executor runs in bands (kernels/internal/cpu/bands.go has
// the rule), or i+1 when steps[i] starts none.
func bandGroup(steps []step, i int) int {
	return cpu.GroupEnd(len(steps), i, func(k int) cpu.Bander { return bandMember(steps[k]) })
}

// bandGroupOf returns the passes of a group of steps bandGroup found.
func bandGroupOf(steps []step) cpu.Group {
	return cpu.NewGroup(0, len(steps), func(k int) cpu.Bander { return bandMember(steps[k]) })
}

// bandMember returns s's pass when s is a step that may run in bands,
// else nil.
func bandMember(s step) cpu.Bander {
	b, ok := s.(banded)
	if !ok {
		return nil
	}
	return b.bander()
}

// banded is implemented by the steps that can run in bands.
type banded interface {
	bander() cpu.Bander
}

func (s *reduceStep[T]) bander() cpu.Bander {
	if s.p.red.Def.Arg || s.g.Count == 0 {
		return nil
	}
	return cpu.Band(&s.p.Pass)
}

func (s *assignStep[T]) bander() cpu.Bander {
	if s.p.first != nil || s.p.Noop {
		return nil
	}
	return cpu.Band(&s.p.Pass)
}

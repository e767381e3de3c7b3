#include "textflag.h"

TEXT ·kernel(SB), NOSPLIT, $0-24
	RET

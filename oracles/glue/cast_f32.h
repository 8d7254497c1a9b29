// cast_f32 oracle (torch x.to(torch.float32)): out[k] = in[k] in row-major
// order; widening bf16 -> f32 is exact and keeps NaN payloads (the pattern
// rule in oracles/glue/moves.h). The definition is cast_bf16's (Cast).
#pragma once

#include "oracles/glue/cast_bf16.h"

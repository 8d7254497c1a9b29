// attention_dense_flash oracle: the same definition as attention (the name is
// a CUDA implementation strategy; the math is identical).
#pragma once

#include "oracles/attn/attention.h"

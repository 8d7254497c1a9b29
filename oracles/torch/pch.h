// Precompiled for every torch reference (target_precompile_headers): ATen is
// most of each file's compile time.
#pragma once
#include "oracles/torch/torch_ops.h"

// Index-value validation shared by the gather / scatter ops of the glue
// family. Every value is read and checked BEFORE the kernel runs (hazard
// H-3: the seed checked inside the copy loop, after earlier rows were written).
#pragma once

#include <cstdint>
#include <string>

#include "api/check.h"

namespace vt::api {

// The first position of `idx` (rank 1, i32 or i64, contiguous: checked
// before) whose value lies outside [0, n), or -1 when all are inside.
int64_t FirstOutOfRange(const Tensor& idx, int64_t n);

// Site `site`: every value of idx in [0, n); the message names the first bad
// position and value and what n bounds. idx is read on the host (HostValues).
void RequireIndicesInRange(const Checker& c, const ExecContext& ctx, const char* site, const Tensor& idx, const char* idx_name,
                           int64_t n, const std::string& what);

}  // namespace vt::api

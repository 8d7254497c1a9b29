// Validation shared by the causal conv ops and the state-movement ops
// (op-contracts 3.6, CheckConvCommon and the metadata helpers). Every check
// only reads operands; metadata VALUES (offsets, slots, accepted counts) are
// read here too, before any kernel runs (hazards H-1, H-2, H-3), through
// api::HostValues: on a device backend they live in device memory.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "api/check.h"

namespace vt::api {

// x [T,C] F row-strided; weight [C,K] F contiguous, K >= 1; bias [C] F
// contiguous (optional); conv_state [N,C,L] f32 contiguous with L == K-1
// (exact_width) or L >= K-1; out [rows of x, C] f32/bf16 contiguous.
void CheckConvCommon(const Checker& c, const ExecContext& ctx, const Tensor& out, const Tensor& x,
                     const Tensor& weight, const Tensor* bias, const Tensor& conv_state, bool exact_width);

// Metadata vector: rank 1, one of `dtypes`, contiguous, [n].
void CheckMeta(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name,
               std::initializer_list<vt::DType> dtypes, int64_t n);

// No written operand overlaps another operand (null entries are skipped).
struct Named {
  const Tensor* t;
  const char* name;
};
void CheckNoOverlaps(const Checker& c, const std::vector<Named>& written, const std::vector<Named>& all);
// The conv ops' case of it: out and conv_state written; x, weight, bias
// (optional) and the op's metadata tensors `meta` read.
void CheckConvNoOverlaps(const Checker& c, const Tensor& out, const Tensor& x, const Tensor& weight,
                         const Tensor* bias, const Tensor& conv_state, const std::vector<Named>& meta);

// Element k of a rank-1 i8 / i32 metadata tensor (validated contiguous) whose
// data the host can read: a host operand or an api::HostValues copy of a
// device one (never a device pointer).
int64_t MetaAt(const Tensor& t, int64_t k);

// Cumulative offsets: off[0] == 0 and off[n-1] == total (site <name>.bounds),
// non-decreasing with every step <= max_step (site <name>.monotone; max_step
// < 0: unbounded).
// The values are read through api::HostValues (a device operand is copied).
void RequireCumulative(const Checker& c, const ExecContext& ctx, const Tensor& off, const char* name, int64_t total,
                       int64_t max_step, const std::string& what);

// Slot indices: every value < slots and, unless allow_null, >= 0 (site
// <name>.range); every live (>= 0) value distinct when `distinct` (site
// <name>.distinct; two rows on one slot race: H-2). Read through
// api::HostValues.
void RequireSlots(const Checker& c, const ExecContext& ctx, const Tensor& idx, const char* name, int64_t slots,
                  bool allow_null, bool distinct);

}  // namespace vt::api

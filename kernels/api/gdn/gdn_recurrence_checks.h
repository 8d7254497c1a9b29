// Validation shared by the GDN recurrences (gdn_prefill, gdn_decode,
// gdn_spec_decode, gdn_packed_decode). Metadata VALUES (cumulative offsets,
// state slots) are read and checked here, before dispatch, so a refused call
// writes nothing (op-contracts H-1, H-2, H-3).
#pragma once

#include <cstdint>
#include <vector>

#include "api/check.h"
#include "vt/ops_gdn.h"

namespace vt::api {

struct GdnDims {
  int64_t t = 0, hk = 0, dk = 0, hv = 0, dv = 0, slots = 0;
};

// q, k [T,Hk,Dk] F; v [T,Hv,Dv] F; out [T,Hv,Dv] f32/bf16; g, beta [T,Hv] f32;
// state [N,Hv,Dv,Dk] f32; all contiguous; Hk, Dk, Hv, Dv >= 1, Hv % Hk == 0;
// scale > 0 and finite; out and state overlap nothing else.
GdnDims CheckGdnOperands(const Checker& c, const ExecContext& ctx, const Tensor& out,
                         const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& g,
                         const Tensor& beta, const Tensor& state, const GdnArgs& args);

// An i32 metadata vector [n], contiguous, overlapping no written operand.
void CheckI32Vector(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name,
                    int64_t n);

// Cumulative offsets: first 0, last `total`, non-decreasing. Sites
// <name>.bounds and <name>.monotonic. Reads the values (ReadI32).
std::vector<int32_t> CheckCumulative(const Checker& c, const ExecContext& ctx, const Tensor& t,
                                     const char* name, int64_t total);

// Every live (>= 0) slot < slots (site <name>.range) and no live slot twice
// (site <name>.distinct). NULL (< 0) entries may repeat.
void CheckLiveSlots(const Checker& c, const std::vector<int32_t>& idx, int64_t slots,
                    const char* name);

// The values of a validated i32 tensor, row-major, read on the host: through
// HostValues, so a device operand is copied, never dereferenced (check.h).
std::vector<int32_t> ReadI32(const ExecContext& ctx, const Tensor& t);

}  // namespace vt::api

// Validation shared by the Mamba2 ops (chunk scan and state update): the
// operand checks both declare the same way, and reading i32 metadata that
// the typed checks have already proved to be i32, contiguous and present.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api/check.h"
#include "vt/ops_mamba.h"

namespace vt::api::mamba {

// A float activation / output operand: well formed, `rank`, dtype in the set,
// contiguous.
void FloatOperand(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name,
                  int rank, bool output);
// An f32 per-head vector [H] (A, dt_bias), contiguous.
void HeadVector(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name,
                int64_t heads);
// An i32 index vector, contiguous, rank 1 (its length is checked by the caller).
void IndexVector(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name);
// The operands both ops share and their shape relations: x [R,H,P] with H,
// P > 0 (and R > 0 when `rows_nonempty`: the scan; a decode batch may be
// empty), dt [R,H], A [H], B [R,G,N] with G > 0 dividing H and N > 0, C like
// B, out like x, the state `state_name` [S,H,P,N]. `rows` names R in the
// messages ("T", "Nb").
struct SsmDims {
  int64_t rows, H, P, G, N, S;
};
SsmDims SsmOperands(const Checker& c, const ExecContext& ctx, const Tensor& x, const Tensor& dt, const Tensor& A,
                    const Tensor& B, const Tensor& C, const Tensor& out, const Tensor& state, const char* state_name,
                    const std::string& rows, bool rows_nonempty);
// Every A[h] < 0 (A = -exp(A_log) upstream: the chunk scan's decay algebra
// assumes it, and NaN is refused with it). A is read on the host (HostValues).
void ANegative(const Checker& c, const ExecContext& ctx, const Tensor& A);
// tp_world_size == 1.
void SingleRank(const Checker& c, const Mamba2Args& args);
// The values of a validated i32 vector, read on the host (HostValues: with a
// device backend the operand lives in device memory).
std::vector<int32_t> ReadI32(const ExecContext& ctx, const Tensor& t);

}  // namespace vt::api::mamba

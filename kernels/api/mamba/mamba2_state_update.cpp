// vt::Mamba2StateUpdate: every condition of op-contracts 3.6
// (Mamba2StateUpdate), evaluated before the kernel runs. The seed checks the
// slot range inside its parallel loop, after other rows have already updated
// their slots (H-3); here both the range and the distinctness of live slots
// (H-2: two rows naming one slot would race) are refused up front.
#include <algorithm>
#include <string>
#include <vector>

#include "api/kernel_types.h"
#include "api/mamba/mamba_checks.h"
#include "vt/registry.h"

namespace vt {

void Mamba2StateUpdate(const ExecContext& ctx, const Tensor& out, const Tensor& state,
                       const Tensor& x, const Tensor& dt, const Tensor& A, const Tensor& B,
                       const Tensor& C, const Tensor* D, const Tensor* z, const Tensor* dt_bias,
                       const Tensor* state_indices, const Mamba2Args& args) {
  const api::Checker c("mamba2_state_update");
  namespace m = api::mamba;
  m::SingleRank(c, args);
  const m::SsmDims d = m::SsmOperands(c, ctx, x, dt, A, B, C, out, state, "state", "Nb", false);
  const int64_t Nb = d.rows, H = d.H, S = d.S;
  if (D != nullptr) m::HeadVector(c, ctx, *D, "D", H);  // [H] only (upstream's decode D)
  if (z != nullptr) {
    m::FloatOperand(c, ctx, *z, "z", 3, false);
    c.SameShape(*z, "z", x, "x");
  }
  if (dt_bias != nullptr) m::HeadVector(c, ctx, *dt_bias, "dt_bias", H);
  if (state_indices != nullptr) {
    m::IndexVector(c, ctx, *state_indices, "state_indices");
    c.Shape(*state_indices, "state_indices", {Nb});
  } else {
    c.Require("state.slots", S == Nb,
              "without state_indices row b owns slot b: state must have Nb = " + std::to_string(Nb) +
                  " slots, got " + state.Describe());
  }

  const std::vector<std::pair<const Tensor*, const char*>> others = {
      {&x, "x"}, {&dt, "dt"}, {&A, "A"}, {&B, "B"}, {&C, "C"}, {D, "D"}, {z, "z"},
      {dt_bias, "dt_bias"}, {state_indices, "state_indices"}};
  c.NoOverlap(out, "out", state, "state");
  for (const auto& [t, name] : others) {
    if (t == nullptr) continue;
    c.NoOverlap(out, "out", *t, name);
    c.NoOverlap(state, "state", *t, name);
  }

  m::ANegative(c, ctx, A);
  if (state_indices != nullptr) {
    std::vector<int32_t> live;
    bool in_range = true;
    for (int32_t s : m::ReadI32(ctx, *state_indices)) {
      if (s < 0) continue;  // NULL row: touches no slot, may repeat
      in_range = in_range && s < S;
      live.push_back(s);
    }
    c.Require("state_indices.range", in_range,
              "state_indices entries must be < S = " + std::to_string(S) + " (negative: NULL row)");
    std::sort(live.begin(), live.end());
    c.Require("state_indices.distinct", std::adjacent_find(live.begin(), live.end()) == live.end(),
              "live state_indices entries must be distinct (each row owns one slot; rows run in "
              "parallel)");
  }
  GetKernel<kernel::Mamba2StateUpdateFn>("mamba2_state_update", ctx.backend)(
      ctx, out, state, x, dt, A, B, C, D, z, dt_bias, state_indices, args);
}

}  // namespace vt

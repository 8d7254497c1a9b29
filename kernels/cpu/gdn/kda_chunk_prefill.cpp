// kda_chunk_prefill CPU kernel: the KDA gate (fla kda gate: g = -exp(A_log[h])
// * softplus(g_raw + dt_bias), threshold 20, f32) computed for every token,
// head and key channel into a scratch [T,Hv,Dk] f32 tensor, then the KDA
// recurrence on it. The chunked (WY) form upstream runs on a GPU equals the
// recurrence up to reduction order; on the CPU the recurrence is the
// definition (the seed does the same).
// Contract (validated by the API): as kda_gated_delta_rule; g_raw [T,Hv,Dk]
// f32, a_log [Hv] f32, dt_bias [Hv*Dk] f32 or empty, state [1,Hv,Dv,Dk].
// Split: the gate over tokens, the recurrence over value heads.
#include <vector>

#include "api/gdn/gdn_kernel_types.h"
#include "cpu/gdn/gdn_gate.h"
#include "cpu/gdn/kda_recurrence.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void KdaChunkPrefillCpu(const ExecContext& ctx, const Tensor& out, const Tensor& q, const Tensor& k,
                        const Tensor& v, const Tensor& g_raw, const Tensor& beta, const Tensor& a_log,
                        const Tensor& dt_bias, const Tensor& state, const Tensor& query_start_loc,
                        const KdaArgs& args) {
  const int64_t t = g_raw.shape[0], hv = g_raw.shape[1], dk = g_raw.shape[2];
  const bool has_bias = dt_bias.shape[0] != 0;
  const ConvertFn load_f32 = PickConvert(DType::kF32, DType::kF32);
  std::vector<float> neg_rate(static_cast<std::size_t>(hv)), bias(static_cast<std::size_t>(hv * dk), 0.0f);
  load_f32(neg_rate.data(), a_log.data, hv);
  for (float& r : neg_rate) r = -std::exp(r);
  if (has_bias) load_f32(bias.data(), dt_bias.data, hv * dk);
  std::vector<float> gate(static_cast<std::size_t>(t * hv * dk));
  const auto* raw = static_cast<const unsigned char*>(g_raw.data);
  ParallelForRows(ctx, t, [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i) {
      float* row = gate.data() + i * hv * dk;
      load_f32(row, raw + i * hv * dk * 4, hv * dk);
      for (int64_t h = 0; h < hv; ++h) {
        for (int64_t d = 0; d < dk; ++d) {
          float x = row[h * dk + d];
          if (has_bias) x += bias[static_cast<std::size_t>(h * dk + d)];
          row[h * dk + d] = neg_rate[static_cast<std::size_t>(h)] * SoftplusGuard20(x);
        }
      }
    }
  });
  Tensor g = g_raw;  // same [T,Hv,Dk] f32 contiguous layout, the gate's values
  g.data = gate.data();
  static const std::vector<Isa> kTiers = OpTiers("kda_chunk_prefill");
  KdaRecurrence(ctx, PickTier(ctx.ResolvedIsa(), kTiers), out, q, k, v, g, beta, state, query_start_loc, args.scale);
}

}  // namespace

void Register_kda_chunk_prefill() {
  RegisterTyped<kernel::KdaChunkPrefillFn>("kda_chunk_prefill", Backend::kCPU, &KdaChunkPrefillCpu);
}

}  // namespace vt::cpu

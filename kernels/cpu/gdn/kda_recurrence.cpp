#include "cpu/gdn/kda_recurrence.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "cpu/gdn/delta_rule_step.h"
#include "cpu/glue/convert.h"
#include "vt/threadpool.h"

namespace vt::cpu {

void KdaRecurrence(const ExecContext& ctx, Isa tier, const Tensor& out, const Tensor& q, const Tensor& k,
                   const Tensor& v, const Tensor& g, const Tensor& beta, const Tensor& state,
                   const Tensor& query_start_loc, float scale) {
  const int64_t n = state.shape[0], hv_n = state.shape[1], dv = state.shape[2], dk = state.shape[3];
  const int64_t hk_n = q.shape[1];
  const int64_t group = hv_n / hk_n;  // value heads per key head (GQA)
  std::vector<int32_t> loc(static_cast<std::size_t>(n + 1));
  std::memcpy(loc.data(), query_start_loc.data, loc.size() * sizeof(int32_t));
  // Operand dtypes resolved once per call: rows are widened into f32 buffers.
  const ConvertFn load_q = PickConvert(DType::kF32, q.dtype);
  const ConvertFn load_k = PickConvert(DType::kF32, k.dtype);
  const ConvertFn load_v = PickConvert(DType::kF32, v.dtype);
  const ConvertFn load_f32 = PickConvert(DType::kF32, DType::kF32);
  const ConvertFn store_out = PickConvert(out.dtype, DType::kF32);
  const auto* qb = static_cast<const unsigned char*>(q.data);
  const auto* kb = static_cast<const unsigned char*>(k.data);
  const auto* vb = static_cast<const unsigned char*>(v.data);
  const auto* gb = static_cast<const unsigned char*>(g.data);
  const auto* betab = static_cast<const unsigned char*>(beta.data);
  auto* ob = static_cast<unsigned char*>(out.data);
  auto* sb = static_cast<unsigned char*>(state.data);
  const auto qes = static_cast<int64_t>(q.ElementSize()), kes = static_cast<int64_t>(k.ElementSize());
  const auto ves = static_cast<int64_t>(v.ElementSize()), oes = static_cast<int64_t>(out.ElementSize());
  const auto sdk = static_cast<std::size_t>(dk), sdv = static_cast<std::size_t>(dv);

  ParallelForRows(ctx, n * hv_n, [&](int64_t r0, int64_t r1) {
    gdn::StepBuffers b(dk, dv, tier);  // counts this block's tier run; a vector tier's held block
    const bool vec = tier != Isa::kPortable;
    // (vv and o: whole vectors of rows on a vector tier, the first dv used)
    std::vector<float> s(vec ? 0 : sdv * sdk), qv(sdk), kv(sdk), decay(sdk), vv(b.v.size()), u(sdv), o(b.out.size());
    for (int64_t item = r0; item < r1; ++item) {
      const int64_t seq = item / hv_n, hv = item % hv_n, hk = hv / group;
      unsigned char* block = sb + item * dv * dk * 4;  // state[seq, hv]: items are (seq, hv) row-major
      if (vec) {
        gdn::HoldBlock(reinterpret_cast<float*>(block), dk, dv, b);
      } else {
        load_f32(s.data(), block, dv * dk);
      }
      for (int64_t t = loc[static_cast<std::size_t>(seq)]; t < loc[static_cast<std::size_t>(seq + 1)]; ++t) {
        const int64_t key_row = t * hk_n + hk, value_row = t * hv_n + hv;
        load_q(qv.data(), qb + key_row * dk * qes, dk);
        load_k(kv.data(), kb + key_row * dk * kes, dk);
        load_f32(decay.data(), gb + value_row * dk * 4, dk);
        load_v(vv.data(), vb + value_row * dv * ves, dv);
        float beta_t;
        load_f32(&beta_t, betab + value_row * 4, 1);
        for (std::size_t i = 0; i < sdk; ++i) {
          qv[i] *= scale;
          decay[i] = std::exp(decay[i]);
        }
        if (vec) {
          gdn::DeltaStepOn(tier, {b.t.data(), dk, dv, 0.0f, beta_t, qv.data(), kv.data(), vv.data(), o.data(),
                                  decay.data()});
          store_out(ob + value_row * dv * oes, o.data(), dv);
          continue;
        }
        for (std::size_t r = 0; r < sdv; ++r) {
          float* row = s.data() + r * sdk;
          float dot = 0.0f;
          for (std::size_t i = 0; i < sdk; ++i) {
            row[i] *= decay[i];
            dot += row[i] * kv[i];
          }
          u[r] = (vv[r] - dot) * beta_t;
        }
        for (std::size_t r = 0; r < sdv; ++r) {
          float* row = s.data() + r * sdk;
          float acc = 0.0f;
          for (std::size_t i = 0; i < sdk; ++i) {
            row[i] += u[r] * kv[i];
            acc += row[i] * qv[i];
          }
          o[r] = acc;
        }
        store_out(ob + value_row * dv * oes, o.data(), dv);
      }
      if (vec) {
        gdn::ReleaseBlock(reinterpret_cast<float*>(block), dk, dv, b);
        continue;
      }
      load_f32(block, s.data(), dv * dk);
    }
  });
}

}  // namespace vt::cpu

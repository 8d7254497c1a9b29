// gdn_decode CUDA kernel: one token per request, in place on its state row
// (row b, or cache slot state_idx[b]) (cpu/gdn/gdn_decode.cpp). A block per
// (request, value head, tile of value rows), grid-stride: the tile is loaded
// into shared memory, stepped once (cuda/gdn/delta_rule.cuh) and written back.
// A NULL slot (< 0) zero-fills the request's out rows and touches no state;
// live slots are distinct and in range (validated on the host), so no two
// blocks write one state row.
#include "cuda/gdn/delta_rule.cuh"

namespace vt::VT_CUDA_NS {
namespace {

namespace dr = delta_rule;

__global__ void GdnDecodeKernel(dr::Tokens a, float* state, const int32_t* idx, dr::Plan p) {
  VT_DYNAMIC_SHARED(float, smem);
  const dr::Shared s = dr::Carve(smem, p, a.dk, 2);
  const DevPtr st{state, DType::kF32};
  for (int64_t unit = blockIdx.x; unit < p.units; unit += gridDim.x) {
    const dr::Unit u = dr::UnitOf(unit, p, a.dv);
    const int64_t t = u.item / a.hv_n, hv = u.item % a.hv_n;
    const int64_t slot = idx != nullptr ? idx[t] : t;
    if (slot < 0) {
      dr::ZeroRows(a.out, (t * a.hv_n + hv) * a.dv + u.r0, u.rows);
      continue;
    }
    const int64_t block = (slot * a.hv_n + hv) * a.dv * a.dk;
    dr::LoadTile(s.tile, p, st, block, u, a.dk);
    __syncthreads();
    dr::GdnToken(a, s, p, u, t, hv);
    dr::StoreTile(st, block, s.tile, p, u, a.dk);
    __syncthreads();  // the next unit reloads the tile
  }
}

void GdnDecodeCuda(const ExecContext&, const Tensor& out, const Tensor& q, const Tensor& k, const Tensor& v,
                   const Tensor& g, const Tensor& beta, const Tensor& state, const Tensor* state_idx,
                   const GdnArgs& args) {
  const dr::Tokens a = dr::TokensOf(out, q, k, v, g, beta, state, args.scale);
  const dr::Plan p = dr::MakePlan("gdn_decode", q.shape[0] * a.hv_n, a.dk, a.dv, 2);
  if (p.units == 0) return;
  VT_LAUNCH(GdnDecodeKernel, RowGrid(p.units), RowThreads(p.rows), p.smem)
  (a, static_cast<float*>(state.data), state_idx != nullptr ? static_cast<const int32_t*>(state_idx->data) : nullptr,
   p);
  CheckLaunch("gdn_decode");
}

}  // namespace

void Register_gdn_decode() { RegisterTyped<kernel::GdnDecodeFn>("gdn_decode", VT_CUDA_BACKEND, &GdnDecodeCuda); }

}  // namespace vt::VT_CUDA_NS

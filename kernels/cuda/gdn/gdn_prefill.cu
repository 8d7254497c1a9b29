// gdn_prefill CUDA kernel: the gated delta rule over each sequence of a
// varlen batch (cpu/gdn/gdn_prefill.cpp). A block per (sequence, value head,
// tile of value rows), grid-stride over those units; the tile of state[seq][hv]
// is loaded into shared memory once, every token of the sequence runs on it
// in order (cuda/gdn/delta_rule.cuh), and it is written back once, after the
// last token. query_start_loc is read on the device (validated on the host
// before the launch: it tiles [0, T) in order). An empty sequence leaves its
// state untouched, as on the CPU (which copies nothing there either).
#include "cuda/gdn/delta_rule.cuh"

namespace vt::VT_CUDA_NS {
namespace {

namespace dr = delta_rule;

__global__ void GdnPrefillKernel(dr::Tokens a, float* state, const int32_t* loc, dr::Plan p) {
  VT_DYNAMIC_SHARED(float, smem);
  const dr::Shared s = dr::Carve(smem, p, a.dk, 2);
  const DevPtr st{state, DType::kF32};
  for (int64_t unit = blockIdx.x; unit < p.units; unit += gridDim.x) {
    const dr::Unit u = dr::UnitOf(unit, p, a.dv);
    const int64_t seq = u.item / a.hv_n, hv = u.item % a.hv_n;
    const int64_t lo = loc[seq], hi = loc[seq + 1];
    if (lo == hi) continue;
    const int64_t block = u.item * a.dv * a.dk;  // state[seq][hv]: items are (seq, hv) row-major
    dr::LoadTile(s.tile, p, st, block, u, a.dk);
    __syncthreads();
    for (int64_t t = lo; t < hi; ++t) dr::GdnToken(a, s, p, u, t, hv);
    dr::StoreTile(st, block, s.tile, p, u, a.dk);
    __syncthreads();  // the next unit reloads the tile
  }
}

void GdnPrefillCuda(const ExecContext&, const Tensor& out, const Tensor& q, const Tensor& k, const Tensor& v,
                    const Tensor& g, const Tensor& beta, const Tensor& state, const Tensor& query_start_loc,
                    const GdnArgs& args) {
  const dr::Tokens a = dr::TokensOf(out, q, k, v, g, beta, state, args.scale);
  const dr::Plan p = dr::MakePlan("gdn_prefill", state.shape[0] * a.hv_n, a.dk, a.dv, 2);
  if (p.units == 0 || q.shape[0] == 0) return;
  VT_LAUNCH(GdnPrefillKernel, RowGrid(p.units), RowThreads(p.rows), p.smem)
  (a, static_cast<float*>(state.data), static_cast<const int32_t*>(query_start_loc.data), p);
  CheckLaunch("gdn_prefill");
}

}  // namespace

void Register_gdn_prefill() {
  RegisterTyped<kernel::GdnPrefillFn>("gdn_prefill", VT_CUDA_BACKEND, &GdnPrefillCuda);
}

}  // namespace vt::VT_CUDA_NS

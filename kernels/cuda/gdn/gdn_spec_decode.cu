// gdn_spec_decode CUDA kernel (cpu/gdn/gdn_spec_decode.cpp; fla
// fused_recurrent with IS_SPEC_DECODING and INPLACE_FINAL_STATE). A block per
// (request, value head, tile of value rows), grid-stride. Request r starts
// from slot idx[r][accepted[r] - 1] (the rollback: the last accepted token's
// snapshot), read into shared memory once; after token t it stores the
// running tile into slot idx[r][t - lo] (a NULL column skips that store). A
// NULL start slot zero-fills the request's out rows and stores nothing. The
// running state lives in shared memory, so the start slot keeps its bytes
// unless the table names it as a snapshot, exactly as the CPU's private
// buffer. Every live slot appears once in the table (validated on the host):
// no two blocks write one slot, and no block reads a slot another writes.
#include "cuda/gdn/delta_rule.cuh"

namespace vt::VT_CUDA_NS {
namespace {

namespace dr = delta_rule;

struct SpecMeta {
  const int32_t* cu;        // [R+1] token offsets
  const int32_t* idx;       // [R, C] slots
  const int32_t* accepted;  // [R] in [1, C]
  int64_t cols;
};

__global__ void GdnSpecDecodeKernel(dr::Tokens a, float* state, SpecMeta m, dr::Plan p) {
  VT_DYNAMIC_SHARED(float, smem);
  const dr::Shared s = dr::Carve(smem, p, a.dk, 2);
  const DevPtr st{state, DType::kF32};
  const int64_t head = a.dv * a.dk, row = a.hv_n * head;
  for (int64_t unit = blockIdx.x; unit < p.units; unit += gridDim.x) {
    const dr::Unit u = dr::UnitOf(unit, p, a.dv);
    const int64_t r = u.item / a.hv_n, hv = u.item % a.hv_n;
    const int64_t lo = m.cu[r], hi = m.cu[r + 1];
    const int64_t start = m.idx[r * m.cols + m.accepted[r] - 1];
    if (start < 0) {
      for (int64_t t = lo; t < hi; ++t) dr::ZeroRows(a.out, (t * a.hv_n + hv) * a.dv + u.r0, u.rows);
      continue;
    }
    dr::LoadTile(s.tile, p, st, start * row + hv * head, u, a.dk);
    __syncthreads();
    for (int64_t t = lo; t < hi; ++t) {
      dr::GdnToken(a, s, p, u, t, hv);
      const int64_t snap = m.idx[r * m.cols + (t - lo)];
      // The tile is complete (GdnToken ends with a barrier); the next token
      // changes it only after its own staging barrier.
      if (snap >= 0) dr::StoreTile(st, snap * row + hv * head, s.tile, p, u, a.dk);
    }
    __syncthreads();  // the next unit reloads the tile
  }
}

void GdnSpecDecodeCuda(const ExecContext&, const Tensor& out, const Tensor& q, const Tensor& k, const Tensor& v,
                       const Tensor& g, const Tensor& beta, const Tensor& state, const Tensor& cu_seqlens,
                       const Tensor& state_indices, const Tensor& num_accepted_tokens, const GdnArgs& args) {
  const dr::Tokens a = dr::TokensOf(out, q, k, v, g, beta, state, args.scale);
  const dr::Plan p = dr::MakePlan("gdn_spec_decode", state_indices.shape[0] * a.hv_n, a.dk, a.dv, 2);
  if (p.units == 0 || q.shape[0] == 0) return;
  const SpecMeta m{static_cast<const int32_t*>(cu_seqlens.data), static_cast<const int32_t*>(state_indices.data),
                   static_cast<const int32_t*>(num_accepted_tokens.data), state_indices.shape[1]};
  VT_LAUNCH(GdnSpecDecodeKernel, RowGrid(p.units), RowThreads(p.rows), p.smem)
  (a, static_cast<float*>(state.data), m, p);
  CheckLaunch("gdn_spec_decode");
}

}  // namespace

void Register_gdn_spec_decode() {
  RegisterTyped<kernel::GdnSpecDecodeFn>("gdn_spec_decode", VT_CUDA_BACKEND, &GdnSpecDecodeCuda);
}

}  // namespace vt::VT_CUDA_NS

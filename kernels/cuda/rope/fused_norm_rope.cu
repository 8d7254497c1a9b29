// fused_norm_rope CUDA kernel: one block per token row (grid-stride over
// rows). The latent slice x[:, :off] is rms-normed exactly as the rms_norm
// CUDA kernel does it (norm/norm_row.cuh RowInvRms: f32 squares summed in
// double by a block reduction, rounded once; then (v * inv) * w'), and the
// block is sized as rms_norm's for a row of `off` (RowThreads(off)), so the
// fused op stays the rms_norm + rope_from_cache composite on this backend
// too. The pe slice x[:, off:] is then rotated as one head from the cache row
// of the token's position, a block-stride loop over its rot/2 pairs. Rows of
// x, latent_out and pe_out are addressed through their own row strides.
#include "cuda/norm/norm_row.cuh"
#include "cuda/rope/rope.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct Rows {
  DevPtr t;
  int64_t stride = 0;
};

__global__ void FusedNormRopeKernel(Rows latent, Rows pe, Rows x, DevPtr w, rope::DevPositions pos, DevPtr cache,
                                    int64_t tokens, int64_t off, float eps, bool gemma, int rot, bool neox) {
  __shared__ double scratch[33];
  const int64_t half = rot / 2;
  for (int64_t row = blockIdx.x; row < tokens; row += gridDim.x) {
    const int64_t xb = row * x.stride, lb = row * latent.stride, pb = row * pe.stride;
    const float inv = RowInvRms(off, eps, scratch, [&](int64_t j) { return Load(x.t, xb + j); });
    for (int64_t j = threadIdx.x; j < off; j += blockDim.x) {
      Store(latent.t, lb + j, Load(x.t, xb + j) * inv * NormWeight(w, j, gemma));
    }
    const int64_t at = rope::PositionAt(pos, row) * rot;
    for (int64_t pair = threadIdx.x; pair < half; pair += blockDim.x) {
      const float c = Load(cache, at + pair);
      const float s = Load(cache, at + half + pair);
      const int64_t first = rope::PairFirst(pair, neox), second = rope::PairSecond(pair, half, neox);
      rope::RotatePair(pe.t, pb + first, pb + second, x.t, xb + off + first, xb + off + second, c, s);
    }
  }
}

void FusedNormRopeCuda(const ExecContext&, const Tensor& latent_out, const Tensor& pe_out, const Tensor& x,
                       const Tensor& w, const Tensor& positions, const Tensor& cache, const RmsNormArgs& na,
                       const RopeArgs& ra) {
  const int64_t tokens = x.shape[0], off = w.shape[0];
  if (tokens == 0) return;
  VT_LAUNCH(FusedNormRopeKernel, RowGrid(tokens), RowThreads(off), 0)
  (Rows{Dev(latent_out), latent_out.stride[0]}, Rows{Dev(pe_out), pe_out.stride[0]}, Rows{Dev(x), x.stride[0]},
   Dev(w), rope::DevPos(positions), Dev(cache), tokens, off, na.eps, na.gemma, ra.rotary_dim, ra.is_neox_style);
  CheckLaunch("fused_norm_rope");
}

}  // namespace

void Register_fused_norm_rope() {
  RegisterTyped<kernel::FusedNormRopeFn>("fused_norm_rope", VT_CUDA_BACKEND, &FusedNormRopeCuda);
}

}  // namespace vt::VT_CUDA_NS

// gdn_post_conv CUDA kernel (fla fused_post_conv_prep): per token, the conv
// row [q | k | v] is split; each q and k head row is l2-normalised as the CPU
// does (sequential f32 sum of squares, inv = 1 / sqrt(sum + eps), x * inv),
// v is moved through f32, g / beta come from the shared gate
// (cuda/gdn/gdn_glue.cuh). Three flat grids, each output element written by
// one thread:
//  - a thread per (token, q or k, head) row: the sum of squares stays the
//    CPU's sequential order, so the bytes are the CPU's (a warp reduction
//    would reorder it); a head row is Dk <= a few hundred elements;
//  - a thread per v element;
//  - a thread per (token, value head) gate.
#include "cuda/gdn/gdn_glue.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct NormHeadRow {
  DevPtr q, k, conv;
  int64_t width, hk, dk;
  float eps;
  __device__ void operator()(int64_t i) const {
    const int64_t t = i / (2 * hk), part = i % (2 * hk) / hk, h = i % hk;  // part 0: q, 1: k
    const int64_t src = t * width + part * hk * dk + h * dk, dst = (t * hk + h) * dk;
    float sumsq = 0.0f;
    for (int64_t j = 0; j < dk; ++j) {
      const float v = Load(conv, src + j);
      sumsq += v * v;
    }
    const float inv = 1.0f / SqrtF(sumsq + eps);
    const DevPtr out = part == 0 ? q : k;
    for (int64_t j = 0; j < dk; ++j) Store(out, dst + j, Load(conv, src + j) * inv);
  }
};

struct MoveV {
  DevPtr v, conv;
  int64_t width, value_dim, v_col0;  // v_col0: v's first column in a conv row (2 * key_dim)
  __device__ void operator()(int64_t i) const {
    const int64_t t = i / value_dim;
    Store(v, i, Load(conv, t * width + v_col0 + i % value_dim));
  }
};

void GdnPostConvCuda(const ExecContext&, const Tensor& q_out, const Tensor& k_out, const Tensor& v_out,
                     const Tensor& g_out, const Tensor& beta_out, const Tensor& conv, const Tensor& a, const Tensor& b,
                     const Tensor& a_log, const Tensor& dt_bias, const L2NormArgs& args) {
  const int64_t t = conv.shape[0], width = conv.shape[1];
  const int64_t hk = q_out.shape[1], dk = q_out.shape[2], value_dim = v_out.shape[1] * v_out.shape[2];
  LaunchForEach("gdn_post_conv", t * 2 * hk, NormHeadRow{Dev(q_out), Dev(k_out), Dev(conv), width, hk, dk, args.eps});
  LaunchForEach("gdn_post_conv", t * value_dim, MoveV{Dev(v_out), Dev(conv), width, value_dim, 2 * hk * dk});
  LaunchForEach("gdn_post_conv", g_out.Numel(), GateOf(g_out, beta_out, a, b, a_log, dt_bias));
}

}  // namespace

void Register_gdn_post_conv() {
  RegisterTyped<kernel::GdnPostConvFn>("gdn_post_conv", VT_CUDA_BACKEND, &GdnPostConvCuda);
}

}  // namespace vt::VT_CUDA_NS

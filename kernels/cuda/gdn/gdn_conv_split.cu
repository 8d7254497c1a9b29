// gdn_conv_split CUDA kernel: row t of conv [T, 2*key_dim + value_dim] is
// [q | k | v]; each part goes to row t of its packed output, moved through
// f32 (the CPU's move: exact when the dtype is kept or widened, a signalling
// NaN comes out quiet). A flat grid over conv's elements: the thread of one
// conv element writes the one output element it lands in. All contiguous.
#include "cuda/gdn/gdn_glue.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct SplitElement {
  DevPtr q, k, v, conv;
  int64_t width, key_dim, value_dim;
  __device__ void operator()(int64_t i) const {
    const int64_t t = i / width;
    const ConvColumn cc = SplitColumnOf(i % width, key_dim);
    if (cc.part == 2) {
      Store(v, t * value_dim + cc.col, Load(conv, i));
    } else {
      Store(cc.part == 0 ? q : k, t * key_dim + cc.col, Load(conv, i));
    }
  }
};

void GdnConvSplitCuda(const ExecContext&, const Tensor& q_out, const Tensor& k_out, const Tensor& v_out,
                      const Tensor& conv) {
  const int64_t t = conv.shape[0];  // > 0 (validated)
  LaunchForEach("gdn_conv_split", conv.Numel(),
                SplitElement{Dev(q_out), Dev(k_out), Dev(v_out), Dev(conv), conv.shape[1], q_out.Numel() / t,
                             v_out.Numel() / t});
}

}  // namespace

void Register_gdn_conv_split() {
  RegisterTyped<kernel::GdnConvSplitFn>("gdn_conv_split", VT_CUDA_BACKEND, &GdnConvSplitCuda);
}

}  // namespace vt::VT_CUDA_NS

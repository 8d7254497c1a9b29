// dflash_block_attention CUDA kernel: per-request blocks [cu[r], cu[r+1]) of
// one packed sequence, a query seeing only its own block's keys under the
// DFlash mask. A block per (token, q-head) row (dflash.cuh), each in the
// CPU's order (attend_row.cuh): the same bytes as the CPU on cuda-emu.
// cu_seqlens is a HOST array by the API's contract (validated on the host);
// the launcher copies it to device memory for the kernel.
#include <string>

#include "cuda/attn/dflash.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct DFlashBlockMap {
  DevPtr k, v;
  const int32_t* cu;  // device copy
  int64_t reqs, hq, hk, d, group, window;
  bool causal;
  __device__ attn::RowJob<attn::ContiguousKeys> operator()(int64_t r) const {
    const int64_t tok = r / hq, h = r % hq;
    const int64_t req = attn::RequestOf(cu, reqs, tok);
    const int64_t start = cu[req], len = cu[req + 1] - start;
    const attn::KeyRange vis = attn::DFlashVisible(tok - start, len, causal, window);
    return attn::RowJob<attn::ContiguousKeys>{(tok * hq + h) * d, 0, vis.hi - vis.lo + 1,
                                              attn::ContiguousKeys{k, v, start + vis.lo, hk, h / group, d}};
  }
};

// Device memory holding a copy of a host array, released on every path.
class DeviceCopy {
 public:
  DeviceCopy(const void* host, std::size_t bytes) : api_(FindDeviceApi(VT_CUDA_BACKEND)) {
    if (api_ == nullptr) throw Error("dflash_block_attention", "the backend has no device memory API");
    p_ = api_->alloc(bytes);
    try {
      api_->to_device(p_, host, bytes);
    } catch (...) {
      api_->release(p_);
      throw;
    }
  }
  ~DeviceCopy() { api_->release(p_); }
  DeviceCopy(const DeviceCopy&) = delete;
  DeviceCopy& operator=(const DeviceCopy&) = delete;
  const void* get() const { return p_; }

 private:
  const DeviceApi* api_;
  void* p_ = nullptr;
};

void DFlashBlockAttentionCuda(const ExecContext&, const Tensor& out, const Tensor& query, const Tensor& key,
                              const Tensor& value, const DFlashBlockAttentionArgs& args) {
  const int64_t t = query.shape[0], hq = query.shape[1], d = query.shape[2], hk = key.shape[1];
  if (t == 0) return;
  const DeviceCopy cu(args.cu_seqlens, static_cast<std::size_t>(args.num_reqs + 1) * sizeof(int32_t));
  const attn::RowIo io{Dev(query), Dev(out), DevPtr{}, d, args.scale};
  attn::LaunchRows("dflash_block_attention", io, t * hq,
                   DFlashBlockMap{Dev(key), Dev(value), static_cast<const int32_t*>(cu.get()), args.num_reqs, hq, hk,
                                  d, hq / hk, args.sliding_window, args.causal});
}

}  // namespace

void Register_dflash_block_attention() {
  RegisterTyped<kernel::DFlashBlockAttentionFn>("dflash_block_attention", VT_CUDA_BACKEND, &DFlashBlockAttentionCuda);
}

}  // namespace vt::VT_CUDA_NS

// mamba2_state_update CUDA kernel: one decode step, a block per (batch row,
// head) (grid-stride over the Nb * H pairs). Per block:
//   d = dt (+ dt_bias) (softplus), decay = exp(A d)        every thread, same value
//   s' = s decay + (B x) d      threads over the (p, n) elements of a tile of
//                               the slot's [P, N] state: coalesced along n,
//                               stored at the state dtype, the f32 s' kept in
//                               shared memory
//   y_p = sum_n s'_n C_n        one thread per p, n in ascending order (the
//                               CPU's f32 sum), + D x, * silu(z), stored
// The CPU kernel's order and rounding points (cpu/mamba/mamba2_state_update.cpp),
// so the bytes are the CPU's on cuda-emu; exp / log1p differ on a device.
// A padding row (state_indices < 0) zeroes its out row and touches no slot;
// live slots are distinct (validated), so every state byte has one writer.
#include "cuda/mamba/mamba.cuh"

namespace vt::VT_CUDA_NS {
namespace {

// Elements of the [P, N] state per pass: 8 KiB of f32 s' plus the running
// sums of the tile's rows.
constexpr int64_t kTile = 2048;

struct StepArgs {
  DevPtr out, state, x, dt, B, C, z;
  const int32_t* slots;  // nullptr: row b owns slot b
  const float* A;
  const float* D;     // [H] or nullptr
  const float* bias;  // [H] or nullptr
  int64_t Nb, H, P, G, N;
  bool softplus;
};

__global__ void StateUpdateKernel(StepArgs a) {
  __shared__ float fresh[kTile];  // s' of the tile, [tile rows][tile cols]
  __shared__ float ysum[kTile];   // y of each tile row, carried across column tiles
  const int64_t rows = a.Nb * a.H;
  const int64_t tn = a.N < kTile ? a.N : kTile;
  const int64_t tp = a.P < kTile / tn ? a.P : kTile / tn;
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const int64_t b = r / a.H, h = r % a.H, g = h / (a.H / a.G);
    const int64_t slot = a.slots == nullptr ? b : a.slots[b];
    const int64_t orow = r * a.P;  // (b * H + h) * P: out, x and z of this (row, head)
    if (slot < 0) {  // padding row: its out row is zero, no slot is touched
      for (int64_t p = threadIdx.x; p < a.P; p += blockDim.x) Store(a.out, orow + p, 0.0f);
      continue;
    }
    const float d = mamba::HeadDt(a.dt, r, a.bias, h, a.softplus);
    const float decay = ExpF(a.A[h] * d);
    const int64_t sbase = (slot * a.H + h) * a.P * a.N;
    const int64_t bc = (b * a.G + g) * a.N;  // B and C of this (row, group)
    for (int64_t p0 = 0; p0 < a.P; p0 += tp) {
      const int64_t np = a.P - p0 < tp ? a.P - p0 : tp;
      for (int64_t n0 = 0; n0 < a.N; n0 += tn) {
        const int64_t nn = a.N - n0 < tn ? a.N - n0 : tn;
        for (int64_t e = threadIdx.x; e < np * nn; e += blockDim.x) {
          const int64_t p = p0 + e / nn, n = n0 + e % nn;
          const float xv = Load(a.x, orow + p);
          const int64_t si = sbase + p * a.N + n;
          const float s = Load(a.state, si) * decay + Load(a.B, bc + n) * xv * d;
          Store(a.state, si, s);
          fresh[e] = s;
        }
        __syncthreads();  // the tile's s' is complete before its rows are summed
        for (int64_t q = threadIdx.x; q < np; q += blockDim.x) {
          float y = n0 == 0 ? 0.0f : ysum[q];
          for (int64_t k = 0; k < nn; ++k) y += fresh[q * nn + k] * Load(a.C, bc + n0 + k);
          ysum[q] = y;
        }
        __syncthreads();  // fresh is rewritten by the next tile
      }
      for (int64_t q = threadIdx.x; q < np; q += blockDim.x) {
        const int64_t p = p0 + q;
        float y = ysum[q];
        if (a.D != nullptr) y += a.D[h] * Load(a.x, orow + p);
        if (a.z.p != nullptr) y *= SiluF(Load(a.z, orow + p));
        Store(a.out, orow + p, y);
      }
      __syncthreads();  // ysum is rewritten by the next row tile
    }
  }
}

void Mamba2StateUpdateCuda(const ExecContext&, const Tensor& out, const Tensor& state, const Tensor& x,
                           const Tensor& dt, const Tensor& A, const Tensor& B, const Tensor& C, const Tensor* D,
                           const Tensor* z, const Tensor* dt_bias, const Tensor* state_indices,
                           const Mamba2Args& args) {
  StepArgs a{};
  a.out = Dev(out), a.state = Dev(state), a.x = Dev(x), a.dt = Dev(dt), a.B = Dev(B), a.C = Dev(C), a.z = Dev(z);
  a.slots = state_indices != nullptr ? static_cast<const int32_t*>(state_indices->data) : nullptr;
  a.A = static_cast<const float*>(A.data);
  a.D = D != nullptr ? static_cast<const float*>(D->data) : nullptr;
  a.bias = dt_bias != nullptr ? static_cast<const float*>(dt_bias->data) : nullptr;
  a.Nb = x.shape[0], a.H = x.shape[1], a.P = x.shape[2], a.G = B.shape[1], a.N = B.shape[2];
  a.softplus = args.dt_softplus;
  const int64_t rows = a.Nb * a.H;
  if (rows == 0) return;  // an empty decode batch
  const int64_t tile = a.P * a.N < kTile ? a.P * a.N : kTile;
  VT_LAUNCH(StateUpdateKernel, RowGrid(rows), RowThreads(tile), 0)(a);
  CheckLaunch("mamba2_state_update");
}

}  // namespace

void Register_mamba2_state_update() {
  RegisterTyped<kernel::Mamba2StateUpdateFn>("mamba2_state_update", VT_CUDA_BACKEND, &Mamba2StateUpdateCuda);
}

}  // namespace vt::VT_CUDA_NS

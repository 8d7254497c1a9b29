// Registers the CPU kernel of every op in ops.def. Each kernel file defines
// vt::cpu::Register_<name>(); a missing kernel file is a link error naming it.
// Builds with CUDA kernels also register them (kernels/cuda/core/register.cu)
// with their device memory: the nvcc build for Backend::kCUDA, the host
// (emulation) build for Backend::kCudaEmu.
#include "vt/registry.h"

namespace vt {
namespace cpu {
#define VT_OP(family, name) void Register_##name();
#include "vt/ops.def"
#undef VT_OP
}  // namespace cpu
#if defined(VT_HAVE_CUDA_EMU)
namespace cuda_emu {
void RegisterAll();
void RegisterDevice();
}  // namespace cuda_emu
#endif
#if defined(VT_HAVE_CUDA_DEVICE)
namespace cuda_dev {
void RegisterAll();
void RegisterDevice();
}  // namespace cuda_dev
#endif

void RegisterBuiltinKernels() {
#define VT_OP(family, name) cpu::Register_##name();
#include "vt/ops.def"
#undef VT_OP
#if defined(VT_HAVE_CUDA_EMU)
  cuda_emu::RegisterAll();
  cuda_emu::RegisterDevice();
#endif
#if defined(VT_HAVE_CUDA_DEVICE)
  cuda_dev::RegisterAll();
  cuda_dev::RegisterDevice();
#endif
}

}  // namespace vt

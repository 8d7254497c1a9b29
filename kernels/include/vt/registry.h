// Kernel registry: (op name, backend) -> kernel function. The public API looks
// kernels up here after validating; the catalog lint asks HasKernel for every
// listed op. Registration is explicit (RegisterBuiltinKernels runs once on
// first lookup), so nothing depends on static-initialiser order or on the
// linker keeping an otherwise unreferenced object file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "vt/context.h"
#include "vt/error.h"

namespace vt {

using AnyKernel = void (*)();

void RegisterKernel(std::string_view op, Backend backend, AnyKernel fn);
AnyKernel FindKernel(std::string_view op, Backend backend);  // nullptr when absent
inline bool HasKernel(std::string_view op, Backend backend) {
  return FindKernel(op, backend) != nullptr;
}
std::vector<std::string> RegisteredOps(Backend backend);

template <typename Fn>
void RegisterTyped(std::string_view op, Backend backend, Fn* fn) {
  RegisterKernel(op, backend, reinterpret_cast<AnyKernel>(fn));
}

template <typename Fn>
Fn* GetKernel(std::string_view op, Backend backend) {
  AnyKernel k = FindKernel(op, backend);
  if (k == nullptr) {
    throw Error(std::string(op), "no kernel registered for backend " + std::string(Name(backend)));
  }
  return reinterpret_cast<Fn*>(k);
}

}  // namespace vt

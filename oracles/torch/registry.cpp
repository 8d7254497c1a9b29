// The names of the torch references (list_core.inc, list_seq.inc) and the
// loader of their module. Torch-free: linked into every harness binary, it
// loads libtorch (through the module) only when a reference runs.
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <string>

#include "oracles/torch/reference.h"

namespace vt::torchref {

const std::vector<Reference>& References() {
  static const std::vector<Reference> kRefs = {
#if VT_HAVE_TORCH
#define VT_TORCH_NONE(family, op, why)
// The list a reference is in says how it computes (reference.h Convention).
#define VT_TORCH_REF(family, op, source) {#op, #family, source, Convention::kF32FirstStep},
#include "oracles/torch/list_core.inc"
#undef VT_TORCH_REF
#define VT_TORCH_REF(family, op, source) {#op, #family, source, Convention::kRealValue},
#include "oracles/torch/list_seq.inc"
#undef VT_TORCH_REF
#undef VT_TORCH_NONE
#endif
  };
  return kRefs;
}

const Reference* Find(std::string_view op) {
  const auto& refs = References();
  const auto it = std::find_if(refs.begin(), refs.end(), [&](const Reference& r) { return r.op == op; });
  return it == refs.end() ? nullptr : &*it;
}

std::string_view Unavailable() {
#if VT_HAVE_TORCH
  return "";
#else
  return "built without libtorch (libtorch-dev not found at configure, or -DVT_WITH_TORCH=OFF)";
#endif
}

std::string_view WhyNone(std::string_view op) {
  struct None {
    std::string_view op, why;
  };
  static const None kNone[] = {
#define VT_TORCH_REF(family, op, source)
#define VT_TORCH_NONE(family, op, why) {#op, why},
#include "oracles/torch/list_core.inc"
#include "oracles/torch/list_seq.inc"
#undef VT_TORCH_REF
#undef VT_TORCH_NONE
      {"", ""},
  };
  for (const None& n : kNone) {
    if (!n.op.empty() && n.op == op) return n.why;
  }
  return "";
}

namespace {

// The module's lookup, loaded once (null and the reason on failure).
struct Module {
  LookupFn lookup = nullptr;
  std::string error;
};

const Module& LoadModule() {
  static Module m;
  static std::once_flag once;
  std::call_once(once, [] {
    if (!Unavailable().empty()) {
      m.error = std::string(Unavailable());
      return;
    }
#ifdef VT_TORCH_MODULE
    const char* env = std::getenv("VT_TORCH_MODULE");
    const std::string path = env != nullptr && *env != '\0' ? env : VT_TORCH_MODULE;
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      const char* why = dlerror();
      m.error = "cannot load the torch references module " + path + ": " + (why != nullptr ? why : "?");
      return;
    }
    m.lookup = reinterpret_cast<LookupFn>(dlsym(h, kLookupSymbol));
    if (m.lookup == nullptr) m.error = path + " has no " + kLookupSymbol;
#else
    m.error = "no torch references module was built";
#endif
  });
  return m;
}

}  // namespace

Result Run(std::string_view op, const Input& in) {
  const Module& m = LoadModule();
  if (m.lookup == nullptr) throw Error(m.error);
  const Fn fn = m.lookup(std::string(op).c_str());
  if (fn == nullptr) throw Error("the torch references module has no reference for " + std::string(op));
  return fn(in);
}

}  // namespace vt::torchref

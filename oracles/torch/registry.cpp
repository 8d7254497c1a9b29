// The list of torch references (list_core.inc, list_seq.inc) and the torch-free
// half of reference.h. Built with and without libtorch: without it the list
// is empty and Unavailable() says why, so the torch mode reports SKIPPED.
#include <algorithm>

#include "oracles/torch/reference.h"

namespace vt::torchref {

#if VT_HAVE_TORCH
#define VT_TORCH_REF(family, op, source) Result Ref_##op(const Input&);
#define VT_TORCH_NONE(family, op, why)
#include "oracles/torch/list_core.inc"
#include "oracles/torch/list_seq.inc"
#undef VT_TORCH_REF
#undef VT_TORCH_NONE
#endif

const std::vector<Reference>& References() {
  static const std::vector<Reference> kRefs = {
#if VT_HAVE_TORCH
#define VT_TORCH_REF(family, op, source) {#op, #family, source, &Ref_##op},
#define VT_TORCH_NONE(family, op, why)
#include "oracles/torch/list_core.inc"
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

const Operand& Input::Get(const std::string& tensor) const {
  const auto it = tensors.find(tensor);
  if (it == tensors.end()) throw Error("the case has no tensor '" + tensor + "'");
  return it->second;
}

int64_t Input::Int(const std::string& key) const {
  if (args.contains(key) && args.at(key).is_boolean()) return args.at(key).get<bool>() ? 1 : 0;
  if (!args.contains(key) || !args.at(key).is_number_integer()) throw Error("the case has no integer knob '" + key + "'");
  return args.at(key).get<int64_t>();
}

double Input::Num(const std::string& key) const {
  if (!args.contains(key) || !args.at(key).is_number()) throw Error("the case has no number knob '" + key + "'");
  return args.at(key).get<double>();
}

std::string Input::Str(const std::string& key) const {
  if (!args.contains(key) || !args.at(key).is_string()) throw Error("the case has no name knob '" + key + "'");
  return args.at(key).get<std::string>();
}

}  // namespace vt::torchref

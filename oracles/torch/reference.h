// The torch references: a second reference for every generated case, written
// with libtorch tensor ops the way vLLM's own PyTorch paths compute each op
// (forward_native, the CPU router, the torch reference functions of the
// upstream tests; ../shared/spec/upstream-oracles.md), evaluated in float64.
//
// This header is the whole interface the harness sees, and it names no torch
// type: the harness builds with or without libtorch, and the references share
// no code with the kernels (kernels/) or our oracles (oracles/*.h). A
// reference reads the case's own bytes (an Operand per tensor: its storage,
// dtype, shape and element strides) and decodes them itself (torch's
// kBFloat16 / kHalf / kFloat views; fp8 e4m3 and fp4 e2m1 through a decoder
// of its own, oracles/torch/torch_ops.h).
//
// Adding one: write oracles/torch/<family>/<op>.cpp defining
//   vt::torchref::Result Ref_<op>(const vt::torchref::Input&)
// and add a VT_TORCH_REF line to the family group's list (list_core.inc or
// list_seq.inc). An op that deliberately has none gets a VT_TORCH_NONE line
// with the reason (vt-conform --coverage prints it). The lists are explicit
// (module.cpp's lookup table and registry.cpp's names both expand them): no
// static-registration trick for a linker to drop.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "vt/dtype.h"

namespace vt::torchref {

// How the bytes of a u8 operand are read (other dtypes: by the dtype).
enum class Code { kPlain, kFp8E4M3 };

// One tensor of a case as the case stores it.
struct Operand {
  vt::DType dtype = vt::DType::kF32;
  Code code = Code::kPlain;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // in elements
  const uint8_t* data = nullptr;  // logical element (0, ..., 0)
};

// The case: its operands by name (inputs and in-place operands as they are
// BEFORE the kernel runs), its knobs (the case's Params::args: dtype names,
// extents, flags, numbers), and `given`: every operand as the kernel left it.
// Only selection ops read `given` (which of several tied top-k orders the
// kernel picked; the reference then judges that order, see moe_router_topk).
struct Input {
  std::map<std::string, Operand> tensors;
  nlohmann::ordered_json args = nlohmann::ordered_json::object();
  std::map<std::string, Operand> given;

  bool Has(const std::string& tensor) const { return tensors.count(tensor) != 0; }
  const Operand& Get(const std::string& tensor) const;
  bool HasArg(const std::string& key) const { return args.contains(key); }
  int64_t Int(const std::string& key) const;
  double Num(const std::string& key) const;
  // A number knob as the op's API receives it (a float argument: eps, scale).
  double F32(const std::string& key) const { return static_cast<double>(static_cast<float>(Num(key))); }
  bool Flag(const std::string& key) const { return Int(key) != 0; }
  std::string Str(const std::string& key) const;
};

// One written operand: its logical values (row-major), in float64, BEFORE the
// output's own rounding to its dtype (the rounding points the op defines
// inside - a residual stored to bf16 and re-read - are taken). `in_dtype`:
// where vLLM's path rounds through the op's dtype (bf16 torch ops), the same
// path run in that dtype - an informative distance, never a verdict.
struct Output {
  std::vector<double> f64;
  std::vector<double> in_dtype;
};
using Result = std::map<std::string, Output>;
using Fn = Result (*)(const Input&);

// A reference as the lists name it. The functions themselves live in a
// module of their own (libvt_torch_refs.so, linked with libtorch), loaded
// the first time a reference runs: linking libtorch into every binary cost
// each process about 2 s of start-up (0.6 s of CPU), and the test run starts
// hundreds of them.
// What a reference's float64 value is, which decides how the torch mode reads
// the oracle against it (docs/torch.md "Two rounding conventions"):
// - kF32FirstStep (list_core.inc): each one-step f32 operation on given values
//   (a product of two inputs, x * scale) is rounded to f32 first, as the op's
//   f32 evaluation model holds it exactly (torch_ops.h F32Product); the oracle
//   is read as in the oracle mode.
// - kRealValue (list_seq.inc): the real value of the definition on the given
//   inputs; the oracle is read in oracle::RealTruthScope, its interval then
//   counting those first roundings as error.
enum class Convention { kF32FirstStep, kRealValue };

struct Reference {
  std::string_view op;
  std::string_view family;
  std::string_view source;  // the upstream path it restates
  Convention convention;
};

// The references of the lists (none without libtorch). No torch is loaded.
const std::vector<Reference>& References();
const Reference* Find(std::string_view op);
// "" when the references are built; else why the torch mode cannot run.
std::string_view Unavailable();
// Why an op deliberately has no reference ("" when none is recorded).
std::string_view WhyNone(std::string_view op);
// Runs op's reference, loading the module on first use (VT_TORCH_MODULE in
// the environment overrides where it is looked for). Throws Error when the
// module cannot be loaded or has no such reference.
Result Run(std::string_view op, const Input& in);

// A reference's refusal of a case it cannot judge (an argument outside what
// it restates): the torch mode reports the case FAILED with this message, as
// a defect of the reference or the catalog, never as a pass.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The module's one entry point (extern "C", looked up by name): the reference
// function of an op, or null.
using LookupFn = Fn (*)(const char* op);
inline constexpr const char* kLookupSymbol = "vt_torch_ref_lookup";

// Input's accessors, inline: the harness and the module both use them.
inline const Operand& Input::Get(const std::string& tensor) const {
  const auto it = tensors.find(tensor);
  if (it == tensors.end()) throw Error("the case has no tensor '" + tensor + "'");
  return it->second;
}

inline int64_t Input::Int(const std::string& key) const {
  if (args.contains(key) && args.at(key).is_boolean()) return args.at(key).get<bool>() ? 1 : 0;
  if (!args.contains(key) || !args.at(key).is_number_integer()) throw Error("the case has no integer knob '" + key + "'");
  return args.at(key).get<int64_t>();
}

inline double Input::Num(const std::string& key) const {
  if (!args.contains(key) || !args.at(key).is_number()) throw Error("the case has no number knob '" + key + "'");
  return args.at(key).get<double>();
}

inline std::string Input::Str(const std::string& key) const {
  if (!args.contains(key) || !args.at(key).is_string()) throw Error("the case has no name knob '" + key + "'");
  return args.at(key).get<std::string>();
}

}  // namespace vt::torchref

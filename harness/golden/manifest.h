// manifest.json of a golden case, parsed from its bytes with every field
// type-checked: a field of the wrong JSON type, nesting deeper than
// kMaxJsonDepth, a tensor with a bad name, dtype or shape, or a shape whose
// element / byte count overflows is a GoldenError naming the manifest and the
// field - never a nlohmann exception escaping, never a deep recursion.
// (docs/goldens.md lists the refusals.)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "oracles/format.h"
#include "vt/dtype.h"

namespace vt::conform {

// The deepest manifest the layout needs is 4 ({tensors: {x: {shape: [..]}}});
// args may nest a little more. Deeper text is refused before it is parsed.
inline constexpr int kMaxJsonDepth = 64;
// The largest manifest of the recorded captures is a few KiB.
inline constexpr uint64_t kMaxManifestBytes = uint64_t{1} << 22;

// Manifest dtype name <-> storage.
struct GoldenDType {
  vt::DType dtype;
  oracle::Fmt fmt;
  std::vector<std::string> descrs;  // accepted npy descrs; the first is written
};
std::optional<GoldenDType> ParseGoldenDType(const std::string& name);

struct TensorSpec {
  std::string name, file, dtype_name;
  GoldenDType dtype;
  std::vector<int64_t> shape;
  int64_t numel = 0;
  std::optional<std::string> sha256;
  std::optional<std::vector<int64_t>> strides;  // the project's own cases
  std::string role;                             // "" when absent
};

struct Manifest {
  nlohmann::ordered_json doc;
  std::string op;
  nlohmann::ordered_json args = nlohmann::ordered_json::object();
  std::vector<TensorSpec> tensors;  // manifest order
  std::vector<std::string> inputs, outputs;
  std::optional<double> atol, rtol;
  // sha256 of a canonical form (keys sorted, numbers in shortest form, the
  // tensors' own sha256 fields left out): the same for any reformatting.
  std::string canonical_sha256;
};

// `path` names the manifest in every refusal.
Manifest ParseManifest(const std::string& text, const std::string& path);

// Refuses JSON text nested deeper than max_depth (arrays and objects), by a
// scan that skips strings; run before nlohmann parses it.
void CheckJsonDepth(const std::string& text, int max_depth, const std::string& path);

}  // namespace vt::conform

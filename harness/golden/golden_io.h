// The golden layout (DESIGN section 8; the layout of vllm.cpp's
// tests/parity/goldens): one folder per case with manifest.json
//   {op, args, tensors {name: {file, dtype, shape[, sha256, strides, role, format]}},
//    inputs, outputs, tol {atol, rtol}, oracle {...}}
// and one .npy per tensor (bf16 as raw uint16, dtype "bf16" in the manifest).
// Loading refuses - with GoldenError naming the file and the problem, never a
// crash - a malformed or truncated manifest, a missing / truncated .npy, an
// .npy whose dtype or shape disagrees with the manifest, an unknown dtype and
// a checksum mismatch (the manifest's sha256, or the project's lock of a
// known case: golden/checksums/*.json).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/core/case.h"
#include "harness/golden/npy.h"

namespace vt::conform {

struct GoldenCase {
  std::string dir;
  std::string op;                     // the manifest's op name ("rmsnorm", ...)
  nlohmann::ordered_json args;
  nlohmann::ordered_json manifest;
  std::map<std::string, TensorData> tensors;  // contiguous, by manifest name
  std::vector<std::string> inputs, outputs;   // empty when the manifest has none
  std::optional<double> atol, rtol;
  std::string manifest_sha256;
  const TensorData& Get(const std::string& name) const;
  bool Has(const std::string& name) const { return tensors.count(name) != 0; }
};

GoldenCase LoadGolden(const std::string& dir);
// The manifest's "op", or "" when manifest.json cannot be read or parsed.
std::string PeekManifestOp(const std::string& dir);

// Every folder under the roots (the roots included) that holds a manifest.json,
// sorted. A root that does not exist throws GoldenError.
std::vector<std::string> FindGoldenDirs(const std::vector<std::string>& roots);

// A case in the golden layout, with sha256 per file and the project's own
// extras (params identity, roles, strides, formats) so it replays exactly.
void SaveCase(const Case& c, const std::string& dir);
Case LoadCase(const std::string& dir);

// Manifest dtype name <-> storage.
struct GoldenDType {
  vt::DType dtype;
  oracle::Fmt fmt;
  std::vector<std::string> descrs;  // accepted npy descrs; the first is written
};
std::optional<GoldenDType> ParseGoldenDType(const std::string& name);
std::string GoldenDTypeName(vt::DType dt, oracle::Fmt fmt);

// Checksums the project recorded for known cases (golden/checksums/*.json):
// manifest sha256 -> {file -> sha256}. Loaded once from the source tree.
const std::map<std::string, std::map<std::string, std::string>>& GoldenLocks();

}  // namespace vt::conform

// The golden layout (DESIGN section 8; the layout of vllm.cpp's
// tests/parity/goldens): one folder per case with manifest.json
//   {op, args, tensors {name: {file, dtype, shape[, sha256, strides, role, format]}},
//    inputs, outputs, tol {atol, rtol}, oracle {...}}
// and one .npy per tensor (bf16 as raw uint16, dtype "bf16" in the manifest).
// Loading refuses - with GoldenError naming the file and the problem, never a
// crash or a hang - a malformed manifest (manifest.h: every field typed, depth
// limited, shapes checked), a file that is not a regular file inside the case
// folder (safe_file.h), a missing / truncated / over-long .npy or one whose
// header disagrees with the manifest, and a checksum mismatch (the manifest's
// sha256, or the project's lock of a known case: golden/checksums/*.json).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/core/case.h"
#include "harness/golden/manifest.h"
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
  std::string canonical_sha256;  // Manifest::canonical_sha256
  const TensorData& Get(const std::string& name) const;
  bool Has(const std::string& name) const { return tensors.count(name) != 0; }

  // Typed reads of args for adapters: the default when the key is absent or
  // null, a GoldenError naming the manifest and the key when the value has
  // another JSON type ("gemma": 1 is not a boolean, "eps": "abc" not a number).
  bool ArgBool(const std::string& key, bool dflt) const;
  double ArgNum(const std::string& key, double dflt) const;
  std::string ArgStr(const std::string& key, const std::string& dflt) const;
  std::optional<int64_t> ArgInt(const std::string& key) const;
};

GoldenCase LoadGolden(const std::string& dir);
// The manifest's "op", or "" when manifest.json cannot be read or parsed
// (then LoadGolden says why).
std::string PeekManifestOp(const std::string& dir);

// Every folder under the roots (the roots included) that holds an entry named
// manifest.json - of any kind, a dangling link included, so a folder whose
// manifest cannot be read is still a case (FAILED), never left out - sorted.
// A root that does not exist or cannot be listed throws GoldenError.
std::vector<std::string> FindGoldenDirs(const std::vector<std::string>& roots);

// A case in the golden layout, with sha256 per file and the project's own
// extras (params identity, roles, strides, formats) so it replays exactly.
void SaveCase(const Case& c, const std::string& dir);
Case LoadCase(const std::string& dir);

// Manifest dtype name for storage (ParseGoldenDType in manifest.h is the inverse).
std::string GoldenDTypeName(vt::DType dt, oracle::Fmt fmt);

// Checksums the project recorded for known cases (golden/checksums/*.json,
// written by `vt-golden lock`): each case by its folder name and by its
// manifest's canonical sha256 - neither changes when the manifest is merely
// reformatted - with the sha256 of each file's data. Loaded once from the
// source tree; a lock file that cannot be read throws GoldenError.
struct GoldenLock {
  std::string folder, manifest;  // folder name, Manifest::canonical_sha256
  std::map<std::string, std::string> files;  // file name -> sha256 of its data
};
const std::vector<GoldenLock>& GoldenLocks();
// The lock entry of a case (matched by canonical manifest digest, else by
// folder name), or nullptr when the case is not a known one.
const GoldenLock* FindGoldenLock(const std::string& dir, const std::string& canonical_sha256);

}  // namespace vt::conform

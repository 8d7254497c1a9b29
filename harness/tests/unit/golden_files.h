// Writing small golden folders (manifest.json + .npy) from scratch, for the
// unit tests of the loader, the adapters and the checker.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/core/case.h"
#include "harness/golden/manifest.h"
#include "harness/golden/npy.h"

namespace vt::conform::golden_files {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// A fresh, empty folder under this process's temporary root.
inline fs::path TempDir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("vt_golden_test_" + std::to_string(getpid())) / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// name.npy holding `values` encoded to `dtype` (a manifest dtype name), and
// its entry in the manifest's "tensors".
inline void WriteTensor(const fs::path& dir, Json& tensors, const std::string& name, const std::string& dtype,
                        const std::vector<int64_t>& shape, const std::vector<double>& values) {
  const auto dt = ParseGoldenDType(dtype);
  TensorData t;
  t.dtype = dt->dtype;
  t.fmt = dt->fmt;
  t.shape = shape;
  t.SetContiguous();
  t.storage.assign(static_cast<std::size_t>(t.Numel()) * vt::SizeOf(t.dtype), 0);
  t.SetValues(values);
  WriteNpy((dir / (name + ".npy")).string(), dt->descrs.front(), shape, t.storage);
  tensors[name] = {{"file", name + ".npy"}, {"dtype", dtype}, {"shape", shape}};
}

inline void WriteManifest(const fs::path& dir, const Json& m) { std::ofstream(dir / "manifest.json") << m.dump(1); }

}  // namespace vt::conform::golden_files

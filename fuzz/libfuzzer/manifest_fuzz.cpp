// libFuzzer target: manifest.json from bytes (harness/golden/manifest.h).
// Any text either parses into a typed Manifest or is refused with
// GoldenError; a nlohmann exception escaping, deep recursion, a crash, a leak
// or a sanitizer report is a finding.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "harness/golden/manifest.h"
#include "harness/golden/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const vt::conform::Manifest m = vt::conform::ParseManifest(text, "fuzz/manifest.json");
    // What a successful parse promises: typed fields, checked extents.
    if (m.op.empty() || m.tensors.empty() || m.canonical_sha256.size() != 64) std::abort();
    for (const auto& t : m.tensors) {
      if (t.numel < 0 || t.file.empty()) std::abort();
    }
  } catch (const vt::conform::GoldenError&) {
  }
  return 0;
}

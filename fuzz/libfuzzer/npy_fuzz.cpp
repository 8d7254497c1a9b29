// libFuzzer target: the .npy reader from bytes (harness/golden/npy.h). Any
// input either parses - and then its data is exactly the header's byte count -
// or is refused with GoldenError; anything else escaping, a crash, a leak or a
// sanitizer report is a finding.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "harness/golden/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  try {
    const vt::conform::NpyArray a = vt::conform::ParseNpy(bytes, "fuzz.npy");
    // What a successful parse promises: prod(shape) * itemsize data bytes.
    uint64_t n = vt::conform::NpyItemSize(a.descr);
    for (const int64_t d : a.shape) n *= static_cast<uint64_t>(d);
    if (n != a.data.size()) std::abort();
  } catch (const vt::conform::GoldenError&) {
  }
  return 0;
}

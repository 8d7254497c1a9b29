// libFuzzer target: the case identity parser (Params::FromIdentity, what
// Mode::Parse runs on a --case id). Any text either parses - and then prints
// back to an identity that parses again - or is refused with
// std::invalid_argument; anything else is a finding.
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "harness/core/params.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string id(reinterpret_cast<const char*>(data), size);
  vt::conform::Params p;
  try {
    p = vt::conform::Params::FromIdentity(id);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  // A parsed id prints back to one that parses (a repro line stays a repro line).
  try {
    vt::conform::Params::FromIdentity(p.Identity());
  } catch (const std::invalid_argument&) {
    std::abort();
  }
  return 0;
}

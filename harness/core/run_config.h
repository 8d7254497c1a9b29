// RunConfig: what every check of one run shares - tier, master seed, thread
// count, golden folders, the negative mode's isolation and the cuda mode's
// backend. Below the modes and the golden checker, which both take it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/core/tier.h"
#include "vt/context.h"

namespace vt::conform {

inline constexpr uint64_t kDefaultSeed = 0x5eed2026;

struct RunConfig {
  Tier tier = Tier::kCi;
  uint64_t seed = kDefaultSeed;  // the one master seed every case derives from
  int threads = 0;               // oracle/equivalence runs: 0 = process default
  std::vector<std::string> golden_dirs;  // golden mode: folders to search for cases
  bool isolate = true;           // negative mode: run each case in a forked child
  // cuda mode: the backend its cases run on (kCudaEmu: the host emulation;
  // kCUDA: a device, SKIPPED(no device) without one).
  vt::Backend cuda_backend = vt::Backend::kCudaEmu;
  // --isa: the tier the run asked for (the CLIs also set VT_ISA, so every
  // call without its own tier runs it); kAuto: not asked. The isa mode then
  // checks only that vector tier against the portable one.
  vt::Isa isa = vt::Isa::kAuto;
};

}  // namespace vt::conform

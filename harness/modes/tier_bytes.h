// Bytes of two CPU tiers' runs of one case, as the isa mode compares them
// (harness/modes/isa_mode.cpp); the golden check holds the other tiers to the
// default one the same way.
#pragma once

#include <cstdint>
#include <vector>

#include "harness/core/case.h"

namespace vt::conform {

// got's storage with every element where got and want are both NaN (with
// different payloads) replaced by want's: equal to want.storage when the two
// differ in NaN payloads only. `pairs` counts the elements replaced.
std::vector<uint8_t> NanLatitude(const TensorData& got, const TensorData& want, int64_t& pairs);

}  // namespace vt::conform

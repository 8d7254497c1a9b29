// The catalog entry the two casts share (cast_bf16: f32 -> bf16, cast_f32:
// bf16 -> f32): generator, build, oracles, contract, error cases and the
// strided == packed claim. Each op's file adds its round-trip claim.
#pragma once

#include <string>

#include "harness/catalog/glue/glue_entry.h"

namespace vt::conform::glue {

OpSpec CastSpec(const std::string& name, vt::DType in, vt::DType out);

// Runs the op on c, then `next_op` on its output (as "in", a fresh poisoned
// "out" of `next_out` dtype), and compares the second output's bytes with
// `expect(c)` (NaN payloads included).
Claim CastRoundTrip(std::string name, std::string statement, std::string next_op, vt::DType next_out,
                    std::function<std::vector<uint64_t>(const Case&)> expect);

}  // namespace vt::conform::glue

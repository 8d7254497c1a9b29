// The helpers the catalog's golden adapters build a GoldenMapping with,
// from a loaded golden (golden_io.h).
#pragma once

#include <initializer_list>
#include <string>

#include "harness/core/case.h"
#include "harness/golden/golden_io.h"
#include "harness/golden/mapping.h"

namespace vt::conform {

// A golden tensor copied into the case under a new name and role.
TensorData GoldenTensor(const GoldenCase& g, const std::string& name, const std::string& as, Role role);
// A poisoned output shaped like a golden tensor, of the dtype the op stores:
// the golden's own, except f16, which the float outputs of this kernel set do
// not store (O = f32/bf16): an f16 golden is compared against an f32 output
// (the comparison is by value, under the manifest's atol/rtol).
TensorData GoldenOutputLike(const GoldenCase& g, const std::string& name, const std::string& as);
// The first of `names` the golden has; GoldenUnsupported when none.
std::string GoldenPick(const GoldenCase& g, std::initializer_list<const char*> names);
// The tensor viewed as [rows, last] (rank >= 1), contiguous.
TensorData AsRows(TensorData t);
// The dtype name of a golden tensor for a case's params ("f32", "bf16", ...).
std::string DTypeKey(const TensorData& t);
// Per-output tolerances a manifest may carry in args as "atol_<golden
// output>" and/or "rtol_<golden output>" (with "atol_reason"), each derived
// for that output and at most the manifest's (which is their maximum): every
// compared pair whose golden has one gets them as a tighter tolerance (the
// manifest's value where only one is given). One above the manifest's is
// refused (GoldenError).
void PerOutputTol(const GoldenCase& g, GoldenMapping& m);

}  // namespace vt::conform

// Case-generator building blocks (RapidCheck generators, so every mode can be
// fuzzed and a failing case shrunk). Extents are adversarial by design: 1,
// tile-1 / tile / tile+1 around the powers of two the kernels' loops and the
// row partitioner care about, primes, and 0 where an op allows it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "harness/core/params.h"
#include "harness/core/tier.h"

namespace vt::conform::gen {

// One of the listed values. Unlike rc::gen::elementOf (which never shrinks),
// this shrinks towards the FIRST element, so lists put the simplest value
// first; at RapidCheck's nominal size it draws exactly what elementOf draws.
template <class Container>
rc::Gen<typename Container::value_type> Pick(Container values) {
  const std::size_t n = values.size();
  return rc::gen::map(rc::gen::inRange<std::size_t>(0, n),
                      [values = std::move(values)](std::size_t i) { return values[i]; });
}

// Leading (row) extents. with_zero adds the empty case.
rc::Gen<int64_t> Rows(Tier t, bool with_zero = true);
// Reduced / inner extents (> 0).
rc::Gen<int64_t> Width(Tier t);
// Small head counts for rank-3 views.
rc::Gen<int64_t> Heads(Tier t);
rc::Gen<std::string> FloatIn();   // f32 / f16 / bf16
rc::Gen<std::string> FloatOut();  // f32 / bf16
rc::Gen<int64_t> Flag();          // 0 / 1
// Input magnitudes: 1 (typical), 1e-3 (eps dominates a norm), 30 (large).
rc::Gen<double> Scale();
// Norm eps: the common 1e-6 / 1e-5, and 1e-2 so that moving eps is visible.
rc::Gen<double> Eps();
// Row padding for views that accept a padded outer stride (0 = contiguous).
rc::Gen<int64_t> Pad();
rc::Gen<uint64_t> Seed();

// Adds the placement knobs every op draws (positive layouts): "layout"
// (separate / packed / offset: harness/core/workspace.h) and, for ops whose
// contract has any-shape operands, "reshape" (keep / flat / reversed / unit /
// mixed: Reshaped), and for ops that declare special carriers or branch edges
// (OpSpec::values) "values" (normal / special / edges: harness/catalog/values.h).
rc::Gen<Params> WithPlacement(rc::Gen<Params> g, bool reshape, bool specials = false, bool edges = false);

// The shape an any-shape operand takes under the "reshape" knob: its own,
// [n], its extents reversed, or [1, n]; "mixed" / "mixed_shifted" give the
// index-th any-shape operand a different one of those each, in two rotations
// (equal counts, unequal shapes).
std::vector<int64_t> Reshaped(const std::vector<int64_t>& shape, const std::string& how, std::size_t index);

// Draw `count` cases from a generator deterministically from `seed`
// (RapidCheck's splittable Random), dropping duplicate identities.
std::vector<Params> Draw(const rc::Gen<Params>& g, uint64_t seed, int count);

}  // namespace vt::conform::gen

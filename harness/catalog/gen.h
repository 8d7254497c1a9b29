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

// The "rank" knob of a row view [rows, ..., inner] whose rank is free (the
// validators accept ranks 1..4 unless an op restricts them): "2d" (drawn
// twice: the common case), "3d" with "G" heads, "1d", or "4d", the highest
// rank, with "G" and "G2" middle extents of 2 or 3 each: a wrong order of the
// middle dims (strides swapped, indices decomposed the wrong way round) is
// invisible at rank <= 3 and with a middle extent of 1.
void DrawRank(Params& p, Tier t);
// [rows, inner] under the rank knob: "1d" [rows * inner], "2d" [rows, inner],
// "3d" [rows, G, inner], "4d" [rows, G, G2, inner].
std::vector<int64_t> RankShape(const Params& p, int64_t rows, int64_t inner);

// Adds the placement knobs every op draws (positive layouts): "layout"
// (separate / packed / offset: harness/core/workspace.h) and, for ops whose
// contract has any-shape operands, "reshape" (keep / flat / reversed / unit /
// mixed / rank4: Reshaped), and for ops that declare special carriers or branch edges
// (OpSpec::values) "values" (normal / special / edges: harness/catalog/values.h).
rc::Gen<Params> WithPlacement(rc::Gen<Params> g, bool reshape, bool specials = false, bool edges = false);

// The shape an any-shape operand takes under the "reshape" knob: its own,
// [n], its extents reversed, or [1, n]; "mixed" / "mixed_shifted" give the
// index-th any-shape operand a different one of those each, in two rotations
// (equal counts, unequal shapes); "rank4" gives Rank4(n, index).
std::vector<int64_t> Reshaped(const std::vector<int64_t>& shape, const std::string& how, std::size_t index);

// A rank-4 shape of n elements, the highest rank the validators accept: n's
// prime factors multiplied into four balanced extents, each > 1 whenever n has
// at least four prime factors (counted with multiplicity; a wrong order of
// the middle dims is invisible below rank 4 or with an extent of 1). With
// fewer, the extents that cannot be > 1 are leading 1s (17 -> [1,1,1,17],
// 12 -> [1,3,2,2], 0 -> [1,1,1,0]): still rank 4. The extents > 1 are rotated
// by `index`, so operands of one count get unequal shapes where they can.
std::vector<int64_t> Rank4(int64_t n, std::size_t index);

// Draw `count` cases from a generator deterministically from `seed`
// (RapidCheck's splittable Random), dropping duplicate identities.
std::vector<Params> Draw(const rc::Gen<Params>& g, uint64_t seed, int count);

}  // namespace vt::conform::gen

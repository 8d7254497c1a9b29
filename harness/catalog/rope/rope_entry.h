// The RoPE-family catalog entries' builder (RopeSpec) and what they share:
// rotary widths, rotated operands with padded token/head strides, positions,
// the mrope section draw, RopeArgs from a case's params, and the error cases
// of the rotary width, the cache and the positions.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/catalog/entry.h"
#include "harness/catalog/seq_entry.h"
#include "oracles/rope/rope_from_cache.h"
#include "oracles/rope/rope_neox.h"
#include "vt/ops_rope.h"

namespace vt::conform::rope_entry {

// Even rotary widths: the smallest, a few around the kernels' loops, and the
// common 64 / 128 (rot/2 odd included: 6, 34).
inline rc::Gen<int64_t> RotaryDim(Tier t) {
  if (t == Tier::kSmoke) return gen::Pick(std::vector<int64_t>{2, 8});
  return gen::Pick(std::vector<int64_t>{2, 4, 6, 8, 16, 32, 34, 64, 128});
}
// Head dim >= rot: exactly rot, one or two past it (dims past rot must stay
// untouched), or twice it (partial rotary, as Qwen3-Next / GLM).
inline rc::Gen<int64_t> HeadDim(int64_t rot) {
  return gen::Pick(std::vector<int64_t>{rot, rot, rot + 1, rot + 2, 2 * rot});
}

// A rotated [T, H, D] operand; its head stride is D + hpad and its token
// stride H * (D + hpad) + tpad (the DeepSeek q[..., nope:] slice and the
// k_pe column block are such views). Gaps are poisoned by the harness.
inline TensorData& AddRotated(Case& c, const std::string& name, vt::DType dt, int64_t t, int64_t h,
                              int64_t d, int64_t hpad, int64_t tpad, Role role, Fill fill) {
  TensorData& x = c.Add(name, dt, {t, h, d}, role, fill);
  x.strides = {h * (d + hpad) + tpad, d + hpad, 1};
  return x;
}

// Positions drawn uniformly in [base, base + limit): [T], or [3, T] (mrope).
inline TensorData& AddPositions(Case& c, vt::DType dt, int64_t t, bool mrope, int64_t limit, int64_t base = 0) {
  std::vector<int64_t> shape = mrope ? std::vector<int64_t>{3, t} : std::vector<int64_t>{t};
  const auto lo = static_cast<double>(base);
  return c.Input("positions", dt, shape, Fill::Uniform(lo, lo + static_cast<double>(limit)));
}

// Where rope_neox / rope_cos_sin_cache positions start ("pos_base"). Their
// positions index no table: the seed multiplies any int64 into the double
// angle and op-contracts fixes no range, so i64 positions of +-2^32 + j are
// valid. They share j's low 32 bits: a kernel that reads an i64 position
// through int32 rotates by j's angle instead. 0 for i32 positions.
inline void DrawPositionBase(Params& p) {
  const int64_t far = int64_t{1} << 32;
  p.Set("pos_base", p.Str("pos_dt") == "i64" ? *gen::Pick(std::vector<int64_t>{0, 0, far, -far}) : 0);
}
inline int64_t PositionBase(const Params& p) { return p.Has("pos_base") ? p.Int("pos_base") : 0; }

// Multimodal sections summing to half: (s0, s1, s2) with random splits,
// including empty sections.
inline void DrawSections(Params& p, int64_t half) {
  const int64_t s1 = *rc::gen::inRange<int64_t>(0, half + 1);
  const int64_t s2 = *rc::gen::inRange<int64_t>(0, half - s1 + 1);
  p.Set("s0", half - s1 - s2);
  p.Set("s1", s1);
  p.Set("s2", s2);
}

// RopeArgs from the params every rope entry names (absent keys: defaults).
inline vt::RopeArgs Args(const Params& p) {
  vt::RopeArgs a;
  a.rotary_dim = static_cast<int>(p.Int("rot"));
  if (p.Has("neox")) a.is_neox_style = p.Flag("neox");
  if (p.Has("base")) a.base = p.F32("base");
  if (p.Has("mrope") && p.Str("mrope") != "none") {
    a.mrope_interleaved = p.Str("mrope") == "interleaved";
    a.mrope_section[0] = static_cast<int>(p.Int("s0"));
    a.mrope_section[1] = static_cast<int>(p.Int("s1"));
    a.mrope_section[2] = static_cast<int>(p.Int("s2"));
  }
  if (p.Has("llama3_scaling_factor")) {
    a.llama3_scaling_factor = p.F32("llama3_scaling_factor");
    a.llama3_low_freq_factor = p.F32("llama3_low_freq_factor");
    a.llama3_high_freq_factor = p.F32("llama3_high_freq_factor");
    a.llama3_orig_max_position = p.F32("llama3_orig_max_position");
  }
  return a;
}

// The oracle's pairing for a case.
inline oracle::RopePairing Pairing(const Params& p, bool mrope) {
  oracle::RopePairing pr;
  pr.rot = p.Int("rot");
  pr.neox = !p.Has("neox") || p.Flag("neox");
  pr.mrope = mrope;
  if (mrope) {
    pr.interleaved = p.Str("mrope") == "interleaved";
    pr.section = {p.Int("s0"), p.Int("s1"), p.Int("s2")};
  }
  return pr;
}

// Frequency knobs of rope_neox / rope_cos_sin_cache: base (the common 1e4,
// Llama-3's 5e5, and a small base whose low-frequency pairs wrap slowly),
// positions up to `maxpos` (16, 4096, 131072: angles up to ~1e5 rad) and the
// Llama-3 rescale: off, or on with orig_max_position 64 (the three bands split
// small rotary widths) or 8192 (Llama-3.1), low/high 1/4, equal (no band) or
// 1/32.
inline void DrawFrequency(Params& p) {
  p.Set("base", *gen::Pick(std::vector<double>{10000.0, 500000.0, 100.0}));
  p.Set("maxpos", *gen::Pick(std::vector<int64_t>{16, 4096, 131072}));
  const int64_t llama3 = *gen::Pick(std::vector<int64_t>{0, 1, 1});
  const std::vector<std::pair<double, double>> bands = {{1.0, 4.0}, {2.0, 2.0}, {1.0, 32.0}};
  const auto band = *gen::Pick(bands);
  p.Set("llama3_scaling_factor", llama3 ? *gen::Pick(std::vector<double>{8.0, 32.0}) : 0.0);
  p.Set("llama3_low_freq_factor", band.first);
  p.Set("llama3_high_freq_factor", band.second);
  p.Set("llama3_orig_max_position", *gen::Pick(std::vector<double>{64.0, 8192.0}));
}

// The oracle's frequency description, from the f32 arguments the op receives.
inline oracle::RopeFreq Freq(const Params& p) {
  const vt::RopeArgs a = Args(p);
  oracle::RopeFreq f;
  f.base = a.base;
  f.rot = a.rotary_dim;
  f.llama3_factor = a.llama3_scaling_factor;
  f.llama3_low = a.llama3_low_freq_factor;
  f.llama3_high = a.llama3_high_freq_factor;
  f.llama3_orig = a.llama3_orig_max_position;
  return f;
}

// The frequency arguments' ranges: base and the Llama-3 fields > 0, the
// factor >= 0 (0 = no rescale); all finite, also as f32.
inline std::vector<ScalarRule> FrequencyScalars() {
  return {entry::PositiveFinite("base"), entry::NonNegativeFinite("llama3_scaling_factor"),
          entry::PositiveFinite("llama3_low_freq_factor"),
          entry::PositiveFinite("llama3_high_freq_factor"), entry::PositiveFinite("llama3_orig_max_position")};
}

// --- the builder ----------------------------------------------------------

// A RoPE entry is a seq::Evaluated (family "rope"); RopeSpec draws "scale"
// (inputs N(0, scale^2)) after the entry's knobs where `scale` is set -
// every op but rope_cos_sin_cache, which has no float input.
OpSpec RopeSpec(seq::Evaluated e, bool scale = true);

// The knobs the q/k rotating entries draw first: "dt" (f32 / bf16, one for
// the rotated operands), "pos_dt" (i64 / i32) and "T".
void DrawTokens(Params& p, Tier tier);

// positions: i32/i64, contiguous, of the given ranks ([T]; [3, T] mrope).
OperandRule Positions(std::vector<int> ranks = {1});
// cache [P, rot]: the rotated operands' f32/bf16 dtype, contiguous.
OperandRule Cache();

// --- error cases -------------------------------------------------------------

// `tensor` in the other one of f32 / bf16 where the op requires `first`'s
// dtype (skipped for an absent optional tensor).
ErrorCase OtherFloat(const std::string& tensor, const std::string& first);

// rotary_dim odd, zero and (where `head` gives the head dim) past the head:
// `follow` resizes the operands whose width is rot to the new value, so that
// only rotary_dim's own condition breaks; it returns false where the case
// cannot take the error.
using RotaryFollow = std::function<bool(Case& c, int64_t rot)>;
std::vector<ErrorCase> RotaryErrors(RotaryFollow follow, std::function<int64_t(const Case&)> head = {});
// A follow for a [rows, rot] operand.
RotaryFollow WidthFollows(const std::string& tensor);

// A cache [P, rot] with no rows.
ErrorCase CacheNoRows();
// One position outside [0, P) - past the cache, and where `negative`, -1 -
// then a valid one moved by +-2^32 (i32 widened to i64): a check that reads
// positions through int32 would pass it. The spec's kernel refused a bad
// position mid-loop, after rows were rotated (H-3); here nothing is written.
std::vector<ErrorCase> CachePositionErrors(bool negative);

}  // namespace vt::conform::rope_entry

// Small helpers the per-op catalog entries share.
#pragma once

#include <string>
#include <vector>

#include "harness/catalog/claims.h"
#include "harness/catalog/gen.h"
#include "harness/catalog/mutators.h"
#include "harness/catalog/op_spec.h"
#include "oracles/scalar.h"

namespace vt::conform::entry {

using oracle::Bounded;

// Exact input values as Bounded (no error).
inline std::vector<Bounded> AsBounded(const std::vector<double>& v) {
  std::vector<Bounded> out;
  out.reserve(v.size());
  for (double x : v) out.push_back({x, 0.0, true});
  return out;
}

inline Expected ToExpected(const std::vector<Bounded>& s) {
  Expected e;
  e.v.reserve(s.size());
  e.e.reserve(s.size());
  for (const Bounded& b : s) {
    e.v.push_back(b.v);
    e.e.push_back(b.e);
  }
  return e;
}

// Inputs drawn N(0, scale^2) - the case's "scale" knob.
inline Fill Values(const Params& p) { return Fill::Normal(0.0, p.Num("scale")); }

inline std::vector<double> Vals(const Case& c, const std::string& name) { return c.Get(name).Values(); }

// The f32 value an f32 kernel computes for a + b (or holds for a float).
inline double F32(double v) { return static_cast<double>(static_cast<float>(v)); }

}  // namespace vt::conform::entry

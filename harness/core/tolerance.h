// Tolerance rules. Each output of each op owns one, built from these helpers,
// and carries its reason; docs/tolerance.md derives the numbers.
//   exact     the output is defined exactly (copies, casts, single correctly
//             rounded ops on exact inputs): value equality with the oracle.
//   bound     per-element a-priori bound from the Bounded oracle: the output
//             must lie in [R(v - e), R(v + e)], R = rounding to the output format.
//   ulp(n)    |got - v| <= n ulps of the output format at v.
//   baseline  |got - v| <= c * max|oracle<float> - oracle<double>| + floor.
//   golden    |got - want| <= atol + rtol * |want| (a recorded golden's own rule).
#pragma once

#include <string>

namespace vt::conform {

struct Tolerance {
  enum class Kind { kExact, kBound, kUlp, kBaseline, kGolden };
  Kind kind = Kind::kBound;
  double ulps = 0.0;
  double c = 0.0, floor = 0.0;
  double atol = 0.0, rtol = 0.0;
  std::string reason;

  std::string Describe() const;
};

Tolerance Exact(std::string reason);
Tolerance Bound(std::string reason);
Tolerance Ulp(double n, std::string reason);
Tolerance Baseline(double c, double floor, std::string reason);
Tolerance Golden(double atol, double rtol, std::string reason);

}  // namespace vt::conform

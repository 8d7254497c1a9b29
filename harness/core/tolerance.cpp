#include "harness/core/tolerance.h"

#include <sstream>
#include <utility>

namespace vt::conform {

std::string Tolerance::Describe() const {
  std::ostringstream os;
  switch (kind) {
    case Kind::kExact: os << "exact"; break;
    case Kind::kBound: os << "bound"; break;
    case Kind::kUlp: os << "ulp(" << ulps << ")"; break;
    case Kind::kBaseline: os << "baseline(c=" << c << ",floor=" << floor << ")"; break;
    case Kind::kGolden: os << "golden(atol=" << atol << ",rtol=" << rtol << ")"; break;
  }
  return os.str();
}

Tolerance Exact(std::string reason) {
  Tolerance t;
  t.kind = Tolerance::Kind::kExact;
  t.reason = std::move(reason);
  return t;
}

Tolerance Bound(std::string reason) {
  Tolerance t;
  t.kind = Tolerance::Kind::kBound;
  t.reason = std::move(reason);
  return t;
}

Tolerance Ulp(double n, std::string reason) {
  Tolerance t;
  t.kind = Tolerance::Kind::kUlp;
  t.ulps = n;
  t.reason = std::move(reason);
  return t;
}

Tolerance Baseline(double c, double floor, std::string reason) {
  Tolerance t;
  t.kind = Tolerance::Kind::kBaseline;
  t.c = c;
  t.floor = floor;
  t.reason = std::move(reason);
  return t;
}

Tolerance Golden(double atol, double rtol, std::string reason) {
  Tolerance t;
  t.kind = Tolerance::Kind::kGolden;
  t.atol = atol;
  t.rtol = rtol;
  t.reason = std::move(reason);
  return t;
}

}  // namespace vt::conform

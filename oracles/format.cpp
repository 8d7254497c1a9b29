#include "oracles/format.h"

#include <cmath>
#include <stdexcept>

namespace vt::oracle {
namespace {

struct Geometry {
  int mant_bits;     // stored mantissa bits
  int min_exp;       // exponent of the smallest normal
  double max_finite;
  bool saturate;     // beyond max_finite: saturate (true) or inf (false)
};

Geometry GeometryOf(Fmt f) {
  switch (f) {
    case Fmt::kF32: return {23, -126, 0x1.fffffep127, false};
    case Fmt::kF16: return {10, -14, 65504.0, false};
    case Fmt::kBF16: return {7, -126, 0x1.fep127, false};
    case Fmt::kFp8E4M3: return {3, -6, 448.0, true};
    case Fmt::kFp4E2M1: return {1, 0, 6.0, true};
  }
  throw std::logic_error("unknown Fmt");
}

// Exponent of the quantum (value of one unit in the last place) at |x|.
int QuantumExp(const Geometry& g, double x) {
  const int e = std::ilogb(x);  // floor(log2 |x|)
  return std::max(e, g.min_exp) - g.mant_bits;
}

}  // namespace

double RoundReal(Fmt fmt, double x) {
  if (std::isnan(x) || x == 0.0) return x;
  const Geometry g = GeometryOf(fmt);
  const double a = std::fabs(x);
  double r;
  if (std::isinf(a)) {
    r = g.saturate ? g.max_finite : a;
  } else {
    const int q = QuantumExp(g, a);
    r = std::ldexp(std::nearbyint(std::ldexp(a, -q)), q);  // exact scaling, RNE
    if (r > g.max_finite) r = g.saturate ? g.max_finite : INFINITY;
  }
  return std::copysign(r, x);
}

double UlpOf(Fmt fmt, double x) {
  const Geometry g = GeometryOf(fmt);
  const double a = std::fabs(x);
  if (std::isnan(a) || std::isinf(a)) return std::ldexp(1.0, std::ilogb(g.max_finite) - g.mant_bits);
  if (a == 0.0) return std::ldexp(1.0, g.min_exp - g.mant_bits);
  return std::ldexp(1.0, QuantumExp(g, std::min(a, g.max_finite)));
}

std::string_view Name(Fmt fmt) {
  switch (fmt) {
    case Fmt::kF32: return "f32";
    case Fmt::kF16: return "f16";
    case Fmt::kBF16: return "bf16";
    case Fmt::kFp8E4M3: return "fp8_e4m3";
    case Fmt::kFp4E2M1: return "fp4_e2m1";
  }
  return "?";
}

std::optional<Fmt> ParseFmt(std::string_view name) {
  for (Fmt f : {Fmt::kF32, Fmt::kF16, Fmt::kBF16, Fmt::kFp8E4M3, Fmt::kFp4E2M1}) {
    if (Name(f) == name) return f;
  }
  return std::nullopt;
}

Fmt FmtOf(vt::DType dt) {
  switch (dt) {
    case vt::DType::kF32: return Fmt::kF32;
    case vt::DType::kF16: return Fmt::kF16;
    case vt::DType::kBF16: return Fmt::kBF16;
    default: throw std::invalid_argument("FmtOf: not a float dtype");
  }
}

}  // namespace vt::oracle

// Scalar types the oracles are templated on. Oracles specify; they do not
// optimise: plain loops over one of
//   S = double   the truth (the definition evaluated in double);
//   S = float    the same-precision baseline (the FlashAttention tolerance rule);
//   S = Bounded  the truth PLUS an a-priori bound on how far any faithful f32
//                evaluation can be from it (running error analysis,
//                docs/tolerance.md): |f32 result - v| <= e.
// Bounded does not assume the kernel associates a chain like the oracle does:
// only ONE IEEE operation on GIVEN values (tensor inputs, exact constants,
// values the op stores and re-reads) is known exactly - it is the correctly
// rounded f32 result whatever the kernel's code looks like. Every later step
// carries a rounding-error bound.
// Rounding points the op defines (stores to bf16/f16/fp8) are explicit
// Store(fmt, s) calls; everything else is math in double.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "oracles/format.h"

namespace vt::oracle {

struct Bounded {
  double v = 0.0;      // the definition's value, in double
  double e = 0.0;      // bound on |f32 evaluation - v|
  bool given = false;  // an input, exact constant or stored value: exactly what the kernel holds
};

// Unit roundoff of f32 and the half-spacing of its subnormals.
inline constexpr double kU32 = 0x1p-24;
inline constexpr double kTiny32 = 0x1p-150;

// Error allowance of one correctly rounded f32 operation whose exact result
// has magnitude <= m.
inline double RoundErr(double m) { return m < 0x1.ffffffp127 ? m * kU32 + kTiny32 : INFINITY; }  // may overflow

// glibc's documented worst-case errors for the f32 functions the kernels call
// (libm-test-ulps, x86_64): expf 1 ulp, tanhf 2 ulps, log1pf 2 ulps. One f32
// ulp at magnitude m is at most 2u*m.
inline constexpr double kExpUlps = 1.0;
inline constexpr double kTanhUlps = 2.0;
inline constexpr double kLog1pUlps = 2.0;
inline double LibmErr(double ulps, double m) { return ulps * (2.0 * kU32 * m + 2.0 * kTiny32); }

// The real-number reading (the torch mode, docs/torch.md): there the
// question is how far a faithful f32 evaluation can be from the REAL value of
// the definition - what a float64 reference computes - not from its f32
// first steps. In that reading the first operation on given values is not
// exact: its rounding is error like any later one, and an f32 overflow is a
// value of unbounded error, not an exact infinity. Off by default (the oracle
// mode and every other check keep the exact first steps); RealTruthScope
// turns it on for the calling thread while it lives.
inline bool& RealTruthFlag() {
  thread_local bool on = false;
  return on;
}
class RealTruthScope {
 public:
  RealTruthScope() : saved_(RealTruthFlag()) { RealTruthFlag() = true; }
  ~RealTruthScope() { RealTruthFlag() = saved_; }
  RealTruthScope(const RealTruthScope&) = delete;
  RealTruthScope& operator=(const RealTruthScope&) = delete;

 private:
  bool saved_;
};

namespace detail {
// One IEEE +,-,*,/ or sqrt in f32 on given f32 values equals the double result
// rounded to f32 (double has more than 2*24+2 bits, so that double rounding is
// innocuous): exact, but no longer "given" - a kernel may never form it.
// The real-number reading keeps the real value and counts that rounding.
inline Bounded Exact(double v) {
  if (RealTruthFlag()) return {v, RoundErr(std::fabs(v)), false};
  return {static_cast<double>(static_cast<float>(v)), 0.0, false};
}
inline bool BothExact(const Bounded& a, const Bounded& b) { return a.given && b.given; }
}  // namespace detail

namespace detail {
// f32 overflow: a kernel that overflowed holds exactly +-inf, and IEEE
// arithmetic on an exact infinity is exact again (inf + x = inf, x / inf = 0,
// ...) as long as the other operand's sign / finiteness is certain.
inline bool ExactInf(const Bounded& a) { return std::isinf(a.v) && a.e == 0.0; }
inline bool SignCertain(const Bounded& a) { return std::fabs(a.v) > a.e; }
}  // namespace detail

inline Bounded operator+(Bounded a, Bounded b) {
  const double v = a.v + b.v;
  if (detail::BothExact(a, b)) return detail::Exact(v);
  if (detail::ExactInf(a) || detail::ExactInf(b)) {
    const bool other_finite = detail::ExactInf(a) ? std::isfinite(b.v + b.e) : std::isfinite(a.v + a.e);
    return {v, other_finite || (detail::ExactInf(a) && detail::ExactInf(b)) ? 0.0 : INFINITY, false};
  }
  const double prop = a.e + b.e;
  return {v, prop + RoundErr(std::fabs(v) + prop)};
}
inline Bounded operator-(Bounded a) { return {-a.v, a.e, a.given}; }
inline Bounded operator-(Bounded a, Bounded b) { return a + (-b); }
inline Bounded operator*(Bounded a, Bounded b) {
  const double v = a.v * b.v;
  if (detail::BothExact(a, b)) return detail::Exact(v);
  if (detail::ExactInf(a) || detail::ExactInf(b)) {
    const Bounded& other = detail::ExactInf(a) ? b : a;
    return {v, detail::SignCertain(other) && std::isfinite(other.v + other.e) ? 0.0 : INFINITY, false};
  }
  if (std::isinf(a.e) || std::isinf(b.e)) return {v, INFINITY, false};  // not 0 * inf = NaN
  const double prop = std::fabs(a.v) * b.e + std::fabs(b.v) * a.e + a.e * b.e;
  return {v, prop + RoundErr(std::fabs(v) + prop)};
}
inline Bounded operator/(Bounded a, Bounded b) {
  const double v = a.v / b.v;
  if (detail::BothExact(a, b)) return detail::Exact(v);
  if (detail::ExactInf(b) && std::isfinite(a.v + a.e)) return {v, 0.0, false};  // x / inf = 0
  if (detail::ExactInf(a)) {
    return {v, detail::SignCertain(b) && std::isfinite(b.v + b.e) ? 0.0 : INFINITY, false};
  }
  if (std::isinf(a.e)) return {v, INFINITY, false};  // not inf * 0 = NaN below
  const double lo = std::fabs(b.v) - b.e;  // smallest |denominator| the kernel may hold
  if (!(lo > 0.0)) return {v, std::numeric_limits<double>::infinity(), false};
  const double prop = (std::fabs(a.v) * b.e + std::fabs(b.v) * a.e) / (std::fabs(b.v) * lo);
  return {v, prop + RoundErr(std::fabs(v) + prop)};
}
inline Bounded& operator+=(Bounded& a, Bounded b) { return a = a + b; }

inline Bounded Sqrt(Bounded a) {
  const double v = std::sqrt(a.v);
  if (a.given) return detail::Exact(v);
  if (std::isinf(a.e)) return {v, INFINITY, false};  // not min(inf / inf, inf) = NaN
  // An argument interval reaching below 0 admits sqrt(negative) = NaN.
  if (a.v - a.e < 0.0 && a.e > 0.0) return {v, INFINITY, false};
  // |sqrt(x) - sqrt(y)| = |x - y| / (sqrt(x) + sqrt(y)) <= e / sqrt(y).
  const double prop = a.v > 0.0 ? std::min(a.e / v, std::sqrt(a.e)) : std::sqrt(a.e);
  return {v, prop + RoundErr(v + prop)};
}
// ln(FLT_MAX): expf overflows to +inf past this argument.
inline constexpr double kExpOverflow32 = 88.72283905206835;

inline Bounded Exp(Bounded a) {
  if (a.v - a.e > kExpOverflow32 + 1e-6) {  // surely overflows f32
    if (RealTruthFlag()) return {std::exp(a.v), INFINITY, false};  // the real value is finite
    return {INFINITY, 0.0, false};
  }
  if (!(a.v + a.e <= kExpOverflow32 - 1e-6)) return {std::exp(a.v), INFINITY, false};  // may overflow (or NaN)
  const double v = std::exp(a.v);
  const double prop = a.e < 709.0 ? v * std::expm1(a.e) : std::exp(a.v + a.e);  // e^y (e^d - 1) bounds both sides
  return {v, prop + LibmErr(kExpUlps, v + prop)};
}
inline Bounded Tanh(Bounded a) {
  const double v = std::tanh(a.v);
  // tanh is increasing: the kernel's argument within [v-e, v+e] maps within the
  // images of the ends (much tighter than the Lipschitz-1 bound where tanh saturates).
  const double prop = std::isfinite(a.e) ? std::max(std::tanh(a.v + a.e) - v, v - std::tanh(a.v - a.e)) : 2.0;
  return {v, prop + LibmErr(kTanhUlps, std::fabs(v) + prop)};
}
inline Bounded Log1p(Bounded a) {
  const double v = std::log1p(a.v);
  const double lo = 1.0 + a.v - a.e;  // log1p' = 1/(1+x) is largest at the low end
  const double prop = lo > 0.0 ? a.e / lo : std::numeric_limits<double>::infinity();
  return {v, prop + LibmErr(kLog1pUlps, std::fabs(v) + prop)};
}

inline double Sqrt(double x) { return std::sqrt(x); }
inline double Exp(double x) { return std::exp(x); }
inline double Tanh(double x) { return std::tanh(x); }
inline double Log1p(double x) { return std::log1p(x); }
inline float Sqrt(float x) { return std::sqrt(x); }
inline float Exp(float x) { return std::exp(x); }
inline float Tanh(float x) { return std::tanh(x); }
inline float Log1p(float x) { return std::log1p(x); }

// An input value (exactly representable in f32: it was read from a tensor).
template <class S>
S In(double x) {
  if constexpr (std::is_same_v<S, Bounded>) {
    return Bounded{x, 0.0, true};
  } else {
    return static_cast<S>(x);
  }
}

// A constant of the definition (sqrt(2/pi), 0.044715, ...). An f32 kernel holds
// its f32 rounding, which Bounded counts as error; float holds the rounding.
template <class S>
S Lit(double c) {
  if constexpr (std::is_same_v<S, Bounded>) {
    const double held = static_cast<double>(static_cast<float>(c));
    return Bounded{c, std::fabs(held - c), held == c};
  } else {
    return static_cast<S>(c);
  }
}

// A rounding point the op defines: the value is stored to `fmt` (and re-read).
inline double Store(Fmt fmt, double x) { return RoundReal(fmt, x); }
inline float Store(Fmt fmt, float x) { return static_cast<float>(RoundReal(fmt, x)); }
inline Bounded Store(Fmt fmt, Bounded x) {
  const double v = RoundReal(fmt, x.v);
  if (x.e == 0.0) return {v, 0.0, true};
  if (std::isinf(x.e)) return {v, INFINITY, false};  // not inf - inf = NaN
  // Rounding is monotone: a kernel value within [v-e, v+e] stores to a value
  // within [R(v-e), R(v+e)].
  const double lo = RoundReal(fmt, x.v - x.e), hi = RoundReal(fmt, x.v + x.e);
  const double e = std::max(hi - v, v - lo);
  return {v, e, e == 0.0};
}

template <class S>
double ValueOf(const S& s) {
  if constexpr (std::is_same_v<S, Bounded>) {
    return s.v;
  } else {
    return static_cast<double>(s);
  }
}
template <class S>
double ErrorOf(const S& s) {
  if constexpr (std::is_same_v<S, Bounded>) {
    return s.e;
  } else {
    return 0.0;
  }
}

}  // namespace vt::oracle

// Small helpers the per-op catalog entries share.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "harness/catalog/claims.h"
#include "harness/catalog/contract.h"
#include "harness/catalog/gen.h"
#include "harness/catalog/mutators.h"
#include "harness/catalog/op_spec.h"
#include "harness/catalog/same_as.h"
#include "oracles/scalar.h"

namespace vt::conform::entry {

using oracle::Bounded;

// An entry's oracle is one template over the scalar, returning every written
// operand's values; the harness instantiates it twice: Bounded (oracle mode:
// truth + bound) and float (the f32 definition, claim "f32_definition").
template <class S>
using Outs = std::map<std::string, std::vector<S>>;

// Exact input values as S (Bounded: given, no error).
template <class S>
std::vector<S> Inputs(const std::vector<double>& v) {
  std::vector<S> out;
  out.reserve(v.size());
  for (double x : v) out.push_back(oracle::In<S>(x));
  return out;
}

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

inline OracleResult ToOracleResult(const Outs<Bounded>& outs) {
  OracleResult r;
  for (const auto& [name, values] : outs) r[name] = ToExpected(values);
  return r;
}

inline std::function<OracleResult(const Case&)> Bounds(Outs<Bounded> (*eval)(const Case&)) {
  return [eval](const Case& c) { return ToOracleResult(eval(c)); };
}

inline std::function<std::map<std::string, std::vector<double>>(const Case&)> F32(Outs<float> (*eval)(const Case&)) {
  return [eval](const Case& c) {
    std::map<std::string, std::vector<double>> r;
    for (const auto& [name, values] : eval(c)) r[name] = std::vector<double>(values.begin(), values.end());
    return r;
  };
}

// Contract shorthands (harness/catalog/contract.h).
inline OperandRule Operand(std::string name, std::vector<vt::DType> dtypes,
                           OperandRule::Layout layout = OperandRule::Layout::kContiguous,
                           std::vector<int> ranks = {}) {
  return {std::move(name), std::move(dtypes), layout, false, std::move(ranks)};
}
inline OperandRule Written(std::string name, std::vector<vt::DType> dtypes,
                           OperandRule::Layout layout = OperandRule::Layout::kContiguous,
                           std::vector<int> ranks = {}) {
  return {std::move(name), std::move(dtypes), layout, true, std::move(ranks)};
}
inline constexpr OperandRule::Layout kContiguous = OperandRule::Layout::kContiguous;
inline constexpr OperandRule::Layout kRowStrided = OperandRule::Layout::kRowStrided;
inline constexpr OperandRule::Layout kAnyShape = OperandRule::Layout::kAnyShape;
inline constexpr OperandRule::Layout kInnerUnit = OperandRule::Layout::kInnerUnit;
inline ScalarRule PositiveFinite(std::string key) { return {std::move(key), ScalarRule::Range::kPositiveFinite, true}; }
inline ScalarRule Finite(std::string key) { return {std::move(key), ScalarRule::Range::kFinite, true}; }
inline ScalarRule NonNegativeFinite(std::string key) { return {std::move(key), ScalarRule::Range::kNonNegativeFinite, true}; }
inline const std::vector<vt::DType> kFloatIn = FloatInDTypes();
inline const std::vector<vt::DType> kFloatOut = FloatOutDTypes();
inline const std::vector<vt::DType> kF32 = {vt::DType::kF32};
inline const std::vector<vt::DType> kBF16 = {vt::DType::kBF16};
inline const std::vector<vt::DType> kF32BF16 = {vt::DType::kF32, vt::DType::kBF16};
inline const std::vector<vt::DType> kU8 = {vt::DType::kU8};

// Inputs drawn N(0, scale^2) - the case's "scale" knob.
inline Fill Values(const Params& p) { return Fill::Normal(0.0, p.Num("scale")); }

inline std::vector<double> Vals(const Case& c, const std::string& name) { return c.Get(name).Values(); }

// The f32 value an f32 kernel computes for a + b (or holds for a float).
inline double F32(double v) { return static_cast<double>(static_cast<float>(v)); }

}  // namespace vt::conform::entry

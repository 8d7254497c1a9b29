#include "harness/catalog/contract.h"

#include <algorithm>
#include <cmath>

#include "harness/catalog/mutators.h"
#include "harness/catalog/op_spec.h"

namespace vt::conform {

std::vector<std::string> Contract::AnyShape() const {
  std::vector<std::string> v;
  for (const OperandRule& o : operands) {
    if (o.layout == OperandRule::Layout::kAnyShape) v.push_back(o.name);
  }
  return v;
}

std::vector<vt::DType> FloatInDTypes() { return {vt::DType::kF32, vt::DType::kF16, vt::DType::kBF16}; }
std::vector<vt::DType> FloatOutDTypes() { return {vt::DType::kF32, vt::DType::kBF16}; }

namespace {

bool Accepts(const OperandRule& o, vt::DType dt) {
  return std::find(o.dtypes.begin(), o.dtypes.end(), dt) != o.dtypes.end();
}

void AddOperandCases(const OperandRule& o, std::vector<ErrorCase>& out) {
  const std::string& n = o.name;
  for (ErrorCase e : {mut::ViewRank0(n), mut::ViewUnknownDType(n), mut::ViewNegativeExtent(n),
                      mut::ViewNegativeStride(n), mut::ViewHugeExtent(n), mut::NullData(n),
                      mut::OtherDevice(n)}) {
    out.push_back(std::move(e));
  }
  // A byte off its alignment, where the operand may hold elements wider than
  // a byte (the case applies to the draws that do).
  const bool bytes_only = !o.dtypes.empty() && std::all_of(o.dtypes.begin(), o.dtypes.end(),
                                                           [](vt::DType dt) { return vt::SizeOf(dt) == 1; });
  if (!bytes_only) out.push_back(mut::Misaligned(n));
  // Every float dtype it refuses (a widened float set is the likely slip),
  // and the payload and index dtypes.
  for (vt::DType dt : {vt::DType::kF32, vt::DType::kF16, vt::DType::kBF16, vt::DType::kU8, vt::DType::kI32}) {
    if (!o.dtypes.empty() && !Accepts(o, dt)) out.push_back(mut::DType(n, dt));
  }
  if (!o.ranks.empty()) {
    const std::vector<int> ranks = o.ranks;
    ErrorCase up = mut::AddDim(n), down = mut::DropDim(n);
    auto excluded = [ranks](const Case& c, const std::string& t, int delta) {
      const TensorData* d = c.Find(t);
      if (d == nullptr) return false;
      const int r = static_cast<int>(d->shape.size()) + delta;
      return std::find(ranks.begin(), ranks.end(), r) == ranks.end();
    };
    auto up_mutate = up.mutate, down_mutate = down.mutate;
    up.mutate = [=](Case& c) { return excluded(c, n, +1) && up_mutate(c); };
    down.mutate = [=](Case& c) { return excluded(c, n, -1) && down_mutate(c); };
    // Only where some rank of the case's could move out of the set.
    const int lo = *std::min_element(ranks.begin(), ranks.end());
    const int hi = *std::max_element(ranks.begin(), ranks.end());
    if (hi < 4) out.push_back(std::move(up));
    if (lo > 1) out.push_back(std::move(down));
  }
  switch (o.layout) {
    case OperandRule::Layout::kContiguous:
    case OperandRule::Layout::kAnyShape:
      out.push_back(mut::Strided(n));
      out.push_back(mut::InnerStride(n));
      break;
    case OperandRule::Layout::kRowStrided:
      out.push_back(mut::InnerStride(n));
      out.push_back(mut::OverlappingRows(n));
      break;
    case OperandRule::Layout::kBatchStrided:
      out.push_back(mut::InnerStride(n));
      out.push_back(mut::OverlappingInnerRows(n));
      break;
    case OperandRule::Layout::kInnerUnit:
      out.push_back(mut::InnerStride(n));
      break;
  }
  if (!o.kn_repack) out.push_back(mut::KnRepacked(n));
}

void AddScalarCases(const ScalarRule& s, std::vector<ErrorCase>& out) {
  std::vector<double> bad = {NAN, INFINITY, -INFINITY};
  if (s.range == ScalarRule::Range::kPositiveFinite) {
    bad.insert(bad.end(), {0.0, -1e-6});
    if (s.as_f32) bad.push_back(1e-50);  // > 0 as a double, 0 as a float
  }
  if (s.range == ScalarRule::Range::kNonNegativeFinite) bad.push_back(-1e-6);
  if (s.as_f32) bad.push_back(1e39);  // finite as a double, inf as a float
  for (double v : bad) out.push_back(mut::Arg(s.key, v));
}

}  // namespace

std::vector<ErrorCase> DerivedErrorCases(const Contract& c) {
  std::vector<ErrorCase> out;
  for (const OperandRule& o : c.operands) AddOperandCases(o, out);
  for (const OperandRule& w : c.operands) {
    if (!w.written) continue;
    for (const OperandRule& o : c.operands) {
      if (o.name == w.name || (o.written && o.name < w.name)) continue;  // each written pair once
      out.push_back(mut::Alias(w.name, o.name));
      out.push_back(mut::PackedOverlap(o.name, w.name));
      out.push_back(mut::PackedOverlap(w.name, o.name));
    }
  }
  for (const ScalarRule& s : c.scalars) AddScalarCases(s, out);
  return out;
}

}  // namespace vt::conform

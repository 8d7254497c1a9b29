#include "harness/fuzz/vocabulary.h"

#include <algorithm>
#include <numeric>

#include "harness/catalog/gen.h"
#include "harness/core/rng.h"

namespace vt::conform::vocab {

std::vector<int64_t> ExtentValues(int64_t tile, bool zero_ok, int64_t max) {
  std::vector<int64_t> v = {1, 2, 3, 5, 7, 13, 31};
  if (tile > 1) {
    for (int64_t x : {tile - 1, tile, tile + 1, 2 * tile + 1}) v.push_back(x);
  }
  if (max > 0) {
    v.erase(std::remove_if(v.begin(), v.end(), [max](int64_t x) { return x > max; }), v.end());
    v.push_back(max);
  }
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  if (zero_ok) v.insert(v.begin(), 0);
  return v;
}

rc::Gen<int64_t> Extent(int64_t tile, bool zero_ok, int64_t max) {
  std::vector<int64_t> v = ExtentValues(tile, zero_ok, max);
  // The edges themselves (0, 1, tile +- 1) twice as often as the primes.
  std::vector<int64_t> weighted = v;
  for (int64_t x : v) {
    if (x <= 1 || (tile > 1 && (x == tile - 1 || x == tile + 1))) weighted.push_back(x);
  }
  return gen::Pick(weighted);
}

std::vector<std::string> DTypeNames(const OperandRule& operand) {
  std::vector<std::string> out;
  for (vt::DType dt : operand.dtypes) out.emplace_back(vt::Name(dt));
  return out;
}

rc::Gen<std::string> DTypeOf(const OperandRule& operand) { return gen::Pick(DTypeNames(operand)); }

std::vector<std::string> StridedOperands(const Contract& contract) {
  std::vector<std::string> out;
  for (const OperandRule& o : contract.operands) {
    if (o.layout == OperandRule::Layout::kRowStrided || o.layout == OperandRule::Layout::kBatchStrided ||
        o.layout == OperandRule::Layout::kInnerUnit) {
      out.push_back(o.name);
    }
  }
  return out;
}

void ApplyStrideKnob(const Contract& contract, Case& c) {
  if (!c.params.Has(kStrideKnob)) return;
  const int64_t pad = c.params.Int(kStrideKnob);
  if (pad <= 0) return;
  for (const std::string& name : StridedOperands(contract)) {
    TensorData* t = c.Find(name);
    if (t == nullptr || t->shape.size() < 2 || !t->IsContiguous() || !t->alias_of.empty()) continue;
    t->SetRowPadding(pad);
  }
}

std::vector<std::string> ValueKnobs(const ValueDecl& values) {
  std::vector<std::string> out = {"normal"};
  if (!values.specials.empty()) out.push_back("special");
  if (values.edges) out.push_back("edges");
  return out;
}

std::vector<int64_t> SlotIndices(uint64_t seed, const std::string& tensor, int64_t m, int64_t n,
                                 double null_fraction, bool distinct) {
  const uint64_t stream = HashName(tensor) ^ 0x5107;
  std::vector<int64_t> pool(static_cast<std::size_t>(std::max<int64_t>(n, 0)));
  std::iota(pool.begin(), pool.end(), 0);
  // Seed-driven Fisher-Yates: distinct draws take the pool in this order.
  for (std::size_t i = pool.size(); i > 1; --i) {
    const std::size_t j = StreamValue(seed, stream, i) % i;
    std::swap(pool[i - 1], pool[j]);
  }
  std::vector<int64_t> out;
  std::size_t next = 0;
  for (int64_t k = 0; k < m; ++k) {
    const bool null = n <= 0 || Unit(StreamValue(seed, stream + 1, static_cast<uint64_t>(k))) < null_fraction;
    if (null || (distinct && next >= pool.size())) {
      out.push_back(-1);
    } else if (distinct) {
      out.push_back(pool[next++]);
    } else {
      out.push_back(static_cast<int64_t>(StreamValue(seed, stream + 2, static_cast<uint64_t>(k)) %
                                         static_cast<uint64_t>(n)));
    }
  }
  return out;
}

const ErrorCase* PickErrorCase(const OpSpec& op, uint64_t pick) {
  if (op.errors.empty()) return nullptr;
  return &op.errors[pick % op.errors.size()];
}

}  // namespace vt::conform::vocab

#include "harness/catalog/rope/rope_entry.h"

namespace vt::conform::rope_entry {

OpSpec RopeSpec(seq::Evaluated e, bool scale) {
  e.family = "rope";
  if (scale) e.draw = seq::Then(e.draw, [](Params& p, Tier) { p.Set("scale", *gen::Scale()); });
  return seq::EvaluatedSpec(e);
}

void DrawTokens(Params& p, Tier tier) {
  p.Set("dt", *gen::FloatOut());
  p.Set("pos_dt", *gen::Pick(std::vector<std::string>{"i64", "i32"}));
  p.Set("T", *gen::Rows(tier));
}

OperandRule Positions(std::vector<int> ranks) {
  return entry::Operand("positions", {vt::DType::kI32, vt::DType::kI64}, entry::kContiguous, std::move(ranks));
}

OperandRule Cache() { return entry::Operand("cache", entry::kF32BF16, entry::kContiguous, {2}); }

ErrorCase OtherFloat(const std::string& tensor, const std::string& first) {
  return ErrorCase(tensor + "_other_float", [=](Case& c) {
    TensorData* t = c.Find(tensor);
    if (t == nullptr) return false;
    t->dtype = t->dtype == vt::DType::kF32 ? vt::DType::kBF16 : vt::DType::kF32;
    t->fmt = oracle::FmtOf(t->dtype);
    return true;
  }, tensor + " must have " + first + "'s dtype");
}

namespace local_rope_entry {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

ErrorCase RotaryError(const std::string& name, RotaryFollow follow, std::function<int64_t(const Case&)> head,
                      int64_t (*to)(int64_t rot, int64_t d)) {
  return ErrorCase(name, [=](Case& c) {
    const int64_t rot = to(c.params.Int("rot"), head ? head(c) : 0);
    if (!follow(c, rot)) return false;
    c.params.Set("rot", rot);
    return true;
  }, "rotary_dim must be even");
}

}  // namespace
}  // namespace local_rope_entry

std::vector<ErrorCase> RotaryErrors(RotaryFollow follow, std::function<int64_t(const Case&)> head) {
  using namespace local_rope_entry;
  std::vector<ErrorCase> v = {RotaryError("rotary_dim_odd", follow, head, [](int64_t rot, int64_t) { return rot - 1; }),
                              RotaryError("rotary_dim_zero", follow, head, [](int64_t, int64_t) { return int64_t{0}; })};
  if (head) {
    v.push_back(RotaryError("rotary_dim_past_head", follow, head,
                            [](int64_t, int64_t d) { return d % 2 == 0 ? d + 2 : d + 1; }));
  }
  return v;
}

RotaryFollow WidthFollows(const std::string& tensor) {
  using namespace local_rope_entry;
  return [tensor](Case& c, int64_t rot) {
    TensorData& t = c.Get(tensor);
    t.shape[1] = rot;
    t.SetContiguous();
    return true;
  };
}

ErrorCase CacheNoRows() {
  using namespace local_rope_entry;
  return ErrorCase("cache_no_rows", [](Case& c) {
    TensorData& cache = c.Get("cache");
    cache.shape[0] = 0;
    cache.SetContiguous();
    return true;
  }, "with P > 0");
}

namespace local_rope_entry {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

ErrorCase PositionError(const std::string& name, bool negative) {
  return ErrorCase(name, [=](Case& c) {
    TensorData& pos = c.Get("positions");
    if (pos.Numel() == 0) return false;
    const int64_t at = static_cast<int64_t>(c.params.seed % static_cast<uint64_t>(pos.Numel()));
    pos.overrides.push_back({at, negative ? -1.0 : static_cast<double>(c.params.Int("P"))});
    return true;
  }, "positions must lie in [0, P");
}

}  // namespace
}  // namespace local_rope_entry

std::vector<ErrorCase> CachePositionErrors(bool negative) {
  using namespace local_rope_entry;
  std::vector<ErrorCase> v = {PositionError("position_past_cache", false)};
  if (negative) v.push_back(PositionError("position_negative", true));
  v.push_back(mut::IndexPast32Bits("positions", false, "positions must lie in [0, P"));
  v.push_back(mut::IndexPast32Bits("positions", true, "positions must lie in [0, P"));
  return v;
}

}  // namespace vt::conform::rope_entry

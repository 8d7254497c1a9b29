#include "harness/catalog/state/state_entry.h"


namespace vt::conform::state {

void DrawShapes(Params& p, Tier t) {
  p.Set("cache", *gen::FloatIn());
  p.Set("T", *gen::Rows(t));
  p.Set("rank", *gen::Pick(std::vector<int64_t>{3, 2, 4}));
  p.Set("H", *gen::Heads(t));
  p.Set("D", *glue::HeadDim(t));
  p.Set("wide", *gen::Pick(std::vector<int64_t>{0, 0, 1, 3}));
  p.Set("extra", *gen::Pick(std::vector<int64_t>{0, 1, 7}));
  p.Set("scale", *gen::Scale());
  p.Set("fill", *glue::FillKnob());
}

std::vector<int64_t> CacheShape(const Params& p) {
  std::vector<int64_t> s = WorkingShape(p);
  s[0] = p.Int("T") + p.Int("extra");
  s.back() += p.Int("wide");
  return s;
}

std::vector<int64_t> WorkingShape(const Params& p) {
  const int64_t n = p.Int("T"), h = p.Int("H"), d = p.Int("D");
  switch (p.Int("rank")) {
    case 2: return {n, d};
    case 4: return {n, h, 2, d};  // [N, Hv, Dv, Dk]: the recurrent state's layout
    default: return {n, h, d};    // [N, C, K-1]: the conv state's layout
  }
}

int64_t Mid(const TensorData& t) {
  int64_t m = 1;
  for (std::size_t d = 1; d + 1 < t.shape.size(); ++d) m *= t.shape[d];
  return m;
}

namespace local_state_entry {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// Error cases of the shape relations and index values both ops share.
std::vector<ErrorCase> SharedErrors() {
  return {mut::AddDim("working"),
          {"working_middle_dim_plus1",
           [](Case& c) {
             TensorData& w = c.Get("working");
             if (w.shape.size() < 3) return false;
             w.shape[1] += 1;
             w.SetContiguous();
             return true;
           },
           "middle dims"},
          {"working_wider_than_cache",
           [](Case& c) {
             TensorData& w = c.Get("working");
             w.shape.back() = c.Get("cache").shape.back() + 1;
             w.SetContiguous();
             return true;
           },
           "innermost"},
          mut::Dim("state_idx", 0, 1),
          glue::StridedIndex("state_idx"),
          seq::EditInts("state_idx_out_of_range_slots", "state_idx", "state_idx",
                        [](std::vector<int64_t>& v, const Case& c) {
                          if (v.empty()) return false;
                          v.back() = c.Get("cache").shape[0];
                          return true;
                        }),
          seq::EditInts("state_idx_negative", "state_idx", "state_idx", [](std::vector<int64_t>& v, const Case&) {
            if (v.empty()) return false;
            v.front() = -1;
            return true;
          })};
}

}  // namespace
}  // namespace local_state_entry

OpSpec StateSpec(StateOp op) {
  using namespace local_state_entry;
  OpSpec s = seq::Basics(op.name, "state", op.dtypes, op.hooks, DrawShapes);
  s.oracle = op.hooks.oracle;
  s.oracle_bytes = op.hooks.definition;
  const OutputSpec output = op.output;
  s.outputs = [output](const Case&) { return std::vector<OutputSpec>{output}; };
  s.contract = {op.operands, {}};
  s.errors = SharedErrors();
  seq::Append(s.errors, op.errors);
  s.claims = op.claims;
  return s;
}

}  // namespace vt::conform::state

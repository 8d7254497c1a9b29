// fused_chain: vllm.cpp's fused-recipe interpreter; upstream the chain is an
// Inductor fusion of the constituent forward_natives, so the reference runs
// those ops one by one over whole tensors. A recipe (the case's "recipe"
// knob) is steps "OP in0 [in1] ':' out ['g']" separated by ';' over the slots
// 0 x, 1 weight (a row broadcast), 2 residual, 3 out; OP: A add, M mul,
// S silu, G sigmoid, N RMSNorm (g: Gemma's 1 + w). Every step reads the slots
// as stored and its f32 result is stored to the destination's dtype.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {
namespace local_fused_chain {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

struct Step {
  char op = 0;
  int in0 = 0, in1 = 0, out = 0;
  bool gemma = false;
};

std::vector<Step> Parse(const std::string& recipe) {
  std::vector<Step> steps;
  size_t pos = 0;
  while (pos <= recipe.size()) {
    size_t end = recipe.find(';', pos);
    if (end == std::string::npos) end = recipe.size();
    const std::string s = recipe.substr(pos, end - pos);
    pos = end + 1;
    if (s.empty()) continue;
    const size_t colon = s.find(':');
    if (colon == std::string::npos || colon < 2 || colon + 1 >= s.size()) throw Error("recipe step '" + s + "'");
    Step st;
    st.op = s[0];
    st.in0 = s[1] - '0';
    st.in1 = (st.op == 'S' || st.op == 'G') ? 0 : s[2] - '0';
    st.out = s[colon + 1] - '0';
    st.gemma = s.back() == 'g';
    steps.push_back(st);
  }
  return steps;
}

}  // namespace
}  // namespace local_fused_chain

Result Ref_fused_chain(const Input& in) {
  using namespace local_fused_chain;
  const at::Tensor x = Load(in, "x");
  at::Tensor slots[4] = {x, Load(in, "weight").expand_as(x), at::Tensor(), at::full_like(x, NAN)};
  const bool has_residual = in.Has("residual");
  if (has_residual) slots[2] = Load(in, "residual");
  const double eps = in.F32("eps");
  for (const Step& st : Parse(in.Str("recipe"))) {
    if (st.in0 < 0 || st.in0 > 3 || st.in1 < 0 || st.in1 > 3 || (st.out != 2 && st.out != 3) ||
        (st.out == 2 && !has_residual) || !slots[st.in0].defined() || !slots[st.in1].defined()) {
      throw Error("a recipe the reference cannot run: " + in.Str("recipe"));
    }
    const at::Tensor& a = slots[st.in0];
    const at::Tensor& b = slots[st.in1];
    at::Tensor r;
    switch (st.op) {
      case 'A': r = a + b; break;
      case 'M': r = a * b; break;
      case 'S': r = Silu(a); break;
      case 'G': r = Sigmoid(a); break;
      case 'N': r = a * at::rsqrt(MeanSquare(a) + eps) * (st.gemma ? b + 1.0 : b); break;
      default: throw Error(std::string("recipe op '") + st.op + "'");
    }
    slots[st.out] = RoundTo(r, in.Get(st.out == 2 ? "residual" : "out").dtype);
  }
  Result res{{"out", Out(slots[3])}};
  if (has_residual) res["residual"] = Out(slots[2]);
  return res;
}

}  // namespace vt::torchref

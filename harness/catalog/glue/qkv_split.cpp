// Catalog entry: qkv_split (the merged q/k/v projection of GQA attention split
// into its three parts, with independent widths).
#include "harness/catalog/glue/glue_entry.h"
#include "oracles/glue/qkv_split.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_qkv_split {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

const auto& kParts = glue::kSplitParts;
const char* const kDims[] = {"Q", "K", "V"};

void Draw(Params& p, Tier tier) {
  const std::string dt = *gen::Pick(std::vector<std::string>{"f32", "bf16"});
  p.Set("qkv", dt);
  for (const char* part : kParts) p.Set(part, dt);  // one dtype for all four
  p.Set("T", *gen::Rows(tier, /*with_zero=*/false));  // T = 0 is refused (widths = counts / T)
  // Widths: head multiples and odd sizes; an empty part (0) now and then.
  const std::vector<int64_t> widths = {1, 3, 8, 17, 64, 128, 129, 256, 512, 0};
  for (const char* dim : kDims) p.Set(dim, *gen::Pick(widths));
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T");
  c.Input("qkv", p.DType("qkv"), {t, p.Int("Q") + p.Int("K") + p.Int("V")}, glue::InputFill(p));
  for (int i = 0; i < 3; ++i) c.Output(kParts[i], p.DType(kParts[i]), {t, p.Int(kDims[i])});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::QkvSplit(ctx, ws["q_out"], ws["k_out"], ws["v_out"], ws["qkv"]);
}

template <class E>
entry::Outs<E> Move(const Case& c, const glue::Read<E>& read) {
  const TensorData& in = c.Get("qkv");
  std::vector<int64_t> widths;
  for (const char* part : kParts) widths.push_back(glue::PartWidth(c, "qkv", part));
  return glue::Parts(oracle::QkvSplit<E>(in.shape[0], widths, read(in)));
}

}  // namespace
}  // namespace local_qkv_split

OpSpec Spec_qkv_split() {
  using namespace local_qkv_split;
  glue::Mover m{.name = "qkv_split",
                .dtypes = "cpu: qkv f32/bf16 [T,Q+K+V], T > 0; q_out/k_out/v_out qkv's dtype, any shape of T*Q/T*K/T*V elements",
                .draw = Draw, .build = Build, .run = Run, .values = Move<double>, .bits = Move<uint64_t>};
  std::vector<ErrorCase> errors;
  for (const char* part : kParts) errors.push_back(glue::PartCountNotMultiple("qkv", part));
  // Another float dtype than qkv's (each inside the accepted set).
  for (const char* part : kParts) {
    errors.push_back(mut::DType(part, vt::DType::kBF16));
    errors.push_back(mut::DType(part, vt::DType::kF32));
  }
  return glue::SplitSpec(m, "qkv", errors);
}

}  // namespace vt::conform

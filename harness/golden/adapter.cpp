#include "harness/golden/adapter.h"

namespace vt::conform {

TensorData GoldenTensor(const GoldenCase& g, const std::string& name, const std::string& as, Role role) {
  TensorData t = g.Get(name);
  t.name = as;
  t.role = role;
  return t;
}

TensorData GoldenOutputLike(const GoldenCase& g, const std::string& name, const std::string& as) {
  const TensorData& src = g.Get(name);
  TensorData t;
  t.name = as;
  t.dtype = src.dtype == vt::DType::kF16 ? vt::DType::kF32 : src.dtype;
  t.fmt = src.dtype == vt::DType::kF16 ? oracle::Fmt::kF32 : src.fmt;
  t.shape = src.shape;
  t.role = Role::kOutput;
  t.SetContiguous();
  MaterializeTensor(t, 0);
  return t;
}

TensorData AsRows(TensorData t) {
  const int64_t last = t.shape.empty() ? 1 : t.shape.back();
  t.shape = {last == 0 ? 0 : t.Numel() / last, last};
  t.SetContiguous();
  return t;
}

std::string DTypeKey(const TensorData& t) { return std::string(vt::Name(t.dtype)); }

void PerOutputTol(const GoldenCase& g, GoldenMapping& m) {
  if (!g.atol || !g.rtol) return;  // the checker refuses the case itself
  for (const auto& [case_name, golden_name] : m.compare) {
    const double atol = g.ArgNum("atol_" + golden_name, -1.0), rtol = g.ArgNum("rtol_" + golden_name, -1.0);
    if (atol < 0 && rtol < 0) continue;
    if (atol > *g.atol || rtol > *g.rtol) {
      throw GoldenError(g.dir + "/manifest.json",
                        "args.atol_/rtol_" + golden_name + " is above the manifest's tolerance");
    }
    m.tighter[case_name] = {atol < 0 ? *g.atol : atol, rtol < 0 ? *g.rtol : rtol,
                            g.ArgStr("atol_reason", "derived for this output (manifest args)")};
  }
}

std::string GoldenPick(const GoldenCase& g, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    if (g.Has(n)) return n;
  }
  std::string all;
  for (const char* n : names) all += std::string(all.empty() ? "" : "/") + n;
  throw GoldenUnsupported("the manifest has no tensor " + all);
}

}  // namespace vt::conform

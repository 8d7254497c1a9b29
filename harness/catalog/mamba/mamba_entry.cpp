#include "harness/catalog/mamba/mamba_entry.h"

#include <limits>

namespace vt::conform::mamba {

void SetInts(TensorData& t, const std::vector<int64_t>& values) {
  t.fill = Fill::Const(0.0);
  t.overrides.clear();
  for (std::size_t k = 0; k < values.size(); ++k) {
    t.overrides.emplace_back(static_cast<int64_t>(k), static_cast<double>(values[k]));
  }
}

std::vector<int64_t> Ints(const TensorData& t) {
  std::vector<int64_t> v;
  if (!t.storage.empty()) {
    for (double x : t.Values()) v.push_back(static_cast<int64_t>(x));
    return v;
  }
  v.assign(static_cast<std::size_t>(t.Numel()), static_cast<int64_t>(t.fill.a));
  for (const auto& [k, x] : t.overrides) {
    if (k >= 0 && k < static_cast<int64_t>(v.size())) v[static_cast<std::size_t>(k)] = static_cast<int64_t>(x);
  }
  return v;
}

Fill DtFill(const Params& p) {
  const std::string d = p.Str("dist");
  const bool sp = p.Flag("softplus");
  // why: raw dt feeds softplus (so it may be negative) or is used as is.
  if (d == "large_dt") return sp ? Fill::Normal(4.0, 1.0) : Fill::Uniform(2.0, 6.0);
  // Around softplus' guard at 20; with A <= -4 exp(dt A) underflows in f32.
  if (d == "overflow") return Fill::Uniform(18.0, 24.0);
  return sp ? Fill::Normal(-1.0, 1.0) : Fill::Uniform(0.0, 0.5);
}

Fill AFill(const Params& p) {
  const std::string d = p.Str("dist");
  if (d == "small_a") return Fill::Uniform(-1e-3, -1e-5);  // almost no decay: long memory
  if (d == "overflow") return Fill::Uniform(-16.0, -4.0);
  return Fill::Uniform(-4.0, -0.5);  // Mamba2's A = -exp(A_log), A_log ~ U(log 1, log 16)-ish
}

Fill BiasFill(const Params& p) {
  return p.Flag("softplus") ? Fill::Normal(0.0, 0.5) : Fill::Uniform(0.0, 0.2);
}

vt::Mamba2Args Args(const Params& p) {
  vt::Mamba2Args a;
  if (p.Has("cs")) a.chunk_size = p.Int("cs");
  a.dt_softplus = p.Flag("softplus");
  if (p.Has("dt_min")) a.dt_min = p.F32("dt_min");
  a.dt_max = p.Has("dt_max") ? p.F32("dt_max") : std::numeric_limits<float>::infinity();
  if (p.Has("tp")) a.tp_world_size = static_cast<int>(p.Int("tp"));
  return a;
}

ErrorCase Rebuilt(std::string name, std::function<bool(Params&)> edit, void (*build)(Case&),
                  std::string expect) {
  return ErrorCase(std::move(name), [edit, build](Case& c) {
    Params p = c.params;
    if (!edit(p)) return false;
    Case fresh;
    fresh.params = p;
    build(fresh);
    c = fresh;
    return true;
  }, std::move(expect));
}

ErrorCase EditInts(std::string name, std::string tensor,
                   std::function<bool(std::vector<int64_t>&, const Case&)> edit, std::string expect) {
  return ErrorCase(std::move(name), [tensor, edit](Case& c) {
    TensorData* t = c.Find(tensor);
    if (t == nullptr) return false;
    std::vector<int64_t> v = Ints(*t);
    if (!edit(v, c)) return false;
    SetInts(*t, v);
    return true;
  }, std::move(expect));
}

ErrorCase SetArg(std::string name, std::string key, Json value, std::string expect) {
  return ErrorCase(std::move(name), [key, value](Case& c) {
    c.params.Set(key, value);
    return true;
  }, std::move(expect));
}

}  // namespace vt::conform::mamba

#include "harness/catalog/seq_entry.h"

#include <algorithm>

namespace vt::conform::seq {

std::function<rc::Gen<Params>(Tier)> Drawn(const std::string& name, Draw draw) {
  return [name, draw](Tier tier) {
    return rc::gen::exec([name, draw, tier] {
      Params p(name);
      draw(p, tier);
      p.seed = *gen::Seed();
      return p;
    });
  };
}

Draw Then(Draw shared, Draw more) {
  return [shared, more](Params& p, Tier tier) {
    shared(p, tier);
    if (more) more(p, tier);
  };
}

OpSpec Basics(const std::string& name, const std::string& family, const std::string& dtypes, Draw draw,
              std::function<void(Case&)> build, Run run) {
  OpSpec s;
  s.name = name;
  s.family = family;
  s.dtypes = dtypes;
  s.gen = Drawn(name, std::move(draw));
  s.build = std::move(build);
  s.run = std::move(run);
  return s;
}

OpSpec EvaluatedSpec(const Evaluated& e) {
  OpSpec s = Basics(e.name, e.family, e.dtypes, e.draw, e.build, e.run);
  s.oracle = entry::Bounds(e.truth);
  s.oracle_f32 = entry::F32(e.f32);
  s.outputs = e.outputs;
  return s;
}

void SetInts(TensorData& t, const std::vector<int64_t>& values) {
  t.fill = Fill::Const(0.0);
  t.overrides.clear();
  for (std::size_t k = 0; k < values.size(); ++k) {
    t.overrides.emplace_back(static_cast<int64_t>(k), static_cast<double>(values[k]));
  }
}

TensorData& AddInts(Case& c, const std::string& name, vt::DType dtype, std::vector<int64_t> shape,
                    const std::vector<int64_t>& values) {
  TensorData& t = c.Input(name, dtype, std::move(shape), Fill::Const(0.0));
  SetInts(t, values);
  return t;
}

TensorData& AddInts(Case& c, const std::string& name, vt::DType dtype, const std::vector<int64_t>& values) {
  return AddInts(c, name, dtype, {static_cast<int64_t>(values.size())}, values);
}

std::vector<int64_t> Declared(const TensorData& t) {
  std::vector<int64_t> v(static_cast<std::size_t>(std::max<int64_t>(t.Numel(), 0)), static_cast<int64_t>(t.fill.a));
  for (const auto& [k, x] : t.overrides) {
    if (k >= 0 && k < static_cast<int64_t>(v.size())) v[static_cast<std::size_t>(k)] = static_cast<int64_t>(x);
  }
  return v;
}

std::vector<int64_t> Ints(const TensorData& t) {
  if (t.storage.empty()) return Declared(t);
  std::vector<int64_t> v;
  for (double x : t.Values()) v.push_back(static_cast<int64_t>(x));
  return v;
}

std::vector<int64_t> Cumulative(const std::vector<int64_t>& lens) {
  std::vector<int64_t> v = {0};
  for (int64_t l : lens) v.push_back(v.back() + l);
  return v;
}

std::vector<int64_t> IntList(const Params& p, const std::string& key) {
  std::vector<int64_t> v;
  for (const auto& e : p.args.at(key)) v.push_back(e.get<int64_t>());
  return v;
}

ErrorCase EditInts(const std::string& name, const std::string& tensor, const std::string& expect, IntsEdit edit) {
  return {name,
          [tensor, edit](Case& c) {
            TensorData* t = c.Find(tensor);
            if (t == nullptr) return false;
            std::vector<int64_t> v = Declared(*t);
            if (!edit(v, c)) return false;
            SetInts(*t, v);
            return true;
          },
          expect};
}

bool StartAtOne(std::vector<int64_t>& v, const Case&) {
  v[0] = 1;
  return true;
}

bool EndPastTotal(std::vector<int64_t>& v, const Case&) {
  v.back() += 1;
  return true;
}

bool FirstNegative(std::vector<int64_t>& v, const Case&) {
  v.front() = -1;
  return true;
}

bool FirstStepNegative(std::vector<int64_t>& v, const Case&) {
  if (v.size() < 3) return false;
  v[1] = -1;
  return true;
}

bool FirstStepEmpty(std::vector<int64_t>& v, const Case&) {
  if (v.size() < 3) return false;
  v[1] = v[0];
  return true;
}

ErrorCase Rebuilt(const std::string& name, const std::string& expect, std::function<bool(Params&)> edit,
                  std::function<void(Case&)> build) {
  return {name,
          [edit, build](Case& c) {
            Params p = c.params;
            if (!edit(p)) return false;
            Case fresh;
            fresh.params = p;
            build(fresh);
            c = fresh;
            return true;
          },
          expect};
}

ErrorCase ZeroExtents(const std::string& name, const std::vector<std::pair<std::string, int>>& dims,
                      const std::string& expect) {
  return {name,
          [dims](Case& c) {
            for (const auto& [n, dim] : dims) {
              TensorData* t = c.Find(n);
              if (t == nullptr) continue;
              t->shape[static_cast<size_t>(dim)] = 0;
              t->SetContiguous();
            }
            return true;
          },
          expect};
}

ErrorCase SetArg(const std::string& name, const std::string& key, Json value, const std::string& expect) {
  return {name,
          [key, value](Case& c) {
            c.params.Set(key, value);
            return true;
          },
          expect};
}

TensorData Poisoned(const std::string& name, vt::DType dtype, const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t e : shape) n *= e;
  TensorData t = TensorFromValues(name, dtype, shape, Role::kOutput, std::vector<double>(static_cast<size_t>(n), 0.0));
  t.fill = Fill::Poison();
  std::fill(t.storage.begin(), t.storage.end(), 0xA5);
  return t;
}

Claim AfterRun(std::string name, std::string statement, std::function<bool(const Params&)> applies, CheckRun check) {
  Claim cl;
  cl.name = std::move(name);
  cl.statement = std::move(statement);
  cl.applies = std::move(applies);
  cl.check = [check](const OpSpec& op, const Case& c, const vt::ExecContext& ctx) {
    const Execution run = Execute(op, c, ctx);
    if (!run.guard_error.empty()) return ClaimOutcome::Violated(run.guard_error);
    return check(op, c, ctx, run);
  };
  return cl;
}

}  // namespace vt::conform::seq

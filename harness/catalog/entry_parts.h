// How the act and norm family builders (act::ActSpec, norm_entry::NormSpec)
// assemble an OpSpec from an entry's parts: dtype knobs drawn first, the
// entry's draws, the seed, and the entry's own functions (build, run, the
// oracle at both scalars, output rules). Kept apart from entry.h, which every
// entry includes.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/catalog/entry.h"

namespace vt::conform::entry {

// A dtype knob a generator sets before any other: drawn, or fixed. A fixed
// dtype is set without a draw: one more draw would shift every later one,
// and with them every case id.
struct DTypeKnob {
  std::string key;
  std::optional<rc::Gen<std::string>> draw;
  std::string fixed;
};
inline DTypeKnob DrawIn(std::string key) { return {std::move(key), gen::FloatIn(), ""}; }    // f32/f16/bf16
inline DTypeKnob DrawOut(std::string key) { return {std::move(key), gen::FloatOut(), ""}; }  // f32/bf16
inline DTypeKnob DrawOneOf(std::string key, std::vector<std::string> dtypes) {
  return {std::move(key), gen::Pick(std::move(dtypes)), ""};
}
inline DTypeKnob Fixed(std::string key, std::string dtype) { return {std::move(key), std::nullopt, std::move(dtype)}; }
// Sets the knobs in order, drawing those that are drawn (inside rc::gen::exec).
inline void SetDTypes(Params& p, const std::vector<DTypeKnob>& knobs) {
  for (const DTypeKnob& k : knobs) p.Set(k.key, k.draw ? **k.draw : k.fixed);
}

// An entry's own functions: its tensors, its run call, its oracle at both
// scalars (oracle and oracle_f32) and its output rules.
struct Fns {
  std::function<void(Case&)> build;
  std::function<void(const vt::ExecContext&, const Workspace&)> run;
  std::function<Outs<Bounded>(const Case&)> truth;  // Eval<entry::Bounded>
  std::function<Outs<float>(const Case&)> f32;      // Eval<float>
  std::function<std::vector<OutputSpec>(const Case&)> outputs;
};

// The parts of an entry that a family builder (act::ActSpec,
// norm_entry::NormSpec) assembles into an OpSpec the same way.
struct Parts {
  std::string name, family, dtypes;
  // The generator: these dtype knobs, then `draw`, then the seed (`seed`;
  // empty: gen::Seed()).
  std::vector<DTypeKnob> keys;
  std::function<void(Params&, Tier)> draw;
  std::function<rc::Gen<uint64_t>(const Params&)> seed;
  Fns fns;
};

inline OpSpec Assemble(const Parts& a) {
  OpSpec s;
  s.name = a.name;
  s.family = a.family;
  s.dtypes = a.dtypes;
  s.gen = [a](Tier tier) {
    return rc::gen::exec([a, tier] {
      Params p(a.name);
      SetDTypes(p, a.keys);
      a.draw(p, tier);
      p.seed = a.seed ? *a.seed(p) : *gen::Seed();
      return p;
    });
  };
  s.build = a.fns.build;
  s.run = a.fns.run;
  s.oracle = [truth = a.fns.truth](const Case& c) { return ToOracleResult(truth(c)); };
  s.oracle_f32 = [f32 = a.fns.f32](const Case& c) {
    std::map<std::string, std::vector<double>> r;
    for (const auto& [name, values] : f32(c)) r[name] = std::vector<double>(values.begin(), values.end());
    return r;
  };
  s.outputs = a.fns.outputs;
  return s;
}

}  // namespace vt::conform::entry

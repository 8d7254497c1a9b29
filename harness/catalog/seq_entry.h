// Pieces every entry of the recurrence and sequence families uses alike
// (gdn, kda, mamba, conv, attn, state): the generator wrapped around an
// entry's draws, the fields each OpSpec fills the same way, integer
// metadata tensors whose VALUES are part of a case (offsets, slot indices,
// accepted counts, block tables), the error cases that edit them or rebuild
// a case from edited params, poisoned outputs for the claims' own runs, and
// the claim that first runs the op on its case. Each family's builder
// (gdn_recurrence_entry.h, kda_entry.h, gdn_gate_entry.h, mamba_entry.h,
// conv_entry.h, attn_entry.h, state_entry.h) adds the oracle, outputs and
// shared checks of its shape; docs/adding-an-op.md shows an entry.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/catalog/entry.h"

namespace vt::conform::seq {

// An entry's draws into Params(name): knobs in the order its case ids list
// them. Drawn() adds the case seed last, as every generator does.
using Draw = std::function<void(Params&, Tier)>;
std::function<rc::Gen<Params>(Tier)> Drawn(const std::string& name, Draw draw);
// A family's shared draws, then an entry's own (`more`; empty: none).
Draw Then(Draw shared, Draw more);

using Run = std::function<void(const vt::ExecContext&, const Workspace&)>;

// The functions every entry defines under the same names, in the order a
// case meets them: Draw (its knobs; where the family draws shared ones
// first, only the entry's own - empty: none), Build (its tensors), Run (the
// kernel call), then its oracle (Eval<double> or Eval<Bounded>, or the
// OracleResult itself) and what the kernel is held to bit for bit beside it
// (the op's definition evaluated in f32, or the exact output bytes; empty:
// none). One field, so that an entry names them once:
//   .hooks = {Draw, Build, Run, Eval<double>, Eval<float>},
template <class Oracle, class Definition>
struct Hooks {
  Draw draw;
  void (*build)(Case&);
  Run run;
  Oracle oracle;
  Definition definition = {};
};

// name, family, dtypes (the report's text), gen (Drawn), build and run: the
// fields every entry states and nothing derives.
OpSpec Basics(const std::string& name, const std::string& family, const std::string& dtypes, Draw draw,
              std::function<void(Case&)> build, Run run);

// An entry held to a Bounded oracle and to its f32 definition (the same
// Eval template at both scalars): Basics, then oracle, oracle_f32 and
// outputs. The RoPE builder, moe_combine and matmul_nvfp4_fp4 are this.
struct Evaluated {
  std::string name;
  std::string family = {};  // a family builder may set it (RopeSpec)
  std::string dtypes;
  Draw draw;
  std::function<void(Case&)> build;
  Run run;
  entry::Outs<entry::Bounded> (*truth)(const Case&) = nullptr;  // Eval<entry::Bounded>
  entry::Outs<float> (*f32)(const Case&) = nullptr;             // Eval<float>
  std::function<std::vector<OutputSpec>(const Case&)> outputs;
};
OpSpec EvaluatedSpec(const Evaluated& e);

// The same from an entry's hooks: the family's `shared` draws first where
// it has any (empty: the entry's draws alone), then the entry's.
template <class Oracle, class Definition>
OpSpec Basics(const std::string& name, const std::string& family, const std::string& dtypes,
              const Hooks<Oracle, Definition>& h, Draw shared = {}) {
  return Basics(name, family, dtypes, shared ? Then(shared, h.draw) : h.draw, h.build, h.run);
}

// Appends `more` to `v` (error cases, claims, operands).
template <class T>
void Append(std::vector<T>& v, std::vector<T> more) {
  for (T& x : more) v.push_back(std::move(x));
}

// --- metadata tensors -------------------------------------------------------

// t holds exactly `values`: overrides over a constant 0 fill, so every
// re-materialisation (another layout, a mutated error case) gives the same
// bytes.
void SetInts(TensorData& t, const std::vector<int64_t>& values);
// An input of `dtype` and `shape` holding `values`.
TensorData& AddInts(Case& c, const std::string& name, vt::DType dtype, std::vector<int64_t> shape,
                    const std::vector<int64_t>& values);
// The same, rank 1 ([values.size()]).
TensorData& AddInts(Case& c, const std::string& name, vt::DType dtype, const std::vector<int64_t>& values);
// The values SetInts declared: readable before the case is materialised,
// which is when error cases edit them.
std::vector<int64_t> Declared(const TensorData& t);
// The values a tensor holds: its bytes once materialised (a golden's too),
// else the declared ones.
std::vector<int64_t> Ints(const TensorData& t);
// Prefix sums [0, l0, l0 + l1, ...].
std::vector<int64_t> Cumulative(const std::vector<int64_t>& lens);
// An integer-list knob ("lens", "blocks", ...).
std::vector<int64_t> IntList(const Params& p, const std::string& key);

// --- error cases ------------------------------------------------------------

// Edits the declared values of one metadata tensor; `edit` returns false
// when it cannot apply to the case (so does a case without the tensor).
using IntsEdit = std::function<bool(std::vector<int64_t>&, const Case&)>;
ErrorCase EditInts(const std::string& name, const std::string& tensor, const std::string& expect, IntsEdit edit);
// Edits several families make, each breaking one rule of an offsets tensor
// [0, o1, ..., total] (or of an index list, FirstNegative):
bool StartAtOne(std::vector<int64_t>& v, const Case&);         // v[0] = 1
bool EndPastTotal(std::vector<int64_t>& v, const Case&);       // the last offset one past the total
bool FirstNegative(std::vector<int64_t>& v, const Case&);      // v[0] = -1
bool FirstStepNegative(std::vector<int64_t>& v, const Case&);  // v[1] = -1 (two steps or more)
bool FirstStepEmpty(std::vector<int64_t>& v, const Case&);     // v[1] = v[0] (two steps or more)
// Rebuilds the case through `build` after `edit` changed its params: a
// shape relation broken at its source, every tensor following the new
// params (e.g. a head count that no longer divides another).
ErrorCase Rebuilt(const std::string& name, const std::string& expect, std::function<bool(Params&)> edit,
                  std::function<void(Case&)> build);
// The named extents set to exactly 0 together (tensors the case lacks are
// skipped): one emptiness condition broken while the shape relations
// between those tensors still hold.
ErrorCase ZeroExtents(const std::string& name, const std::vector<std::pair<std::string, int>>& dims,
                      const std::string& expect);
// Sets a knob the entry's Run reads, present or not: an argument the
// generator never draws (a null host pointer, a tensor-parallel size).
ErrorCase SetArg(const std::string& name, const std::string& key, Json value, const std::string& expect);

// --- claims -----------------------------------------------------------------

// A contiguous output with every byte 0xA5: a run must write each.
TensorData Poisoned(const std::string& name, vt::DType dtype, const std::vector<int64_t>& shape);

// A claim that runs the op on its own case first (a guard error there
// violates it) and hands that run to `check`, which holds it against
// another computation (other ops, sub-batches, a second call).
using CheckRun = std::function<ClaimOutcome(const OpSpec&, const Case&, const vt::ExecContext&, const Execution& run)>;
Claim AfterRun(std::string name, std::string statement, std::function<bool(const Params&)> applies, CheckRun check);

}  // namespace vt::conform::seq

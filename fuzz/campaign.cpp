#include "fuzz/campaign.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "harness/core/rng.h"
#include "harness/fuzz/vocabulary.h"

namespace vt::conform::fuzz {

AxisOption Is(const std::string& key, const Json& value) {
  return {key + "=" + (value.is_string() ? value.get<std::string>() : value.dump()),
          [key, value](const Params& p) { return p.Has(key) && p.args[key] == value; }};
}

AxisOption Absent(const std::string& key) {
  return {"no " + key, [key](const Params& p) { return !p.Has(key); }};
}

AxisOption IntIn(const std::string& key, int64_t lo, int64_t hi) {
  return {key + " in " + std::to_string(lo) + ".." + std::to_string(hi), [key, lo, hi](const Params& p) {
            return p.Has(key) && p.args[key].is_number_integer() && p.Int(key) >= lo && p.Int(key) <= hi;
          }};
}

AxisOption When(std::string name, std::function<bool(const Params&)> match) {
  return {std::move(name), std::move(match)};
}

namespace {

// Some extent of the case is 0 (an empty case) / 1 (a degenerate one). The
// catalog names extents with a capital (T, H, D, N, M, G, ...); flags and
// paddings are lower case.
bool AnyExtent(const Params& p, int64_t v) {
  for (const auto& [k, a] : p.args.items()) {
    if (!k.empty() && std::isupper(static_cast<unsigned char>(k[0])) && a.is_number_integer() &&
        a.get<int64_t>() == v) {
      return true;
    }
  }
  return false;
}

// Every op: the empty and degenerate extents, and the layouts.
std::vector<Axis> CommonAxes() {
  return {{"extent", {When("some extent 0", [](const Params& p) { return AnyExtent(p, 0); }),
                      When("some extent 1", [](const Params& p) { return AnyExtent(p, 1); }),
                      When("any", [](const Params&) { return true; })}},
          {"layout", {Is("layout", "separate"), Is("layout", "packed"), Is("layout", "offset")}}};
}

Campaign With(std::string op, double seconds, std::vector<Axis> axes, std::string why) {
  Campaign c;
  c.op = std::move(op);
  c.seconds = seconds;
  c.axes = CommonAxes();
  for (Axis& a : axes) c.axes.push_back(std::move(a));
  c.why = std::move(why);
  return c;
}

// A sequence length of the case's "lens" relative to its chunk size "cs".
AxisOption SomeLen(std::string name, std::function<int64_t(int64_t)> of_cs) {
  return When(std::move(name), [of_cs](const Params& p) {
    if (!p.Has("lens") || !p.Has("cs")) return false;
    const int64_t want = of_cs(p.Int("cs"));
    for (const auto& len : p.args.at("lens")) {
      if (len.is_number_integer() && len.get<int64_t>() == want) return true;
    }
    return false;
  });
}

// The Mamba2 axes both ops share: head groupings, the optional tensors, dt's
// transforms, the state's dtype and the value distributions.
std::vector<Axis> MambaAxes() {
  auto groups_lt = [](const Params& p) { return p.Has("G") && p.Has("H") && p.Int("G") < p.Int("H"); };
  auto groups_eq = [](const Params& p) { return p.Has("G") && p.Has("H") && p.Int("G") == p.Int("H"); };
  return {{"groups", {When("G < H", groups_lt), When("G == H", groups_eq)}},
          {"z", {Is("z", 0), Is("z", 1)}},
          {"dt_softplus", {Is("softplus", 0), Is("softplus", 1)}},
          {"dt_bias", {Is("dt_bias", 0), Is("dt_bias", 1)}},
          {"state dtype", {Is("state", "f32"), Is("state", "bf16")}},
          {"values", {Is("dist", "normal"), Is("dist", "large_dt"), Is("dist", "small_a"), Is("dist", "overflow")}}};
}

std::vector<Campaign> MakeTable() {
  std::vector<Campaign> t;
  t.push_back(With("rms_norm", 15,
                   {{"residual", {Is("residual", "none"), Is("residual", "f32"), Is("residual", "bf16")}},
                    {"gemma", {Is("gemma", 0), Is("gemma", 1)}}},
                   "fused residual add on and off, gemma offset, specials in one row of four"));
  t.push_back(With("index_copy", 15, {{"indices", {Is("idx_kind", "distinct"), Is("idx_kind", "dups")}}},
                   "duplicate indices (last write wins) against distinct ones"));
  {
    // Issue 13's acceptance campaign: sequence lengths on and around chunk
    // boundaries, several sequences per batch (metadata as vLLM's
    // compute_varlen_chunk_metadata builds it, or one chunk run per
    // sequence), every optional input, clamps, initial states, both state
    // dtypes, the value distributions, 1..16 threads.
    std::vector<Axis> axes = {
        {"sequence lengths",
         {SomeLen("a length cs - 1", [](int64_t cs) { return cs - 1; }),
          SomeLen("a length cs", [](int64_t cs) { return cs; }),
          SomeLen("a length cs + 1", [](int64_t cs) { return cs + 1; }), SomeLen("a length 1", [](int64_t) { return 1; }),
          When("several sequences", [](const Params& p) { return p.Has("lens") && p.args.at("lens").size() >= 2; })}},
        {"chunk metadata", {Is("chunking", "vllm"), Is("chunking", "per_seq")}},
        {"D", {Is("D", "none"), Is("D", "h"), Is("D", "hp")}},
        {"clamps", {When("no clamp", [](const Params& p) { return p.Has("dt_min") && p.Num("dt_min") == 0.0; }),
                    When("dt clamped", [](const Params& p) { return p.Has("dt_min") && p.Num("dt_min") > 0.0; })}},
        {"initial states", {Is("init", 0), Is("init", 1)}}};
    for (Axis& a : MambaAxes()) axes.push_back(std::move(a));
    Campaign c = With("mamba2_chunk_scan", 60, std::move(axes),
                      "chunk boundaries (cs - 1, cs, cs + 1, 1, several sequences), vLLM chunk metadata, G < H, "
                      "D none/[H]/[H,P], z, softplus, clamps, initial states, f32/bf16 state, large dt / A near 0 "
                      "/ near-overflow exp, 1..16 threads");
    c.threads = {1, 2, 3, 4, 5, 6, 7, 8, 11, 16};
    // The op's own preconditions (chunk size, chunk metadata, dt clamps, A)
    // among the contract-derived error cases.
    c.error_focus = {"chunk_size_not_pow2", "chunk_size_0", "dt_min_", "dt_max_", "single_entry", "bounds_past_T",
                     "chunk_empty", "chunk_longer_than", "not_monotone", "empty_sequence", "seq_idx_past",
                     "seq_idx_negative", "last_chunk_", "seq_idx_inconsistent", "chunk_crosses_sequence", "A_zero",
                     "A_positive", "groups_not_dividing"};
    t.push_back(std::move(c));
  }
  {
    std::vector<Axis> axes = {{"state slots", {Is("slots", "none"), Is("slots", "indexed")}},
                              {"D", {Is("D", 0), Is("D", 1)}}};
    for (Axis& a : MambaAxes()) axes.push_back(std::move(a));
    Campaign c = With("mamba2_state_update", 30, std::move(axes),
                      "indexed state slots with NULL rows, duplicate-slot refusal, G < H, optional D / z / dt_bias, "
                      "softplus, f32/bf16 state, the value distributions");
    c.threads = {1, 2, 3, 4, 5, 6, 7, 8, 11, 16};
    // The slot preconditions (a repeated slot, one out of range, slots
    // without indices) among the many contract-derived error cases (whose
    // names start with the operand: state_indices_...).
    c.error_focus = {"slot"};
    t.push_back(std::move(c));
  }
  return t;
}

}  // namespace

std::vector<Axis> KnobAxes(const OpSpec& op, Tier tier) {
  // Knobs the harness itself sets or that are not categories of the op.
  static const std::set<std::string> kGeneric = {"layout", "values", "reshape", vocab::kStrideKnob};
  std::vector<std::string> order;                 // keys, first seen first
  std::map<std::string, std::vector<Json>> seen;  // key -> distinct values, first seen first
  std::set<std::string> not_categorical;
  rc::Random random(HashName(op.name) ^ 0x6b6e6f62);
  const rc::Gen<Params> g = op.gen(tier);
  for (int k = 0; k < 200; ++k) {
    const Params p = g(random.split(), rc::kNominalSize).value();
    for (const auto& [key, v] : p.args.items()) {
      const bool flag = v.is_number_integer() && (v.get<int64_t>() == 0 || v.get<int64_t>() == 1) &&
                        !key.empty() && std::islower(static_cast<unsigned char>(key[0]));
      if (!v.is_string() && !flag) {
        not_categorical.insert(key);
        continue;
      }
      auto& vals = seen[key];
      if (vals.empty()) order.push_back(key);
      if (std::find(vals.begin(), vals.end(), v) == vals.end()) vals.push_back(v);
    }
  }
  std::vector<Axis> axes;
  for (const std::string& key : order) {
    const auto& vals = seen[key];
    if (kGeneric.count(key) != 0 || not_categorical.count(key) != 0 || vals.size() < 2 || vals.size() > 8) continue;
    Axis a{key, {}};
    std::vector<Json> sorted = vals;
    std::sort(sorted.begin(), sorted.end());
    for (const Json& v : sorted) a.options.push_back(Is(key, v));
    axes.push_back(std::move(a));
  }
  return axes;
}

const std::vector<Campaign>& CampaignTable() {
  static const std::vector<Campaign> kTable = MakeTable();
  return kTable;
}

namespace {

// The knob an Is() option tests ("residual=f32" -> "residual"), else "".
std::string KnobOf(const AxisOption& o) {
  const std::size_t eq = o.name.find('=');
  return eq == std::string::npos ? "" : o.name.substr(0, eq);
}

Campaign WithKnobAxes(Campaign c, const OpSpec& op) {
  if (!c.knob_axes) return c;
  std::set<std::string> named;
  for (const Axis& a : c.axes) {
    for (const AxisOption& o : a.options) named.insert(KnobOf(o));
  }
  for (Axis& a : KnobAxes(op, c.tier)) {
    if (named.count(a.name) == 0) c.axes.push_back(std::move(a));
  }
  return c;
}

}  // namespace

Campaign CampaignFor(const OpSpec& op) {
  for (const Campaign& c : CampaignTable()) {
    if (c.op == op.name) return WithKnobAxes(c, op);
  }
  Campaign c;
  c.op = op.name;
  c.axes = CommonAxes();
  c.why = "the default campaign: the op's generator at tier full, extents 0 / 1, every layout, every value "
          "of each categorical knob, specials and edges where declared, strided operands padded";
  return WithKnobAxes(c, op);
}

}  // namespace vt::conform::fuzz

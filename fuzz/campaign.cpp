#include "fuzz/campaign.h"

#include <cctype>

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

std::vector<Campaign> MakeTable() {
  std::vector<Campaign> t;
  t.push_back(With("rms_norm", 15,
                   {{"residual", {Is("residual", "none"), Is("residual", "f32"), Is("residual", "bf16")}},
                    {"gemma", {Is("gemma", 0), Is("gemma", 1)}}},
                   "fused residual add on and off, gemma offset, specials in one row of four"));
  t.push_back(With("index_copy", 15, {{"indices", {Is("idx_kind", "distinct"), Is("idx_kind", "dups")}}},
                   "duplicate indices (last write wins) against distinct ones"));
  return t;
}

}  // namespace

const std::vector<Campaign>& CampaignTable() {
  static const std::vector<Campaign> kTable = MakeTable();
  return kTable;
}

Campaign CampaignFor(const OpSpec& op) {
  for (const Campaign& c : CampaignTable()) {
    if (c.op == op.name) return c;
  }
  Campaign c;
  c.op = op.name;
  c.axes = CommonAxes();
  c.why = "the default campaign: the op's generator at tier full, extents 0 / 1, every layout, "
          "specials and edges where declared, strided operands padded";
  return c;
}

}  // namespace vt::conform::fuzz

// Per-op fuzzing campaigns: how long `vt-fuzz --op NAME` runs by default, with
// which modes and thread counts, and toward which parts of the op's case space
// the draws are steered. A campaign never builds a case itself: every case is
// drawn from the op's own catalog generator (so it is valid by construction
// and `vt-conform --case` reproduces it); the campaign only
//   - steers: its axes are named options (predicates over Params); case k
//     targets one option of one axis (round robin over axes and options) and
//     the generator is redrawn until a case matches it (coverage by design,
//     not by luck, and counted per option);
//   - overrides the generic knobs every op understands: "values" (normal /
//     special / edges where the op declares them, harness/catalog/values.h)
//     and "fuzz_stride" (padded outer strides on the operands whose contract
//     accepts them, harness/fuzz/vocabulary.h).
// Ops without an entry in the table get the default campaign.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "harness/catalog/op_spec.h"

namespace vt::conform::fuzz {

struct AxisOption {
  std::string name;
  std::function<bool(const Params&)> match;
};

struct Axis {
  std::string name;
  std::vector<AxisOption> options;
};

struct Campaign {
  std::string op;             // empty: the default campaign
  double seconds = 15;        // `vt-fuzz --op NAME` with no --time / --cases
  Tier tier = Tier::kFull;    // the generator tier drawn from
  // Modes run on every case (those the op does not cover are dropped).
  std::vector<std::string> modes = {"oracle", "threads", "isa", "equivalence", "negative"};
  std::vector<int> threads = {1, 2, 3, 4, 7, 8, 16};  // the oracle run's thread count, per case
  // Weights of the "values" knob settings (only those the op declares count).
  std::map<std::string, int> values = {{"normal", 2}, {"special", 1}, {"edges", 1}};
  // Draws of the fuzz_stride knob (padding in elements; 0 = none), used when
  // the op has strided-capable operands.
  std::vector<int64_t> strides = {0, 0, 1, 17};
  std::vector<Axis> axes;
  // Also steer over every categorical knob the generator draws (string
  // knobs and 0/1 flags with 2..8 values, found by sampling it), one axis
  // each, unless an axis above already names the knob (CampaignFor).
  bool knob_axes = true;
  // Error cases (negative mode) drawn half of the time when named here (a
  // substring of the error case's name): the op's own preconditions, among
  // the many contract-derived ones (dtype, layout, alias, ...).
  std::vector<std::string> error_focus;
  std::string why;  // one line for --list: what the campaign aims at
};

// The campaign of an op (its table entry, or the default one named for it).
Campaign CampaignFor(const OpSpec& op);
// The categorical knobs of an op's generator as axes (see knob_axes).
std::vector<Axis> KnobAxes(const OpSpec& op, Tier tier);
// Ops with their own entry (for --list and the docs).
const std::vector<Campaign>& CampaignTable();

// Axis helpers.
AxisOption Is(const std::string& key, const Json& value);        // args[key] == value
AxisOption Absent(const std::string& key);                       // no such arg
AxisOption IntIn(const std::string& key, int64_t lo, int64_t hi);  // lo <= args[key] <= hi
AxisOption When(std::string name, std::function<bool(const Params&)> match);

}  // namespace vt::conform::fuzz

#include "harness/upstream/upstream_check.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "harness/core/compare.h"
#include "harness/golden/golden_io.h"
#include "harness/golden/npy.h"
#include "harness/golden/sha256.h"
#include "harness/modes/golden_check.h"

namespace vt::conform::upstream {
namespace {

namespace fs = std::filesystem;

// The last resort of a case: one line, never a newline.
std::string OneLine(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return s;
}

bool SameKnob(const Json& a, const Json& b) {
  if (a.is_number() && b.is_number()) return a.get<double>() == b.get<double>();
  if (a.is_array() && b.is_array() && a.size() == b.size()) {
    for (std::size_t k = 0; k < a.size(); ++k) {
      if (!SameKnob(a[k], b[k])) return false;
    }
    return true;
  }
  return a == b;
}

}  // namespace

const std::vector<std::string> kDrawOnlyKnobs = {"dist", "values", "chunking"};

std::vector<std::string> DrawOnlyKnobs(const UpstreamMap& m) {
  std::vector<std::string> all = kDrawOnlyKnobs;
  all.insert(all.end(), m.draw_only.begin(), m.draw_only.end());
  return all;
}

const UpstreamMap* MapOf(const OpSpec& op) {
  for (const UpstreamMap& m : UpstreamMaps()) {
    if (m.op == op.name) return &m;
  }
  return nullptr;
}

bool NeedsTriton(const std::string& key) {
  static const std::set<std::string> triton = {"l2norm", "gdn_prefill", "gdn_decode", "kda_gated_delta_rule",
                                               "kda_chunk_prefill", "mamba2_chunk_scan", "mamba2_state_update"};
  return triton.count(key) != 0;  // vt_golden_regen.py TRITON_OPS
}

void WriteGolden(const std::string& dir, const UpstreamCall& call, const Reply& reply, const Params& drawn) {
  fs::create_directories(dir);
  Json tensors = Json::object(), inputs = Json::array(), outputs = Json::array();
  auto add = [&](const TensorData& t) {
    const std::string file = t.name + ".npy";
    const auto dt = ParseGoldenDType(GoldenDTypeName(t.dtype, t.fmt));
    if (!dt) throw std::runtime_error("tensor '" + t.name + "' has no manifest dtype");
    WriteNpy((fs::path(dir) / file).string(), dt->descrs.front(), t.shape, t.storage);
    tensors[t.name] = {{"file", file}, {"dtype", GoldenDTypeName(t.dtype, t.fmt)}, {"shape", t.shape},
                       {"sha256", Sha256Hex(t.storage)}};
  };
  for (const TensorData& t : call.inputs) {
    add(t);
    inputs.push_back(t.name);
  }
  for (const TensorData& t : reply.outputs) {
    add(t);
    outputs.push_back(t.name);
  }
  Json args = call.args;
  const Json extra = reply.header.value("args", Json::object());  // a named copy: items() refers into it
  for (const auto& [k, v] : extra.items()) args[k] = v;
  Json m = {{"op", call.op},
            {"args", args},
            {"tensors", tensors},
            {"inputs", inputs},
            {"outputs", outputs},
            {"tol", reply.header.value("tol", Json::object())},
            {"tol_reason", reply.header.value("tol_reason", "")},
            {"oracle", reply.header.value("oracle", Json::object())},
            {"fuzz", {{"tool", "vt-fuzz --upstream"}, {"identity", drawn.Identity()}}}};
  std::ofstream f(fs::path(dir) / "manifest.json");
  f << m.dump(1) << "\n";
  if (!f) throw std::runtime_error("cannot write " + dir + "/manifest.json");
}

std::string RoundTripDiff(const Case& drawn, const Case& back, const std::vector<std::string>& ignore) {
  if (back.params.op != drawn.params.op) return "the adapter maps to op " + back.params.op;
  for (const auto& [key, v] : back.params.args.items()) {
    if (std::find(ignore.begin(), ignore.end(), key) != ignore.end() || !drawn.params.Has(key)) continue;
    if (!SameKnob(v, drawn.params.args.at(key))) {
      return "knob " + key + ": drawn " + drawn.params.args.at(key).dump() + ", mapped back " + v.dump();
    }
  }
  for (const TensorData& t : drawn.tensors) {
    const TensorData* b = back.Find(t.name);
    if (b == nullptr) return "tensor " + t.name + " is not in the mapped-back case";
    if (b->dtype != t.dtype || b->fmt != t.fmt || b->shape != t.shape) {
      return "tensor " + t.name + " comes back with another dtype or shape";
    }
    if (t.role != Role::kOutput && b->LogicalBytes() != t.LogicalBytes()) {
      return "input " + t.name + " comes back with other bytes";
    }
  }
  if (back.tensors.size() != drawn.tensors.size()) return "the mapped-back case has other tensors";
  return "";
}

bool Checker::Expressible(const OpSpec& op, const Params& p) const {
  const UpstreamMap* m = MapOf(op);
  if (m == nullptr) return false;
  try {
    m->to_upstream(MakeCase(op, p));
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

CaseResult Checker::Check(const OpSpec& op, const Params& p, const RunConfig& cfg) {
  CaseResult r;
  r.id = p.Identity();
  r.op = op.name;
  r.mode = "upstream";
  r.tier = cfg.tier;
  r.seed = p.seed;
  last_.clear();
  const UpstreamMap* m = MapOf(op);
  const auto [adapter_op, a] = m == nullptr ? std::pair<const OpSpec*, const GoldenAdapter*>{nullptr, nullptr}
                                            : FindGoldenAdapter(m->runner_key);
  if (m == nullptr) {
    r.status = Outcome::kSkipped;
    r.reason = "no runner key maps this op to upstream";
    return r;
  }
  if (adapter_op != &op) {
    // vt-golden check would map the saved folder onto another op (or none).
    r.status = Outcome::kFailedError;
    r.reason = "runner key " + m->runner_key + " is not read back by this op's golden adapter (FindGoldenAdapter)";
    return r;
  }
  Case drawn;
  UpstreamCall call;
  try {
    drawn = MakeCase(op, p);
    call = m->to_upstream(drawn);
  } catch (const GoldenUnsupported& e) {
    r.status = Outcome::kSkipped;
    r.reason = std::string("runner key ") + m->runner_key + " cannot express this case: " + e.what();
    return r;
  } catch (const std::exception& e) {
    r.status = Outcome::kFailedError;
    r.reason = OneLine(std::string("mapping to upstream: ") + e.what());
    return r;
  }
  ++calls_;
  const Reply reply = worker_.Call(call, timeout_s_);
  if (!reply.ok) {
    r.status = reply.unsupported ? Outcome::kSkipped : Outcome::kFailedError;
    r.reason = OneLine("upstream (" + call.op + "): " + reply.error);
    return r;
  }
  const std::string dir = scratch_ + "/case-" + std::to_string(calls_ % 2);
  try {
    std::error_code ec;
    fs::remove_all(dir, ec);
    WriteGolden(dir, call, reply, p);
    last_ = dir;
    // The round trip: the folder read back and mapped by the adapter.
    const GoldenMapping back = a->map(LoadGolden(dir));
    const std::string diff = RoundTripDiff(drawn, back.c, DrawOnlyKnobs(*m));
    if (!diff.empty()) {
      r.status = Outcome::kFailedError;
      r.reason = "round trip case -> " + call.op + " -> adapter broken: " + OneLine(diff);
      return r;
    }
  } catch (const std::exception& e) {
    r.status = Outcome::kFailedError;
    r.reason = OneLine(std::string("writing or mapping the upstream golden: ") + e.what());
    return r;
  }
  CaseResult g = CheckGoldenDir(dir, cfg);
  // A draw whose reference is all or mostly zero (x = -residual at T = H = 1)
  // cannot be judged by any reference - the oracle mode MISTRUSTS the same
  // case -: counted SKIPPED with the reason. A tolerance wider than the
  // signal stays a failure: that is the tolerance's fault, not the draw's.
  if (g.status == Outcome::kMistrusted && UnjudgeableDraw(g.reason)) {
    g.status = Outcome::kSkipped;
    g.reason = kUnjudgeableByUpstream + g.reason;
  }
  g.id = r.id;
  g.mode = r.mode;
  g.seed = r.seed;
  g.repro = "vt-golden check " + dir;
  return g;
}

}  // namespace vt::conform::upstream

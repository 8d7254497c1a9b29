#include "reports/merge.h"

#include <algorithm>
#include <map>

namespace vt::reports {
namespace {

std::string Show(const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// The document must be a finished results document we can read.
void CheckReadable(const Json& d, const std::string& name) {
  if (!d.is_object() || !d.contains("meta") || !d.contains("cases") || !d["cases"].is_array()) {
    throw MergeError(name + ": not a results document (no meta or cases)");
  }
  if (d.value("schema_version", 0) != kSchemaVersion) {
    throw MergeError(name + ": schema_version " + Show(d.value("schema_version", Json(nullptr))) +
                     ", this vt-report reads " + std::to_string(kSchemaVersion));
  }
  if (d.value("status", "") != "finished") {
    throw MergeError(name + ": status '" + d.value("status", "") + "': the shard's run did not finish");
  }
  if (d.value("cases_scope", "all") != "all") {
    throw MergeError(name + ": lists only some of its cases (cases_scope " + d.value("cases_scope", "") + ")");
  }
  if (d["meta"].value("tool", "") != "vt-conform") {
    throw MergeError(name + ": written by " + d["meta"].value("tool", "?") + "; only vt-conform runs are sharded");
  }
}

}  // namespace

const std::vector<std::string>& RunIdentityFields() {
  static const std::vector<std::string> fields = {"tool",  "tool_version", "git_sha", "git_dirty", "tier",
                                                  "seed",  "isa",          "backend", "selection", "torch",
                                                  "cuda"};
  return fields;
}

bool ParseShard(const std::string& s, int& index, int& count) {
  const std::size_t slash = s.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 >= s.size()) return false;
  try {
    std::size_t a = 0, b = 0;
    index = std::stoi(s.substr(0, slash), &a);
    count = std::stoi(s.substr(slash + 1), &b);
    if (a != slash || b != s.size() - slash - 1) return false;
  } catch (const std::exception&) {
    return false;
  }
  return count >= 1 && index >= 0 && index < count;
}

Json MergeShards(const std::vector<Json>& docs, const std::vector<std::string>& names) {
  if (docs.empty()) throw MergeError("no shard given");
  for (std::size_t k = 0; k < docs.size(); ++k) CheckReadable(docs[k], names[k]);
  const Json& m0 = docs[0]["meta"];
  for (std::size_t k = 1; k < docs.size(); ++k) {
    const Json& m = docs[k]["meta"];
    for (const std::string& f : RunIdentityFields()) {
      const Json a = m0.contains(f) ? m0[f] : Json(nullptr), b = m.contains(f) ? m[f] : Json(nullptr);
      if (a != b) {
        throw MergeError(names[k] + " and " + names[0] + " are not shards of one run: " + f + " " + Show(b) +
                         " vs " + Show(a));
      }
    }
  }
  int count = 0;
  std::map<int, std::size_t> by_index;  // shard index -> docs position
  for (std::size_t k = 0; k < docs.size(); ++k) {
    int i = 0, n = 0;
    const std::string shard = docs[k]["meta"].value("shard", "");
    if (!ParseShard(shard, i, n)) throw MergeError(names[k] + ": shard '" + shard + "' is not I/N");
    if (k == 0) count = n;
    if (n != count) {
      throw MergeError(names[k] + " is shard " + shard + " but " + names[0] + " is of " + std::to_string(count) +
                       " shards");
    }
    const auto [it, fresh] = by_index.emplace(i, k);
    if (!fresh) throw MergeError(names[k] + " and " + names[it->second] + " are both shard " + shard);
  }
  for (int i = 0; i < count; ++i) {
    if (!by_index.count(i)) {
      throw MergeError("shard " + std::to_string(i) + "/" + std::to_string(count) + " is missing (" +
                       std::to_string(docs.size()) + " of " + std::to_string(count) + " given)");
    }
  }
  // Case k of the unsharded run went to shard k % n at position k / n.
  Json cases = Json::array();
  std::size_t longest = 0;
  for (const Json& d : docs) longest = std::max(longest, d["cases"].size());
  for (std::size_t j = 0; j < longest; ++j) {
    for (int i = 0; i < count; ++i) {
      const Json& shard_cases = docs[by_index[i]]["cases"];
      if (j < shard_cases.size()) cases.push_back(shard_cases[j]);
    }
  }
  Json meta = m0;
  meta["shard"] = "0/1";
  meta["command"] = "vt-report merge of " + std::to_string(count) + " shards of: " + m0.value("command", "");
  double seconds = 0;
  Json from = Json::array();
  for (int i = 0; i < count; ++i) {
    const std::size_t k = by_index[i];
    const Json& m = docs[k]["meta"];
    seconds = std::max(seconds, m.value("seconds", 0.0));
    from.push_back({{"file", names[k]}, {"shard", m.value("shard", "")}, {"cpu", m.value("cpu", "")},
                    {"threads", m.value("threads", 0)}, {"date", m.value("date", "")},
                    {"seconds", m.value("seconds", 0.0)}, {"cases", docs[k]["cases"].size()}});
  }
  meta["seconds"] = seconds;  // the slowest shard: the wall time of a parallel run
  meta["merged_from"] = from;
  Json out = Json::object();
  out["schema_version"] = kSchemaVersion;
  out["status"] = "finished";
  out["meta"] = meta;
  out["summary"] = Json::object();
  out["matrix"] = Json::object();
  out["cases_scope"] = "all";
  out["cases"] = cases;
  Summarize(out);
  return out;
}

}  // namespace vt::reports

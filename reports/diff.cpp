#include "reports/diff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace vt::reports {
namespace {

// mode + id, with "#k" for the k-th repeat of the same pair (none today; a
// repeated id must not make one case shadow another).
std::map<std::string, const Json*> Index(const Json& doc) {
  std::map<std::string, const Json*> out;
  std::map<std::string, int> seen;
  if (!doc.contains("cases")) return out;
  for (const Json& c : doc["cases"]) {
    const std::string key = c.value("mode", "") + " " + c.value("id", "");
    const int n = seen[key]++;
    out[n == 0 ? key : key + "#" + std::to_string(n)] = &c;
  }
  return out;
}

Json Headroom(const Json* c) {
  if (c == nullptr || !c->contains("headroom") || !(*c)["headroom"].is_number()) return nullptr;
  return (*c)["headroom"];
}

Json Row(const Json* o, const Json* n) {
  const Json& c = n != nullptr ? *n : *o;
  return {{"op", c.value("op", "")},
          {"mode", c.value("mode", "")},
          {"id", c.value("id", "")},
          {"old_status", o != nullptr ? Json(o->value("status", "")) : Json(nullptr)},
          {"new_status", n != nullptr ? Json(n->value("status", "")) : Json(nullptr)},
          {"old_headroom", Headroom(o)},
          {"new_headroom", Headroom(n)},
          {"reason", c.value("reason", "")},
          {"repro", c.value("repro", "")}};
}

Json Side(const Json& doc, const char* label) {
  const Json meta = doc.contains("meta") ? doc["meta"] : Json::object();
  return {{"label", label},
          {"git_sha", meta.value("git_sha", "")},
          {"date", meta.value("date", "")},
          {"tier", meta.value("tier", "")},
          {"seed", meta.value("seed", "")},
          {"cases", doc.contains("cases") ? doc["cases"].size() : 0},
          {"final_line", doc.contains("summary") ? doc["summary"].value("final_line", "") : ""}};
}

std::string Num(const Json& v) {
  if (!v.is_number()) return "-";
  std::ostringstream os;
  os.precision(3);
  os << v.get<double>();
  return os.str();
}

}  // namespace

Json DiffDocs(const Json& old_doc, const Json& new_doc, const DiffOptions& opt) {
  const auto olds = Index(old_doc), news = Index(new_doc);
  Json d = Json::object();
  d["old"] = Side(old_doc, "old");
  d["new"] = Side(new_doc, "new");
  for (const char* k : {"new_failures", "fixed", "headroom_grew", "headroom_shrank", "disappeared", "appeared",
                        "newly_skipped"}) {
    d[k] = Json::array();
  }
  d["notes"] = Json::array();
  for (const char* f : {"tier", "seed"}) {
    if (d["old"][f] != d["new"][f]) {
      d["notes"].push_back(std::string(f) + " differs (" + d["old"][f].get<std::string>() + " vs " +
                           d["new"][f].get<std::string>() + "): case ids differ, so most cases read as disappeared");
    }
  }
  for (const auto& [key, n] : news) {
    const auto it = olds.find(key);
    const Json* o = it == olds.end() ? nullptr : it->second;
    const std::string ns = n->value("status", "");
    const std::string os = o == nullptr ? "" : o->value("status", "");
    if (IsFailureStatus(ns) && !IsFailureStatus(os)) d["new_failures"].push_back(Row(o, n));
    if (o == nullptr) {
      d["appeared"].push_back(Row(o, n));
      continue;
    }
    if (IsFailureStatus(os) && ns == "PASSED") d["fixed"].push_back(Row(o, n));
    if (IsSkipStatus(ns) && !IsSkipStatus(os)) d["newly_skipped"].push_back(Row(o, n));
    const Json ho = Headroom(o), hn = Headroom(n);
    if (ho.is_number() && hn.is_number()) {
      const double a = std::max(ho.get<double>(), opt.floor), b = std::max(hn.get<double>(), opt.floor);
      if (b > a * opt.factor) d["headroom_grew"].push_back(Row(o, n));
      if (b * opt.factor < a) d["headroom_shrank"].push_back(Row(o, n));
    }
  }
  for (const auto& [key, o] : olds) {
    if (!news.count(key)) d["disappeared"].push_back(Row(o, nullptr));
  }
  d["fails"] = !d["new_failures"].empty() || !d["disappeared"].empty();
  return d;
}

std::string DiffMarkdown(const Json& d, std::size_t limit) {
  std::ostringstream os;
  os << "## Changes since the baseline\n\n";
  os << "- old: " << d["old"].value("git_sha", "?") << " " << d["old"].value("date", "") << ", "
     << d["old"].value("cases", 0) << " cases: " << d["old"].value("final_line", "") << "\n";
  os << "- new: " << d["new"].value("git_sha", "?") << " " << d["new"].value("date", "") << ", "
     << d["new"].value("cases", 0) << " cases: " << d["new"].value("final_line", "") << "\n";
  for (const Json& n : d["notes"]) os << "- note: " << n.get<std::string>() << "\n";
  struct Part {
    const char* key;
    const char* title;
  };
  const Part parts[] = {{"new_failures", "new failures"},
                        {"disappeared", "cases that disappeared"},
                        {"fixed", "fixed (failed before, pass now)"},
                        {"headroom_grew", "headroom grew more than 2x (the error moved toward the tolerance)"},
                        {"headroom_shrank", "headroom shrank more than 2x (the error moved away from it)"},
                        {"newly_skipped", "ran before, skipped now"},
                        {"appeared", "new cases"}};
  os << "\n";
  for (const Part& p : parts) os << "- " << p.title << ": " << d[p.key].size() << "\n";
  os << "\n**" << (d.value("fails", false) ? "FAIL: new failures or disappeared cases" : "no new failure, no case lost")
     << "**\n";
  for (const Part& p : parts) {
    const Json& rows = d[p.key];
    if (rows.empty() || std::string(p.key) == "appeared") continue;
    os << "\n### " << p.title << "\n\n| op/mode | case | old | new | headroom old -> new |\n|---|---|---|---|---|\n";
    for (std::size_t k = 0; k < rows.size() && k < limit; ++k) {
      const Json& r = rows[k];
      os << "| " << r.value("op", "") << "/" << r.value("mode", "") << " | `" << r.value("id", "") << "` | "
         << (r["old_status"].is_string() ? r["old_status"].get<std::string>() : "-") << " | "
         << (r["new_status"].is_string() ? r["new_status"].get<std::string>() : "-") << " | "
         << Num(r["old_headroom"]) << " -> " << Num(r["new_headroom"]) << " |\n";
    }
    if (rows.size() > limit) os << "\n(" << rows.size() - limit << " more in the diff's JSON)\n";
    if (std::string(p.key) == "new_failures") {
      for (std::size_t k = 0; k < rows.size() && k < limit; ++k) os << "\nrepro: `" << rows[k].value("repro", "") << "`\n";
    }
  }
  return os.str();
}

}  // namespace vt::reports

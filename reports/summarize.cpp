#include "reports/summarize.h"

#include <algorithm>
#include <sstream>
#include <utility>

namespace vt::reports {

bool IsFailureStatus(const std::string& s) {
  return s == "FAILED_INCORRECT" || s == "FAILED_ERROR" || s == "MISTRUSTED";
}

bool IsSkipStatus(const std::string& s) { return s == "SKIPPED" || s == "UNSUPPORTED"; }

Tally TallyOf(const Json& cases) {
  Tally t;
  for (const Json& c : cases) {
    const std::string st = c.value("status", "");
    ++t.status[st];
    if (IsSkipStatus(st)) ++t.skip_reasons[SkipGroup(c.value("reason", ""))];
    if (st == "PASSED" && c.value("unjudged", 0) > 0) ++t.partial;
  }
  return t;
}

Json SummaryJson(const Tally& t) {
  auto get = [&](const char* s) {
    const auto it = t.status.find(s);
    return it == t.status.end() ? 0 : it->second;
  };
  std::ostringstream os;
  os << get("PASSED") << " passed, " << get("FAILED_INCORRECT") + get("FAILED_ERROR") << " failed";
  if (get("MISTRUSTED") > 0) os << ", " << get("MISTRUSTED") << " mistrusted";
  os << ", " << get("SKIPPED") << " skipped";
  if (get("UNSUPPORTED") > 0) os << ", " << get("UNSUPPORTED") << " unsupported";
  if (!t.skip_reasons.empty()) {
    os << " (";
    bool first = true;
    for (const auto& [reason, n] : t.skip_reasons) {
      os << (first ? "" : "; ") << n << "x " << reason;
      first = false;
    }
    os << ")";
  }
  // Counted, never hidden: passes that could not judge every element.
  if (t.partial > 0) os << "; " << t.partial << " of the passes partial (elements not judged: see the reports)";
  return {{"passed", get("PASSED")},
          {"failed_incorrect", get("FAILED_INCORRECT")},
          {"failed_error", get("FAILED_ERROR")},
          {"mistrusted", get("MISTRUSTED")},
          {"skipped", get("SKIPPED")},
          {"unsupported", get("UNSUPPORTED")},
          {"passed_partial", t.partial},
          {"final_line", os.str()}};
}

std::string SkipGroup(const std::string& reason) {
  if (reason.rfind(kUnjudgeablePrefix, 0) != 0) return reason;
  const std::size_t open = reason.find(" (");
  return open == std::string::npos ? reason : reason.substr(0, open);
}

std::vector<std::string> LostSignal(const Json& cases) {
  std::map<std::pair<std::string, std::string>, std::pair<int, int>> per_pair;  // -> (unjudgeable, cases)
  for (const Json& c : cases) {
    auto& n = per_pair[{c.value("op", ""), c.value("mode", "")}];
    ++n.second;
    if (c.value("status", "") == "SKIPPED" && c.value("reason", "").rfind(kUnjudgeablePrefix, 0) == 0) ++n.first;
  }
  std::vector<std::string> lines;
  for (const auto& [pair, n] : per_pair) {
    std::string line = LostSignalLine(pair.first, pair.second, n.first, n.second);
    if (!line.empty()) lines.push_back(std::move(line));
  }
  return lines;
}

std::string LostSignalLine(const std::string& op, const std::string& mode, int unjudgeable, int cases) {
  if (unjudgeable < kMinUnjudgeableToFail || unjudgeable <= kMaxUnjudgeableShare * cases) return "";
  return op + "/" + mode + ": " + std::to_string(unjudgeable) + " of " + std::to_string(cases) +
         " cases could not be judged by any reference (more than a tenth): the oracle or the generator has lost "
         "the signal";
}

Json MatrixOf(const Json& cases) {
  Json matrix = Json::object();
  for (const Json& c : cases) {
    Json& cell = matrix[c.value("op", "")][c.value("mode", "")];
    if (cell.is_null()) cell = {{"passed", 0}, {"failed", 0}, {"skipped", 0}, {"partial", 0}, {"max_headroom", 0.0}};
    const std::string st = c.value("status", "");
    auto bump = [&](const char* k) { cell[k] = cell[k].get<int>() + 1; };
    if (st == "PASSED") bump("passed");
    if (st == "PASSED" && c.value("unjudged", 0) > 0) bump("partial");
    if (IsFailureStatus(st)) bump("failed");
    if (IsSkipStatus(st)) bump("skipped");
    if (c.contains("headroom") && c["headroom"].is_number()) {
      cell["max_headroom"] = std::max(cell["max_headroom"].get<double>(), c["headroom"].get<double>());
    }
  }
  return matrix;
}

void Summarize(Json& doc) {
  const Json& cases = doc.contains("cases") ? doc["cases"] : Json::array();
  doc["summary"] = SummaryJson(TallyOf(cases));
  doc["matrix"] = MatrixOf(cases);
}

}  // namespace vt::reports

namespace vt::reports {

std::vector<std::string> FamilyLines(const Json& cases) {
  struct Fam {
    std::map<std::string, int> ops;
    int passed = 0, failed = 0, skipped = 0;
  };
  std::vector<std::string> order;
  std::map<std::string, Fam> fams;
  for (const Json& c : cases) {
    const std::string f = c.value("family", "-");
    if (!fams.count(f)) order.push_back(f);
    Fam& fam = fams[f];
    ++fam.ops[c.value("op", "")];
    const std::string st = c.value("status", "");
    fam.passed += st == "PASSED";
    fam.failed += IsFailureStatus(st);
    fam.skipped += IsSkipStatus(st);
  }
  std::vector<std::string> out;
  for (const std::string& f : order) {
    const Fam& fam = fams[f];
    const std::string ops = std::to_string(fam.ops.size()) + (fam.ops.size() == 1 ? " op, " : " ops, ");
    out.push_back(f + ": " + ops + std::to_string(fam.passed) + " passed, " +
                  std::to_string(fam.failed) + " failed, " + std::to_string(fam.skipped) + " skipped");
  }
  return out;
}

}  // namespace vt::reports

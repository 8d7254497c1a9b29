// report.md: the run's header, the changes since a baseline (when vt-conform
// had --baseline), the op x mode table, failures, partial verdicts.
#include <algorithm>
#include <sstream>

#include "reports/diff.h"
#include "reports/report.h"
#include "reports/report_parts.h"

namespace vt::reports {

std::string RenderMarkdown(const Json& doc) {
  std::ostringstream os;
  const Json& meta = doc["meta"];
  os << "# vt-conform report\n\n";
  if (doc.contains("baseline") && doc["baseline"].is_object()) {
    os << DiffMarkdown(doc["baseline"], 20) << "\n";
  }
  os << "- command: `" << meta.value("command", "") << "`\n";
  os << "- git " << meta.value("git_sha", "?") << (meta.value("git_dirty", false) ? " (dirty)" : "") << ", "
     << meta.value("compiler", "?") << ", " << meta.value("cpu", "?") << ", isa " << meta.value("isa", "?") << "\n";
  os << "- tier " << meta.value("tier", "?") << ", seed " << meta.value("seed", "?") << ", threads "
     << meta.value("threads", 0) << ", shard " << meta.value("shard", "0/1") << ", " << meta.value("seconds", 0.0)
     << " s\n\n";
  os << "**" << doc["summary"].value("final_line", "") << "**\n\n";
  os << "## Per family\n\n";
  const auto fams = FamilyLines(doc["cases"]);
  for (const std::string& l : fams) os << "- " << l << "\n";
  if (fams.empty()) os << "none\n";
  const auto modes = MatrixModes(doc);
  os << "\n## Op x mode (passed/ran)\n\n";
  if (doc["matrix"].empty()) {
    os << "none\n";
  } else {
    os << "| op |";
    for (const auto& m : modes) os << " " << m << " |";
    os << " max headroom |\n|---|";
    for (std::size_t i = 0; i < modes.size(); ++i) os << "---|";
    os << "---|\n";
    for (const auto& [op, row] : doc["matrix"].items()) {
      os << "| " << op << " |";
      double head = 0;
      for (const auto& m : modes) {
        os << " " << MatrixCell(row.contains(m) ? row[m] : Json()) << " |";
        if (row.contains(m)) head = std::max(head, row[m].value("max_headroom", 0.0));
      }
      os << " " << head << " |\n";
    }
  }
  os << "\n## Failures\n\n";
  int n = 0;
  for (const Json& c : doc["cases"]) {
    const std::string st = c.value("status", "");
    if (!IsFailureStatus(st)) continue;
    ++n;
    os << "### " << st << " " << c.value("op", "") << "/" << c.value("mode", "") << "\n\n`" << c.value("id", "")
       << "`\n\n" << c.value("reason", "") << "\n\n";
    if (!c.value("detail", "").empty()) os << "```\n" << c.value("detail", "") << "```\n\n";
    os << "repro: `" << c.value("repro", "") << "`\n\n";
  }
  if (n == 0) os << "none\n";
  os << "\n## Partial verdicts (passed; some elements not judged)\n\n";
  int partial = 0;
  for (const Json& c : doc["cases"]) {
    if (!IsPartial(c)) continue;
    if (partial++ == 0) os << "| op/mode | case | not judged |\n|---|---|---|\n";
    os << "| " << c.value("op", "") << "/" << c.value("mode", "") << " | `" << c.value("id", "") << "` | "
       << c.value("partial", "") << " |\n";
  }
  if (partial == 0) os << "none\n";
  return os.str();
}

}  // namespace vt::reports

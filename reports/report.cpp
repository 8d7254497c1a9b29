#include "reports/report.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "reports/atomic_file.h"

namespace vt::reports {
namespace {

void MakeDir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create " + dir + ": " + ec.message());
}

// The document with "status" right after "schema" (readers look there first).
Json WithStatus(const Json& doc, const char* status) {
  Json out = Json::object();
  out["schema"] = doc.value("schema", 1);
  out["status"] = status;
  for (const auto& [k, v] : doc.items()) {
    if (k != "schema" && k != "status") out[k] = v;
  }
  return out;
}

std::string Escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

std::string Cell(const Json& m) {
  if (m.is_null()) return "-";
  std::ostringstream os;
  os << m.value("passed", 0) << "/" << m.value("passed", 0) + m.value("failed", 0);
  if (m.value("failed", 0) > 0) os << " FAIL";
  if (m.value("skipped", 0) > 0) os << " (" << m.value("skipped", 0) << " skip)";
  if (m.value("partial", 0) > 0) os << " (" << m.value("partial", 0) << " partial)";
  return os.str();
}

// Passes that could not judge every element (partial verdicts, harness/core/
// compare.h): listed with what was not judged, so a tolerance wider than the
// signal stays visible even when the case passes.
bool IsPartial(const Json& c) { return c.value("status", "") == "PASSED" && c.value("unjudged", 0) > 0; }

std::vector<std::string> Modes(const Json& doc) {
  std::vector<std::string> modes;
  for (const auto& [op, row] : doc["matrix"].items()) {
    for (const auto& [mode, cell] : row.items()) {
      if (std::find(modes.begin(), modes.end(), mode) == modes.end()) modes.push_back(mode);
    }
  }
  return modes;
}

}  // namespace

std::string RenderMarkdown(const Json& doc) {
  std::ostringstream os;
  const Json& meta = doc["meta"];
  os << "# vt-conform report\n\n";
  os << "- command: `" << meta.value("command", "") << "`\n";
  os << "- git " << meta.value("git_sha", "?") << ", " << meta.value("compiler", "?") << ", "
     << meta.value("cpu", "?") << "\n";
  os << "- tier " << meta.value("tier", "?") << ", seed " << meta.value("seed", "?") << ", threads "
     << meta.value("threads", 0) << ", isa " << meta.value("isa", "?") << ", shard " << meta.value("shard", "0/1") << ", "
     << meta.value("seconds", 0.0) << " s\n\n";
  os << "**" << doc["summary"].value("final_line", "") << "**\n\n";
  const auto modes = Modes(doc);
  os << "## Op x mode (passed/ran)\n\n| op |";
  for (const auto& m : modes) os << " " << m << " |";
  os << " max headroom |\n|---|";
  for (std::size_t i = 0; i < modes.size(); ++i) os << "---|";
  os << "---|\n";
  for (const auto& [op, row] : doc["matrix"].items()) {
    os << "| " << op << " |";
    double head = 0;
    for (const auto& m : modes) {
      os << " " << Cell(row.contains(m) ? row[m] : Json()) << " |";
      if (row.contains(m)) head = std::max(head, row[m].value("max_headroom", 0.0));
    }
    os << " " << head << " |\n";
  }
  os << "\n## Failures\n\n";
  int n = 0;
  for (const Json& c : doc["cases"]) {
    const std::string st = c.value("status", "");
    if (st != "FAILED_INCORRECT" && st != "FAILED_ERROR" && st != "MISTRUSTED") continue;
    ++n;
    os << "### " << st << " " << c.value("op", "") << "/" << c.value("mode", "") << "\n\n`" << c.value("id", "")
       << "`\n\n" << c.value("reason", "") << "\n\n";
    if (!c.value("detail", "").empty()) os << "```\n" << c.value("detail", "") << "```\n\n";
    os << "repro: `" << c.value("repro", "") << "`\n\n";
  }
  if (n == 0) os << "None.\n";
  os << "\n## Partial verdicts (passed; some elements not judged)\n\n";
  int partial = 0;
  for (const Json& c : doc["cases"]) {
    if (!IsPartial(c)) continue;
    if (partial++ == 0) os << "| op/mode | case | not judged |\n|---|---|---|\n";
    os << "| " << c.value("op", "") << "/" << c.value("mode", "") << " | `" << c.value("id", "") << "` | "
       << c.value("partial", "") << " |\n";
  }
  if (partial == 0) os << "None.\n";
  return os.str();
}

std::string RenderHtml(const Json& doc) {
  std::ostringstream os;
  os << "<!doctype html><html><head><meta charset=\"utf-8\"><title>vt-conform report</title>"
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:3px 8px}.fail{background:#fdd}.ok{background:#dfd}"
        "pre{background:#f6f6f6;padding:8px}</style></head><body>";
  os << "<h1>vt-conform report</h1><p><code>" << Escape(doc["meta"].value("command", "")) << "</code></p>";
  os << "<p><b>" << Escape(doc["summary"].value("final_line", "")) << "</b></p>";
  const auto modes = Modes(doc);
  os << "<h2>Op x mode</h2><table><tr><th>op</th>";
  for (const auto& m : modes) os << "<th>" << Escape(m) << "</th>";
  os << "<th>headroom (worst error / allowed, per oracle case)</th></tr>";
  for (const auto& [op, row] : doc["matrix"].items()) {
    os << "<tr><td>" << Escape(op) << "</td>";
    for (const auto& m : modes) {
      const bool has = row.contains(m);
      const bool fail = has && row[m].value("failed", 0) > 0;
      os << "<td class=\"" << (fail ? "fail" : has ? "ok" : "") << "\">" << Escape(Cell(has ? row[m] : Json())) << "</td>";
    }
    // Inline SVG: one dot per oracle case at x = headroom on a log axis
    // (1e-4 .. 1 .. 10); the red line is the tolerance (headroom 1).
    os << "<td><svg width=\"260\" height=\"18\"><line x1=\"208\" y1=\"0\" x2=\"208\" y2=\"18\" stroke=\"red\"/>";
    for (const Json& c : doc["cases"]) {
      if (c.value("op", "") != op || c.value("mode", "") != "oracle" || !c["headroom"].is_number()) continue;
      const double h = c["headroom"].get<double>();
      const double x = h <= 1e-4 ? 0 : std::min(260.0, 208.0 + 52.0 * std::log10(h));
      os << "<circle cx=\"" << x << "\" cy=\"9\" r=\"2\" fill=\"" << (h > 1 ? "red" : "#36c") << "\"/>";
    }
    os << "</svg></td></tr>";
  }
  os << "</table><h2>Failures</h2>";
  for (const Json& c : doc["cases"]) {
    const std::string st = c.value("status", "");
    if (st != "FAILED_INCORRECT" && st != "FAILED_ERROR" && st != "MISTRUSTED") continue;
    os << "<h3>" << Escape(st + " " + c.value("op", "") + "/" + c.value("mode", "")) << "</h3><p><code>"
       << Escape(c.value("id", "")) << "</code></p><p>" << Escape(c.value("reason", "")) << "</p><pre>"
       << Escape(c.value("detail", "")) << "</pre><p>repro: <code>" << Escape(c.value("repro", "")) << "</code></p>";
  }
  os << "<h2>Partial verdicts (passed; some elements not judged)</h2>";
  int partial = 0;
  for (const Json& c : doc["cases"]) {
    if (!IsPartial(c)) continue;
    if (partial++ == 0) os << "<table><tr><th>op/mode</th><th>case</th><th>not judged</th></tr>";
    os << "<tr><td>" << Escape(c.value("op", "") + "/" + c.value("mode", "")) << "</td><td><code>"
       << Escape(c.value("id", "")) << "</code></td><td>" << Escape(c.value("partial", "")) << "</td></tr>";
  }
  os << (partial == 0 ? "<p>None.</p>" : "</table>");
  os << "</body></html>\n";
  return os.str();
}

std::vector<std::string> StartReports(const Json& meta, const std::string& dir) {
  MakeDir(dir);
  const std::string json = dir + "/results.json", md = dir + "/report.md", html = dir + "/report.html";
  RemoveIfPresent(md);
  RemoveIfPresent(html);
  Json doc = Json::object();
  doc["schema"] = 1;
  doc["meta"] = meta;
  AtomicWriteFile(json, WithStatus(doc, "running").dump(1) + "\n");
  return {json, md, html};
}

std::vector<std::string> WriteReports(const Json& doc, const std::string& dir) {
  MakeDir(dir);
  const std::string json = dir + "/results.json", md = dir + "/report.md", html = dir + "/report.html";
  // results.json last: its "finished" status vouches for the other two.
  AtomicWriteFile(md, RenderMarkdown(doc));
  AtomicWriteFile(html, RenderHtml(doc));
  AtomicWriteFile(json, WithStatus(doc, "finished").dump(1) + "\n");
  return {json, md, html};
}

}  // namespace vt::reports

#include "reports/report.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "reports/atomic_file.h"
#include "reports/report_parts.h"

namespace vt::reports {
namespace {

void MakeDir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create " + dir + ": " + ec.message());
}

// The document with "schema_version" and "status" first (readers look there first).
Json WithStatus(const Json& doc, const char* status) {
  Json out = Json::object();
  out["schema_version"] = kSchemaVersion;
  out["status"] = status;
  for (const auto& [k, v] : doc.items()) {
    if (k != "schema_version" && k != "status") out[k] = v;
  }
  return out;
}

}  // namespace

std::string HtmlEscape(const std::string& s) {
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

std::string MatrixCell(const Json& m) {
  if (m.is_null()) return "-";
  std::ostringstream os;
  os << m.value("passed", 0) << "/" << m.value("passed", 0) + m.value("failed", 0);
  if (m.value("failed", 0) > 0) os << " FAIL";
  if (m.value("skipped", 0) > 0) os << " (" << m.value("skipped", 0) << " skip)";
  if (m.value("partial", 0) > 0) os << " (" << m.value("partial", 0) << " partial)";
  return os.str();
}

bool IsPartial(const Json& c) { return c.value("status", "") == "PASSED" && c.value("unjudged", 0) > 0; }

std::vector<std::string> MatrixModes(const Json& doc) {
  std::vector<std::string> modes;
  if (!doc.contains("matrix")) return modes;
  for (const auto& [op, row] : doc["matrix"].items()) {
    for (const auto& [mode, cell] : row.items()) {
      if (std::find(modes.begin(), modes.end(), mode) == modes.end()) modes.push_back(mode);
    }
  }
  return modes;
}

std::vector<std::string> StartReports(const Json& meta, const std::string& dir) {
  MakeDir(dir);
  const std::string json = dir + "/results.json", md = dir + "/report.md", html = dir + "/report.html";
  RemoveIfPresent(md);
  RemoveIfPresent(html);
  Json doc = Json::object();
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
  AtomicWriteFile(json, FinishedDocument(doc).dump(1) + "\n");
  return {json, md, html};
}

Json FinishedDocument(const Json& doc) { return WithStatus(doc, "finished"); }

}  // namespace vt::reports

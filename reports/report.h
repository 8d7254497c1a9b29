// Report writers. Input: the results document (schema: reports/SCHEMA.md).
#pragma once

#include <string>
#include <vector>

#include "reports/summarize.h"

namespace vt::reports {

// Called when a run starts: removes <dir>/report.md and <dir>/report.html and
// writes <dir>/results.json with "status": "running" and the run's meta, so a
// run that dies before WriteReports never leaves an earlier run's pass at the
// path. Creates dir. Throws std::runtime_error (one line naming the path).
std::vector<std::string> StartReports(const Json& meta, const std::string& dir);

// Writes <dir>/results.json ("status": "finished"), <dir>/report.md and
// <dir>/report.html, each atomically (reports/atomic_file.h), creating dir.
// Returns the paths written; throws std::runtime_error on I/O errors.
std::vector<std::string> WriteReports(const Json& doc, const std::string& dir);

// The document as results.json holds it: "schema_version" and "status":
// "finished" first, then the rest in order.
Json FinishedDocument(const Json& doc);

std::string RenderMarkdown(const Json& doc);
std::string RenderHtml(const Json& doc);

}  // namespace vt::reports

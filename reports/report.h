// Report writers. Input: the results document (schema: reports/SCHEMA.md).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace vt::reports {

using Json = nlohmann::ordered_json;

// Writes <dir>/results.json, <dir>/report.md and <dir>/report.html, creating
// dir. Returns the paths written; throws std::runtime_error on I/O errors.
std::vector<std::string> WriteReports(const Json& doc, const std::string& dir);

std::string RenderMarkdown(const Json& doc);
std::string RenderHtml(const Json& doc);

}  // namespace vt::reports

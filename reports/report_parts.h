// Pieces report_md.cpp and report_html.cpp share (internal to vt_reports).
#pragma once

#include <string>
#include <vector>

#include "reports/summarize.h"

namespace vt::reports {

// "passed/ran", " FAIL", "(n skip)", "(n partial)" of one op x mode cell; "-" for none.
std::string MatrixCell(const Json& cell);
// Modes of the matrix, in first-seen order.
std::vector<std::string> MatrixModes(const Json& doc);
// A pass that could not judge every element (harness/core/compare.h).
bool IsPartial(const Json& c);
// HTML text escaping.
std::string HtmlEscape(const std::string& s);

}  // namespace vt::reports

// JUnit XML of a results document, for the CI systems that read test reports
// in that format (GitHub, GitLab, Jenkins). One <testcase> per case,
// classname "<op>.<mode>", name the case id, grouped in one <testsuite> per
// op.mode. A FAILED_INCORRECT or MISTRUSTED case is a <failure>, a
// FAILED_ERROR one an <error>; the message is the case's reason, the text its
// first bad elements and the repro line. SKIPPED and UNSUPPORTED cases are
// <skipped> with their reason.
#pragma once

#include <string>

#include "reports/summarize.h"

namespace vt::reports {

std::string JUnitXml(const Json& doc);

// Text made safe for an XML attribute or element: & < > " ' escaped, control
// characters other than tab and newline (which XML 1.0 forbids) shown as '?'.
std::string XmlEscape(const std::string& s);

}  // namespace vt::reports

#include "reports/junit.h"

#include <map>
#include <sstream>
#include <vector>

namespace vt::reports {
namespace {

// The first lines of a failure's detail: its first bad elements. The whole
// detail stays in report.md; a CI page shows the head of the text.
std::string Head(const std::string& detail, int lines) {
  std::size_t pos = 0;
  for (int k = 0; k < lines && pos != std::string::npos; ++k) {
    pos = detail.find('\n', pos);
    if (pos != std::string::npos) ++pos;
  }
  if (pos == std::string::npos || pos >= detail.size()) return detail;
  return detail.substr(0, pos) + "  ...\n";
}

}  // namespace

std::string XmlEscape(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&apos;"; break;
      default: o += (c < 0x20 && ch != '\n' && ch != '\t') || c == 0x7f ? '?' : ch;
    }
  }
  return o;
}

std::string JUnitXml(const Json& doc) {
  // Suites in the order their first case appears (the run's order).
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Json*>> suites;
  for (const Json& c : doc["cases"]) {
    const std::string cls = c.value("op", "") + "." + c.value("mode", "");
    if (!suites.count(cls)) order.push_back(cls);
    suites[cls].push_back(&c);
  }
  const Json& meta = doc["meta"];
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  double seconds = 0;
  std::ostringstream body;
  for (const std::string& cls : order) {
    int f = 0, e = 0, s = 0;
    double t = 0;
    std::ostringstream cases;
    for (const Json* c : suites[cls]) {
      const std::string st = c->value("status", "");
      const double sec = c->value("seconds", 0.0);
      t += sec;
      cases << "    <testcase classname=\"" << XmlEscape(cls) << "\" name=\"" << XmlEscape(c->value("id", ""))
            << "\" time=\"" << sec << "\"";
      const std::string text = Head(c->value("detail", ""), 12) + "repro: " + c->value("repro", "");
      if (st == "FAILED_ERROR") {
        ++e;
        cases << ">\n      <error message=\"" << XmlEscape(c->value("reason", "")) << "\" type=\"" << st << "\">"
              << XmlEscape(text) << "</error>\n    </testcase>\n";
      } else if (IsFailureStatus(st)) {
        ++f;
        cases << ">\n      <failure message=\"" << XmlEscape(c->value("reason", "")) << "\" type=\"" << st << "\">"
              << XmlEscape(text) << "</failure>\n    </testcase>\n";
      } else if (IsSkipStatus(st)) {
        ++s;
        cases << ">\n      <skipped message=\"" << XmlEscape(st + ": " + c->value("reason", "")) << "\"/>\n    </testcase>\n";
      } else {
        cases << "/>\n";
      }
    }
    const int n = static_cast<int>(suites[cls].size());
    body << "  <testsuite name=\"" << XmlEscape(cls) << "\" tests=\"" << n << "\" failures=\"" << f << "\" errors=\""
         << e << "\" skipped=\"" << s << "\" time=\"" << t << "\">\n"
         << cases.str() << "  </testsuite>\n";
    tests += n;
    failures += f;
    errors += e;
    skipped += s;
    seconds += t;
  }
  std::ostringstream os;
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  os << "<testsuites name=\"" << XmlEscape(meta.value("tool", "vt-conform") + " " + meta.value("tier", "") + " seed " +
                                           meta.value("seed", "") + " shard " + meta.value("shard", "0/1"))
     << "\" tests=\"" << tests << "\" failures=\"" << failures << "\" errors=\"" << errors << "\" skipped=\""
     << skipped << "\" time=\"" << seconds << "\">\n";
  os << body.str() << "</testsuites>\n";
  return os.str();
}

}  // namespace vt::reports

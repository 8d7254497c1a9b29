#include "reports/html_plots.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "reports/junit.h"  // XmlEscape: SVG text is XML

namespace vt::reports {
namespace {

constexpr double kLoExp = -6, kHiExp = 1;  // the log axis: 1e-6 .. 10
constexpr int kLeft = 190, kRight = 20, kTop = 16, kBottom = 46, kPlotW = 520;

std::string Fmt(double v) {
  std::ostringstream os;
  os.precision(4);
  os << v;
  return os.str();
}

std::string DecadeLabel(int e) {
  if (e == 0) return "1";
  if (e == 1) return "10";
  return "1e" + std::to_string(e);
}

// x pixel of a headroom value (clamped to the axis; callers skip non-finite).
double X(double v) {
  const double e = v <= 0 ? kLoExp : std::clamp(std::log10(v), kLoExp, kHiExp);
  return kLeft + (e - kLoExp) / (kHiExp - kLoExp) * kPlotW;
}

// The log x axis: line, a tick and label per decade, the title.
void XAxis(std::ostringstream& os, int y, const std::string& title) {
  os << "<g class=\"axis axis-x\"><line x1=\"" << kLeft << "\" y1=\"" << y << "\" x2=\"" << kLeft + kPlotW
     << "\" y2=\"" << y << "\" stroke=\"#333\"/>";
  for (int e = static_cast<int>(kLoExp); e <= static_cast<int>(kHiExp); ++e) {
    const double x = X(std::pow(10.0, e));
    os << "<line x1=\"" << Fmt(x) << "\" y1=\"" << y << "\" x2=\"" << Fmt(x) << "\" y2=\"" << y + 4
       << "\" stroke=\"#333\"/><text class=\"tick\" x=\"" << Fmt(x) << "\" y=\"" << y + 16
       << "\" text-anchor=\"middle\">" << (e == static_cast<int>(kLoExp) ? "&lt;=" : "") << DecadeLabel(e)
       << "</text>";
  }
  os << "<text class=\"axis-title\" x=\"" << kLeft + kPlotW / 2 << "\" y=\"" << y + 34
     << "\" text-anchor=\"middle\">" << XmlEscape(title) << "</text></g>";
}

void Legend(std::ostringstream& os, int x, int y, const std::vector<Series>& series, bool tolerance_line) {
  os << "<g class=\"legend\">";
  int k = 0;
  for (const Series& s : series) {
    os << "<g class=\"legend-entry\"><circle cx=\"" << x + 6 << "\" cy=\"" << y + 14 * k << "\" r=\"4\" fill=\""
       << s.color << "\"/><text x=\"" << x + 14 << "\" y=\"" << y + 14 * k + 4 << "\">" << XmlEscape(s.name)
       << "</text></g>";
    ++k;
  }
  if (tolerance_line) {
    os << "<g class=\"legend-entry\"><line x1=\"" << x << "\" y1=\"" << y + 14 * k << "\" x2=\"" << x + 12
       << "\" y2=\"" << y + 14 * k << "\" stroke=\"red\" stroke-width=\"2\"/><text x=\"" << x + 14 << "\" y=\""
       << y + 14 * k + 4 << "\">tolerance (headroom 1); right of it fails</text></g>";
  }
  os << "</g>";
}

std::string Figure(const std::string& id, const std::string& caption, int w, int h, const std::string& svg) {
  std::ostringstream os;
  os << "<figure class=\"plot\" id=\"" << XmlEscape(id) << "\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w
     << "\" height=\"" << h << "\" viewBox=\"0 0 " << w << " " << h << "\" role=\"img\" aria-label=\""
     << XmlEscape(caption) << "\">" << svg << "</svg><figcaption>" << XmlEscape(caption) << "</figcaption></figure>";
  return os.str();
}

}  // namespace

std::string HeadroomStripPlot(const std::string& id, const std::string& caption, const std::vector<StripRow>& rows,
                              const std::vector<Series>& series) {
  constexpr int kRow = 14;
  const int legend_h = 14 * static_cast<int>(series.size() + 1) + 8;
  const int plot_h = kRow * static_cast<int>(rows.size()) + 8;
  const int w = kLeft + kPlotW + kRight + 260, h = kTop + plot_h + kBottom;
  std::ostringstream os;
  const int y0 = kTop + plot_h;  // the x axis
  os << "<g class=\"axis axis-y\"><line x1=\"" << kLeft << "\" y1=\"" << kTop << "\" x2=\"" << kLeft << "\" y2=\""
     << y0 << "\" stroke=\"#333\"/>";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const int y = kTop + 4 + kRow * static_cast<int>(r) + kRow / 2;
    os << "<text class=\"tick\" x=\"" << kLeft - 6 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">"
       << XmlEscape(rows[r].label) << "</text>";
  }
  os << "<text class=\"axis-title\" x=\"12\" y=\"" << kTop + plot_h / 2 << "\" transform=\"rotate(-90 12 "
     << kTop + plot_h / 2 << ")\" text-anchor=\"middle\">op</text></g>";
  XAxis(os, y0, "headroom = worst error / allowed error (dimensionless, log scale)");
  os << "<line class=\"tolerance\" x1=\"" << Fmt(X(1)) << "\" y1=\"" << kTop << "\" x2=\"" << Fmt(X(1)) << "\" y2=\""
     << y0 << "\" stroke=\"red\" stroke-width=\"2\"/>";
  os << "<g class=\"marks\">";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const int y = kTop + 4 + kRow * static_cast<int>(r) + kRow / 2;
    for (const StripPoint& p : rows[r].points) {
      if (!std::isfinite(p.value) || p.series < 0 || p.series >= static_cast<int>(series.size())) continue;
      os << "<circle cx=\"" << Fmt(X(p.value)) << "\" cy=\"" << y << "\" r=\"2.5\" fill-opacity=\"0.6\" fill=\""
         << series[p.series].color << "\"" << (p.value > 1 ? " stroke=\"red\" stroke-width=\"1.5\"" : "")
         << "><title>" << XmlEscape(rows[r].label) << ": " << Fmt(p.value) << "</title></circle>";
    }
  }
  os << "</g>";
  Legend(os, kLeft + kPlotW + 30, kTop + 6, series, true);
  return Figure(id, caption, w, std::max(h, kTop + legend_h + kBottom), os.str());
}

std::string HeadroomHistogram(const std::string& id, const std::string& caption, const std::vector<double>& values,
                              const Series& series) {
  constexpr int kBins = static_cast<int>((kHiExp - kLoExp) * 2);  // half decades
  std::vector<int> count(kBins, 0);
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    const double e = v <= 0 ? kLoExp : std::log10(v);
    const int b = std::clamp(static_cast<int>(std::floor((e - kLoExp) * 2)), 0, kBins - 1);
    ++count[b];
  }
  const int top = std::max(1, *std::max_element(count.begin(), count.end()));
  constexpr int kPlotH = 120;
  const int w = kLeft + kPlotW + kRight + 260, h = kTop + kPlotH + kBottom;
  const int y0 = kTop + kPlotH;
  std::ostringstream os;
  // y axis: counts, ticks at 0, half and the top.
  os << "<g class=\"axis axis-y\"><line x1=\"" << kLeft << "\" y1=\"" << kTop << "\" x2=\"" << kLeft << "\" y2=\""
     << y0 << "\" stroke=\"#333\"/>";
  for (int t : {0, top / 2, top}) {
    const double y = y0 - static_cast<double>(t) / top * kPlotH;
    os << "<line x1=\"" << kLeft - 4 << "\" y1=\"" << Fmt(y) << "\" x2=\"" << kLeft << "\" y2=\"" << Fmt(y)
       << "\" stroke=\"#333\"/><text class=\"tick\" x=\"" << kLeft - 6 << "\" y=\"" << Fmt(y + 4)
       << "\" text-anchor=\"end\">" << t << "</text>";
  }
  os << "<text class=\"axis-title\" x=\"" << kLeft - 40 << "\" y=\"" << kTop + kPlotH / 2 << "\" transform=\"rotate(-90 "
     << kLeft - 40 << " " << kTop + kPlotH / 2 << ")\" text-anchor=\"middle\">outputs (count)</text></g>";
  XAxis(os, y0, "headroom of one output of one case (worst error / allowed, log scale, half-decade bins)");
  os << "<line class=\"tolerance\" x1=\"" << Fmt(X(1)) << "\" y1=\"" << kTop << "\" x2=\"" << Fmt(X(1))
     << "\" y2=\"" << y0 << "\" stroke=\"red\" stroke-width=\"2\"/><g class=\"marks\">";
  const double bw = static_cast<double>(kPlotW) / kBins;
  for (int b = 0; b < kBins; ++b) {
    if (count[b] == 0) continue;
    const double bh = static_cast<double>(count[b]) / top * kPlotH;
    os << "<rect x=\"" << Fmt(kLeft + b * bw + 1) << "\" y=\"" << Fmt(y0 - bh) << "\" width=\"" << Fmt(bw - 2)
       << "\" height=\"" << Fmt(bh) << "\" fill=\"" << series.color << "\"><title>" << count[b]
       << " outputs</title></rect>";
  }
  os << "</g>";
  Legend(os, kLeft + kPlotW + 30, kTop + 6, {series}, true);
  return Figure(id, caption, w, h, os.str());
}

}  // namespace vt::reports

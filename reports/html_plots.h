// Inline SVG plots of report.html. Every plot has an x axis and a y axis, each
// with tick labels and a title that names the quantity and its unit, and a
// legend; the browser test (reports/tools/check_report_html.py) fails a plot
// that lacks one. Values that cannot be placed (NaN, inf) are never drawn:
// an SVG coordinate "nan" is a console error in the browser.
#pragma once

#include <string>
#include <vector>

namespace vt::reports {

struct Series {
  std::string name;   // legend text
  std::string color;  // CSS colour
};

struct StripPoint {
  double value;  // headroom (> 0 placed on the log axis; <= floor at its left edge)
  int series;    // index into the series list
};

struct StripRow {
  std::string label;  // y tick label (an op)
  std::vector<StripPoint> points;
};

// One row per label, one dot per point at x = value on a log axis from 1e-6
// to 10, the tolerance (headroom 1) as a red line. `id` names the plot for the
// browser test and the page's anchors.
std::string HeadroomStripPlot(const std::string& id, const std::string& caption, const std::vector<StripRow>& rows,
                              const std::vector<Series>& series);

// Counts of `values` in log10 bins (one per half decade, 1e-6 .. 10, the
// first bin taking everything below, the last everything above).
std::string HeadroomHistogram(const std::string& id, const std::string& caption, const std::vector<double>& values,
                              const Series& series);

}  // namespace vt::reports

// report.html: one self-contained page (no script, no external resource).
// Sections, each "none" when empty: run facts, summary per family, changes
// since the baseline, op x mode, headroom per output dtype (16-bit outputs sit
// near 1 by construction - rounding to the output is most of their allowance -
// so each dtype has its own plot and f32 is never hidden behind them), error
// histograms of the ops with the least headroom, the coverage matrix
// op x dtype x mode x backend, failures, partial verdicts, skips.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "reports/html_plots.h"
#include "reports/report.h"
#include "reports/report_parts.h"

namespace vt::reports {
namespace {

constexpr const char* kNone = "<p class=\"none\">none</p>";

// The colours of the modes whose cases carry a headroom per output.
Series ModeSeries(const std::string& mode) {
  if (mode == "oracle") return {"oracle mode (vs the f64 oracle)", "#2b6cb0"};
  if (mode == "cuda") return {"cuda mode (CUDA kernel vs the oracle)", "#2f855a"};
  if (mode == "golden") return {"golden mode (vs upstream captures)", "#c05621"};
  return {mode + " mode", "#718096"};
}

// format -> op -> [(headroom, mode)] over every output of every case.
using Points = std::map<std::string, std::map<std::string, std::vector<std::pair<double, std::string>>>>;

Points HeadroomPoints(const Json& doc) {
  Points pts;
  for (const Json& c : doc["cases"]) {
    if (!c.contains("metrics") || !c["metrics"].is_object()) continue;
    for (const auto& [out, m] : c["metrics"].items()) {
      if (!m.is_object() || !m.contains("headroom") || !m["headroom"].is_number()) continue;
      const double h = m["headroom"].get<double>();
      if (!std::isfinite(h)) continue;
      // An output whose mode did not record its format still gets a plot.
      pts[m.value("format", "format-not-recorded")][c.value("op", "")].push_back({h, c.value("mode", "")});
    }
  }
  return pts;
}

void MetaTable(std::ostringstream& os, const Json& meta) {
  os << "<h2>Run</h2><table class=\"meta\">";
  for (const auto& [k, v] : meta.items()) {
    os << "<tr><th>" << HtmlEscape(k) << "</th><td>" << HtmlEscape(v.is_string() ? v.get<std::string>() : v.dump())
       << "</td></tr>";
  }
  os << "</table>";
}

void Baseline(std::ostringstream& os, const Json& doc) {
  os << "<h2 id=\"baseline\">Changes since the baseline</h2>";
  if (!doc.contains("baseline") || !doc["baseline"].is_object()) {
    os << "<p class=\"none\">none (no --baseline given)</p>";
    return;
  }
  const Json& d = doc["baseline"];
  os << "<p>old: " << HtmlEscape(d["old"].value("git_sha", "") + " " + d["old"].value("final_line", ""))
     << "<br>new: " << HtmlEscape(d["new"].value("git_sha", "") + " " + d["new"].value("final_line", "")) << "</p>";
  os << "<p><b>" << (d.value("fails", false) ? "FAIL: new failures or disappeared cases" : "no new failure, no case lost")
     << "</b></p><table><tr><th>change</th><th>cases</th><th>first cases</th></tr>";
  for (const char* k : {"new_failures", "disappeared", "fixed", "headroom_grew", "headroom_shrank", "newly_skipped",
                        "appeared"}) {
    os << "<tr" << ((std::string(k) == "new_failures" || std::string(k) == "disappeared") && !d[k].empty()
                         ? " class=\"fail\""
                         : "")
       << "><td>" << k << "</td><td>" << d[k].size() << "</td><td>";
    for (std::size_t i = 0; i < d[k].size() && i < 5; ++i) {
      os << "<code>" << HtmlEscape(d[k][i].value("mode", "") + " " + d[k][i].value("id", "")) << "</code><br>";
    }
    os << "</td></tr>";
  }
  os << "</table>";
}

void OpModeTable(std::ostringstream& os, const Json& doc) {
  os << "<h2 id=\"matrix\">Op x mode (passed/ran)</h2>";
  if (doc["matrix"].empty()) {
    os << kNone;
    return;
  }
  const auto modes = MatrixModes(doc);
  os << "<table><tr><th>op</th>";
  for (const auto& m : modes) os << "<th>" << HtmlEscape(m) << "</th>";
  os << "<th>max headroom</th></tr>";
  for (const auto& [op, row] : doc["matrix"].items()) {
    os << "<tr><td>" << HtmlEscape(op) << "</td>";
    double head = 0;
    for (const auto& m : modes) {
      const bool has = row.contains(m);
      const bool fail = has && row[m].value("failed", 0) > 0;
      if (has) head = std::max(head, row[m].value("max_headroom", 0.0));
      os << "<td class=\"" << (fail ? "fail" : has ? "ok" : "") << "\">" << HtmlEscape(MatrixCell(has ? row[m] : Json()))
         << "</td>";
    }
    os << "<td>" << head << "</td></tr>";
  }
  os << "</table>";
}

void HeadroomPlots(std::ostringstream& os, const Points& pts) {
  os << "<h2 id=\"headroom\">Headroom per output dtype</h2><p>Each dot is one output of one case: its worst "
        "error divided by what its tolerance allows (a pass is at most 1). A 16-bit output's allowance is mostly "
        "the rounding to that format, so its dots sit near 1 by construction; each output dtype has its own plot.</p>";
  if (pts.empty()) {
    os << kNone;
    return;
  }
  for (const auto& [fmt, ops] : pts) {
    std::vector<Series> series;
    std::map<std::string, int> index;
    std::vector<StripRow> rows;
    for (const auto& [op, points] : ops) {
      StripRow row{op, {}};
      for (const auto& [h, mode] : points) {
        if (!index.count(mode)) {
          index[mode] = static_cast<int>(series.size());
          series.push_back(ModeSeries(mode));
        }
        row.points.push_back({h, index[mode]});
      }
      rows.push_back(std::move(row));
    }
    os << "<h3>" << HtmlEscape(fmt) << " outputs</h3>"
       << HeadroomStripPlot("headroom-" + fmt, "Headroom of every " + fmt + " output, per op", rows, series);
  }
}

void Histograms(std::ostringstream& os, const Points& pts) {
  os << "<h2 id=\"histograms\">Error histograms: the ops with the least headroom</h2><p>Per output dtype, the two ops "
        "whose worst output came closest to its tolerance, with the distribution of all their outputs' headroom.</p>";
  int n = 0;
  for (const auto& [fmt, ops] : pts) {
    std::vector<std::pair<double, std::string>> worst;
    for (const auto& [op, points] : ops) {
      double m = 0;
      for (const auto& p : points) m = std::max(m, p.first);
      worst.push_back({m, op});
    }
    std::sort(worst.begin(), worst.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t k = 0; k < worst.size() && k < 2; ++k) {
      std::vector<double> values;
      for (const auto& p : ops.at(worst[k].second)) values.push_back(p.first);
      std::ostringstream cap;
      cap << worst[k].second << ", " << fmt << " outputs: " << values.size() << " outputs, worst headroom "
          << worst[k].first;
      os << HeadroomHistogram("hist-" + fmt + "-" + worst[k].second, cap.str(), values,
                              {worst[k].second + " (" + fmt + ")", "#6b46c1"});
      ++n;
    }
  }
  if (n == 0) os << kNone;
}

void Coverage(std::ostringstream& os, const Json& doc) {
  os << "<h2 id=\"coverage\">Coverage: op x dtype x mode x backend (passed/ran)</h2>";
  std::vector<std::string> cols;
  std::map<std::pair<std::string, std::string>, std::map<std::string, std::pair<int, int>>> cells;
  std::vector<std::pair<std::string, std::string>> rows;
  for (const Json& c : doc["cases"]) {
    const std::string col = c.value("mode", "") + " / " + c.value("backend", "cpu");
    if (std::find(cols.begin(), cols.end(), col) == cols.end()) cols.push_back(col);
    const std::pair<std::string, std::string> row{c.value("op", ""), c.value("dtypes", "")};
    if (!cells.count(row)) rows.push_back(row);
    auto& cell = cells[row][col];
    const std::string st = c.value("status", "");
    cell.first += st == "PASSED";
    cell.second += !IsSkipStatus(st);
  }
  if (rows.empty()) {
    os << kNone;
    return;
  }
  os << "<table class=\"coverage\"><tr><th>op</th><th>dtypes</th>";
  for (const auto& c : cols) os << "<th>" << HtmlEscape(c) << "</th>";
  os << "</tr>";
  for (const auto& row : rows) {
    os << "<tr><td>" << HtmlEscape(row.first) << "</td><td>" << HtmlEscape(row.second.empty() ? "-" : row.second)
       << "</td>";
    for (const auto& col : cols) {
      const auto it = cells[row].find(col);
      if (it == cells[row].end()) {
        os << "<td>-</td>";
        continue;
      }
      const auto [passed, ran] = it->second;
      os << "<td class=\"" << (passed < ran ? "fail" : ran > 0 ? "ok" : "") << "\">" << passed << "/" << ran << "</td>";
    }
    os << "</tr>";
  }
  os << "</table>";
}

void Failures(std::ostringstream& os, const Json& doc) {
  os << "<h2 id=\"failures\">Failures</h2>";
  int n = 0;
  for (const Json& c : doc["cases"]) {
    const std::string st = c.value("status", "");
    if (!IsFailureStatus(st)) continue;
    ++n;
    os << "<h3>" << HtmlEscape(st + " " + c.value("op", "") + "/" + c.value("mode", "")) << "</h3><p><code>"
       << HtmlEscape(c.value("id", "")) << "</code></p><p>" << HtmlEscape(c.value("reason", "")) << "</p><pre>"
       << HtmlEscape(c.value("detail", "")) << "</pre><p>repro: <code>" << HtmlEscape(c.value("repro", ""))
       << "</code></p>";
  }
  if (n == 0) os << kNone;
}

void Partials(std::ostringstream& os, const Json& doc) {
  os << "<h2 id=\"partial\">Partial verdicts (passed; some elements not judged)</h2>";
  int partial = 0;
  for (const Json& c : doc["cases"]) {
    if (!IsPartial(c)) continue;
    if (partial++ == 0) os << "<table><tr><th>op/mode</th><th>case</th><th>not judged</th></tr>";
    os << "<tr><td>" << HtmlEscape(c.value("op", "") + "/" + c.value("mode", "")) << "</td><td><code>"
       << HtmlEscape(c.value("id", "")) << "</code></td><td>" << HtmlEscape(c.value("partial", "")) << "</td></tr>";
  }
  os << (partial == 0 ? kNone : "</table>");
}

void Skips(std::ostringstream& os, const Json& doc) {
  os << "<h2 id=\"skips\">Skipped and unsupported, by reason</h2>";
  const Tally t = TallyOf(doc["cases"]);
  if (t.skip_reasons.empty()) {
    os << kNone;
    return;
  }
  os << "<table><tr><th>cases</th><th>reason</th></tr>";
  for (const auto& [reason, n] : t.skip_reasons) os << "<tr><td>" << n << "</td><td>" << HtmlEscape(reason) << "</td></tr>";
  os << "</table>";
}

}  // namespace

std::string RenderHtml(const Json& doc) {
  std::ostringstream os;
  os << "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>vt-conform report</title>"
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}.fail{background:#fdd}.ok{background:#dfd}"
        "pre{background:#f6f6f6;padding:8px}figure.plot{margin:1em 0}figure.plot svg{font-size:11px}"
        ".axis-title{font-weight:bold}.none{color:#666;font-style:italic}table.meta td{font-family:monospace}"
        "</style></head><body>";
  const Json& meta = doc["meta"];
  os << "<h1>vt-conform report</h1><p><code>" << HtmlEscape(meta.value("command", "")) << "</code></p>";
  os << "<p><b>" << HtmlEscape(doc["summary"].value("final_line", "")) << "</b></p>";
  os << "<h2 id=\"families\">Per family</h2>";
  const auto fams = FamilyLines(doc["cases"]);
  if (fams.empty()) os << kNone;
  else {
    os << "<ul>";
    for (const std::string& l : fams) os << "<li>" << HtmlEscape(l) << "</li>";
    os << "</ul>";
  }
  Baseline(os, doc);
  OpModeTable(os, doc);
  const Points pts = HeadroomPoints(doc);
  HeadroomPlots(os, pts);
  Histograms(os, pts);
  Coverage(os, doc);
  Failures(os, doc);
  Partials(os, doc);
  Skips(os, doc);
  MetaTable(os, meta);
  os << "</body></html>\n";
  return os.str();
}

}  // namespace vt::reports

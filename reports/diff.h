// vt-report diff and vt-conform --baseline: what changed between two results
// documents of the same catalog. Cases are matched by mode and id (the id
// carries the op, the dtypes, the shape and the seed).
#pragma once

#include <string>

#include "reports/summarize.h"

namespace vt::reports {

struct DiffOptions {
  // A headroom change is reported when new/old leaves [1/factor, factor].
  double factor = 2.0;
  // Headroom below this is read as this: a case whose worst error stays under
  // a thousandth of its tolerance has not moved in any way that matters, and
  // a ratio of two such values (1e-7 -> 3e-7) would bury the real changes.
  double floor = 1e-3;
};

// {"old": {...}, "new": {...}, "new_failures": [...], "fixed": [...],
//  "headroom_grew": [...], "headroom_shrank": [...], "disappeared": [...],
//  "appeared": [...], "newly_skipped": [...], "notes": [...], "fails": bool}.
// Each listed case: {op, mode, id, old_status, new_status, old_headroom,
// new_headroom, reason, repro}. "fails" is true on a new failure or a case
// that disappeared (vt-report diff then exits 1).
Json DiffDocs(const Json& old_doc, const Json& new_doc, const DiffOptions& opt = {});

// The diff as Markdown: counts first, then each list (at most `limit` rows
// each, the rest counted). vt-report diff prints it; report.md starts with it
// when the run was given --baseline.
std::string DiffMarkdown(const Json& diff, std::size_t limit = 50);

}  // namespace vt::reports

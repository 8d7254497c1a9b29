// vt-conform --jobs N: the run split over N processes of this binary, each
// `--shard i/N` into a folder of its own, their results merged (vt-report
// merge's MergeShards) into the document the one-process run writes: the same
// cases in the same order with the same verdicts; only timings differ. The
// gate uses every core this way (one process used about one of two).
#pragma once

#include <string>
#include <vector>

#include "reports/summarize.h"

namespace vt::conform::cli {

struct JobsPlan {
  int jobs = 2;
  std::vector<std::string> args;  // the run's own arguments, without --jobs/--report/--junit/--baseline/--quiet
  std::string work_dir;           // each job writes <work_dir>/job-<i>/results.json
  bool progress = true;           // forward the jobs' progress lines, each prefixed "job i/N: "
};

// Runs the jobs and returns the merged results document (the jobs' folders
// are removed after the merge; kept when a job failed). Every line a job
// prints reaches stderr, prefixed. Throws std::runtime_error naming the job
// when one cannot start, dies or leaves no finished results document.
vt::reports::Json RunJobs(const JobsPlan& plan);

}  // namespace vt::conform::cli

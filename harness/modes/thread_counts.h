// The thread counts the threads mode compares with one thread (threads_mode.cpp),
// for the run's metadata (results.json meta.threads_mode).
#pragma once

#include <vector>

namespace vt::conform {

std::vector<int> ThreadsModeCounts();

}  // namespace vt::conform

#pragma once
// Runs of a sweep on worker processes: each worker a fork of this process
// that does a share of the runs one after another (at most 32), each run's
// record sent back as one JSON line on a pipe, so that a run that crashes or
// hangs (killed at the run timeout) becomes a failed record and the others
// go on (the worker's runs after it, on the next workers).
#include "eval/benchmark.h"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace prmkit {

/// Runs runs[i] for every i in `todo`, on at most `jobs` worker processes
/// at a time, and calls record() with each run's record as it finishes (a
/// failed record, with the reason, for a worker that crashed, hung past
/// `timeoutSeconds` or ended without a result).
void runOnWorkers(const std::vector<RunSpec>& runs, const std::vector<std::size_t>& todo, std::size_t jobs,
                  double timeoutSeconds, const std::function<void(RunRecord)>& record);

/// Writes all of `data` to a file descriptor (retrying short writes); throws on failure.
void writeAll(int fd, const std::string& data);

}  // namespace prmkit

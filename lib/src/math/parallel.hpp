#pragma once
// Keel's parallel loops: on the game's JobSystem when it set one
// (keel/jobs.hpp), else on oneTBB. Every caller's iterations are
// independent, each writing its own results, so the bits do not depend on
// how the loop is split or run.

#include <keel/jobs.hpp>

#include <tbb/parallel_for.h>

#include <cstddef>

namespace keel::KEEL_ABI::detail {

/// body(i) for every i in [begin, end).
template <class Index, class Body>
void parallelFor(Index begin, Index end, const Body& body, std::size_t grain = 1) {
  if (!(begin < end)) return;
  if (JobSystem* jobs = jobSystem()) {
    jobs->parallelFor(std::size_t(end - begin), grain, [&](std::size_t first, std::size_t last) {
      for (std::size_t i = first; i < last; ++i) body(Index(begin + Index(i)));
    });
    return;
  }
  tbb::parallel_for(begin, end, body);
}

/// body(first, last) for ranges that together cover [begin, end) once,
/// split as parallelFor splits it: for a body that works through its range
/// in order (looking ahead within it).
template <class Body>
void parallelForRanges(std::size_t begin, std::size_t end, const Body& body, std::size_t grain = 1) {
  if (!(begin < end)) return;
  if (JobSystem* jobs = jobSystem()) {
    jobs->parallelFor(end - begin, grain,
                      [&](std::size_t first, std::size_t last) { body(begin + first, begin + last); });
    return;
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(begin, end, grain),
                    [&](const tbb::blocked_range<std::size_t>& r) { body(r.begin(), r.end()); });
}

}  // namespace keel::KEEL_ABI::detail

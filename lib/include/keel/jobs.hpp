#pragma once
/// @file jobs.hpp
/// keel::JobSystem: Keel's parallel work on a game's own threads
/// (docs/threads.md).

#include <keel/config.hpp>

#include <cstddef>
#include <functional>

namespace keel::KEEL_ABI {

/// A game's job system, for the loops Keel runs in parallel: the spectral
/// ocean's tiles, the wake field's transforms and update, a WaterFleet's
/// boats. Each loop's iterations are independent and each writes only its
/// own results, so Keel's results are the same bits whichever ranges the
/// job system makes, in whatever order, on whatever threads.
class JobSystem {
 public:
  virtual ~JobSystem() = default;
  /// Calls `body(begin, end)` on ranges that together cover [0, count)
  /// once each, and returns when every call has returned. `grain` is the
  /// fewest iterations Keel thinks worth a job of their own (a hint). A body
  /// may call parallelFor again (Keel nests loops); a job system that
  /// cannot run nested loops in parallel may run them on the calling thread.
  virtual void parallelFor(std::size_t count, std::size_t grain,
                           const std::function<void(std::size_t begin, std::size_t end)>& body) = 0;
};

/// Runs Keel's parallel loops on `jobs` from now on, or on oneTBB (the
/// default) when null. Set it while no Keel work runs; `jobs` must outlive
/// its use. A WaterFleet then runs its boats on `jobs` too, whatever its
/// thread count (setThreadCount(1) still runs them serially).
void setJobSystem(JobSystem* jobs);

/// The job system set by setJobSystem, or null for oneTBB.
[[nodiscard]] JobSystem* jobSystem();

}  // namespace keel::KEEL_ABI

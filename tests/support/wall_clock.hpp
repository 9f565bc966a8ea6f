#pragma once
// The benchmarks' wall clock: what their counters time within an iteration
// (a step's water and Bullet's own, an ocean's update, a substep).

#include <chrono>

namespace keel::test {

/// The wall time `f()` takes [s].
template <class F>
double secondsOf(const F& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace keel::test

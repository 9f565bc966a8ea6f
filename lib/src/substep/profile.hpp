#pragma once
// The per-stage profile's clock: each stage opens a StageScope naming
// itself (as Box2D's stages assert their type where they run), which adds
// the stage's wall time to the boat's SubstepProfile when it is profiled
// and costs a test of a null pointer when it is not.

#include <keel/substep_profile.hpp>

#include <chrono>

namespace keel::KEEL_ABI::detail {

/// Times the stage from its construction to its destruction into
/// `profile` (null: not profiled, nothing is read).
class StageScope {
 public:
  StageScope(SubstepProfile* profile, SubstepStage stage) : profile_(profile) {
    if (profile_) stage_ = stage, start_ = Clock::now().time_since_epoch().count();
  }
  ~StageScope() {
    if (profile_) {
      const auto elapsed = Clock::now().time_since_epoch() - Clock::duration(start_);
      profile_->stage_s[std::size_t(stage_)] += std::chrono::duration<double>(elapsed).count();
    }
  }
  StageScope(const StageScope&) = delete;
  StageScope& operator=(const StageScope&) = delete;

 private:
  using Clock = std::chrono::steady_clock;
  SubstepProfile* profile_;
  // Set, and read, only when profiled: a stage not profiled stores neither
  // (the clock's ticks, as a time_point would zero itself).
  SubstepStage stage_;
  Clock::rep start_;
};

/// `plan(boat, state)` (a model's plan: planTriangles, planColumns), timed
/// as the Plan stage when the boat is profiled.
template <class Plan, class Boat, class State>
[[nodiscard]] auto timedPlan(Plan plan, const Boat& boat, const State& state) {
  const StageScope scope(state.profile.get(), SubstepStage::Plan);
  return plan(boat, state);
}

}  // namespace keel::KEEL_ABI::detail

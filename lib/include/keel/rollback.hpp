#pragma once
/// @file rollback.hpp
/// keel::WaterActionState and keel::WaterFleetState: everything a boat, or
/// a fleet, carries from one substep to the next, saved so that a game can
/// roll back and simulate the same frames again to the same bits
/// (docs/determinism.md, "Rollback").

#include <keel/config.hpp>

#include <memory>
#include <vector>

namespace keel::KEEL_ABI {

/// One boat's saved state (WaterAction::saveState): its water clock, its
/// settings and level of detail, the water it felt at the last substep
/// (heights, swept rates, its patch and the surface's grid history), its
/// compartments with their floodwater and openings (holes opened since
/// included), its status and its last forces. Not the rigid body: the game
/// saves and restores that itself, nor the surface (a SpectralOcean's or a
/// HeightGridSurface's tiles are the game's to put back: docs/determinism.md).
///
/// A value: copy it, keep many in a ring buffer. Copying into a state of
/// the same boat reuses its memory (no allocation); a default-constructed
/// state holds nothing and cannot be restored. What a state costs in
/// memory and time: keel_bench_rollback (docs/determinism.md, "Rollback").
class WaterActionState {
 public:
  WaterActionState();
  ~WaterActionState();
  WaterActionState(const WaterActionState& other);
  /// Reuses this state's memory where it is large enough.
  WaterActionState& operator=(const WaterActionState& other);
  WaterActionState(WaterActionState&& other) noexcept;
  WaterActionState& operator=(WaterActionState&& other) noexcept;

  /// True for a default-constructed (or moved-from) state: nothing saved.
  [[nodiscard]] bool empty() const { return saved_ == nullptr; }
  /// The water clock saved [s] (0 when empty()).
  [[nodiscard]] double time_s() const;

 private:
  /// What is saved (lib/src): opaque here.
  struct Saved;
  /// The library's own way to what this class keeps private; not for users.
  friend class Internals;
  std::unique_ptr<Saved> saved_;
};

/// A fleet's saved state (WaterFleet::saveState): its water clock and
/// every boat's WaterActionState, in the fleet's order. A value, as
/// WaterActionState.
class WaterFleetState {
 public:
  /// The water clock saved [s].
  [[nodiscard]] double time_s() const { return time_s_; }
  /// The boats' states, in WaterFleet::boat() order.
  [[nodiscard]] const std::vector<WaterActionState>& boats() const { return boats_; }

 private:
  /// The library's own way to what this class keeps private; not for users.
  friend class Internals;
  double time_s_ = 0;
  std::vector<WaterActionState> boats_;
};

}  // namespace keel::KEEL_ABI

#pragma once
/// @file effects.hpp
/// Effect events: where a boat throws spray, pushes a bow wave, splashes
/// into or out of the water, and takes water through a hole, reported by the
/// boat each substep for a game's particles and foam (docs/effects.md). Off
/// by default and free when off (WaterAction::setEffects); when on, read
/// WaterAction::effects() after stepSimulation and call clearEffects().

#include <keel/config.hpp>

#include <LinearMath/btScalar.h>
#include <LinearMath/btVector3.h>

#include <cstddef>
#include <cstdint>

namespace keel::KEEL_ABI {

/// What an EffectEvent marks.
enum class EffectKind : std::uint8_t {
  /// Faces cut by the waterline that move into the water fast (the hull's
  /// normal speed into the water at least EffectSettings::sprayMinSpeed_mps):
  /// a planing bow's spray sheet, a hull slamming into a wave.
  Spray,
  /// The waterline where the hull pushes into the water (normal speed at
  /// least EffectSettings::bowWaveMinSpeed_mps): the bow wave and its foam.
  BowWave,
  /// The hull touches the water after a substep clear of it, or leaves it
  /// after a substep in it (a drop, a boat leaping a wave).
  Splash,
  /// Water flows through an opening to the sea (docs/flooding.md).
  Flooding,
};

/// How many emitters of each of Spray and BowWave a boat has: the octants
/// of the hull's own horizontal plane, about its centre of mass. A boat
/// reports at most this many events of each of the two a substep.
inline constexpr std::size_t kEffectSectors = 8;

/// One effect event. Positions and vectors are world coordinates and axes;
/// velocities are relative to the water (its mean velocity under the boat
/// as the hydrodynamic terms found it: still water when none runs). The
/// meaning of `rate`, `speed_mps` and `extent_m` by kind:
///
/// | kind     | speed_mps                         | rate                                      | extent_m |
/// |----------|-----------------------------------|-------------------------------------------|----------|
/// | Spray    | normal speed into the water [m/s] | swept volume rate of the wet faces [m^3/s] | waterline length [m] |
/// | BowWave  | normal speed into the water [m/s] | waterline length x normal speed [m^2/s]   | waterline length [m] |
/// | Splash   | vertical speed at the centre [m/s] | displaced volume's rate of change [m^3/s], > 0 entering, < 0
/// leaving | radius of the wetted area [m] | | Flooding | jet speed through the opening [m/s] | flow [m^3/s], > 0 into
/// the boat, < 0 out | sqrt(opening area) [m] |
struct EffectEvent {
  EffectKind kind = EffectKind::Spray;
  /// Which emitter of its kind, the same from substep to substep (for a
  /// trail per emitter): Spray and BowWave, the sector (< kEffectSectors);
  /// Splash, 0; Flooding, the opening's index among the boat's openings to
  /// the sea, counted through WaterAction::compartments() in order.
  std::uint32_t source = 0;
  /// Where [m, world]: Spray and BowWave, on the waterline (the mean of
  /// the faces merged, weighted by `rate`); Splash, the centre of buoyancy
  /// (entering: this substep's; leaving: the last wet substep's) on the
  /// water's surface; Flooding, the opening's centre.
  btVector3 position_m{0, 0, 0};
  /// The hull's velocity at position_m relative to the water [m/s, world];
  /// Flooding: the jet's velocity relative to the hull (into the boat for
  /// inflow).
  btVector3 velocity_mps{0, 0, 0};
  /// Unit vector [world]: Spray and BowWave, the faces' mean outward normal
  /// (where the water is pushed); Splash, up; Flooding, the jet's direction.
  btVector3 direction{0, 0, 0};
  btScalar speed_mps = 0;  ///< the kind's speed (table above) [m/s], >= 0
  btScalar rate = 0;       ///< the kind's rate (table above) [m^3/s or m^2/s]
  btScalar extent_m = 0;   ///< the kind's size (table above) [m], >= 0
  double time_s = 0;       ///< the water clock at the end of the substep [s] (WaterAction::time_s)
};

/// What a boat reports, and how much (WaterAction::setEffects).
struct EffectSettings {
  /// Off by default: the substep then does no work for effects, and the
  /// boat holds no memory for them.
  bool enabled = false;
  /// Events held until WaterAction::clearEffects() (allocated once when
  /// switched on); beyond it events are dropped and counted
  /// (WaterAction::droppedEffects). At most 2 kEffectSectors + 1 events a
  /// substep, plus one per opening to the sea flowing.
  std::size_t capacity = 256;
  /// Spray where a face's normal speed into the water is at least this
  /// [m/s] (> 0).
  btScalar sprayMinSpeed_mps = 3;
  /// Bow wave where the waterline's normal speed into the water is at
  /// least this [m/s] (> 0).
  btScalar bowWaveMinSpeed_mps = btScalar(0.3);
  /// Splash when the hull enters or leaves the water at least this fast
  /// along up [m/s] (>= 0).
  btScalar splashMinSpeed_mps = btScalar(0.5);
  /// Flooding where an opening passes at least this [m^3/s] (>= 0) either way.
  btScalar floodingMinRate_m3ps = btScalar(1e-4);
  /// The strongest sectors (largest rate) reported a substep, of Spray and
  /// of BowWave, at most kEffectSectors.
  std::size_t maxSprayPerSubstep = kEffectSectors;
  std::size_t maxBowWavePerSubstep = kEffectSectors;
  /// Throws std::invalid_argument naming the first bad field.
  void validate() const;
};

}  // namespace keel::KEEL_ABI

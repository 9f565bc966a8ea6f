#pragma once
// Rollback with Keel (docs/determinism.md, "Rollback"): a ring buffer of
// the last frames, each with Keel's state, the bodies' and the ocean's.

#include <keel/spectral_ocean.hpp>
#include <keel/water_fleet.hpp>

#include <LinearMath/btTransform.h>

#include <array>
#include <cstdint>
#include <vector>

class btRigidBody;

namespace game {

/// What Bullet carries of a body from one step to the next while it
/// touches nothing: its transforms, velocities and sleep state.
struct BodyState {
  btTransform transform, interpolation;
  btVector3 linear, angular, interpolationLinear, interpolationAngular;
  int activation = 0;
  btScalar deactivationTime = 0;
  void save(const btRigidBody& body);
  void restore(btRigidBody& body) const;
};

/// One saved frame of the world.
struct SavedFrame {
  std::int64_t frame = -1;               ///< the frame it was saved after; -1: none yet
  keel::WaterFleetState water;           ///< Keel's state
  std::vector<BodyState> bodies;         ///< each boat's body, in the fleet's order
  std::array<double, 2> oceanTimes_s{};  ///< the ocean's tiles
};

/// The last frames of a game whose boats float in `fleet` on `ocean`.
class FrameHistory {
 public:
  FrameHistory(keel::WaterFleet& fleet, keel::SpectralOcean& ocean, std::size_t frames)
      : fleet_(fleet), ocean_(ocean), ring_(frames) {}
  /// Saves the world as it is after `frame`. Allocates nothing once every
  /// slot of the ring has been used.
  void save(std::int64_t frame);
  /// Puts the world back as it was after `frame`; false when the ring no
  /// longer holds it.
  bool restore(std::int64_t frame);

 private:
  keel::WaterFleet& fleet_;
  keel::SpectralOcean& ocean_;
  std::vector<SavedFrame> ring_;
};

}  // namespace game

#pragma once
// What a boat that makes waves shares with its WakeField: the sources its
// last substep left (the WakeSources stage writes them, the field's update
// reads them) and the window it may make them in.

#include <keel/water_surface.hpp>

#include <cstdint>
#include <memory>
#include <vector>

namespace keel::KEEL_ABI::detail {

/// A wet piece of a hull as a source of volume: the rate at which its face
/// pushes the water aside, at its centroid (docs/wakes.md, "Forcing").
struct WakeSource {
  double east_m = 0, north_m = 0;  ///< centroid, world, along the water's axes [m]
  btScalar depth_m = 0;            ///< centroid's depth below the surface [m]
  btScalar rate_m3ps = 0;          ///< (hull velocity - ambient water velocity) . area vector [m^3/s]
  btScalar eastVelocity_mps = 0;   ///< the centroid's velocity along east [m/s]
  btScalar northVelocity_mps = 0;  ///< and along north [m/s]
};

/// The square window the field covers, as its last update left it [m].
struct WakeWindow {
  double westEdge_m = 0, southEdge_m = 0, size_m = 0;
  [[nodiscard]] bool contains(double east_m, double north_m) const {
    return east_m >= westEdge_m && east_m < westEdge_m + size_m && north_m >= southEdge_m &&
           north_m < southEdge_m + size_m;
  }
};

/// One boat's link to the field it makes waves in. Owned jointly: the boat
/// keeps it in its state, the field keeps a weak reference and forgets the
/// boat when it is gone.
struct WakeLink {
  std::shared_ptr<const WaterSurface> ambient;  ///< the water the sources' velocities are relative to
  const void* field = nullptr;                  ///< the WakeField (identity only)
  bool fieldAlive = true;                       ///< false once the field is destroyed: make no sources
  WakeWindow window;                            ///< set by the field's update
  std::vector<WakeSource> sources;              ///< the last substep's (capacity kept)
};

}  // namespace keel::KEEL_ABI::detail

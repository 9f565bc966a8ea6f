#pragma once
// What a boat that makes waves shares with its WakeField: the sources its
// last substep left (the WakeSources stage writes them, the field's update
// reads them) and the window it may make them in.

#include <LinearMath/btVector3.h>
#include <keel/hull.hpp>
#include <keel/water_surface.hpp>

#include "kernels/wake_pieces.hpp"

#include <array>

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

/// What a boat's last substep left for the field: its wet pieces, body
/// axes, plane by plane (kernels/wake_pieces.hpp: centroid relative to the
/// centre of mass [m], area vector outward [m^2], centroid's depth [m]),
/// the first `triangles` of them the hull's whole wet triangles, which
/// leave only their index and depth (their centroid and area vector are
/// the hull's), and its motion then. The field's update makes each piece a
/// WakeSource (sourceOf), so that of a frame's substeps only the last
/// one's pieces, which the update reads, are worked out.
struct WakeSources {
  double centreEast_m = 0, centreNorth_m = 0;  ///< the centre of mass along the water's axes [m]
  btVector3 east{0, 0, 0}, north{0, 0, 0};     ///< the water's axes, body axes
  btVector3 velocity{0, 0, 0};  ///< the centre of mass's velocity relative to the ambient water, body axes [m/s]
  btVector3 ambient{0, 0, 0};   ///< the ambient water's velocity under it, body axes [m/s]
  btVector3 angular{0, 0, 0};   ///< the body's angular velocity, body axes [rad/s]
  /// Each at least `count` long (capacity kept): the depth plane every
  /// piece's, the others those of the pieces from `triangles` on.
  std::array<std::vector<btScalar>, kWakePlanes> planes;
  std::vector<std::uint32_t> triangle;  ///< the whole wet triangles' indices in the hull
  std::size_t triangles = 0;            ///< the whole wet triangles, first
  std::size_t count = 0;                ///< the pieces
};

/// The source a piece of centroid `g` and area vector `area` (body axes,
/// kernels/wake_pieces.hpp) at `depth_m` makes: its face moving at the
/// body's velocity relative to the ambient water pushes it aside at `v . S`.
[[nodiscard]] inline WakeSource sourceAt(const WakeSources& s, const btVector3& g, const btVector3& area,
                                         btScalar depth_m) {
  const btVector3 relative = s.velocity + s.angular.cross(g);
  const btVector3 moving = relative + s.ambient;
  return {s.centreEast_m + double(g.dot(s.east)),
          s.centreNorth_m + double(g.dot(s.north)),
          depth_m,
          relative.dot(area),
          moving.dot(s.east),
          moving.dot(s.north)};
}

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
  std::shared_ptr<const Hull> hull;             ///< the boat's, whose whole triangles the sources name
  const void* field = nullptr;                  ///< the WakeField (identity only)
  bool fieldAlive = true;                       ///< false once the field is destroyed: make no sources
  WakeWindow window;                            ///< set by the field's update
  WakeSources sources;                          ///< the last substep's
};

}  // namespace keel::KEEL_ABI::detail

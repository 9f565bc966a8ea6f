#pragma once
// The sampling side of a boat's water patch (docs/model.md §1, "Water
// sampling"): keel::WaterPatch is what a user reads of it; this configures
// the grid for a hull and samples a surface on it, allocating nothing once
// configured and sampled once.
//
// Horizontal coordinates (u, v) are along WaterFrame::east and
// WaterFrame::north [m], heights along WaterFrame::up [m].

#include <keel/surface_authoring.hpp>
#include <keel/water_sampling.hpp>

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace keel::KEEL_ABI::detail {

/// A box along east and north (the patch's u and v) [m]: what a hull
/// covers of the water.
struct Footprint {
  double uLo_m, uHi_m, vLo_m, vHi_m;
};

/// A WaterPatch the library configures and samples.
class PatchSampler final : public WaterPatch {
 public:
  /// Allocates the grid for a hull of bounding radius `hullRadius_m` [m] with
  /// square cells of `cellSize_m` [m]. Throws std::invalid_argument for a
  /// non-positive or non-finite argument, or more than 4,194,304 samples.
  void configure(btScalar cellSize_m, btScalar hullRadius_m);

  /// Samples `surface` on the grid around the horizontal point
  /// (`centreU_m`, `centreV_m`) [m] (the centre of mass's) at time `t_s` [s].
  /// Returns the number of samples that were not finite; each was replaced
  /// by the mean of the finite ones (0 when none was finite). Throws
  /// std::out_of_range, sampling nothing, when the point is not finite or
  /// lies farther than reach_m() from the origin.
  std::size_t sample(const WaterSurface& surface, double centreU_m, double centreV_m, double t_s);

  /// sample(), and the water's velocity at every node at velocityDepths_m()
  /// below the surface when the surface answers grids with velocities
  /// (WaterSurface::gridHeightsAndVelocities): then hasVelocities() is true
  /// and velocity() interpolates them; otherwise it is false and only the
  /// heights are sampled. `deepest_m` [m] (default: all of them) keeps only
  /// the depths down to the first at or below it, at least two: velocity()
  /// answers exactly as with all of them at points down to
  /// velocityDepths_m().back() below the surface, and holds the velocity
  /// there below it. The deep levels cost as much as the shallow ones and a
  /// floating hull rarely reaches them (a substep asks for the depth its
  /// wet vertices reached the substep before, with a margin).
  ///
  /// With `under` (a hull's horizontal extent, as placed this substep), the
  /// velocities of the nodes of its cells and one more around alone
  /// (velocityNodes()): every point under the hull is interpolated from
  /// them, the same bits as with every node, and the nodes beyond cost no
  /// velocity sums.
  std::size_t sampleWithVelocities(const WaterSurface& surface, double centreU_m, double centreV_m, double t_s,
                                   btScalar deepest_m = std::numeric_limits<btScalar>::infinity(),
                                   const Footprint* under = nullptr);

  /// sample(), and the water's velocity at the surface at the corners of
  /// the cell under (`centreU_m`, `centreV_m`) when the surface answers
  /// grids with velocities: then hasSurfaceVelocities() is true and
  /// surfaceVelocity() interpolates them (one water velocity under a boat,
  /// WaterVelocitySampling::PerBoat, for the nodes' cost instead of a query
  /// of its own); otherwise only the heights are sampled.
  std::size_t sampleWithSurfaceVelocities(const WaterSurface& surface, double centreU_m, double centreV_m, double t_s);

 private:
  void place(double centreU_m, double centreV_m);  // the origin around the centre; throws as sample()
  [[nodiscard]] WaterGrid placedGrid() const;      // the nodes as placed, for the surface's grid queries
  [[nodiscard]] GridWindow nodesUnder(const Footprint& under) const;   // of the grid as placed
  std::size_t sampleHeights(const WaterSurface& surface, double t_s);  // the heights at the placed nodes

  btScalar radius_m_ = 0;
  std::vector<btScalar> u_, v_, queried_;  // query order (serpentine) [m]
  GridHistory history_;                    // the surface's memory from one sample to the next
};

/// Replaces non-finite values of `values` by the mean of the finite ones (0 if
/// none is finite). Returns how many were replaced.
std::size_t replaceNonFinite(std::span<btScalar> values);

}  // namespace keel::KEEL_ABI::detail

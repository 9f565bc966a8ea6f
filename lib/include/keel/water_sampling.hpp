#pragma once
/// @file water_sampling.hpp
/// Water heights under a hull (docs/model.md §1, "Water sampling"): either a
/// patch of samples on a world-snapped grid, interpolated on its triangles, or
/// one direct query per hull vertex; and the patch a boat sampled, to draw.
///
/// Horizontal coordinates (u, v) are along WaterFrame::east and
/// WaterFrame::north [m], heights along WaterFrame::up [m].

#include <keel/config.hpp>
#include <keel/water_surface.hpp>

#include <LinearMath/btVector3.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace keel::KEEL_ABI {

/// How a boat samples the water under its hull.
enum class Sampling {
  /// One query per hull vertex: exact, and fastest when the surface is cheap.
  Direct,
  /// Kerner's patch: a grid snapped to world multiples of the cell size,
  /// sampled once per substep and interpolated on two triangles per cell.
  /// Cheaper when the surface is expensive and the hull has many vertices.
  Patch,
  /// Each substep, the one of the two expected to cost less, from the
  /// surface's WaterSurface::queryCost(), the hull's vertex count, the
  /// patch's node count and whether the water velocity is wanted at every
  /// vertex; the patch only when it is expected to cost under 3/4 of direct
  /// sampling, since it interpolates. Flat water, a surface that does not
  /// state its cost, small hulls: Direct. docs/model.md, "Water sampling".
  Auto,
};

/// The water a boat felt: the square grid of water samples its last substep
/// took around its hull (WaterAction::waterPatch()), to draw or to check.
/// A read-only view; the library samples it.
///
/// The grid is snapped to world multiples of the cell size, so that a moving
/// boat gains and loses rows instead of seeing the water swim under it, and
/// sized from the hull's bounding radius, so it covers the hull's horizontal
/// footprint in every orientation. Node (i, j) lies at
/// `u = (originI() + i) cellSize_m()`, `v = (originJ() + j) cellSize_m()` [m].
class WaterPatch {
 public:
  /// How far from the origin [m] the grid can be placed: 2^52 cells, where
  /// its integer cell indices are still exact in double.
  [[nodiscard]] double reach_m() const { return 4503599627370496.0 * double(cell_m_); }

  /// The velocities' depths below the local surface [m]: 0, then 2 R / 16,
  /// 2 R / 8, 2 R / 4, 2 R / 2 and 2 R, R the hull's bounding radius (finer
  /// near the surface, where the short waves' orbits shrink); of those, the
  /// ones the last sample kept (those the hull reached, at least two).
  [[nodiscard]] std::span<const double> velocityDepths_m() const { return {depths_m_.data(), levels_}; }
  /// How many depths a sample of every depth keeps.
  static constexpr std::size_t kVelocityLevels = 6;
  /// True when the last sample took the water's velocity at the nodes of
  /// velocityNodes() at velocityDepths_m() (a boat that wants it at every
  /// wet vertex, from a surface that answers grids with velocities).
  [[nodiscard]] bool hasVelocities() const { return hasVelocities_; }
  /// The nodes whose velocities the last sample took: those of the cells
  /// the hull's bounding box (in body axes), as placed that substep, lies
  /// over, and one more around (every node of the grid for a sample not
  /// given a hull). The others' velocities are whatever the surface left
  /// there: velocity() and velocities() answer for points over the window's
  /// cells.
  [[nodiscard]] const GridWindow& velocityNodes() const { return velocityNodes_; }
  /// The water's velocity [m/s] at (u, v, w) [m], the surface there at
  /// `surface_m` [m] (the patch's height()): interpolated on the cell's
  /// triangles as the heights are, and linearly in the depth below the
  /// surface between the two depths around it (held below the deepest and
  /// at the surface above it, as Wheeler stretching does). The cell is
  /// found in double, the interpolation done in btScalar. Only when
  /// hasVelocities().
  [[nodiscard]] WaterVelocity velocity(double u_m, double v_m, btScalar w_m, btScalar surface_m) const;
  /// velocity() at `count` points (u, v, w) [m], the surface at `surface_m`
  /// [m] above each, into `out`: the same values (the same bits), several
  /// points at a time (SIMD). Only when hasVelocities().
  void velocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, const btScalar* surface_m,
                  std::size_t count, WaterVelocity* out) const;
  /// True when the last sample took the water's velocity at the surface at
  /// the corners of the cell under the point it was placed around, the
  /// boat's centre of mass (a boat's one water velocity,
  /// WaterVelocitySampling::PerBoat, from the nodes).
  [[nodiscard]] bool hasSurfaceVelocities() const { return hasSurfaceVelocities_; }
  /// The water's velocity at the surface above (u, v) [m], [m/s]:
  /// interpolated on the triangles of the cell under the boat's centre, as
  /// the heights are, the only cell whose corners the sample took; a point
  /// outside it is clamped to its edge. Only when hasSurfaceVelocities().
  [[nodiscard]] WaterVelocity surfaceVelocity(double u_m, double v_m) const;
  /// The nodes' velocities when hasVelocities(), node by node (row-major, u
  /// fastest), each at every velocityDepths_m() [m/s] (those of the nodes
  /// of velocityNodes()): empty before the first such sample.
  [[nodiscard]] std::span<const WaterVelocity> nodeVelocities() const {
    return std::span<const WaterVelocity>(velocity_).first(std::min(velocity_.size(), h_.size() * levels_));
  }

  /// Interpolated height [m] at horizontal point (u, v) [m], on the cell's
  /// two triangles (split on its (1, 0)-(0, 1) diagonal). Points outside the
  /// grid are clamped to its edge (they cannot occur for the hull it was
  /// sized for). Only once sampled (samples_m() not empty).
  [[nodiscard]] btScalar height(double u_m, double v_m) const;

  [[nodiscard]] btScalar cellSize_m() const { return cell_m_; }  ///< [m]
  [[nodiscard]] int samplesPerSide() const { return side_; }     ///< grid nodes per side
  [[nodiscard]] std::int64_t originI() const { return i0_; }     ///< world cell index of node (0, 0) along u
  [[nodiscard]] std::int64_t originJ() const { return j0_; }     ///< world cell index of node (0, 0) along v
  /// The samples, row-major, u fastest [m]; empty before the first sample
  /// (and for a boat that samples its vertices directly).
  [[nodiscard]] std::span<const btScalar> samples_m() const { return h_; }

 protected:
  WaterPatch() = default;  // made and sampled by the library

  btScalar cell_m_ = 0;
  double inverseCell_pm_ = 0;  // 1 / cell [1/m]
  int side_ = 0;
  std::int64_t i0_ = 0;
  std::int64_t j0_ = 0;
  std::vector<btScalar> h_;  // row-major [m]
  std::array<double, kVelocityLevels> depths_m_{};
  std::size_t levels_ = kVelocityLevels;  // the depths the last sample kept
  std::vector<WaterVelocity> velocity_;   // [node depths + level] [m/s]
  bool hasVelocities_ = false;
  GridWindow velocityNodes_{};                  // the nodes velocity_ holds
  std::vector<WaterVelocity> surfaceVelocity_;  // row-major, at the surface [m/s]: the surface cell's corners
  bool hasSurfaceVelocities_ = false;
  int surfaceCellU_ = 0, surfaceCellV_ = 0;  // the cell whose corners surfaceVelocity_ holds

  struct Cell {
    std::size_t k00;  // index of the cell's corner (0, 0)
    double a, b;      // fractions across it along u and v
    int i, j;         // its corner (0, 0) along u and v
  };
  /// The cell of (u, v), clamped to the grid.
  [[nodiscard]] Cell locate(double u_m, double v_m) const;
};

}  // namespace keel::KEEL_ABI

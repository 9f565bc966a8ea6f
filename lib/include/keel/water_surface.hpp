#pragma once
/// @file water_surface.hpp
/// The water a boat floats on: its surface height and the water's velocity,
/// queried one point at a time or in batches.

#include <LinearMath/btVector3.h>
#include <keel/config.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>

namespace keel::KEEL_ABI {

/// The user's height callback: `height_m = f(u_m, v_m, t_s)`.
///
/// (u, v) are the two horizontal world coordinates: (x, z) in a y-up world,
/// (x, y) in a z-up one (see WaterFrame). t is the simulation time in seconds,
/// a double whatever btScalar is: a clock of days keeps its resolution
/// (10^6 s steps by 62.5 ms in float, by 1.2e-10 s in double).
/// The result is the height of the water surface along the up axis, in metres.
using HeightFunction = std::function<btScalar(btScalar u_m, btScalar v_m, double t_s)>;

/// Water velocity in the water frame: components along WaterFrame::east,
/// WaterFrame::north and WaterFrame::up, in m/s.
struct WaterVelocity {
  btScalar east_mps = 0;   ///< along WaterFrame::east [m/s]
  btScalar north_mps = 0;  ///< along WaterFrame::north [m/s]
  btScalar up_mps = 0;     ///< along WaterFrame::up [m/s]
};

/// A rectangle of a WaterGrid's nodes: columns `firstU` to `firstU +
/// nodesU - 1` of rows `firstV` to `firstV + nodesV - 1`, clipped to the
/// grid (the default: every node).
struct GridWindow {
  int firstU = 0;                                ///< first column, >= 0
  int firstV = 0;                                ///< first row, >= 0
  int nodesU = std::numeric_limits<int>::max();  ///< columns, >= 0
  int nodesV = std::numeric_limits<int>::max();  ///< rows, >= 0
  /// Whether node (i, j) lies in the window.
  [[nodiscard]] bool holds(int i, int j) const {
    return i >= firstU && i - firstU < nodesU && j >= firstV && j - firstV < nodesV;
  }
};

// The types of the grid and cost queries below, defined for surface authors
// in keel/surface_authoring.hpp.
struct WaterGrid;
struct GridVelocities;
struct QueryCost;

/// A water surface. Implement `height`; override the batch calls when a
/// surface can answer many points faster than one by one. Most users never
/// implement one: they pass a height callback (HeightFunction) or a shipped
/// surface (waves.hpp, spectral_ocean.hpp, height_grid.hpp). The grid and
/// cost queries, gridHeights(), gridHeightsAndVelocities() and queryCost(),
/// are for those who write their own: their types are in
/// keel/surface_authoring.hpp (docs/waves.md, "Writing a surface").
///
/// Implementations must be safe to call concurrently from several threads
/// (const methods, no hidden mutable state): one surface is shared by every
/// boat of a harbour.
class WaterSurface {
 public:
  virtual ~WaterSurface() = default;

  /// Height of the surface along up [m] at horizontal point (u, v) [m], time t [s].
  [[nodiscard]] virtual btScalar height(btScalar u_m, btScalar v_m, double t_s) const = 0;

  /// Batch heights: `out_m[i] = height(u_m[i], v_m[i], t_s)` for i < count.
  /// The default calls height() per point.
  virtual void heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s, btScalar* out_m) const;

  /// Water velocity [m/s] at a point at horizontal position (u, v) [m] and
  /// height w [m] along up (w may lie below the surface: orbital motion decays
  /// with depth), time t [s]. The default is still water.
  [[nodiscard]] virtual WaterVelocity velocity(btScalar u_m, btScalar v_m, btScalar w_m, double t_s) const;

  /// Batch velocities: `out[i] = velocity(u_m[i], v_m[i], w_m[i], t_s)`.
  /// The default calls velocity() per point.
  virtual void velocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count, double t_s,
                          WaterVelocity* out) const;

  /// Heights and velocities of the same points at once:
  /// `height_out_m[i] = height(u_m[i], v_m[i], t_s)` and
  /// `velocity_out[i] = velocity(u_m[i], v_m[i], w_m[i], t_s)`. A boat that
  /// needs the water's velocity at its vertices asks this instead of
  /// heights() then velocities(). The default does exactly that; surfaces
  /// that find a point's place on the surface by a solve (GerstnerSurface)
  /// override it to solve once for both.
  virtual void heightsAndVelocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                    double t_s, btScalar* height_out_m, WaterVelocity* velocity_out) const;

  /// Pressure head [m] at points at horizontal position (u, v) [m] and
  /// height w [m] along up, below the surface, time t [s]:
  /// `out_m[i] = p_i / (rho g)`, the water's gauge pressure in metres of
  /// water. Boats with PressureModel::WavePressure integrate it over their
  /// wet surface in place of the static head (docs/model.md, "Wave
  /// pressure"). The default is the static head `height(u, v, t) - w`
  /// (Kerner's), right for still water and planes; wave surfaces give the
  /// linear (Airy) pressure, whose dynamic part decays with depth
  /// (docs/waves.md, "Pressure below the surface"). Points above the surface
  /// may get any value <= 0.
  virtual void pressureHeads(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                             double t_s, btScalar* out_m) const;

  /// Heights [m] of every node of `grid` at time t [s], row-major with u
  /// fastest: `out_m[j nodesU + i]`, each within rounding of height() at the
  /// node's coordinates (in double). Returns false, writing nothing, when the
  /// surface has nothing faster than heights() at the nodes' coordinates
  /// (the default); the caller then asks heights(). A sum of waves answers
  /// a grid with one complex multiplication per node and component instead
  /// of a cosine (docs/waves.md, "Grids").
  virtual bool gridHeights(const WaterGrid& grid, double t_s, btScalar* out_m) const;

  /// gridHeights(), and the water's velocity at every node at the given
  /// depths below the local surface, each within rounding of velocity() at
  /// the node, `w = height - depth`. Returns false, writing nothing, when
  /// the surface has no such query (the default): a boat's patch then asks
  /// velocities() at its wet vertices.
  virtual bool gridHeightsAndVelocities(const WaterGrid& grid, const GridVelocities& velocities, double t_s,
                                        btScalar* heights_out_m) const;

  /// The queries' rough cost, for Sampling::Auto. The default is zero: a
  /// surface that does not say is sampled directly.
  [[nodiscard]] virtual QueryCost queryCost() const;

  /// True when velocity() is the same at every point at a given time (still
  /// water, a uniform current): a boat then asks once instead of at every
  /// wet vertex, with the same result. The default is false.
  [[nodiscard]] virtual bool velocityIsUniform() const { return false; }

  /// True when height() is the same at every point at a given time (still,
  /// level water): a boat then asks once instead of at every vertex, with
  /// the same result. The default is false.
  [[nodiscard]] virtual bool heightIsUniform() const { return false; }

  /// True when every answer at times from `from_s` to `to_s` [s] is settled:
  /// a function of the point and the time alone, the same bits whatever is
  /// done to the surface afterwards (a game's updates, the tiles it
  /// publishes). A boat's patch then samples the water at aligned times
  /// and blends between them (HydrostaticSettings::patchSubstepsPerSample;
  /// docs/model.md, "Water sampling"). The default is false: a surface the
  /// game updates may answer a later time differently once updated.
  [[nodiscard]] virtual bool settledBetween(double /*from_s*/, double /*to_s*/) const { return false; }
};

/// Adapts a HeightFunction (a lambda, a function pointer) to WaterSurface.
/// The water is still (zero velocity).
class FunctionSurface final : public WaterSurface {
 public:
  /// Throws std::invalid_argument when `height` is empty.
  explicit FunctionSurface(HeightFunction height);
  [[nodiscard]] btScalar height(btScalar u_m, btScalar v_m, double t_s) const override;

 private:
  HeightFunction height_;
};

/// The axes of the water: `up` is -gravity normalised; `east` and `north`
/// span the horizontal plane and give the callback its coordinates
/// (u = p . east, v = p . north).
///
/// The horizontal axes are the two world axes other than the one most aligned
/// with up, in increasing index order, made orthogonal to up: (x, z) for a
/// y-up world, (x, y) for a z-up world.
struct WaterFrame {
  btVector3 up{0, 1, 0};     ///< unit vector opposite to gravity (world)
  btVector3 east{1, 0, 0};   ///< first horizontal unit axis (world), gives u
  btVector3 north{0, 0, 1};  ///< second horizontal unit axis (world), gives v

  /// The frame for a gravity vector [m/s^2]. Returns false and leaves `frame`
  /// unchanged when gravity is zero or not finite.
  [[nodiscard]] static bool fromGravity(const btVector3& gravity_mps2, WaterFrame& frame);

  /// World velocity [m/s] of a water-frame velocity.
  [[nodiscard]] btVector3 toWorld(const WaterVelocity& v) const {
    return east * v.east_mps + north * v.north_mps + up * v.up_mps;
  }
};

}  // namespace keel::KEEL_ABI

#pragma once
/// @file height_grid.hpp
/// keel::HeightGridSurface: water given as heights on a regular grid, such as
/// an FFT ocean computed on the GPU and read back every frame. How a
/// per-frame snapshot meets the per-substep water clock, and the error of
/// each choice: docs/integration.md, "An ocean that changes every frame".
///
/// Coordinates are those of WaterSurface: (u, v) horizontal along
/// WaterFrame::east and WaterFrame::north [m], heights along up [m], time [s]
/// on the clock the actions pass to their surface (WaterAction::time_s(),
/// WaterFleet::time_s()).

#include <keel/water_surface.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace keel::KEEL_ABI {

/// What the surface is beyond the grid's outermost nodes.
enum class GridEdges {
  Clamp,     ///< the outermost nodes' heights continue outwards, unchanged
  Periodic,  ///< the grid tiles the plane (an FFT ocean's tile): node nx is node 0, node ny is node 0
};

/// Nodes along either axis of a height grid: at most this many.
inline constexpr int kMaxGridNodesPerSide = 65536;
/// Nodes of a height grid, nx ny: at most 2^26 (8,192 x 8,192, or 65,536 x
/// 1,024). The grid keeps three buffers of them (two snapshots and the back
/// buffer): 768 MiB in float, 1.5 GiB in double (docs/integration.md, "An
/// ocean that changes every frame").
inline constexpr std::int64_t kMaxGridNodes = std::int64_t(1) << 26;
/// The fastest a sea's surface rises or falls at a fixed point [m/s], with
/// margin: a wave of phase speed c changes the height there at c times its
/// slope, and the steepest waves, about 30 m high, give about 11.5 m/s
/// (docs/integration.md, "An ocean that changes every frame"). Two
/// snapshots that imply more are taken as mis-stamped: HeightGridSurface
/// then gives no vertical velocity.
inline constexpr double kMaxSurfaceRiseRate_mps = 20;

/// Where the grid's nodes are: node (i, j) sits at
/// `u = originEast_m + i cellSize_m`, `v = originNorth_m + j cellSize_m`.
struct HeightGridLayout {
  double originEast_m = 0;   ///< u of node (0, 0) [m]
  double originNorth_m = 0;  ///< v of node (0, 0) [m]
  double cellSize_m = 1;     ///< spacing of the nodes along east and along north [m], > 0
  int nodesEast = 2;         ///< nx, nodes along east, 2 to kMaxGridNodesPerSide
  int nodesNorth = 2;        ///< ny, nodes along north, 2 to kMaxGridNodesPerSide; nx ny <= kMaxGridNodes
  GridEdges edges = GridEdges::Clamp;
};

/// A WaterSurface whose heights are samples on a regular grid, interpolated
/// as keel::WaterPatch does: each cell split on its (1,0)-(0,1) diagonal into
/// two planar triangles, so a plane is reproduced exactly and a surface of
/// second derivatives at most M within `M cellSize^2 / 4`. With
/// Sampling::Patch, a patch cell equal to the grid's and an origin on a
/// multiple of it, the patch's nodes are the grid's and it feels the grid
/// exactly.
///
/// **Snapshots.** The heights change by snapshots, each stamped with a time
/// on the actions' water clock. Between the last two snapshots a query
/// interpolates linearly in time; before the older one it holds the older,
/// after the newer one it holds the newer (no extrapolation). The water's
/// vertical velocity is the two snapshots' difference over their time
/// apart (zero with one snapshot), at every depth; the horizontal velocity
/// is zero. Two snapshots whose difference over their time apart exceeds
/// kMaxSurfaceRiseRate_mps at some node (stamps too close together: a clock
/// in the wrong unit, say) give no velocity, and implausibleRise() says so.
///
/// **Threads.** Queries are const and may run on many threads at once (a
/// WaterFleet's boats, during stepSimulation). publish() and setHeights()
/// change what they read: call them only between steps, never while a step
/// or any other query runs. The back buffer is never read by queries, so it
/// may be filled during a step (by one thread), and publish() only swaps
/// buffers: no copy, no allocation.
///
/// NaN or infinite heights are passed on as they are: a boat's action
/// replaces them and reports StatusNonFiniteHeight, as for any surface.
class HeightGridSurface final : public WaterSurface {
 public:
  /// A grid of `layout` with every node at `height_m` [m], held until the
  /// first publish(). Throws std::invalid_argument for a non-finite origin,
  /// cell size or height, a non-positive cell size, fewer than 2 or more
  /// than kMaxGridNodesPerSide nodes along an axis, or more than
  /// kMaxGridNodes in all (the message gives the memory they would take).
  explicit HeightGridSurface(const HeightGridLayout& layout, double height_m = 0);

  /// Where the next snapshot is written: nx ny heights [m], row-major with
  /// east fastest (node (i, j) at index `j nx + i`). Its contents are
  /// unspecified until written (it holds an old snapshot).
  [[nodiscard]] std::span<btScalar> backBuffer_m() { return buffers_[back_]; }
  /// Makes the back buffer the snapshot of time `time_s` [s] on the
  /// actions' water clock (WaterFleet::time_s(), WaterAction::time_s():
  /// seconds, whatever clock the game renders by); the previous newest
  /// becomes the older one. Times increase from one snapshot to the next; a
  /// time equal to the newest snapshot's, or before it (a reset of the
  /// clock), starts over: the new snapshot alone, held, no velocity. Reads
  /// both snapshots once to find the fastest rise they imply
  /// (riseRate_mps()). Between steps only (see Threads). Throws
  /// std::invalid_argument for a NaN or infinite time.
  void publish(double time_s);
  /// Copies `heights_m` (nx ny values, as backBuffer_m()) into the back
  /// buffer and publishes it. Throws std::invalid_argument for a wrong count
  /// or a non-finite time.
  void setHeights(std::span<const btScalar> heights_m, double time_s);

  [[nodiscard]] const HeightGridLayout& layout() const { return layout_; }
  /// The newest snapshot's heights [m], as backBuffer_m().
  [[nodiscard]] std::span<const btScalar> heights_m() const { return buffers_[newest_]; }
  /// Time of the newest snapshot [s] (0 before the first publish()).
  [[nodiscard]] double newestTime_s() const { return newestTime_s_; }
  /// True when two snapshots are interpolated (and, unless
  /// implausibleRise(), give a velocity).
  [[nodiscard]] bool interpolates() const { return haveOlder_; }
  /// The fastest rise or fall [m/s] the two newest snapshots imply at a
  /// node: their largest height difference over their time apart (NaN and
  /// infinite heights left out); 0 with one snapshot.
  [[nodiscard]] double riseRate_mps() const { return riseRate_mps_; }
  /// True when riseRate_mps() exceeds kMaxSurfaceRiseRate_mps: the snapshots'
  /// stamps are taken as wrong and the water has no vertical velocity until
  /// the next publish(); the heights interpolate as stamped.
  [[nodiscard]] bool implausibleRise() const { return implausibleRise_; }
  /// How many publish() calls so far gave an implausibleRise().
  [[nodiscard]] std::uint64_t implausibleRises() const { return implausibleRises_; }

  [[nodiscard]] btScalar height(btScalar u_m, btScalar v_m, double t_s) const override;
  void heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s, btScalar* out_m) const override;
  /// Zero east and north; up, the snapshots' rate of change of the height.
  [[nodiscard]] WaterVelocity velocity(btScalar u_m, btScalar v_m, btScalar w_m, double t_s) const override;
  void velocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count, double t_s,
                  WaterVelocity* out) const override;
  /// True with one snapshot, or an implausibleRise(): the water is still everywhere.
  [[nodiscard]] bool velocityIsUniform() const override { return inverseRateSpan_ps_ == 0; }
  /// An interpolation per point, however the heights were made: about the
  /// patch's own, so a patch pays only on hulls of many vertices
  /// (keel_bench_query_cost measures it).
  [[nodiscard]] QueryCost queryCost() const override;

 private:
  /// The cell under (u, v) and the fractions across it.
  struct Cell {
    std::size_t k00, k10, k01, k11;  // indices of the corners (0,0), (1,0), (0,1), (1,1)
    double a, b;                     // fractions along east and north, in [0, 1]
  };
  [[nodiscard]] Cell cellAt(double u_m, double v_m) const;
  [[nodiscard]] double heightAt(double u_m, double v_m, double t_s) const;
  [[nodiscard]] double riseRateAt(double u_m, double v_m) const;

  HeightGridLayout layout_;
  double inverseCell_pm_;                         // 1 / cell [1/m]
  std::array<std::vector<btScalar>, 3> buffers_;  // older, newest and back, by the indices below
  std::size_t older_ = 0, newest_ = 1, back_ = 2;
  double olderTime_s_ = 0, newestTime_s_ = 0;
  double inverseSpan_ps_ = 0;      // 1 / (newest - older time) [1/s]
  double inverseRateSpan_ps_ = 0;  // the same for the velocity: 0 when it is not to be trusted [1/s]
  double riseRate_mps_ = 0;
  std::uint64_t implausibleRises_ = 0;
  bool haveOlder_ = false;
  bool implausibleRise_ = false;
  bool published_ = false;
};

}  // namespace keel::KEEL_ABI

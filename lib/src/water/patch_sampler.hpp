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

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
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
  ///
  /// With `period_s` > 0 [s], the patch in time (docs/model.md, "Water
  /// sampling"): when the surface's answers are settled over the lattice
  /// times `k period_s` around t_s (WaterSurface::settledBetween), the grid
  /// is sampled at those two (each once: the samples are kept while the
  /// placement holds) and blended linearly at t_s, or read as sampled when
  /// t_s is one of them. A function of t_s, the period and the placement
  /// alone, whatever was kept: the same bits from a fresh sampler.
  std::size_t sample(const WaterSurface& surface, double centreU_m, double centreV_m, double t_s, double period_s = 0);

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
  ///
  /// `period_s` as sample(): a kept sample serves when it holds the depths
  /// and the nodes asked for. It is queried at the most depths asked over
  /// the last two periods (a sample's life), as a boat's depth asks for a
  /// level more or fewer from substep to substep: the next substeps find
  /// theirs in it.
  std::size_t sampleWithVelocities(const WaterSurface& surface, double centreU_m, double centreV_m, double t_s,
                                   btScalar deepest_m = std::numeric_limits<btScalar>::infinity(),
                                   const Footprint* under = nullptr, double period_s = 0);

  /// sample(), and the water's velocity at the surface at the corners of
  /// the cell under (`centreU_m`, `centreV_m`) when the surface answers
  /// grids with velocities: then hasSurfaceVelocities() is true and
  /// surfaceVelocity() interpolates them (one water velocity under a boat,
  /// WaterVelocitySampling::PerBoat, for the nodes' cost instead of a query
  /// of its own); otherwise only the heights are sampled.
  std::size_t sampleWithSurfaceVelocities(const WaterSurface& surface, double centreU_m, double centreV_m, double t_s);

  /// The nodes' surface velocities as held (sampleWithSurfaceVelocities
  /// writes those of one cell's corners): where they lie, for a hint to
  /// the caches.
  [[nodiscard]] std::span<const WaterVelocity> surfaceVelocityNodes() const { return surfaceVelocity_; }

  /// Forgets the samples the patch in time keeps (another surface may be
  /// given the address of the one they were taken on).
  void forgetKeptSamples() { kept_.forget(); }

 private:
  /// A sample the patch in time keeps: the grid as a query at `t_s`
  /// answered it, and what was asked.
  struct TimeSample {
    const WaterSurface* surface = nullptr;  // null: holds nothing
    double t_s = 0;
    std::int64_t i0 = 0, j0 = 0;
    bool velocitiesAsked = false, hasVelocities = false;
    std::size_t levels = 0;  // the depths it holds, when hasVelocities
    GridWindow window{};     // the nodes whose velocities it holds
    std::size_t nonFinite = 0;
    std::vector<btScalar> h;
    std::vector<WaterVelocity> velocity;
  };
  /// The two samples kept, made at the first sample kept: a boat on a
  /// surface that is never settled holds none. A copy (rollback's) holds
  /// none: they are a cache of a function of time, and the copy's memory
  /// stays its own.
  struct KeptSamples {
    std::unique_ptr<std::array<TimeSample, 2>> held;
    KeptSamples() = default;
    KeptSamples(const KeptSamples& /*other*/) {}
    KeptSamples& operator=(const KeptSamples& /*other*/) {
      forget();
      return *this;
    }
    KeptSamples(KeptSamples&&) = default;
    KeptSamples& operator=(KeptSamples&&) = default;
    ~KeptSamples() = default;
    std::array<TimeSample, 2>& slots() {
      if (!held) held = std::make_unique<std::array<TimeSample, 2>>();
      return *held;
    }
    void forget() {
      if (held)
        for (TimeSample& s : *held) s.surface = nullptr;
    }
  };

  // At t_s itself; with `velocities`, those of `nodes` at the first `levels` depths.
  std::size_t query(const WaterSurface& surface, double t_s, bool velocities, const GridWindow& nodes,
                    std::size_t levels);
  /// The patch in time at t_s, when the period and the surface allow it:
  /// true, and the number of non-finite samples replaced in `nonFinite`.
  bool inTime(const WaterSurface& surface, double t_s, double period_s, bool velocities, std::size_t& nonFinite);
  [[nodiscard]] bool serves(const TimeSample& kept, const WaterSurface& surface, double t_s, bool velocities) const;
  TimeSample& keep(const WaterSurface& surface, double t_s, bool velocities, const TimeSample* other);
  void blend(const TimeSample& a, const TimeSample& b, double fraction);  // a at fraction 0, b at 1

  void place(double centreU_m, double centreV_m);  // the origin around the centre; throws as sample()
  // The nodes as placed, for the surface's grid queries.
  [[nodiscard]] WaterGrid placedGrid() const {
    return {.cellSize_m = double(cell_m_), .originI = i0_, .originJ = j0_, .nodesU = side_, .nodesV = side_};
  }
  // Of the grid as placed, each bound `slack` of a cell farther out.
  [[nodiscard]] GridWindow nodesUnder(const Footprint& under, double slack) const;
  std::size_t sampleHeights(const WaterSurface& surface, double t_s);  // the heights at the placed nodes

  btScalar radius_m_ = 0;
  std::vector<btScalar> u_, v_, queried_;  // query order (serpentine) [m]
  GridHistory history_;                    // the surface's memory from one sample to the next
  KeptSamples kept_;                       // the patch in time's
  GridWindow keptNodes_{};                 // the nodes whose velocities a kept sample takes
  std::size_t levelsAsked_ = 0;            // the most depths asked since the last sample was kept
  std::size_t levelsAskedBefore_ = 0;      // and between the two samples before
};

/// The patch in time's period [s] for substeps of `dt_s` [s]: the largest
/// power of two seconds at most `substeps` of them, so that its lattice
/// times are exact doubles and stay where they are when the substep's
/// length changes within a factor of two; 0 (every substep at its own
/// time) for 1 substep or fewer, or a step with no such power.
double patchTimePeriod_s(btScalar dt_s, int substeps);

/// Replaces non-finite values of `values` by the mean of the finite ones (0 if
/// none is finite). Returns how many were replaced.
std::size_t replaceNonFinite(std::span<btScalar> values);

}  // namespace keel::KEEL_ABI::detail

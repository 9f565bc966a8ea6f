#pragma once
// Internal to Keel: the batch queries of SineSumSurface and GerstnerSurface,
// vectorised across points with Highway (sine_sum_simd.cpp, gerstner_simd.cpp).
// docs/waves.md, "Batches: SIMD across points".
//
// Each point is one lane of a vector of doubles, and every lane's arithmetic
// depends on that lane's own inputs only: a batch's tail is padded with
// copies of its last point rather than finished by a scalar loop, so a
// point's result is the same bits wherever it sits in a batch and whatever
// the batch's size. Nor does it depend on the instruction set Highway picks
// at run time: no multiply-add is fused, and sin, cos and exp are Keel's own
// (math/det_math-inl.hpp), the bits of the scalar code's det:: functions.

#include <keel/surface_authoring.hpp>
#include <keel/waves.hpp>

#include <cstddef>
#include <span>

namespace keel::KEEL_ABI::detail {

/// Writes the result of point `index` of a batch computed the scalar way
/// (the surface's single-point query). The vector code hands back to it the
/// points it cannot answer as accurately: a phase beyond
/// kPhaseLimit_rad (wave_batch-inl.hpp), or a Newton iteration that did not converge.
class PointFallback {
 public:
  /// `solve(index)` computes and stores point `index`; it must outlive the
  /// PointFallback.
  template <class Solve>
  explicit PointFallback(const Solve& solve)
      : solve_(&solve), call_([](const void* s, std::size_t index) { (*static_cast<const Solve*>(s))(index); }) {}

  void operator()(std::size_t index) const { call_(solve_, index); }

 private:
  const void* solve_;
  void (*call_)(const void* solve, std::size_t index);
};

/// A grid query's start from the last sample (GerstnerSurface, GridHistory):
/// each node's rest position and its components' sin and cos, arrays over
/// the nodes `stride` doubles long at `values`: [0] x0, [1] y0, then
/// [2 + 2 i] and [3 + 2 i] component i's sin and cos. Read when `fromLast`,
/// written after the solve either way.
struct WarmStart {
  double* values = nullptr;  ///< null: no history kept
  std::size_t stride = 0;    ///< the nodes rounded up to whole vectors (kWarmStartPad)
  bool fromLast = false;     ///< start from `values` (else afresh)
  double dt_s = 0;           ///< time since `values` were written [s]
  bool* complete = nullptr;  ///< cleared when some node's numbers were not written
};

/// Points of a batch query evaluated together: a vector of doubles, 8 with
/// AVX-512 (4 with AVX2: QueryCost::batchPoints errs towards the grid there).
inline constexpr double kWaveBatchPoints = 8;

/// WarmStart::stride is a multiple of this, at least every vector's lanes.
inline constexpr std::size_t kWarmStartPad = 16;

/// The points of one batch query and where its results go.
struct PointBatch {
  const btScalar* u_m = nullptr;  ///< horizontal, along WaterFrame::east [m]
  const btScalar* v_m = nullptr;  ///< horizontal, along WaterFrame::north [m]
  const btScalar* w_m = nullptr;  ///< height along up [m]; read only when velocities are asked
  std::size_t count = 0;
  double t_s = 0;
  btScalar* height_out_m = nullptr;       ///< the surface's height above each point [m], or null
  WaterVelocity* velocity_out = nullptr;  ///< the water's velocity at each point [m/s], or null
  /// The pressure head at each point [m] (docs/waves.md, "Pressure below the
  /// surface"), or null; when set, the only result asked.
  btScalar* head_out_m = nullptr;
  /// Not empty: the velocities are asked at each of these depths below the
  /// surface [m] instead of at `w_m` (which is not read), point i's at
  /// `velocity_out[i depths + m]` (a patch's nodes: GridVelocities).
  std::span<const double> depths_m{};
  /// With `depths_m`: each component's decay to each depth, `e^{-k_i
  /// depth_m}` at `[i depths + m]` (the same for every point).
  std::span<const double> depthDecay{};
  WarmStart warm{};  ///< a grid's history (GerstnerSurface only)
};

/// SineSumSurface's batch queries: `h0 + sum a cos(theta(x_i - U t))`
/// stored when `batch.height_out_m` is not null; linear orbital velocity
/// with Wheeler stretching, plus the current, when `batch.velocity_out` is
/// not null (the elevation, which the velocity needs, then comes with it);
/// the linear pressure head when `batch.head_out_m` is not null.
/// `fallback(i)` writes every result asked of point i.
void sineSumBatch(std::span<const WaveComponent> components, const WaveFieldSettings& settings, const PointBatch& batch,
                  PointFallback fallback);

/// SineSumSurface::gridHeights: `out_m[j nodesU + i]` is the height at
/// node (i, j) of `grid` at time t [s]. Each component's phasor e^{i theta}
/// at a node is the product of one per column and one per row (theta is
/// linear in u and v), and those follow from their first node's by the
/// recurrence z_{n+1} = z_n e^{i k_u cell}: one complex multiplication per
/// node and component in place of a cosine. `scratch` must hold
/// sineSumGridScratch(components.size()) doubles.
/// With `velocities`, also the water's velocity at each node at each of
/// the given depths below the local surface.
void sineSumGrid(std::span<const WaveComponent> components, const WaveFieldSettings& settings, const WaterGrid& grid,
                 double t_s, btScalar* out_m, const GridVelocities* velocities, double* scratch);

/// Doubles of scratch sineSumGrid needs, with room to align it to 64 bytes
/// (the tables that do not change with the time live in a per-thread memo
/// of their own).
[[nodiscard]] std::size_t sineSumGridScratch(std::size_t components);

/// GerstnerSurface's batch queries: each lane solves x(x0) = x by Newton's
/// method from x0 = x, with the scalar solve's tolerance and caps; the
/// height is stored when `batch.height_out_m` is not null, the surface
/// particle's velocity above the point (decaying below the surface as
/// e^{k z}) when `batch.velocity_out` is not null, the linear pressure head
/// under it when `batch.head_out_m` is not null. `fallback(i)` writes every
/// result asked of point i.
void gerstnerBatch(std::span<const WaveComponent> components, const GerstnerSettings& settings, const PointBatch& batch,
                   PointFallback fallback);

}  // namespace keel::KEEL_ABI::detail

// Gerstner (trochoidal) waves: the parametric surface, its inversion at a
// fixed horizontal point, and the particles' velocity. docs/waves.md.

#include <keel/waves.hpp>

#include "water/grid_check.hpp"
#include "water/grid_points.hpp"
#include "water/query_costs.hpp"
#include "water/wave_detail.hpp"
#include "water/waves_simd.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

namespace keel::KEEL_ABI {

namespace {

/// The parametric surface and its derivatives at a trial rest position x0
/// (the current's drift in the phases), for a target point x.
struct GerstnerSums {
  double residualEast_m = 0;   ///< F = x(x0) - x, east [m]
  double residualNorth_m = 0;  ///< F, north [m]
  double jacobianEE = 1;       ///< dF/dx0, symmetric: I - sum Q a k cos(theta) d d^T
  double jacobianEN = 0;
  double jacobianNN = 1;
  double elevation_m = 0;  ///< sum a cos(theta): height above the mean level [m]

  [[nodiscard]] double residualSquared_m2() const {
    return residualEast_m * residualEast_m + residualNorth_m * residualNorth_m;
  }
};

/// sin and cos of every component's phase at a trial rest position, kept so
/// that a Newton step can move them instead of calling libm again.
struct Phases {
  /// Components tracked; a sea of more is evaluated afresh at every step.
  static constexpr std::size_t kMaxComponents = 64;
  // Not zeroed: evaluate writes the first components.size() before any read.
  std::array<double, kMaxComponents> sine;
  std::array<double, kMaxComponents> cosine;
};

/// Adds one component, of phase sin `sine` and cos `cosine` at the trial rest
/// position, to the sums.
void addComponent(GerstnerSums& s, const WaveComponent& c, double steepness, double sine, double cosine) {
  const double horizontal_m = steepness * c.amplitude_m;
  s.residualEast_m -= horizontal_m * sine * c.directionEast;
  s.residualNorth_m -= horizontal_m * sine * c.directionNorth;
  const double curvature = horizontal_m * c.wavenumber_radpm * cosine;
  s.jacobianEE -= curvature * c.directionEast * c.directionEast;
  s.jacobianEN -= curvature * c.directionEast * c.directionNorth;
  s.jacobianNN -= curvature * c.directionNorth * c.directionNorth;
  s.elevation_m += c.amplitude_m * cosine;
}

/// The sums at (x0, y0) before any component: F = x0 - x, J = I.
[[nodiscard]] GerstnerSums startSums(double x0, double y0, double x, double y) {
  GerstnerSums s;
  s.residualEast_m = x0 - x;
  s.residualNorth_m = y0 - y;
  return s;
}

/// The sums at (x0, y0), every phase's sin and cos from detail::det::sinCos; kept in
/// `phases` when the sea has few enough components.
[[nodiscard]] GerstnerSums evaluate(std::span<const WaveComponent> components, double steepness, double x0, double y0,
                                    double x, double y, double t, const UniformCurrent& drift, Phases& phases) {
  GerstnerSums s = startSums(x0, y0, x, y);
  const bool keep = components.size() <= Phases::kMaxComponents;
  for (std::size_t i = 0; i < components.size(); ++i) {
    const WaveComponent& c = components[i];
    const double theta = detail::phase_rad(c, x0, y0, detail::phaseAtOrigin_rad(c, t, drift));
    const detail::det::SinCos sc = detail::det::sinCos(theta);
    const double sine = sc.sine, cosine = sc.cosine;
    addComponent(s, c, steepness, sine, cosine);
    if (keep) {
      phases.sine[i] = sine;
      phases.cosine[i] = cosine;
    }
  }
  return s;
}

/// Phase changes below this [rad] are taken by the angle-addition identity;
/// larger ones (a far start, a large step) call detail::det::sinCos afresh.
constexpr double kSmallPhaseStep_rad = 1e-2;

/// The sums at (x0, y0) = `from`'s position + (dx0, dy0). A Newton step moves
/// each phase by delta = k d.(dx0, dy0), usually by far less than 1e-2 rad:
/// sin(theta + delta) = sin theta cos delta + cos theta sin delta, with cos
/// delta and sin delta from their Taylor series, whose first omitted terms
/// (delta^8 / 8!, delta^9 / 9!) are below 1e-20 there: as exact as sinCos, for
/// a few multiplications instead of a sincos per component.
[[nodiscard]] GerstnerSums evaluateNear(std::span<const WaveComponent> components, double steepness, double x0,
                                        double y0, double dx0, double dy0, double x, double y, double t,
                                        const UniformCurrent& drift, const Phases& from, Phases& to) {
  if (components.size() > Phases::kMaxComponents) return evaluate(components, steepness, x0, y0, x, y, t, drift, to);
  GerstnerSums s = startSums(x0, y0, x, y);
  for (std::size_t i = 0; i < components.size(); ++i) {
    const WaveComponent& c = components[i];
    const double delta = c.wavenumber_radpm * (c.directionEast * dx0 + c.directionNorth * dy0);
    if (!(std::abs(delta) <= kSmallPhaseStep_rad)) return evaluate(components, steepness, x0, y0, x, y, t, drift, to);
    const double d2 = delta * delta;
    const double sinDelta = delta * (1 - d2 / 6 * (1 - d2 / 20 * (1 - d2 / 42)));
    const double cosDelta = 1 - d2 / 2 * (1 - d2 / 12 * (1 - d2 / 30 * (1 - d2 / 56)));
    to.sine[i] = from.sine[i] * cosDelta + from.cosine[i] * sinDelta;
    to.cosine[i] = from.cosine[i] * cosDelta - from.sine[i] * sinDelta;
    addComponent(s, c, steepness, to.sine[i], to.cosine[i]);
  }
  return s;
}

/// The surface particle above a point: where it rests and its height.
struct RestPoint {
  double x0_m = 0;         ///< rest position, east [m] (the current's drift is in the phases)
  double y0_m = 0;         ///< rest position, north [m]
  double elevation_m = 0;  ///< height above the mean level [m]
};

/// Solves x(x0) = (x, y) for x0 by Newton's method from x0 = (x, y).
///
/// F(x0) = x(x0) - x is the gradient of the strictly convex
/// `|x0 - x|^2 / 2 + sum Q a / k cos(theta(x0))` when Q sum k a < 1 (its
/// Hessian, the Jacobian, is then positive definite), so the root is unique
/// and the Newton direction always decreases |F|: halving the step until |F|
/// decreases makes the iteration converge from any start.
[[nodiscard]] RestPoint solveRestPoint(std::span<const WaveComponent> components, double steepness, double x, double y,
                                       double t, const UniformCurrent& drift) {
  RestPoint p{x, y, 0};
  Phases phasesA, phasesB;
  Phases* current = &phasesA;  // at the accepted rest position
  Phases* trial = &phasesB;    // at the candidate
  GerstnerSums s = evaluate(components, steepness, p.x0_m, p.y0_m, x, y, t, drift, *current);
  constexpr double tolerance2 = detail::kGerstnerResidualTolerance_m * detail::kGerstnerResidualTolerance_m;
  for (int iteration = 0; iteration < detail::kGerstnerMaxNewtonIterations; ++iteration) {
    if (s.residualSquared_m2() <= tolerance2) break;
    const double det = s.jacobianEE * s.jacobianNN - s.jacobianEN * s.jacobianEN;
    const double stepEast = -(s.jacobianNN * s.residualEast_m - s.jacobianEN * s.residualNorth_m) / det;
    const double stepNorth = -(s.jacobianEE * s.residualNorth_m - s.jacobianEN * s.residualEast_m) / det;
    bool improved = false;
    double fraction = 1;
    for (int halving = 0; halving < detail::kGerstnerMaxStepHalvings && !improved; ++halving, fraction /= 2) {
      const double xc = p.x0_m + fraction * stepEast;
      const double yc = p.y0_m + fraction * stepNorth;
      const GerstnerSums candidate = evaluateNear(components, steepness, xc, yc, xc - p.x0_m, yc - p.y0_m, x, y, t,
                                                  drift, *current, *trial);
      if (candidate.residualSquared_m2() < s.residualSquared_m2()) {
        p.x0_m = xc;
        p.y0_m = yc;
        s = candidate;
        std::swap(current, trial);
        improved = true;
      }
    }
    if (!improved) break;  // at the resolution of double: nothing left to gain
  }
  p.elevation_m = s.elevation_m;
  return p;
}

/// The surface particle above horizontal point (u, v) [m] at time t [s]. The
/// field drifts with the current: its drift is in the phases (as in the
/// batch queries), so that (u, v) enter as they are.
[[nodiscard]] RestPoint restPointAbove(std::span<const WaveComponent> components, const GerstnerSettings& settings,
                                       btScalar u_m, btScalar v_m, double t_s) {
  return solveRestPoint(components, settings.steepness, u_m, v_m, t_s, settings.current);
}

/// Height of the surface along up [m] whose particle is `p`.
[[nodiscard]] btScalar surfaceHeight(const GerstnerSettings& settings, const RestPoint& p) {
  return static_cast<btScalar>(settings.meanLevel_m + p.elevation_m);
}

/// Water velocity [m/s] at height w [m] along up under the surface particle
/// `p`, time t [s]: the particle's velocity, each component decaying as
/// e^{k z} with z the depth below the surface, 0 above it (as SineSumSurface).
[[nodiscard]] WaterVelocity velocityBelow(std::span<const WaveComponent> components, const GerstnerSettings& settings,
                                          const RestPoint& p, btScalar w_m, double t_s) {
  const double t = t_s;
  const double q = settings.steepness;
  // Depth below the surface above the point (<= 0).
  const double z = std::min(w_m - (settings.meanLevel_m + p.elevation_m), 0.0);
  // d/dt of x = x0 - sum d Q a sin(theta), eta = sum a cos(theta) at fixed
  // x0, with d(theta)/dt = -omega.
  double east = 0, north = 0, up = 0;
  for (const WaveComponent& c : components) {
    const double theta = detail::phase_rad(c, p.x0_m, p.y0_m, detail::phaseAtOrigin_rad(c, t, settings.current));
    const double orbital_mps = c.amplitude_m * c.angularFrequency_radps * detail::det::exp(c.wavenumber_radpm * z);
    const detail::det::SinCos sc = detail::det::sinCos(theta);
    const double along_mps = q * orbital_mps * sc.cosine;
    east += along_mps * c.directionEast;
    north += along_mps * c.directionNorth;
    up += orbital_mps * sc.sine;
  }
  return {static_cast<btScalar>(east + settings.current.east_mps),
          static_cast<btScalar>(north + settings.current.north_mps), static_cast<btScalar>(up)};
}

/// Every this many samples a grid's history starts afresh: each carries
/// the phases' sin and cos on by an angle-addition, which adds its rounding.
constexpr std::uint32_t kFreshStartEvery = 256;

/// Where and whether a grid query starts from `history` (sized and stamped
/// for this sample by `surface`); `complete` is to be cleared when a node's
/// solve leaves it unwritten.
detail::WarmStart warmStart(const GerstnerSurface& surface, GridHistory* history, const WaterGrid& grid, double t_s,
                            bool& complete) {
  if (history == nullptr) return {};
  const std::size_t count = std::size_t(grid.nodesU) * std::size_t(grid.nodesV);
  const std::size_t stride = (count + detail::kWarmStartPad - 1) / detail::kWarmStartPad * detail::kWarmStartPad;
  const std::size_t size = stride * (2 + 2 * surface.components().size());
  // From the last sample when it is this surface's, of this grid, not too
  // many samples ago (each carries the phases' sin and cos on by an
  // angle-addition, which adds its rounding), and recent enough that every
  // phase moved at most kGerstnerPhaseStepBound_rad since.
  double fastest_radps = 0;
  for (const WaveComponent& c : surface.components())
    fastest_radps = std::max(fastest_radps, std::abs(detail::fixedPointFrequency_radps(c, surface.settings().current)));
  const double dt_s = t_s - history->t_s;
  const WaterGrid& last = history->grid;
  const bool fromLast = history->owner == &surface && history->values.size() == size &&
                        history->samples + 1 < kFreshStartEvery && last.cellSize_m == grid.cellSize_m &&
                        last.originI == grid.originI && last.originJ == grid.originJ && last.nodesU == grid.nodesU &&
                        last.nodesV == grid.nodesV &&
                        fastest_radps * std::abs(dt_s) <= detail::kGerstnerPhaseStepBound_rad;
  if (history->values.size() != size) history->values.resize(size);  // grows with the grid, then stays
  history->owner = &surface;
  history->grid = grid;
  history->t_s = t_s;
  history->samples = fromLast ? history->samples + 1 : 0;
  return {
      .values = history->values.data(), .stride = stride, .fromLast = fromLast, .dt_s = dt_s, .complete = &complete};
}

}  // namespace

double gerstnerSteepnessLimit(std::span<const WaveComponent> components) {
  double slope = 0;  // sum k a: the largest possible |d(displacement)/dx0| at Q = 1
  for (const WaveComponent& c : components) slope += c.wavenumber_radpm * c.amplitude_m;
  return slope > 0 ? 1 / slope : std::numeric_limits<double>::infinity();
}

GerstnerSurface::GerstnerSurface(std::vector<WaveComponent> components, GerstnerSettings settings)
    : components_(detail::checkedComponents(std::move(components), "keel::GerstnerSurface")), settings_(settings) {
  detail::checkField(settings.meanLevel_m, settings.current, "keel::GerstnerSurface");
  if (!(settings.steepness >= 0 && settings.steepness <= 1)) {
    throw std::invalid_argument("keel::GerstnerSurface: steepness must lie in [0, 1]");
  }
  if (!(settings.steepness < gerstnerSteepnessLimit(components_))) {
    throw std::invalid_argument(
        "keel::GerstnerSurface: steepness * sum(k a) >= 1, the surface folds over itself; use a "
        "steepness below gerstnerSteepnessLimit(components)");
  }
}

btScalar GerstnerSurface::height(btScalar u_m, btScalar v_m, double t_s) const {
  return surfaceHeight(settings_, restPointAbove(components_, settings_, u_m, v_m, t_s));
}

void GerstnerSurface::heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s,
                              btScalar* out_m) const {
  const auto scalar = [&](std::size_t i) { out_m[i] = GerstnerSurface::height(u_m[i], v_m[i], t_s); };
  detail::gerstnerBatch(components_, settings_,
                        {.u_m = u_m, .v_m = v_m, .count = count, .t_s = t_s, .height_out_m = out_m},
                        detail::PointFallback(scalar));
}

QueryCost GerstnerSurface::queryCost() const {
  return detail::perComponent(detail::kGerstnerPerComponent, double(components_.size()), detail::kWaveBatchPoints);
}

WaterVelocity GerstnerSurface::velocity(btScalar u_m, btScalar v_m, btScalar w_m, double t_s) const {
  const RestPoint p = restPointAbove(components_, settings_, u_m, v_m, t_s);
  return velocityBelow(components_, settings_, p, w_m, t_s);
}

void GerstnerSurface::velocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                 double t_s, WaterVelocity* out) const {
  const auto scalar = [&](std::size_t i) { out[i] = GerstnerSurface::velocity(u_m[i], v_m[i], w_m[i], t_s); };
  detail::gerstnerBatch(components_, settings_,
                        {.u_m = u_m, .v_m = v_m, .w_m = w_m, .count = count, .t_s = t_s, .velocity_out = out},
                        detail::PointFallback(scalar));
}

void GerstnerSurface::heightsAndVelocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m,
                                           std::size_t count, double t_s, btScalar* height_out_m,
                                           WaterVelocity* velocity_out) const {
  // A point the vector code hands back: height() and velocity() from one
  // solve, the same functions, so the very bits of both.
  const auto scalar = [&](std::size_t i) {
    const RestPoint p = restPointAbove(components_, settings_, u_m[i], v_m[i], t_s);
    height_out_m[i] = surfaceHeight(settings_, p);
    velocity_out[i] = velocityBelow(components_, settings_, p, w_m[i], t_s);
  };
  detail::gerstnerBatch(components_, settings_, {u_m, v_m, w_m, count, t_s, height_out_m, velocity_out},
                        detail::PointFallback(scalar));
}

bool GerstnerSurface::gridHeightsAndVelocities(const WaterGrid& grid, const GridVelocities& velocities, double t_s,
                                               btScalar* heights_out_m) const {
  detail::checkWaterGrid(grid, "keel::GerstnerSurface::gridHeightsAndVelocities");
  detail::checkGridVelocities(velocities, "keel::GerstnerSurface::gridHeightsAndVelocities");
  if (grid.nodesU == 0 || grid.nodesV == 0) return true;
  // The nodes' coordinates, as WaterPatch computes them for heights(); one
  // buffer per thread that grows to the largest grid and then stays.
  thread_local std::vector<btScalar> u, v;
  const std::size_t count = std::size_t(grid.nodesU) * std::size_t(grid.nodesV);
  if (u.size() < count) u.resize(count), v.resize(count);
  detail::gridNodePoints(grid, detail::NodeOrder::Rows, u.data(), v.data());
  const std::span<const double> depths = velocities.depths_m;
  // Each component's decay to each depth, the same at every node.
  thread_local std::vector<double> decay;
  if (decay.size() < components_.size() * depths.size()) decay.resize(components_.size() * depths.size());
  for (std::size_t i = 0; i < components_.size(); ++i)
    for (std::size_t m = 0; m < depths.size(); ++m)
      decay[i * depths.size() + m] = depths[m] == 0 ? 1.0
                                                    : detail::det::exp(-components_[i].wavenumber_radpm * depths[m]);
  const auto scalar = [&](std::size_t k) {
    const RestPoint p = restPointAbove(components_, settings_, u[k], v[k], t_s);
    const btScalar eta = surfaceHeight(settings_, p);
    heights_out_m[k] = eta;
    for (std::size_t m = 0; m < depths.size(); ++m)
      velocities.out[k * depths.size() + m] = velocityBelow(components_, settings_, p,
                                                            btScalar(double(eta) - depths[m]), t_s);
  };
  bool complete = true;
  const detail::WarmStart warm = warmStart(*this, velocities.history, grid, t_s, complete);
  detail::gerstnerBatch(components_, settings_,
                        {.u_m = u.data(),
                         .v_m = v.data(),
                         .count = count,
                         .t_s = t_s,
                         .height_out_m = heights_out_m,
                         .velocity_out = depths.empty() ? nullptr : velocities.out,
                         .depths_m = depths,
                         .depthDecay = std::span(decay).first(components_.size() * depths.size()),
                         .warm = warm},
                        detail::PointFallback(scalar));
  if (velocities.history != nullptr && !complete) velocities.history->samples = kFreshStartEvery;
  return true;
}

void GerstnerSurface::pressureHeads(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                    double t_s, btScalar* out_m) const {
  const auto scalar = [&](std::size_t i) {
    const RestPoint p = restPointAbove(components_, settings_, u_m[i], v_m[i], t_s);
    out_m[i] = static_cast<btScalar>(detail::airyPressureHead_m(components_, settings_.meanLevel_m + p.elevation_m,
                                                                w_m[i], p.x0_m, p.y0_m, t_s, settings_.current));
  };
  detail::gerstnerBatch(components_, settings_,
                        {.u_m = u_m, .v_m = v_m, .w_m = w_m, .count = count, .t_s = t_s, .head_out_m = out_m},
                        detail::PointFallback(scalar));
}

}  // namespace keel::KEEL_ABI

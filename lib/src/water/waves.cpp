// Planes, wave components, dispersion and linear (Airy) wave sums.
// Formulas and sources: docs/waves.md.

#include <keel/waves.hpp>

#include "water/grid_check.hpp"
#include "water/query_costs.hpp"
#include "water/wave_detail.hpp"
#include "water/waves_simd.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>

namespace keel::KEEL_ABI {

namespace detail {

std::vector<WaveComponent> checkedComponents(std::vector<WaveComponent> components, const char* who) {
  for (WaveComponent& c : components) {
    const bool finite = std::isfinite(c.amplitude_m) && std::isfinite(c.wavenumber_radpm) &&
                        std::isfinite(c.angularFrequency_radps) && std::isfinite(c.directionEast) &&
                        std::isfinite(c.directionNorth) && std::isfinite(c.phase_rad);
    if (!finite) throw std::invalid_argument(std::string(who) + ": a wave value is not finite");
    if (c.amplitude_m < 0 || c.angularFrequency_radps < 0 || !(c.wavenumber_radpm > 0)) {
      throw std::invalid_argument(std::string(who) +
                                  ": a wave has a negative amplitude or frequency, or a "
                                  "non-positive wavenumber");
    }
    const double norm = det::hypot(c.directionEast, c.directionNorth);
    if (!(norm > 0)) throw std::invalid_argument(std::string(who) + ": a wave has no direction");
    c.directionEast /= norm;
    c.directionNorth /= norm;
  }
  return components;
}

void checkField(double meanLevel_m, const UniformCurrent& current, const char* who) {
  if (!std::isfinite(meanLevel_m) || !std::isfinite(current.east_mps) || !std::isfinite(current.north_mps)) {
    throw std::invalid_argument(std::string(who) + ": mean level or current is not finite");
  }
}

}  // namespace detail

namespace {

[[nodiscard]] WaterVelocity horizontalVelocity(const UniformCurrent& c) {
  return {static_cast<btScalar>(c.east_mps), static_cast<btScalar>(c.north_mps), 0};
}

/// The sum of sines' surface height [m] at (x, y) [m], time t [s], the
/// field drifting with `current`: `h0 + sum a cos(theta)`.
double sineSumHeight_m(std::span<const WaveComponent> components, double meanLevel_m, double x, double y, double t,
                       const UniformCurrent& current) {
  double eta = meanLevel_m;
  for (const WaveComponent& c : components)
    eta += c.amplitude_m * detail::det::cos(detail::phase_rad(c, x, y, detail::phaseAtOrigin_rad(c, t, current)));
  return eta;
}

}  // namespace

// --- FlatSurface ------------------------------------------------------------

FlatSurface::FlatSurface(double height_m, UniformCurrent current) : height_m_(height_m), current_(current) {
  detail::checkField(height_m, current, "keel::FlatSurface");
}

btScalar FlatSurface::height(btScalar, btScalar, double) const { return static_cast<btScalar>(height_m_); }

void FlatSurface::heights(const btScalar*, const btScalar*, std::size_t count, double, btScalar* out_m) const {
  std::fill_n(out_m, count, static_cast<btScalar>(height_m_));
}

WaterVelocity FlatSurface::velocity(btScalar, btScalar, btScalar, double) const { return horizontalVelocity(current_); }

void FlatSurface::velocities(const btScalar*, const btScalar*, const btScalar*, std::size_t count, double,
                             WaterVelocity* out) const {
  std::fill_n(out, count, horizontalVelocity(current_));
}

// --- TiltedPlaneSurface -----------------------------------------------------

TiltedPlaneSurface::TiltedPlaneSurface(double height_m, double slopeEast, double slopeNorth, UniformCurrent current)
    : height_m_(height_m),
      slopeEast_(slopeEast),
      slopeNorth_(slopeNorth),
      // Tangent to the plane: d(eta)/dt following the water is
      // slope . current, so the water at the surface stays on it.
      velocity_{static_cast<btScalar>(current.east_mps), static_cast<btScalar>(current.north_mps),
                static_cast<btScalar>(slopeEast * current.east_mps + slopeNorth * current.north_mps)} {
  detail::checkField(height_m, current, "keel::TiltedPlaneSurface");
  if (!std::isfinite(slopeEast) || !std::isfinite(slopeNorth)) {
    throw std::invalid_argument("keel::TiltedPlaneSurface: a slope is not finite");
  }
}

btScalar TiltedPlaneSurface::height(btScalar u_m, btScalar v_m, double) const {
  return static_cast<btScalar>(height_m_ + slopeEast_ * u_m + slopeNorth_ * v_m);
}

void TiltedPlaneSurface::heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s,
                                 btScalar* out_m) const {
  for (std::size_t i = 0; i < count; ++i) out_m[i] = TiltedPlaneSurface::height(u_m[i], v_m[i], t_s);
}

WaterVelocity TiltedPlaneSurface::velocity(btScalar, btScalar, btScalar, double) const { return velocity_; }

void TiltedPlaneSurface::velocities(const btScalar*, const btScalar*, const btScalar*, std::size_t count, double,
                                    WaterVelocity* out) const {
  std::fill_n(out, count, velocity_);
}

// --- Components and dispersion ----------------------------------------------

double deepWaterAngularFrequency_radps(double wavenumber_radpm, double gravity_mps2) {
  return std::sqrt(gravity_mps2 * wavenumber_radpm);
}

double deepWaterWavenumber_radpm(double angularFrequency_radps, double gravity_mps2) {
  return angularFrequency_radps * angularFrequency_radps / gravity_mps2;
}

WaveComponent deepWaterWave(double amplitude_m, double wavelength_m, double direction_rad, double phase_rad,
                            double gravity_mps2) {
  const double k = 2 * std::numbers::pi / wavelength_m;
  const detail::det::SinCos direction = detail::det::sinCos(direction_rad);
  return {amplitude_m,    k,        deepWaterAngularFrequency_radps(k, gravity_mps2), direction.cosine,
          direction.sine, phase_rad};
}

double significantWaveHeight_m(std::span<const WaveComponent> components) {
  double variance_m2 = 0;  // each cosine's variance is a^2 / 2
  for (const WaveComponent& c : components) variance_m2 += c.amplitude_m * c.amplitude_m / 2;
  return 4 * std::sqrt(variance_m2);
}

std::vector<WaveComponent> shiftedWaves(std::span<const WaveComponent> components, double east_m, double north_m) {
  if (!std::isfinite(east_m) || !std::isfinite(north_m))
    throw std::invalid_argument("keel::shiftedWaves: the offset (" + std::to_string(east_m) + ", " +
                                std::to_string(north_m) + ") m is not finite");
  std::vector<WaveComponent> moved(components.begin(), components.end());
  // Checked as a surface checks them, and with the unit directions the
  // surfaces take: the phase k d.x + phi at x + offset equals the
  // original's at x.
  const std::vector<WaveComponent> unit = detail::checkedComponents(moved, "keel::shiftedWaves");
  for (std::size_t i = 0; i < moved.size(); ++i) {
    const double along_m = unit[i].directionEast * east_m + unit[i].directionNorth * north_m;
    moved[i].phase_rad = std::remainder(moved[i].phase_rad - moved[i].wavenumber_radpm * along_m, 2 * std::numbers::pi);
  }
  return moved;
}

// --- SineSumSurface ---------------------------------------------------------

SineSumSurface::SineSumSurface(std::vector<WaveComponent> components, WaveFieldSettings settings)
    : components_(detail::checkedComponents(std::move(components), "keel::SineSumSurface")), settings_(settings) {
  detail::checkField(settings.meanLevel_m, settings.current, "keel::SineSumSurface");
}

btScalar SineSumSurface::height(btScalar u_m, btScalar v_m, double t_s) const {
  // The field drifts with the current: its phase is in phaseAtOrigin_rad.
  return static_cast<btScalar>(sineSumHeight_m(components_, settings_.meanLevel_m, u_m, v_m, t_s, settings_.current));
}

void SineSumSurface::heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s,
                             btScalar* out_m) const {
  const auto scalar = [&](std::size_t i) { out_m[i] = SineSumSurface::height(u_m[i], v_m[i], t_s); };
  detail::sineSumBatch(components_, settings_,
                       {.u_m = u_m, .v_m = v_m, .count = count, .t_s = t_s, .height_out_m = out_m},
                       detail::PointFallback(scalar));
}

bool SineSumSurface::gridHeights(const WaterGrid& grid, double t_s, btScalar* out_m) const {
  detail::checkWaterGrid(grid, "keel::SineSumSurface::gridHeights");
  if (grid.nodesU == 0 || grid.nodesV == 0) return true;
  // The tables of one grid, per thread (surfaces are shared by the boats of
  // every thread): it grows to the largest grid and components asked, then
  // never allocates again.
  thread_local std::vector<double> scratch;
  const std::size_t size = detail::sineSumGridScratch(components_.size(), grid, 0);
  if (scratch.size() < size) scratch.resize(size);
  detail::sineSumGrid(components_, settings_, grid, t_s, out_m, nullptr, scratch.data());
  return true;
}

bool SineSumSurface::gridHeightsAndVelocities(const WaterGrid& grid, const GridVelocities& velocities, double t_s,
                                              btScalar* heights_out_m) const {
  detail::checkWaterGrid(grid, "keel::SineSumSurface::gridHeightsAndVelocities");
  detail::checkGridVelocities(velocities, grid, "keel::SineSumSurface::gridHeightsAndVelocities");
  if (grid.nodesU == 0 || grid.nodesV == 0) return true;
  thread_local std::vector<double> scratch;  // as gridHeights()'
  const std::size_t size = detail::sineSumGridScratch(components_.size(), grid, velocities.depths_m.size());
  if (scratch.size() < size) scratch.resize(size);
  detail::sineSumGrid(components_, settings_, grid, t_s, heights_out_m, &velocities, scratch.data());
  return true;
}

QueryCost SineSumSurface::queryCost() const {
  return detail::perComponent(detail::kSineSumPerComponent, double(components_.size()), detail::kWaveBatchPoints);
}

WaterVelocity SineSumSurface::velocity(btScalar u_m, btScalar v_m, btScalar w_m, double t_s) const {
  const double t = t_s;
  const double x = u_m, y = v_m;
  const UniformCurrent& current = settings_.current;
  const double eta = sineSumHeight_m(components_, settings_.meanLevel_m, x, y, t, current);
  // Wheeler stretching: the decay is measured from the instantaneous
  // surface; above it the surface's own velocity.
  const double z = std::min(w_m - eta, 0.0);
  double east = 0, north = 0, up = 0;
  for (const WaveComponent& c : components_) {
    const double theta = detail::phase_rad(c, x, y, detail::phaseAtOrigin_rad(c, t, current));
    const double orbital_mps = c.amplitude_m * c.angularFrequency_radps * detail::det::exp(c.wavenumber_radpm * z);
    const detail::det::SinCos sc = detail::det::sinCos(theta);
    const double along_mps = orbital_mps * sc.cosine;
    east += along_mps * c.directionEast;
    north += along_mps * c.directionNorth;
    up += orbital_mps * sc.sine;
  }
  return {static_cast<btScalar>(east + settings_.current.east_mps),
          static_cast<btScalar>(north + settings_.current.north_mps), static_cast<btScalar>(up)};
}

void SineSumSurface::velocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                double t_s, WaterVelocity* out) const {
  const auto scalar = [&](std::size_t i) { out[i] = SineSumSurface::velocity(u_m[i], v_m[i], w_m[i], t_s); };
  detail::sineSumBatch(components_, settings_,
                       {.u_m = u_m, .v_m = v_m, .w_m = w_m, .count = count, .t_s = t_s, .velocity_out = out},
                       detail::PointFallback(scalar));
}

void SineSumSurface::heightsAndVelocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m,
                                          std::size_t count, double t_s, btScalar* height_out_m,
                                          WaterVelocity* velocity_out) const {
  const auto scalar = [&](std::size_t i) {
    height_out_m[i] = SineSumSurface::height(u_m[i], v_m[i], t_s);
    velocity_out[i] = SineSumSurface::velocity(u_m[i], v_m[i], w_m[i], t_s);
  };
  detail::sineSumBatch(components_, settings_, {u_m, v_m, w_m, count, t_s, height_out_m, velocity_out},
                       detail::PointFallback(scalar));
}

void SineSumSurface::pressureHeads(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, std::size_t count,
                                   double t_s, btScalar* out_m) const {
  const double t = t_s;
  const auto scalar = [&](std::size_t i) {
    const double x = u_m[i], y = v_m[i];
    const double eta = sineSumHeight_m(components_, settings_.meanLevel_m, x, y, t, settings_.current);
    out_m[i] = static_cast<btScalar>(detail::airyPressureHead_m(components_, eta, w_m[i], x, y, t, settings_.current));
  };
  detail::sineSumBatch(components_, settings_,
                       {.u_m = u_m, .v_m = v_m, .w_m = w_m, .count = count, .t_s = t_s, .head_out_m = out_m},
                       detail::PointFallback(scalar));
}

}  // namespace keel::KEEL_ABI

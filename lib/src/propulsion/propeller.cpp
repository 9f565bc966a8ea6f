// keel::Propeller: the B-series polynomials (b_series.cpp) made total: the
// series' range refused outside, its missing quadrants approximated as
// docs/propulsion.md states, the thrust lost as the disc leaves the water.
#include <keel/propeller.hpp>

#include "propulsion/b_series.hpp"
#include "propulsion/check.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace keel::KEEL_ABI {
namespace {

constexpr const char* kWhere = "keel::Propeller";

void validate(const PropellerGeometry& g, const PropellerSettings& s) {
  detail::requireRange(kWhere, "diameter_m", g.diameter_m, 1e-6, 1e3, "a positive size in metres");
  detail::requireRange(kWhere, "pitchRatio", g.pitchRatio, kMinPitchRatio, kMaxPitchRatio,
                       "the B-series' P/D range 0.5 .. 1.4");
  detail::requireRange(kWhere, "bladeAreaRatio", g.bladeAreaRatio, kMinBladeAreaRatio, kMaxBladeAreaRatio,
                       "the B-series' A_E/A_0 range 0.30 .. 1.05");
  detail::requireRange(kWhere, "blades", double(g.blades), kMinBlades, kMaxBlades, "the B-series' Z range 2 .. 7");
  detail::requireRange(kWhere, "wakeFraction", s.wakeFraction, 0, 0.9, "0 .. 0.9");
  detail::requireRange(kWhere, "thrustDeduction", s.thrustDeduction, 0, 0.9, "0 .. 0.9");
  detail::requireRange(kWhere, "asternThrustFactor", s.asternThrustFactor, 0, 1, "0 .. 1");
}

detail::BSeriesPowers powersOf(const PropellerGeometry& g) {
  return detail::BSeriesPowers::of(g.pitchRatio, g.bladeAreaRatio, g.blades);
}

/// J_0: the first zero of K_T above J = 0, bracketed on a 0.01 grid and then
/// bisected to the last bit. Every screw of the series has K_T(0) > 0 and
/// reaches K_T = 0 below J = 2.
double zeroThrust(const detail::BSeriesPowers& p) {
  double lo = 0, hi = 0;
  while (hi < 2 && detail::bSeriesThrust(p, hi) > 0) lo = hi, hi += 0.01;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (detail::bSeriesThrust(p, mid) > 0 ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

double OpenWater::efficiency() const {
  return torque > 0 ? advanceRatio * thrust / (2 * std::numbers::pi * torque) : 0.0;
}

Propeller::Propeller(const PropellerGeometry& geometry, const PropellerSettings& settings)
    : geometry_(geometry), settings_(settings) {
  validate(geometry_, settings_);
  const detail::BSeriesPowers p = powersOf(geometry_);
  zeroThrustJ_ = zeroThrust(p);
  torqueAtZeroThrust_ = std::max(0.0, detail::bSeriesTorque(p, zeroThrustJ_));
}

OpenWater Propeller::series(double advanceRatio) const {
  const detail::BSeriesPowers p = powersOf(geometry_);
  return {advanceRatio, detail::bSeriesThrust(p, advanceRatio), detail::bSeriesTorque(p, advanceRatio)};
}

OpenWater Propeller::openWater(double advanceRatio) const {
  // The series was measured ahead, 0 <= J <= J_0: the bollard values below,
  // no thrust and J_0's torque beyond (docs/propulsion.md, "Outside the series").
  if (!(advanceRatio < zeroThrustJ_)) return {zeroThrustJ_, 0, torqueAtZeroThrust_};
  OpenWater w = series(std::max(advanceRatio, 0.0));
  w.thrust = std::max(w.thrust, 0.0);
  w.torque = std::max(w.torque, 0.0);
  return w;
}

double Propeller::emergenceFactor(double immersionRatio) {
  if (std::isnan(immersionRatio)) return 0;
  if (immersionRatio >= 1.3) return 1;
  const double base = std::max(0.0, 1 - 0.769 * immersionRatio);
  return std::clamp(1 - 0.675 * std::pow(base, 1.258), 0.0, 1.0);
}

PropellerLoad Propeller::load(double advanceSpeed_mps, double revolutions_ps, double density_kgpm3,
                              double immersion_m) const {
  PropellerLoad out;
  if (!std::isfinite(advanceSpeed_mps) || !std::isfinite(revolutions_ps) || !std::isfinite(immersion_m) ||
      !(density_kgpm3 > 0) || !std::isfinite(density_kgpm3))
    return out;
  out.emergence = emergenceFactor(immersion_m / (0.5 * geometry_.diameter_m));
  if (revolutions_ps == 0 || out.emergence == 0) return out;
  // Astern, the screw is its ahead self turned round: the water arrives from
  // the other side, and the thrust is reduced for the same torque.
  const bool astern = revolutions_ps < 0;
  const double n = std::abs(revolutions_ps), d = geometry_.diameter_m;
  const OpenWater w = openWater((astern ? -advanceSpeed_mps : advanceSpeed_mps) / (n * d));
  const double scale = density_kgpm3 * n * n * d * d * d * d * out.emergence;
  const double thrust = scale * w.thrust * (astern ? -settings_.asternThrustFactor : 1.0);
  const double torque = scale * d * w.torque * (astern ? -1.0 : 1.0);
  if (!std::isfinite(thrust) || !std::isfinite(torque)) return PropellerLoad{};
  out.thrust_N = thrust;
  out.torque_Nm = torque;
  out.advanceRatio = w.advanceRatio;
  return out;
}

}  // namespace keel::KEEL_ABI

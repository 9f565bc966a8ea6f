// keel::Rudder: Whicker & Fehlner's low-aspect-ratio lift slope, induced and
// profile drag, and a smooth stall to a flat plate's normal force
// (docs/propulsion.md, "The rudder").
#include <keel/rudder.hpp>

#include "propulsion/check.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace keel::KEEL_ABI {
namespace {

constexpr const char* kWhere = "keel::Rudder";

/// The angle folded into [-pi/2, pi/2]: a blade met from behind acts as the
/// same blade met from ahead at the supplementary angle (sin a cos a and
/// sin^2 a have period pi).
double folded(double angle_rad) { return angle_rad - std::numbers::pi * std::nearbyint(angle_rad / std::numbers::pi); }

}  // namespace

Rudder::Rudder(const RudderGeometry& geometry, const RudderSettings& settings)
    : geometry_(geometry), settings_(settings) {
  detail::requireRange(kWhere, "area_m2", geometry_.area_m2, 1e-6, 1e4, "a positive area in m^2");
  detail::requireRange(kWhere, "aspectRatio", geometry_.aspectRatio, 0.2, 10, "0.2 .. 10");
  detail::requireRange(kWhere, "stallAngle_rad", settings_.stallAngle_rad, 0.05, 1.2, "0.05 .. 1.2 rad");
  detail::requireRange(kWhere, "stallWidth_rad", settings_.stallWidth_rad, 0.01, 1, "0.01 .. 1 rad");
  detail::requireRange(kWhere, "profileDrag", settings_.profileDrag, 0, 0.5, "0 .. 0.5");
  detail::requireRange(kWhere, "spanEfficiency", settings_.spanEfficiency, 0.3, 1, "0.3 .. 1");
  detail::requireRange(kWhere, "normalForce90", settings_.normalForce90, 0.5, 2, "0.5 .. 2");
}

double Rudder::effectiveAspectRatio() const { return geometry_.aspectRatio * (geometry_.hullAbove ? 2 : 1); }

double Rudder::liftSlope_prad() const {
  // Whicker & Fehlner (1958), unswept: 0.9 of the thin section's 2 pi, cut by
  // the aspect ratio as lifting-line theory cuts it.
  const double a = effectiveAspectRatio();
  return 1.8 * std::numbers::pi * a / (1.8 + std::sqrt(a * a + 4));
}

FoilCoefficients Rudder::coefficients(double angleOfAttack_rad) const {
  FoilCoefficients c;
  c.angleOfAttack_rad = angleOfAttack_rad;
  if (!std::isfinite(angleOfAttack_rad)) return c;
  const double alpha = folded(angleOfAttack_rad), size = std::abs(alpha);
  const RudderSettings& s = settings_;
  // Attached: the lift slope and the induced drag of the effective span.
  const double attachedLift = liftSlope_prad() * alpha;
  const double attachedDrag = s.profileDrag + attachedLift * attachedLift /
                                                  (std::numbers::pi * s.spanEfficiency * effectiveAspectRatio());
  // Stalled: a flat plate's normal force, resolved across and along the flow.
  const double normal = s.normalForce90 * std::sin(alpha);
  const double plateLift = normal * std::cos(alpha), plateDrag = s.profileDrag + normal * std::sin(alpha);
  // A smoothstep from the stall angle over the stall width: continuous in
  // the force and its slope.
  const double x = std::clamp((size - s.stallAngle_rad) / s.stallWidth_rad, 0.0, 1.0);
  const double w = x * x * (3 - 2 * x);
  c.lift = (1 - w) * attachedLift + w * plateLift;
  c.drag = (1 - w) * attachedDrag + w * plateDrag;
  c.stalled = size > s.stallAngle_rad;
  return c;
}

RudderForce Rudder::force(double angleOfAttack_rad, double inflowSpeed_mps, double density_kgpm3,
                          double wetFraction) const {
  RudderForce f;
  if (!std::isfinite(inflowSpeed_mps) || !(density_kgpm3 > 0) || !std::isfinite(density_kgpm3) || !(wetFraction > 0))
    return f;
  f.coefficients = coefficients(angleOfAttack_rad);
  f.inflowSpeed_mps = std::abs(inflowSpeed_mps);
  const double q = 0.5 * density_kgpm3 * f.inflowSpeed_mps * f.inflowSpeed_mps * geometry_.area_m2 *
                   std::min(wetFraction, 1.0);
  f.lift_N = q * f.coefficients.lift;
  f.drag_N = q * f.coefficients.drag;
  if (!std::isfinite(f.lift_N) || !std::isfinite(f.drag_N)) f = RudderForce{};
  return f;
}

}  // namespace keel::KEEL_ABI

// The displacement of a hull at a draft, heel and trim, the draft for a
// mass, and the ballast for a waterline: the hull's volume below a
// waterplane (keel::volumeMomentsBelow).

#include <keel/constants.hpp>
#include <keel/mass_properties.hpp>

#include "action/hull_axes.hpp"
#include "mass/mass_detail.hpp"
#include "math/det_math.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace keel::KEEL_ABI {
namespace {

/// The water's up in hull axes at a heel and trim: the direction whose
/// Attitude is (heel, trim), `sin(trim) forward + cos(trim) (cos(heel) up -
/// sin(heel) starboard)` (attitude.hpp: trim = asin(forward . up_water),
/// heel = atan2(-starboard . up_water, up . up_water)).
btVector3 waterUp(const HullAxes& axes, double heel_rad, double trim_rad) {
  if (!std::isfinite(heel_rad) || !std::isfinite(trim_rad))
    throw std::invalid_argument("keel::massForDraft_kg: the heel and trim must be finite");
  const detail::UnitHullAxes a = detail::unitHullAxes(axes);
  const detail::det::SinCos trim = detail::det::sinCos(trim_rad), heel = detail::det::sinCos(heel_rad);
  const auto sinTrim = btScalar(trim.sine), cosTrim = btScalar(trim.cosine);
  const auto sinHeel = btScalar(heel.sine), cosHeel = btScalar(heel.cosine);
  return sinTrim * a.forward + cosTrim * (cosHeel * a.up - sinHeel * a.starboard);
}

/// The lowest and highest vertex heights along `up` (unit) [m].
std::pair<double, double> heightRange(const Hull& hull, const btVector3& up) {
  const detail::hull_build::Vec3d n = detail::unitDirection(up, "keel::massForDraft_kg: the water's up");
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const btVector3& v : hull.vertices()) {
    const double h = detail::hull_build::dot(n, detail::hull_build::toD(v));
    lo = std::min(lo, h);
    hi = std::max(hi, h);
  }
  return {lo, hi};
}

}  // namespace

double massForDraft_kg(const Hull& hull, double draft_m, double waterDensity_kgpm3, const HullAxes& axes,
                       double heel_rad, double trim_rad) {
  detail::checkedNonNegative(draft_m, "keel::massForDraft_kg: the draft [m]");
  detail::checkedNonNegative(waterDensity_kgpm3, "keel::massForDraft_kg: the water density [kg/m^3]", true);
  const btVector3 up = waterUp(axes, heel_rad, trim_rad);
  const double lowest_m = heightRange(hull, up).first;
  const double mass_kg = waterDensity_kgpm3 * volumeMomentsBelow(hull, up, lowest_m + draft_m).zeroth;
  if (!std::isfinite(mass_kg)) {
    std::ostringstream s;
    s << "keel::massForDraft_kg: the water density [kg/m^3] is " << waterDensity_kgpm3
      << ": the displaced mass is not finite (sea water is " << kSeaWaterDensity_kgpm3 << ")";
    throw std::invalid_argument(s.str());
  }
  return mass_kg;
}

double draftForMass_m(const Hull& hull, double mass_kg, double waterDensity_kgpm3, const HullAxes& axes,
                      double heel_rad, double trim_rad) {
  detail::checkedNonNegative(mass_kg, "keel::draftForMass_m: the mass [kg]", true);
  detail::checkedNonNegative(waterDensity_kgpm3, "keel::draftForMass_m: the water density [kg/m^3]", true);
  const btVector3 up = waterUp(axes, heel_rad, trim_rad);
  const auto [lowest_m, highest_m] = heightRange(hull, up);
  const double wholly = waterDensity_kgpm3 * volumeMoments(hull).zeroth;
  if (mass_kg > wholly) {
    std::ostringstream s;
    s << "keel::draftForMass_m: " << mass_kg << " kg is more than the hull displaces wholly under water (" << wholly
      << " kg): it sinks";
    throw std::invalid_argument(s.str());
  }
  // The displaced volume grows monotonically with the draft: bisect until
  // the bracket is as narrow as double can tell apart (at most 200 halvings,
  // for a mass so small that the draft would run down towards denormals).
  double lo = 0, hi = highest_m - lowest_m;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (!(mid > lo && mid < hi)) break;
    const double mass = waterDensity_kgpm3 * volumeMomentsBelow(hull, up, lowest_m + mid).zeroth;
    (mass < mass_kg ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

Ballast ballastForWaterline(const Hull& hull, const MassModel& structure, double draft_m, double height_m,
                            double waterDensity_kgpm3, const HullAxes& axes) {
  const char* what = "keel::ballastForWaterline";
  detail::checkedNonNegative(draft_m, "keel::ballastForWaterline: the draft [m]");
  detail::checkedNonNegative(waterDensity_kgpm3, "keel::ballastForWaterline: the water density [kg/m^3]", true);
  if (!std::isfinite(height_m)) throw std::invalid_argument(std::string(what) + ": the height is not finite");
  const detail::UnitHullAxes a = detail::unitHullAxes(axes);
  const Moments below = volumeMomentsBelow(hull, a.up, heightRange(hull, a.up).first + draft_m);
  const double displacement_kg = waterDensity_kgpm3 * below.zeroth;
  const Moments built = structure.massMoments();
  const double ballast_kg = displacement_kg - built.zeroth;
  if (!(ballast_kg > 0) || below.zeroth <= 0) {
    std::ostringstream s;
    s << what << ": the structure weighs " << built.zeroth << " kg, the hull displaces " << displacement_kg
      << " kg at a draft of " << draft_m << " m: nothing is left for ballast (a lighter structure or a deeper draft)";
    throw std::invalid_argument(s.str());
  }
  // Level equilibrium: the whole's centre of mass on the vertical through
  // the centre of buoyancy B, i.e. along forward and starboard the ballast's
  // first moment makes up the displacement's less the structure's
  // (moments about the hull origin: rho * first moment of the volume below).
  const auto toVector = [](const std::array<double, 3>& m, double w) {
    return btVector3(btScalar(m[0] * w), btScalar(m[1] * w), btScalar(m[2] * w));
  };
  const auto along = [&](const btVector3& axis) {
    const double buoyancy = waterDensity_kgpm3 *
                            (below.first[0] * double(axis.x()) + below.first[1] * double(axis.y()) +
                             below.first[2] * double(axis.z()));
    const double structure_kgm = built.first[0] * double(axis.x()) + built.first[1] * double(axis.y()) +
                                 built.first[2] * double(axis.z());
    return (buoyancy - structure_kgm) / ballast_kg;
  };
  Ballast ballast;
  ballast.mass_kg = ballast_kg;
  ballast.position_m = btScalar(along(a.forward)) * a.forward + btScalar(along(a.starboard)) * a.starboard +
                       btScalar(height_m) * a.up;
  const btVector3 margin = (hull.boundsMax() - hull.boundsMin()) * btScalar(1e-6);
  const btVector3 p = ballast.position_m;
  bool inside = true;
  for (int i = 0; i < 3; ++i)
    inside = inside && p[i] >= hull.boundsMin()[i] - margin[i] && p[i] <= hull.boundsMax()[i] + margin[i];
  if (!inside) {
    const btVector3 g = toVector(built.first, 1 / built.zeroth);
    std::ostringstream s;
    s << what << ": the ballast's centre (" << p.x() << ", " << p.y() << ", " << p.z()
      << ") is outside the hull's bounds: its height is, or the structure's centre of mass (" << g.x() << ", " << g.y()
      << ", " << g.z() << ") is too far off balance for ballast to trim the boat level";
    throw std::invalid_argument(s.str());
  }
  return ballast;
}

}  // namespace keel::KEEL_ABI

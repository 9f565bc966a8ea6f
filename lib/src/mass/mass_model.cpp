// keel::MassModel: a boat's parts, each integrated once and weighed by its
// density; and the checks the mass properties share.

#include <keel/mass_properties.hpp>

#include "mass/mass_detail.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace keel::KEEL_ABI {
namespace detail {

hull_build::Vec3d unitDirection(const btVector3& v, const char* what) {
  const hull_build::Vec3d d = hull_build::toD(v);
  const double length = hull_build::norm(d);
  if (!(length > 0) || !std::isfinite(length)) {
    std::ostringstream s;
    s << what << " must be a finite, non-zero vector; got (" << d.x << ", " << d.y << ", " << d.z << ")";
    throw std::invalid_argument(s.str());
  }
  return {d.x / length, d.y / length, d.z / length};
}

double checkedNonNegative(double value, const char* what, bool positive) {
  if (!std::isfinite(value) || value < 0 || (positive && value == 0)) {
    std::ostringstream s;
    s << what << " must be finite and " << (positive ? "> 0" : ">= 0") << "; got " << value;
    throw std::invalid_argument(s.str());
  }
  return value;
}

}  // namespace detail

namespace {

/// Refuses a shell thickness no shell of `hull` can have. A shell lies
/// within the hull, so it weighs at most the hull filled solid with its
/// material, rho V; the thin shell weighs rho A t, so t > V / A (0.29 m for
/// a 4 x 1 x 2 m box, 1/3 of a sphere's radius) is thicker than any.
/// Millimetres given as metres do that (docs/mass.md, "A boat from parts").
void refuseShellThickerThanTheHull(const Hull& hull, double thickness_m) {
  const double volume_m3 = double(hull.volume_m3()), area_m2 = double(hull.area_m2());
  if (thickness_m * area_m2 <= volume_m3) return;
  std::ostringstream s;
  s << "keel::MassModel::shell: the thickness [m] " << thickness_m << " over the hull's " << area_m2
    << " m^2 is more material than the hull holds (" << volume_m3 << " m^3): no shell of it is thicker than "
    << volume_m3 / area_m2 << " m. Is the thickness in millimetres? " << thickness_m << " mm is " << thickness_m / 1000
    << " m";
  throw std::invalid_argument(s.str());
}

/// Refuses a density that makes one part weigh more than a body may
/// (detail::kHeaviestBody, docs/mass.md "Bounds"), naming it: the model's
/// total would be refused later without saying which part made it so.
void refuseHeavierThanABody(const Moments& geometry, double density, const char* what) {
  const double mass_kg = density * std::abs(geometry.zeroth);
  if (mass_kg <= detail::kHeaviestBody) return;
  std::ostringstream s;
  s << what << " is " << density << ": the part weighs " << mass_kg << " kg, more than the " << detail::kHeaviestBody
    << " kg a body may weigh (docs/mass.md, \"Bounds\")";
  throw std::invalid_argument(s.str());
}

}  // namespace

MassModel& MassModel::add(const Moments& geometry, double density, bool replacesSolid, const char* what) {
  detail::checkedNonNegative(density, what);
  refuseHeavierThanABody(geometry, density, what);
  parts_.push_back({geometry, density, replacesSolid});
  return *this;
}

MassModel& MassModel::solid(const Hull& hull, double density_kgpm3) {
  if (solid_ != kNoSolid)
    throw std::invalid_argument("keel::MassModel::solid: the model has a solid already (part " +
                                std::to_string(solid_) + "); use compartment() for a second one");
  add(volumeMoments(hull), density_kgpm3, false, "keel::MassModel::solid: the density [kg/m^3]");
  solid_ = parts_.size() - 1;
  return *this;
}

MassModel& MassModel::shell(const Hull& hull, double thickness_m, double density_kgpm3) {
  detail::checkedNonNegative(thickness_m, "keel::MassModel::shell: the thickness [m]", true);
  detail::checkedNonNegative(density_kgpm3, "keel::MassModel::shell: the density [kg/m^3]");
  refuseShellThickerThanTheHull(hull, thickness_m);
  // Mass per area: the thin-shell limit weighs the surface's area moments.
  return add(areaMoments(hull), density_kgpm3 * thickness_m, false, "keel::MassModel::shell: density * thickness");
}

MassModel& MassModel::ballastBelow(const Hull& hull, const btVector3& up, double height_m, double density_kgpm3,
                                   RegionDensity mode) {
  detail::checkedNonNegative(density_kgpm3, "keel::MassModel::ballastBelow: the density [kg/m^3]");
  const Moments below = volumeMomentsBelow(hull, up, height_m);
  if (!(below.zeroth > 0)) {
    std::ostringstream s;
    s << "keel::MassModel::ballastBelow: no volume of the hull lies below height " << height_m << " m";
    throw std::invalid_argument(s.str());
  }
  return add(below, density_kgpm3, mode == RegionDensity::Replaces, "keel::MassModel::ballastBelow: the density");
}

MassModel& MassModel::compartment(const Hull& mesh, double density_kgpm3, RegionDensity mode) {
  return add(volumeMoments(mesh), density_kgpm3, mode == RegionDensity::Replaces,
             "keel::MassModel::compartment: the density [kg/m^3]");
}

MassModel& MassModel::pointMass(double mass_kg, const btVector3& position_m) {
  detail::checkedNonNegative(mass_kg, "keel::MassModel::pointMass: the mass [kg]", true);
  const double p[3] = {double(position_m.x()), double(position_m.y()), double(position_m.z())};
  if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2]))
    throw std::invalid_argument("keel::MassModel::pointMass: the position is not finite");
  Moments point;
  point.zeroth = 1;
  point.first = {p[0], p[1], p[2]};
  point.second = {p[0] * p[0], p[1] * p[1], p[2] * p[2], p[0] * p[1], p[1] * p[2], p[2] * p[0]};
  return add(point, mass_kg, false, "keel::MassModel::pointMass: the mass [kg]");
}

void MassModel::setDensity(std::size_t index, double density) {
  if (index >= parts_.size())
    throw std::invalid_argument("keel::MassModel::setDensity: part " + std::to_string(index) + " of " +
                                std::to_string(parts_.size()));
  const std::string what = "keel::MassModel::setDensity: part " + std::to_string(index) + "'s density";
  detail::checkedNonNegative(density, what.c_str());
  refuseHeavierThanABody(parts_[index].geometry, density, what.c_str());
  parts_[index].density = density;
}

Moments MassModel::massMoments() const {
  const double solidDensity = solid_ == kNoSolid ? 0 : parts_[solid_].density;
  Moments sum;
  for (const Part& part : parts_) sum += part.geometry.scaled(part.density - (part.replacesSolid ? solidDensity : 0));
  return sum;
}

MassProperties MassModel::properties() const { return massProperties(massMoments()); }

}  // namespace keel::KEEL_ABI

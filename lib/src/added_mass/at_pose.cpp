// keel::addedMassAtPose: the water under the hull's vertices as the
// substep samples it (Pose, SampleWater and Heights), the level plane at
// its mean, and the model below that plane.

#include <keel/added_mass.hpp>

#include "added_mass/added_mass.hpp"
#include "hull/hull_access.hpp"
#include "hull/refuse_overlaps.hpp"
#include "substep/stages.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace keel::KEEL_ABI {
namespace detail {

double meanWaterHeight(std::span<const btScalar> height_m) {
  double sum = 0;
  for (const btScalar h : height_m) sum += double(h);
  return height_m.empty() ? 0 : sum / double(height_m.size());
}

}  // namespace detail

AddedMass addedMassAtPose(const Hull& hull, const btTransform& centreOfMass, const WaterSurface& surface,
                          const PoseQuery& query) {
  detail::refuseOverlappingParts(hull, "keel::addedMassAtPose");
  if (!(query.waterDensity_kgpm3 > 0) || !std::isfinite(query.waterDensity_kgpm3))
    throw std::invalid_argument("keel::addedMassAtPose: water density must be positive and finite, got " +
                                std::to_string(query.waterDensity_kgpm3) + " kg/m^3");
  HydrostaticSettings statics;
  statics.waterDensity_kgpm3 = query.waterDensity_kgpm3;
  statics.sampling = Sampling::Direct;  // a query at one pose: exact, whatever the surface costs
  const HydrodynamicSettings dynamics = HydrodynamicSettings::none();
  const detail::BoatModel boat{hull, surface, statics, dynamics, BuoyancyModel::Triangles, nullptr};
  detail::BoatState state;
  detail::TriangleState own;
  own.fit(hull);
  detail::BodySnapshot body;
  body.centreOfMass = centreOfMass;
  body.inverseMass_pkg = 1;
  body.gravity_mps2 = query.gravity_mps2;
  const detail::HullSoA& soa = detail::soaOf(hull);
  const detail::SubstepPlan plan;  // every height sampled directly
  detail::Substep s(detail::threadBuffers(soa), plan, 1, query.time_s, nullptr);
  if (!detail::findWater(boat, state, own.water, body, s, soa)) {
    detail::skipSubstep(state, s.flags);
    throw std::invalid_argument("keel::addedMassAtPose: no added mass at this pose: " + state.status.describe());
  }
  // The plane up . x = mean - (centre of mass along up), hull frame.
  const double level_m = detail::meanWaterHeight(std::span<const btScalar>(own.water.height_m).first(soa.vertexCount));
  return detail::addedMassBelowPlane(hull, s.axes.up, level_m - double(s.axes.centreUp_m), query.waterDensity_kgpm3);
}

}  // namespace keel::KEEL_ABI

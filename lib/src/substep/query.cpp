// keel::hydrostaticsAtPose: the substep run once on a body that is not in
// any world, with every hydrodynamic term off.
#include <keel/hydrostatics.hpp>

#include "hull/refuse_overlaps.hpp"
#include "substep/substep.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace keel::KEEL_ABI {
namespace {

HydrostaticSettings staticsOf(const PoseQuery& query) {
  HydrostaticSettings statics;
  statics.waterDensity_kgpm3 = query.waterDensity_kgpm3;
  statics.pressure = query.pressure;
  statics.sampling = Sampling::Direct;  // a query at one pose: exact, whatever the surface costs
  if (!(query.waterDensity_kgpm3 > 0) || !std::isfinite(query.waterDensity_kgpm3))
    throw std::invalid_argument("keel::hydrostaticsAtPose: water density must be positive and finite, got " +
                                std::to_string(query.waterDensity_kgpm3) + " kg/m^3");
  return statics;
}

/// A dynamic body at rest at `centreOfMass`, whose velocity change is not used.
detail::BodySnapshot bodyAt(const btTransform& centreOfMass, const PoseQuery& query) {
  detail::BodySnapshot body;
  body.centreOfMass = centreOfMass;
  body.linearVelocity_mps = body.angularVelocity_radps = btVector3(0, 0, 0);
  body.inverseMass_pkg = 1;
  body.inverseInertia = btMatrix3x3::getIdentity();
  body.gravity_mps2 = query.gravity_mps2;
  body.linearFactor = body.angularFactor = btVector3(1, 1, 1);
  return body;
}

/// The substep of `model` once at `centreOfMass` (columns: the column
/// model's columns, else null), with no hydrodynamics: its hydrostatics,
/// and its cut when the model has one.
PoseHydrostatics runOnce(const Hull& hull, BuoyancyModel model, const ColumnHull* columns,
                         const btTransform& centreOfMass, const WaterSurface& surface, const PoseQuery& query) {
  const HydrostaticSettings statics = staticsOf(query);
  const HydrodynamicSettings dynamics = HydrodynamicSettings::none();
  const detail::BoatModel boat{hull, surface, statics, dynamics, model, columns};
  detail::BoatState state;
  state.allocate(hull, statics);
  if (!detail::runSubstep(boat, state, bodyAt(centreOfMass, query), 1, query.time_s))
    throw std::invalid_argument("keel::hydrostaticsAtPose: no hydrostatics at this pose: " + state.status.describe());
  PoseHydrostatics out;
  out.pressure = state.hydrostatics;
  out.displacement_kg = statics.waterDensity_kgpm3 * state.hydrostatics.submergedVolume_m3;
  out.centreOfBuoyancy_m = centreOfMass.getOrigin() + state.hydrostatics.centreOfBuoyancy_m;
  detail::drawnCut(boat, state, out.pieces, out.waterline);
  double sum[3] = {0, 0, 0};  // sum of the wet surface's area vectors [m^2]
  for (const SubmergedPiece& p : out.pieces)
    for (int k = 0; k < 3; ++k) sum[k] += double(p.areaVector_m2[k]);
  const btVector3& u = state.frame.up;
  out.waterplaneArea_m2 = btScalar(-(sum[0] * double(u.x()) + sum[1] * double(u.y()) + sum[2] * double(u.z())));
  return out;
}

}  // namespace

PoseHydrostatics hydrostaticsAtPose(const Hull& hull, const ColumnHull& columns, const btTransform& centreOfMass,
                                    const WaterSurface& surface, const PoseQuery& query) {
  return runOnce(hull, BuoyancyModel::Columns, &columns, centreOfMass, surface, query);
}

PoseHydrostatics hydrostaticsAtPose(const Hull& hull, const btTransform& centreOfMass, const WaterSurface& surface,
                                    const PoseQuery& query) {
  detail::refuseOverlappingParts(hull, "keel::hydrostaticsAtPose (triangles)");
  return runOnce(hull, BuoyancyModel::Triangles, nullptr, centreOfMass, surface, query);
}

}  // namespace keel::KEEL_ABI

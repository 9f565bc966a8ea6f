// The column model's plan and its own stages: the columns' buoyancy, and
// the water under them for the damping (docs/columns.md, "The substep").
#include "columns/column_substep.hpp"

#include "columns/column_soa.hpp"
#include "hull/hull_access.hpp"
#include "substep/plan_inline.hpp"
#include "substep/profile.hpp"
#include "substep/water_velocity.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace keel::KEEL_ABI::detail {

SubstepPlan planColumns(const BoatModel& boat, const BoatState& state) {
  const HydrodynamicSettings& h = boat.dynamics;
  SubstepPlan p;
  p.damping = h.damping;  // columns have no faces: no flow, slamming or air
  p.addedMass = h.addedMass;
  if (p.damping && h.waterVelocity != WaterVelocitySampling::StillWater) p.velocities = WaterVelocities::PerBoat;
  planSampling(boat, state, boat.surface.velocityIsUniform(), p);
  return p;
}

void columnBuoyancy(const BoatModel& boat, BoatState& state, ColumnState& col, Substep& s) {
  const StageScope scope(s.profile, SubstepStage::ColumnBuoyancy);
  const ColumnSoA& c = soaOf(*boat.columns);
  const btVector3 axis(c.axis[0], c.axis[1], c.axis[2]);  // body frame
  const btVector3 forward(c.forward[0], c.forward[1], c.forward[2]), side(c.side[0], c.side[1], c.side[2]);
  // The water's up in the columns' axes.
  const double u1 = double(forward.dot(s.axes.up)), u2 = double(side.dot(s.axes.up));
  const double u3 = std::max(std::abs(double(axis.dot(s.axes.up))), 1e-6);
  ColumnParameters p;
  p.axisUp = axis.dot(s.axes.up);
  const double excursion = (std::abs(u1) + std::abs(u2)) / u3 * 0.5 * double(c.cell_m);
  // Upright (or as near as makes the shift nothing), no tilt terms: and no
  // infinite inverse in float.
  p.inverseExcursion_pm = excursion > 1e-12 ? btScalar(1 / excursion) : btScalar(0);
  const ColumnSums sums = columnSums(c, col.water.above_m.data(), col.water.height_m.data(), p, col.fraction.data());
  s.meanWaterHeight_m = btScalar(sums.waterHeight_m / double(std::max<std::size_t>(1, c.points.vertexCount)));
  state.lowestAbove_m = sums.lowestAbove_m;
  state.anyWet = sums.volume_m3 > 0;
  HydrostaticResult& r = state.hydrostatics;
  r = HydrostaticResult{};
  if (!state.anyWet) {
    s.flags |= StatusDry;
    return;
  }
  if (sums.leastFraction >= 1) s.flags |= StatusSubmerged;
  // Every column's force is rho g V_im along up: the total acts at the
  // volume-weighted mean of their centres, and its moment about the centre
  // of mass is that centre times the force.
  const double v = sums.volume_m3;
  // The tilt terms (column_kernel.cpp): the wet part's centre moves
  // downhill across each footprint by -(u1, u2) / |u3| I / V, and along the
  // axis by (u1^2 + u2^2) / u3^2 I / (2 V) away from its wet end.
  const double slope2 = (u1 * u1 + u2 * u2) / (u3 * u3), t = sums.tiltMoment_m4 / v;
  const double alongAxis = (sums.along_m4 + (p.axisUp < 0 ? -0.5 : 0.5) * slope2 * sums.tiltMoment_m4) / v;
  const btVector3 centre = btVector3(btScalar(sums.moment_m4[0] / v), btScalar(sums.moment_m4[1] / v),
                                     btScalar(sums.moment_m4[2] / v)) +
                           axis * btScalar(alongAxis) - forward * btScalar(u1 / u3 * t) - side * btScalar(u2 / u3 * t);
  const double rhoG = double(boat.statics.waterDensity_kgpm3) * double(state.frameGravityLength_mps2);
  r.submergedVolume_m3 = btScalar(v);
  r.centreOfBuoyancy_m = state.basis * centre;
  r.force_N = state.frame.up * btScalar(rhoG * v);
  r.torque_Nm = r.centreOfBuoyancy_m.cross(r.force_N);
  // Depth integral: each column's A |axis . up| d^2 / 2 (its wet part's depth grows along it).
  r.depthIntegral_m4 = btScalar(0.5 * u3 * (sums.volumeDepth_m4 + slope2 * sums.tiltMoment_m4));
}

void columnRelativeVelocity(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s) {
  btVector3 water(0, 0, 0);
  // Under the centre of mass, on the mean water height at the columns (as
  // waterVelocityUnderBoat takes it at the vertices; the kernel summed it).
  if (s.plan.velocities == WaterVelocities::PerBoat)
    water = waterVelocityAt(
        boat, state, s, boat.surface.velocityIsUniform() ? state.centre_m.dot(state.frame.up) : s.meanWaterHeight_m);
  s.relativeVelocity_mps = body.linearVelocity_mps - water;
}

}  // namespace keel::KEEL_ABI::detail

// The Flooding stage: water through each compartment's openings by the
// orifice law, its free surface, and its weight at its centroid
// (docs/flooding.md).
#include "substep/profile.hpp"
#include "substep/stages.hpp"

#include "hull/hull_access.hpp"
#include "kernels/air.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

namespace keel::KEEL_ABI::detail {
namespace {

/// Each compartment's extent along `up` (body frame) [m]: its lowest and
/// highest vertex above the centre of mass.
void extentsAlong(FloodState& f, const btScalar up[3]) {
  const HullSoA& soa = f.meshes->soa;
  for (std::size_t i = 0; i < f.compartments.size(); ++i) {
    const std::size_t first = f.meshes->firstVertex[i];
    const Extent e = extentAlong(soa.x.data() + first, soa.y.data() + first, soa.z.data() + first,
                                 soaOf(*f.compartments[i].space).vertexCount, up);
    f.state[i].bottomAboveCentre_m = e.lo, f.state[i].topAboveCentre_m = e.hi;
  }
}

/// The sea's height [m, along up, world] at each opening to the sea; NaN
/// for all when the surface threw or answered NaN.
void seaAtOpenings(const BoatModel& boat, FloodState& f, const Substep& s) {
  std::size_t n = 0;
  for (const Compartment& c : f.compartments)
    for (const Opening& o : c.openings) {
      if (o.to != kSea) continue;
      f.seaU_m[n] = btScalar(s.axes.centreEast_m + double(o.centre_m.dot(s.axes.east)));
      f.seaV_m[n] = btScalar(s.axes.centreNorth_m + double(o.centre_m.dot(s.axes.north)));
      ++n;
    }
  if (n == 0) return;
  try {
    boat.surface.heights(f.seaU_m.data(), f.seaV_m.data(), n, s.t_s, f.seaHeight_m.data());
  } catch (...) {  // the surface's problem: no flow to the sea this substep
    std::fill_n(f.seaHeight_m.begin(), n, std::numeric_limits<btScalar>::quiet_NaN());
  }
}

/// The free surface of compartment `c` [m above the centre of mass along up]:
/// its bottom when dry.
double levelOf(const CompartmentState& c) { return c.water_m3 > 0 ? c.level_m : c.bottomAboveCentre_m; }

/// Moves `dv` [m^3] into compartment `into` from `from` (null: the sea),
/// limited by the water there is and the room for it.
double transfer(FloodState& f, CompartmentState& into, CompartmentState* from, double dv) {
  if (dv > 0) {
    dv = std::min(dv, into.capacity_m3 - into.water_m3);
    if (from) dv = std::min(dv, from->water_m3);
  } else {
    dv = -std::min(-dv, into.water_m3);
    if (from) dv = -std::min(-dv, from->capacity_m3 - from->water_m3);
  }
  into.water_m3 += dv, into.inflow_m3 += dv;
  if (from)
    from->water_m3 -= dv, from->inflow_m3 -= dv;
  else
    f.takenFromSea_m3 += dv;
  return dv;
}

/// Water through every opening for one substep, then the pumps. Heads are
/// the last solve's levels (this substep's attitude for the openings).
void flowThroughOpenings(FloodState& f, const Substep& s, double g) {
  std::size_t sea = 0;
  for (std::size_t i = 0; i < f.compartments.size(); ++i) {
    CompartmentState& c = f.state[i];
    for (const Opening& o : f.compartments[i].openings) {
      const double centre = double(o.centre_m.dot(s.axes.up));
      const double half = 0.5 * double(o.height_m > 0 ? o.height_m : std::sqrt(o.area_m2));
      CompartmentState* other = o.to == kSea ? nullptr : &f.state[std::size_t(o.to)];
      const double outside = other ? levelOf(*other) : double(f.seaHeight_m[sea++]) - double(s.axes.centreUp_m);
      if (!std::isfinite(outside)) continue;
      const double inside = levelOf(c);
      const double q = orificeFlow_m3ps(o.dischargeCoefficient, o.area_m2, centre - half, centre + half, outside,
                                        inside, g);
      double dv = q * double(s.dt_s);
      // No step past the level that equalises the two sides: at most the
      // level difference times the water planes' (series) area.
      // The free surfaces' areas: the sections' times the permeability.
      const double mine = c.permeability * c.below.waterplane_m2;
      const double theirs = other ? other->permeability * other->below.waterplane_m2 : 0;
      const double slope = other ? mine * theirs / std::max(mine + theirs, 1e-30) : mine;
      if (slope > 0 && c.water_m3 > 0)
        dv = std::clamp(dv, -std::abs(outside - inside) * slope, std::abs(outside - inside) * slope);
      transfer(f, c, other, dv);
    }
    if (f.compartments[i].pumpRate_m3ps > 0)
      transfer(f, c, nullptr, -double(f.compartments[i].pumpRate_m3ps) * double(s.dt_s));
  }
}

}  // namespace

void floodwater(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s) {
  const StageScope scope(s.profile, SubstepStage::Flooding);
  FloodState& f = state.flood;
  f.force = ForceTorque{};
  if (f.empty()) return;
  const double g = double(state.frameGravity_mps2.length());
  const btScalar up[3] = {s.axes.up.x(), s.axes.up.y(), s.axes.up.z()};
  seaAtOpenings(boat, f, s);
  extentsAlong(f, up);
  bool unsolved = false;
  for (CompartmentState& c : f.state) {
    c.inflow_m3 = 0;
    unsolved = unsolved || !c.solved;
  }
  if (unsolved) solveLevels(f, up);  // the first substep: the heads need levels
  flowThroughOpenings(f, s, g);
  // The water's new free surface at this attitude, and its weight at its
  // centroid (added weight: docs/flooding.md, "The model", "Floodwater as weight").
  const double rhoG = double(boat.statics.waterDensity_kgpm3) * g;
  double mass = 0;
  solveLevels(f, up);
  for (std::size_t i = 0; i < f.compartments.size(); ++i) {
    const CompartmentState& c = f.state[i];
    const btVector3 weight = state.frame.up * btScalar(-rhoG * c.water_m3);
    const btVector3 at = state.basis * c.below.centroid_m;
    f.force.force_N += weight;
    f.force.torque_Nm += at.cross(weight);
    mass += double(boat.statics.waterDensity_kgpm3) * c.water_m3;
    CompartmentStatus& out = f.status.compartments[i];
    out.water_m3 = c.water_m3;
    out.inflow_m3ps = btScalar(c.inflow_m3 / double(s.dt_s));
    out.levelAboveCentre_m = c.water_m3 > 0 ? c.level_m : std::numeric_limits<btScalar>::quiet_NaN();
    out.waterCentroid_m = c.water_m3 > 0 ? at : btVector3(0, 0, 0);
  }
  f.status.takenFromSea_m3 = f.takenFromSea_m3;
  f.status.floodwaterMass_kg = btScalar(mass);
  f.status.reserveBuoyancy_kg = btScalar(double(boat.statics.waterDensity_kgpm3) * double(boat.hull.volume_m3()) -
                                         1 / double(body.inverseMass_pkg) - mass);
}

}  // namespace keel::KEEL_ABI::detail

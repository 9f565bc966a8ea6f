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

/// The sea's height [m, along up, world] at each opening to the sea,
/// checked as the hull's heights are (docs/model.md §4): a height that is
/// not finite, or lies more than kPlausibleHead_m beyond the hull's reach,
/// is replaced by the mean of the good ones at the other openings, or, when
/// none is good, by the middle of the water under the hull this substep
/// (checked already), and counted and flagged. NaN for all when the surface
/// threw: no flow to the sea this substep.
void seaAtOpenings(const BoatModel& boat, BoatState& state, Substep& s) {
  FloodState& f = state.flood;
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
    s.flags |= StatusSurfaceThrew;
    return;
  }
  const double reach = double(boat.hull.radius_m()) + kPlausibleHead_m;
  const double lo = double(s.axes.centreUp_m) - reach, hi = double(s.axes.centreUp_m) + reach;
  const auto good = [&](btScalar h) { return double(h) >= lo && double(h) <= hi; };  // false for NaN
  double sum = 0;
  std::size_t goodCount = 0, nonFinite = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const btScalar h = f.seaHeight_m[k];
    if (good(h))
      sum += double(h), ++goodCount;
    else if (!std::isfinite(h))
      ++nonFinite;
  }
  if (goodCount == n) return;
  const double standIn = goodCount > 0 ? sum / double(goodCount)
                                       : 0.5 * (double(s.waterRange.lo) + double(s.waterRange.hi));
  for (std::size_t k = 0; k < n; ++k)
    if (!good(f.seaHeight_m[k])) f.seaHeight_m[k] = btScalar(standIn);
  const std::size_t implausible = n - goodCount - nonFinite;
  state.status.nonFiniteHeights += nonFinite;
  state.status.implausibleHeights += implausible;
  if (nonFinite > 0) s.flags |= StatusNonFiniteHeight;
  if (implausible > 0) s.flags |= StatusImplausibleHeight;
}

/// The free surface of compartment `c` [m above the centre of mass along up]:
/// its bottom when dry.
double levelOf(const CompartmentState& c) { return c.water_m3 > 0 ? c.level_m : c.bottomAboveCentre_m; }

/// The area [m^2] of compartment c's free surface: its section's times the
/// permeability; dry or full, where the last solve has no section, its
/// capacity over its height along up, the free surface of a wall-sided
/// compartment of the same capacity and height.
double freeSurface_m2(const CompartmentState& c) {
  if (c.water_m3 > 0 && c.water_m3 < c.capacity_m3 && c.below.waterplane_m2 > 0)
    return c.permeability * c.below.waterplane_m2;
  return c.capacity_m3 / std::max(double(c.topAboveCentre_m) - double(c.bottomAboveCentre_m), 1e-30);
}

/// Moves `dv` [m^3] into compartment `into` from `from` (null: the sea),
/// limited by the water there is and the room for it: each compartment's
/// water stays within [0, its capacity], exactly. Returns what moved.
double transfer(FloodState& f, CompartmentState& into, CompartmentState* from, double dv) {
  const auto room = [](const CompartmentState& c) { return std::max(c.capacity_m3 - c.water_m3, 0.0); };
  const auto held = [](const CompartmentState& c) { return std::max(c.water_m3, 0.0); };
  if (dv > 0)
    dv = std::min({dv, room(into), from ? held(*from) : dv});
  else
    dv = -std::min({-dv, held(into), from ? room(*from) : -dv});
  // The clamps only round: water plus the room left can exceed the
  // capacity by an ulp, which the user reads back (setCompartments).
  into.water_m3 = std::clamp(into.water_m3 + dv, 0.0, into.capacity_m3), into.inflow_m3 += dv;
  into.head_m += dv / into.surface_m2;
  if (from)
    from->water_m3 = std::clamp(from->water_m3 - dv, 0.0, from->capacity_m3), from->inflow_m3 -= dv,
    from->head_m -= dv / from->surface_m2;
  else
    f.takenFromSea_m3 += dv;
  return dv;
}

/// Water through every opening for one substep, then the pumps. Heads
/// start at the last solve's levels (this substep's attitude for the
/// openings) and move with the water moved through each opening, over the
/// free surface's area.
void flowThroughOpenings(FloodState& f, const Substep& s, double g) {
  for (CompartmentState& c : f.state) c.surface_m2 = freeSurface_m2(c), c.head_m = levelOf(c);
  std::size_t sea = 0;
  for (std::size_t i = 0; i < f.compartments.size(); ++i) {
    CompartmentState& c = f.state[i];
    for (const Opening& o : f.compartments[i].openings) {
      const double centre = double(o.centre_m.dot(s.axes.up));
      const double half = 0.5 * double(o.height_m > 0 ? o.height_m : std::sqrt(o.area_m2));
      CompartmentState* other = o.to == kSea ? nullptr : &f.state[std::size_t(o.to)];
      const std::size_t seaIndex = sea;
      const double outside = other ? other->head_m : double(f.seaHeight_m[sea++]) - double(s.axes.centreUp_m);
      if (!std::isfinite(outside)) continue;
      const double inside = c.head_m;
      const double q = orificeFlow_m3ps(o.dischargeCoefficient, o.area_m2, centre - half, centre + half, outside,
                                        inside, g);
      // No step past the level that equalises the two sides: raising one
      // free surface (area S_a) by x and lowering the other (S_b) by y with
      // S_a x = S_b y = dv, x + y = the head difference, moves
      // dv = difference S_a S_b / (S_a + S_b); the sea's surface does not
      // move (S_b infinite): dv = difference S_a. Exact for wall-sided
      // compartments, so that a hole of any size cannot flip a room
      // between empty and full (docs/flooding.md, "The model", the flow
      // through an opening).
      const double slope = other ? c.surface_m2 * other->surface_m2 / (c.surface_m2 + other->surface_m2) : c.surface_m2;
      const double most = std::abs(outside - inside) * slope;
      const double moved = transfer(f, c, other, std::clamp(q * double(s.dt_s), -most, most));
      if (!other) f.seaFlow_m3ps[seaIndex] = btScalar(moved / double(s.dt_s));
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
  const double g = double(state.frameGravityLength_mps2);
  const btScalar up[3] = {s.axes.up.x(), s.axes.up.y(), s.axes.up.z()};
  extentsAlong(f, up);
  bool unsolved = false;
  for (CompartmentState& c : f.state) {
    c.inflow_m3 = 0;
    unsolved = unsolved || !c.solved;
  }
  if (unsolved) solveLevels(f, up);  // the first substep: the heads need levels
  std::fill(f.seaFlow_m3ps.begin(), f.seaFlow_m3ps.end(), btScalar(0));
  // No time passes while the action primes: the force of the water as it
  // is, none moved.
  if (f.timePasses) {
    seaAtOpenings(boat, state, s);
    flowThroughOpenings(f, s, g);
  }
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

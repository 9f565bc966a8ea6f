// The Effects stage: what the substep found turned into events a game draws
// (docs/effects.md). Spray and the bow wave come from the waterline the Cut
// left (triangles only); a splash from the hull's wetness against the last
// substep's; flooding from the flow the Flooding stage moved through each
// opening to the sea. Nothing here changes a force.
#include "hull/hull_access.hpp"
#include "substep/profile.hpp"
#include "substep/stages.hpp"

#include <array>
#include <cmath>

namespace keel::KEEL_ABI::detail {
namespace {

/// Which octant of the plane (x, y) a point lies in, counter-clockwise
/// from +x, without trigonometry: the same sector for the same bits.
std::uint32_t octant(btScalar x, btScalar y) {
  if (y >= 0) return x > 0 ? (y < x ? 0u : 1u) : (y > -x ? 2u : 3u);
  return x < 0 ? (-y < -x ? 4u : 5u) : (-y > x ? 6u : 7u);
}

/// One sector's sums of the waterline segments of one kind, weighted by
/// w = normal speed x segment length (body axes).
struct SectorSums {
  btScalar weight = 0;          ///< sum w [m^2/s]
  btVector3 position{0, 0, 0};  ///< sum w x midpoint
  btVector3 velocity{0, 0, 0};  ///< sum w x relative velocity
  btVector3 normal{0, 0, 0};    ///< sum w x outward normal
  btScalar speed = 0;           ///< sum w x normal speed
  btScalar length_m = 0;        ///< sum of the segments' lengths
  btScalar rate = 0;            ///< the kind's rate (EffectEvent)
  void add(btScalar w, const btVector3& at, const btVector3& v, const btVector3& n, btScalar vn, btScalar length,
           btScalar r) {
    weight += w, position += at * w, velocity += v * w, normal += n * w, speed += vn * w;
    length_m += length, rate += r;
  }
};

using Sectors = std::array<SectorSums, kEffectSectors>;

/// The `most` sectors of largest rate (the lower sector first on a tie), in
/// sector order, as events of `kind` (world: `basis` turns body axes,
/// `centre_m` is the centre of mass).
void emitStrongest(const Sectors& sectors, std::size_t most, EffectKind kind, const btMatrix3x3& basis,
                   const btVector3& centre_m, double t_s, EffectBuffer& out) {
  std::array<bool, kEffectSectors> chosen{};
  for (std::size_t n = 0; n < most; ++n) {
    std::size_t best = kEffectSectors;
    for (std::size_t i = 0; i < kEffectSectors; ++i)
      if (!chosen[i] && sectors[i].weight > 0 && (best == kEffectSectors || sectors[i].rate > sectors[best].rate))
        best = i;
    if (best == kEffectSectors) break;
    chosen[best] = true;
  }
  for (std::size_t i = 0; i < kEffectSectors; ++i) {
    if (!chosen[i]) continue;
    const SectorSums& c = sectors[i];
    const btScalar inverse = btScalar(1) / c.weight;
    const btVector3 normal = c.normal.length2() > 0 ? c.normal.normalized() : btVector3(0, 0, 0);
    out.add(EffectEvent{kind, std::uint32_t(i), centre_m + basis * (c.position * inverse),
                        basis * (c.velocity * inverse), basis * normal, c.speed * inverse, c.rate, c.length_m, t_s});
  }
}

/// The hull's velocity relative to the water at `r` [m, relative to the
/// centre of mass] in the axes the velocities are given in.
btVector3 velocityAt(const btVector3& linear, const btVector3& angular, const btVector3& water, const btVector3& r) {
  return linear + angular.cross(r) - water;
}

/// This substep's centre of buoyancy [m, world] moved along up onto the
/// middle height of the water under the hull: where it meets the water.
btVector3 buoyancyOnWater(const BoatState& state, const Substep& s) {
  const btVector3& up = state.frame.up;
  const btVector3 at = state.centre_m + state.hydrostatics.centreOfBuoyancy_m;
  return at + up * (btScalar(0.5) * (s.waterRange.lo + s.waterRange.hi) - at.dot(up));
}

/// A Splash event when the hull entered or left the water since the last
/// substep, fast enough along up.
void splash(const BoatState& state, const BodySnapshot& body, const Substep& s, bool wet, EffectBuffer& out) {
  const EffectHistory& h = state.effectHistory;
  if (!h.warm || wet == h.wet) return;
  const HydrostaticResult& r = state.hydrostatics;
  const btVector3& up = state.frame.up;
  // Entering: where this substep's centre of buoyancy meets the water;
  // leaving: where the last wet substep's did.
  const btVector3 at = wet ? buoyancyOnWater(state, s) : h.centre_m;
  const btVector3 v = velocityAt(body.linearVelocity_mps, body.angularVelocity_radps, state.referenceWater_mps,
                                 at - state.centre_m);
  const btScalar alongUp = v.dot(up);
  const btScalar minSpeed = out.settings.splashMinSpeed_mps;
  if (wet ? -alongUp < minSpeed : alongUp < minSpeed) return;
  const btScalar volume = wet ? r.submergedVolume_m3 : -h.volume_m3;
  const btScalar area = wet ? r.wettedArea_m2 : h.wettedArea_m2;
  out.add(
      EffectEvent{EffectKind::Splash, 0, at, v, up, btFabs(alongUp), volume / s.dt_s, btSqrt(area / SIMD_PI), s.t_s});
}

/// A Flooding event at each opening to the sea that passed enough water.
void flooding(const BoatState& state, const Substep& s, EffectBuffer& out) {
  const FloodState& f = state.flood;
  std::uint32_t n = 0;
  for (const Compartment& c : f.compartments)
    for (const Opening& o : c.openings) {
      if (o.to != kSea) continue;
      const btScalar q = f.seaFlow_m3ps[n++];
      if (q == 0 || btFabs(q) < out.settings.floodingMinRate_m3ps) continue;
      // The jet runs from the opening towards the compartment's centroid
      // (inflow) or away from it; its mean speed is Q / (Cd A), the orifice
      // law's (docs/flooding.md).
      btVector3 into = c.space->centroid_m() - o.centre_m;
      into = into.length2() > 0 ? into.normalized() : -state.frame.up * state.basis;
      const btVector3 direction = state.basis * (q > 0 ? into : -into);
      const btScalar speed = btFabs(q) / (o.dischargeCoefficient * o.area_m2);
      out.add(EffectEvent{EffectKind::Flooding, n - 1, state.centre_m + state.basis * o.centre_m, direction * speed,
                          direction, speed, q, btSqrt(o.area_m2), s.t_s});
    }
}

}  // namespace

void waterlineEffects(const BoatModel& boat, BoatState& state, const BodySnapshot& body, const Substep& s) {
  if (!state.effects || !state.flood.timePasses || s.crossingCount == 0) return;
  const StageScope scope(s.profile, SubstepStage::Effects);
  EffectBuffer& out = *state.effects;
  const EffectSettings& e = out.settings;
  const HullSoA& soa = soaOf(boat.hull);
  const PieceBuffer& p = s.buffers.pieces;
  // Body axes: the waterline and the faces are there.
  const btVector3 linear = body.linearVelocity_mps * state.basis;
  const btVector3 angular = body.angularVelocity_radps * state.basis;
  const btVector3 water = state.referenceWater_mps * state.basis;
  // The sectors lie in the plane of the two body axes least along up, so
  // that a boat's bow stays in the same ones as it turns and pitches.
  const int u = s.axes.up.absolute().maxAxis();
  const int i1 = (u + 1) % 3, i2 = (u + 2) % 3;
  const btScalar slowest = btMin(e.sprayMinSpeed_mps, e.bowWaveMinSpeed_mps);
  Sectors spray{}, bow{};
  for (std::size_t k = 0; k < s.crossingCount; ++k) {
    const auto t = std::size_t(s.buffers.crossing[k]);
    const btVector3 a(p.px[k], p.py[k], p.pz[k]), b(p.qx[k], p.qy[k], p.qz[k]);
    const btVector3 normal = btVector3(soa.sx[t], soa.sy[t], soa.sz[t]) * soa.inverseArea[t];
    const btVector3 mid = (a + b) * btScalar(0.5);
    const btVector3 v = velocityAt(linear, angular, water, mid);
    const btScalar vn = v.dot(normal);  // > 0: the face pushes into the water
    if (!(vn >= slowest)) continue;
    const btScalar length = (b - a).length();
    if (!(length > 0)) continue;
    const btScalar w = vn * length;
    const std::uint32_t sector = octant(mid[i1], mid[i2]);
    if (vn >= e.bowWaveMinSpeed_mps) bow[sector].add(w, mid, v, normal, vn, length, w);
    if (vn >= e.sprayMinSpeed_mps) {
      // The swept volume rate of the face's wet part (its pieces' areas),
      // the slamming term's A v_n (docs/model.md §2).
      btScalar wet = p.area[k] * p.weight[k];
      if (k < p.twoSlots) wet += p.area[p.slots + k] * p.weight[p.slots + k];
      spray[sector].add(w, mid, v, normal, vn, length, vn * wet);
    }
  }
  emitStrongest(spray, e.maxSprayPerSubstep, EffectKind::Spray, state.basis, state.centre_m, s.t_s, out);
  emitStrongest(bow, e.maxBowWavePerSubstep, EffectKind::BowWave, state.basis, state.centre_m, s.t_s, out);
}

void effects(const BoatModel&, BoatState& state, const BodySnapshot& body, const Substep& s) {
  if (!state.effects) return;
  const StageScope scope(s.profile, SubstepStage::Effects);
  EffectBuffer& out = *state.effects;
  EffectHistory& h = state.effectHistory;
  const bool wet = state.anyWet && state.hydrostatics.submergedVolume_m3 > 0;
  // While the action primes no time passes: the wetness is taken as it is.
  if (state.flood.timePasses) {
    splash(state, body, s, wet, out);
    if (!state.flood.empty()) flooding(state, s, out);
  }
  h.warm = true;
  h.wet = wet;
  if (!wet) return;
  h.centre_m = buoyancyOnWater(state, s);
  h.volume_m3 = state.hydrostatics.submergedVolume_m3;
  h.wettedArea_m2 = state.hydrostatics.wettedArea_m2;
}

}  // namespace keel::KEEL_ABI::detail

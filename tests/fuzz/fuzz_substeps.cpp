// keel_fuzz substeps: random boats in random states (up to 1000 m/s and
// 1000 rad/s) on every shipped surface, and on callbacks that answer NaN,
// huge heights or throw. The velocity change is always finite, and the
// dissipative terms never raise the kinetic energy relative to the water
// beyond the work the water's and the wind's own motion does through them
// (the check is spelt out at dissipatedEnough).
#include "fuzz.hpp"
#include "substep/substep.hpp"
#include "test_hulls.hpp"

#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <memory>
#include <stdexcept>

namespace keel::test::fuzz {
namespace {

/// The surfaces too costly to build per case, built once.
struct SharedWater {
  std::shared_ptr<const SpectralOcean> spectral;
  std::shared_ptr<const HeightGridSurface> grid;
};

SharedWater sharedWater() {
  SharedWater w;
  w.spectral = std::make_shared<SpectralOcean>(WaveSpectrum::jonswap(2.0, 6.0),
                                               SpectralOceanSettings{.nodesPerSide = 64, .seed = 3});
  // A periodic 32 m tile of two snapshots 0.1 s apart: a vertical velocity
  // of up to 20 m/s that varies over any hull.
  auto grid = std::make_shared<HeightGridSurface>(HeightGridLayout{.originEast_m = -16,
                                                                   .originNorth_m = -16,
                                                                   .cellSize_m = 0.5,
                                                                   .nodesEast = 64,
                                                                   .nodesNorth = 64,
                                                                   .edges = GridEdges::Periodic});
  for (const double t : {0.0, 0.1}) {
    const std::span<btScalar> h = grid->backBuffer_m();
    for (int j = 0; j < 64; ++j)
      for (int i = 0; i < 64; ++i)
        h[std::size_t(j * 64 + i)] = btScalar(std::sin(0.39 * i - 10 * t) + 0.5 * std::cos(0.59 * j + 7 * t));
    grid->publish(t);
  }
  w.grid = grid;
  return w;
}

/// What a case's water is.
enum class Water {
  Uniform,     ///< one velocity everywhere (flat, a current, a tilted plane)
  Varying,     ///< a velocity that varies over the hull
  Misbehaving  ///< NaN, huge or throwing heights: only finiteness is checked
};

/// The waters randomWater picks from, by number.
constexpr const char* kWaterNames[] = {"flat",     "a current", "a tilted plane", "a callback's plane",   "sines",
                                       "Gerstner", "spectral",  "a height grid",  "misbehaving callbacks"};

/// Random water: every shipped surface, and callbacks that misbehave.
/// Sets `pick` to its number in kWaterNames.
std::shared_ptr<const WaterSurface> randomWater(Random& r, const SharedWater& shared, Water& kind, int& pick) {
  kind = Water::Varying;
  pick = integer(r, 0, 8);
  switch (pick) {
    case 0: kind = Water::Uniform; return std::make_shared<FlatSurface>(uniform(r, -2, 2));
    case 1:
      kind = Water::Uniform;
      return std::make_shared<FlatSurface>(0, UniformCurrent{uniform(r, -3, 3), uniform(r, -3, 3)});
    case 2:
      kind = Water::Uniform;
      return std::make_shared<TiltedPlaneSurface>(uniform(r, -1, 1), uniform(r, -0.3, 0.3), uniform(r, -0.3, 0.3),
                                                  UniformCurrent{uniform(r, -3, 3), uniform(r, -3, 3)});
    case 3: {  // a plane through a callback: still, but not known to be uniform
      const auto slope = btScalar(uniform(r, -0.3, 0.3));
      return std::make_shared<FunctionSurface>([slope](btScalar x, btScalar, btScalar) { return slope * x; });
    }
    case 4:
      return std::make_shared<SineSumSurface>(std::vector<WaveComponent>{
          deepWaterWave(uniform(r, 0, 3), uniform(r, 5, 100), uniform(r, -3, 3), 0), deepWaterWave(0.2, 12, 0.7, 1.0)});
    case 5: return gerstnerSea(uniform(r, 0.5, 8), uniform(r, 5, 14), 8, std::uint32_t(integer(r, 0, 1000)), 0.8);
    case 6: return shared.spectral;
    case 7: return shared.grid;
    default: {
      kind = Water::Misbehaving;
      const int how = integer(r, 0, 3);
      const double big = std::pow(10.0, uniform(r, 2, 38));
      return std::make_shared<FunctionSurface>([how, big](btScalar x, btScalar z, btScalar) -> btScalar {
        if (how == 0 && x > 0) return std::numeric_limits<btScalar>::quiet_NaN();
        if (how == 1 && x > z) return btScalar(big);
        if (how == 2 && x > 1) throw std::runtime_error("the user's water threw");
        return x < 0 ? btScalar(-big) : btScalar(0);
      });
    }
  }
}

/// A random body: mass 0.1 to 1 of the hull's displacement, isotropic
/// inertia, any pose, up to 1000 m/s and 1000 rad/s, any Bullet damping.
detail::BodySnapshot randomBody(Random& r, const Hull& hull, double mass) {
  detail::BodySnapshot body;
  const btQuaternion q(btVector3(btScalar(uniform(r, -1, 1)), btScalar(uniform(r, -1, 1)), 1).normalized(),
                       btScalar(uniform(r, -3.2, 3.2)));
  const double far = integer(r, 0, 9) == 0 ? std::pow(10.0, uniform(r, 3, 7)) : 0;
  body.centreOfMass = btTransform(q, btVector3(btScalar(far), btScalar(uniform(r, -3, 3)), 0));
  auto direction = [&] {
    return btVector3(btScalar(uniform(r, -1, 1)), btScalar(uniform(r, -1, 1)), btScalar(uniform(r, -1, 1)))
        .normalized();
  };
  // Half the cases up to 1000 m/s and 1000 rad/s evenly, half spread
  // evenly over the orders of magnitude from a boat's 1 cm/s up.
  auto speed = [&] {
    return btScalar(integer(r, 0, 1) == 0 ? uniform(r, 0, 1000) : std::pow(10.0, uniform(r, -2, 3)));
  };
  body.linearVelocity_mps = direction() * speed();
  body.angularVelocity_radps = direction() * speed();
  body.inverseMass_pkg = btScalar(1 / mass);
  const btMatrix3x3 rotation(q);
  const double radius = double(hull.radius_m());
  body.ownInverseInertiaLocal = btVector3(1, 1, 1) * btScalar(1 / (0.2 * mass * radius * radius));
  body.inverseInertia = detail::worldInverseInertia(rotation, body.ownInverseInertiaLocal);
  body.bulletInverseMass_pkg = body.inverseMass_pkg;
  body.gravity_mps2 = btVector3(0, -kG, 0);
  body.linearDamping = btScalar(uniform(r, 0, 1));
  body.angularDamping = btScalar(uniform(r, 0, 1));
  body.linearFactor = body.angularFactor = btVector3(1, 1, 1);
  return body;
}

/// The check. The dissipative terms, viscous, pressure drag, slamming, air
/// and damping, summed as the Clamp stage left them
/// (state.hydrodynamics.total()), change the velocity by dv = F dt / m,
/// dw = I^-1 tau dt. From the velocity the conservative forces (the
/// pressure, gravity) give this substep, v = v0 - u + (F_p / m + g) dt and
/// w = w0 + I^-1 tau_p dt, relative to the reference water u
/// (state.referenceWater_mps: the area-weighted mean water velocity over
/// the wet pieces with per-vertex sampling, the water under the boat with
/// PerBoat, zero in StillWater or for a dry hull), they may raise
/// K = 1/2 m |v|^2 + 1/2 w.I w by at most the allowance A
/// (state.energyAllowance_J) and the float rounding of the velocity change,
/// 1e-6 K. A is dt max(0, P0), P0 the terms' power in u's frame before any
/// clamp, which each term's opposing its piece's motion through its medium
/// bounds by the work the water's velocity differences and the wind
/// relative to u do through them; so in uniform water under air at rest
/// relative to it (no wind and no current) A must be 0 (checked): there the
/// terms may only take energy. Returns false on a gain; adds
/// the fed cases (A > 0) and the largest A / K to `fed` and `mostFed`,
/// and sets `gain_J` to the rise of K.
bool dissipatedEnough(const detail::BoatState& state, const detail::BodySnapshot& own, double ownMass, bool addedMass,
                      btScalar dt, bool strict, long& fed, double& mostFed, double& gain_J) {
  // With the added mass the terms move the body and its water: its mass
  // and inertia raised as the clamp and Bullet see them (the AddedMass
  // stage keeps them, state.raisedTo), and gravity still pulls the body's
  // own mass only.
  detail::BodySnapshot body = own;
  double mass = ownMass;
  btVector3 gravity = own.gravity_mps2;
  if (addedMass) {
    const detail::BulletMass& raised = state.raisedTo;
    body.inverseMass_pkg = raised.inverseMass_pkg;
    body.inverseInertia = detail::worldInverseInertia(own.centreOfMass.getBasis(), raised.inverseInertiaLocal);
    mass = 1 / double(raised.inverseMass_pkg);
    gravity *= raised.inverseMass_pkg / own.inverseMass_pkg;
  }
  const ForceTorque drag = state.hydrodynamics.total();
  const btVector3 v = body.linearVelocity_mps - state.referenceWater_mps +
                      (state.hydrostatics.force_N * body.inverseMass_pkg + gravity) * dt;
  const btVector3 w = body.angularVelocity_radps + body.inverseInertia * state.hydrostatics.torque_Nm * dt;
  const btVector3 dv = drag.force_N * (body.inverseMass_pkg * dt), dw = body.inverseInertia * drag.torque_Nm * dt;
  const btMatrix3x3 inertia = body.inverseInertia.inverse();
  auto energy = [&](const btVector3& a, const btVector3& b) {
    return 0.5 * mass * double(a.length2()) + 0.5 * double(b.dot(inertia * b));
  };
  const double before = energy(v, w), allowance = state.energyAllowance_J;
  if (allowance > 0) ++fed, mostFed = std::max(mostFed, allowance / before);
  gain_J = energy(v + dv, w + dw) - before;
  if (strict && allowance != 0) return false;
  return gain_J <= before * 1e-6 + allowance;
}

}  // namespace

int substeps(long count, std::uint64_t seed, long /*first*/) {
  Random r(seed);
  const std::shared_ptr<const Hull> hulls[] = {hullOf(box(btVector3(4, 1.5f, 2), 3)), hullOf(boatHull(10, 3.5f, 2.5f)),
                                               hullOf(icosphere(1, 2))};
  const SharedWater shared = sharedWater();
  long failed = 0, applied = 0, nonFinite = 0, gains = 0, fed = 0, checkedOn[std::size(kWaterNames)] = {};
  double mostFed = 0, gain_J = 0;
  for (long i = 0; i < count; ++i) {
    const Hull& hull = *hulls[integer(r, 0, 2)];
    Water kind = Water::Varying;
    int pick = 0;
    const auto water = randomWater(r, shared, kind, pick);
    HydrostaticSettings statics;
    statics.sampling = integer(r, 0, 1) == 0 ? Sampling::Direct : Sampling::Patch;
    HydrodynamicSettings dynamics;
    dynamics.waterVelocity = WaterVelocitySampling(integer(r, 0, 2));
    dynamics.damping = integer(r, 0, 1) == 0;
    dynamics.addedMass = integer(r, 0, 3) == 0;
    dynamics.linearDamping_Nspm = dynamics.angularDamping_Nmsprad = btScalar(uniform(r, 0, 1e4));
    const bool windy = integer(r, 0, 3) == 0;
    if (windy) dynamics.wind_mps = btVector3(btScalar(uniform(r, -30, 30)), 0, btScalar(uniform(r, -30, 30)));
    const detail::BoatModel boat{hull, *water, statics, dynamics};
    detail::BoatState state;
    state.allocate(hull, statics);
    const double mass = uniform(r, 0.1, 1.0) * 1025 * double(hull.volume_m3());
    const detail::BodySnapshot body = randomBody(r, hull, mass);
    const btScalar dt = btScalar(std::pow(10.0, uniform(r, -4, -1)));
    if (!detail::runSubstep(boat, state, body, dt, uniform(r, 0, 1e4))) continue;
    ++applied;
    bool ok = std::isfinite(state.pendingLinear_mps.length()) && std::isfinite(state.pendingAngular_radps.length());
    nonFinite += !ok;
    ++checkedOn[pick];
    if (ok && kind != Water::Misbehaving) {
      const bool stillAir = dynamics.wind_mps == state.referenceWater_mps;
      ok = dissipatedEnough(state, body, mass, dynamics.addedMass, dt, kind == Water::Uniform && stillAir, fed, mostFed,
                            gain_J);
      gains += !ok;
    }
    if (!ok) {
      ++failed;
      std::printf("substep %ld: %s; |v| %g |w| %g dt %g energy scale %g: K rose %g J, allowed %g J; wet %d\n", i,
                  state.status.describe().c_str(), double(body.linearVelocity_mps.length()),
                  double(body.angularVelocity_radps.length()), double(dt), double(state.hydrodynamics.energyScale),
                  gain_J, state.energyAllowance_J, int(state.anyWet));
    }
  }
  std::printf("substeps: %ld applied a force, %ld refused with a status; of those applied, on", applied,
              count - applied);
  for (std::size_t k = 0; k < std::size(kWaterNames); ++k) std::printf(" %s %ld,", kWaterNames[k], checkedOn[k]);
  std::printf(" the last only checked finite\n");
  std::printf("non-finite velocity changes: %ld; energy gains beyond the allowance: %ld\n", nonFinite, gains);
  std::printf("the water or wind fed %ld substeps (allowance at most %.3g of K)\n", fed, mostFed);
  std::printf("%ld passed, %ld failed\n", count - failed, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace keel::test::fuzz

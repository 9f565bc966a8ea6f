// keel_fuzz substeps: random boats in random states on random water; the
// velocity change is always finite, and in uniform water the drag and
// damping never add kinetic energy.
#include "fuzz.hpp"
#include "substep/substep.hpp"
#include "test_hulls.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>

namespace keel::test::fuzz {
namespace {

/// Random water: flat, a current, waves, or a function with NaN, huge or
/// throwing answers.
std::shared_ptr<const WaterSurface> randomWater(Random& r, bool& isUniform) {
  isUniform = false;
  switch (integer(r, 0, 5)) {
    case 0: isUniform = true; return std::make_shared<FlatSurface>(uniform(r, -2, 2));
    case 1:
      isUniform = true;
      return std::make_shared<FlatSurface>(0, UniformCurrent{uniform(r, -3, 3), uniform(r, -3, 3)});
    case 2:
      return std::make_shared<SineSumSurface>(std::vector<WaveComponent>{
          deepWaterWave(uniform(r, 0, 3), uniform(r, 5, 100), uniform(r, -3, 3), 0), deepWaterWave(0.2, 12, 0.7, 1.0)});
    case 3: return gerstnerSea(uniform(r, 0.5, 8), uniform(r, 5, 14), 8, std::uint32_t(integer(r, 0, 1000)), 0.8);
    default: {
      const int kind = integer(r, 0, 3);
      const double big = std::pow(10.0, uniform(r, 2, 38));
      return std::make_shared<FunctionSurface>([kind, big](btScalar x, btScalar z, btScalar) -> btScalar {
        if (kind == 0 && x > 0) return std::numeric_limits<btScalar>::quiet_NaN();
        if (kind == 1 && x > z) return btScalar(big);
        if (kind == 2 && x > 1) throw std::runtime_error("the user's water threw");
        return x < 0 ? btScalar(-big) : btScalar(0);
      });
    }
  }
}

}  // namespace

int substeps(long count, std::uint64_t seed, long /*first*/) {
  Random r(seed);
  const std::shared_ptr<const Hull> hulls[] = {hullOf(box(btVector3(4, 1.5f, 2), 3)), hullOf(boatHull(10, 3.5f, 2.5f)),
                                               hullOf(icosphere(1, 2))};
  long failed = 0, applied = 0;
  for (long i = 0; i < count; ++i) {
    const Hull& hull = *hulls[integer(r, 0, 2)];
    bool waterUniform = false;
    const auto water = randomWater(r, waterUniform);
    HydrostaticSettings statics;
    statics.sampling = integer(r, 0, 1) == 0 ? Sampling::Direct : Sampling::Patch;
    HydrodynamicSettings dynamics;
    dynamics.waterVelocity = WaterVelocitySampling(integer(r, 0, 2));
    dynamics.damping = integer(r, 0, 1) == 0;
    dynamics.linearDamping_Nspm = dynamics.angularDamping_Nmsprad = btScalar(uniform(r, 0, 1e4));
    const detail::BoatModel boat{hull, *water, statics, dynamics};
    detail::BoatState state;
    state.allocate(hull, statics);
    const double mass = uniform(r, 0.1, 1.0) * 1025 * double(hull.volume_m3());
    detail::BodySnapshot body;
    const btQuaternion q(btVector3(btScalar(uniform(r, -1, 1)), btScalar(uniform(r, -1, 1)), 1).normalized(),
                         btScalar(uniform(r, -3.2, 3.2)));
    const double far = integer(r, 0, 9) == 0 ? std::pow(10.0, uniform(r, 3, 7)) : 0;
    body.centreOfMass = btTransform(q, btVector3(btScalar(far), btScalar(uniform(r, -3, 3)), 0));
    body.linearVelocity_mps =
        btVector3(btScalar(uniform(r, -1, 1)), btScalar(uniform(r, -1, 1)), btScalar(uniform(r, -1, 1))).normalized() *
        btScalar(uniform(r, 0, 1000));
    body.angularVelocity_radps =
        btVector3(btScalar(uniform(r, -1, 1)), btScalar(uniform(r, -1, 1)), btScalar(uniform(r, -1, 1))).normalized() *
        btScalar(uniform(r, 0, 1000));
    body.inverseMass_pkg = btScalar(1 / mass);
    const btMatrix3x3 rotation(q);
    const double radius = double(hull.radius_m());
    body.inverseInertia = rotation.scaled(btVector3(1, 1, 1) * btScalar(1 / (0.2 * mass * radius * radius))) *
                          rotation.transpose();
    body.gravity_mps2 = btVector3(0, -kG, 0);
    body.linearDamping = btScalar(uniform(r, 0, 1));
    body.angularDamping = btScalar(uniform(r, 0, 1));
    body.linearFactor = body.angularFactor = btVector3(1, 1, 1);
    const btScalar dt = btScalar(std::pow(10.0, uniform(r, -4, -1)));
    if (!detail::runSubstep(boat, state, body, dt, uniform(r, 0, 1e4))) continue;
    ++applied;
    bool ok = std::isfinite(state.pendingLinear_mps.length()) && std::isfinite(state.pendingAngular_radps.length());
    if (ok && waterUniform) {  // energy relative to the water, drag and damping only
      const ForceTorque drag = state.hydrodynamics.total();
      // The model's water: still when the settings say so.
      const bool still = dynamics.waterVelocity == WaterVelocitySampling::StillWater;
      const btVector3 current = state.anyWet && !still ? water->velocity(0, 0, 0, 0).east_mps * state.frame.east +
                                                             water->velocity(0, 0, 0, 0).north_mps * state.frame.north
                                                       : btVector3(0, 0, 0);
      // From the velocity the conservative forces (buoyancy, gravity) give.
      const btVector3 v = body.linearVelocity_mps - current +
                          (state.hydrostatics.force_N * body.inverseMass_pkg + body.gravity_mps2) * dt;
      const btVector3 w = body.angularVelocity_radps + body.inverseInertia * state.hydrostatics.torque_Nm * dt;
      const btVector3 dv = drag.force_N * (body.inverseMass_pkg * dt), dw = body.inverseInertia * drag.torque_Nm * dt;
      const btMatrix3x3 inertia = body.inverseInertia.inverse();
      auto energy = [&](const btVector3& a, const btVector3& b) {
        return 0.5 * mass * double(a.length2()) + 0.5 * double(b.dot(inertia * b));
      };
      ok = energy(v + dv, w + dw) <= energy(v, w) * (1 + 1e-6);
    }
    if (!ok) {
      ++failed;
      std::printf("substep %ld: %s; |v| %g |w| %g dt %g energy scale %g wet %d\n", i, state.status.describe().c_str(),
                  double(body.linearVelocity_mps.length()), double(body.angularVelocity_radps.length()), double(dt),
                  double(state.hydrodynamics.energyScale), int(state.anyWet));
    }
  }
  std::printf("substeps: %ld applied a force, %ld refused with a status\n", applied, count - applied);
  std::printf("%ld passed, %ld failed\n", count - failed, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace keel::test::fuzz

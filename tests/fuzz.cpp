// Random hulls and random substeps, to find what the analytic tests miss:
//   keel_fuzz hulls N [SEED [FIRST]]
//                          N random meshes through keel::Hull: each is built
//                          or refused with a HullError, never a crash, a
//                          hang or another exception; the slowest is timed,
//                          any over 1 s is named (FIRST skips to it).
//   keel_fuzz substeps N   N substeps of random boats in random states (up
//                          to 1000 m/s and 1000 rad/s) on random water
//                          (waves, NaN, huge and throwing heights): the
//                          velocity change is always finite, and in uniform
//                          water the drag and damping never add kinetic
//                          energy.
// Prints "N passed, M failed" and exits non-zero on a failure. ctest runs
// a short smoke of each; docs/model.md §4 quotes a long run.
#include "substep/substep.hpp"
#include "test_hulls.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

namespace keel::test {
namespace {

using Random = std::mt19937_64;

double uniform(Random& r, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(r); }
int integer(Random& r, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(r); }

/// A coordinate scale from 1e-20 m to 1e13 m, mostly boat-sized.
double scale(Random& r) { return integer(r, 0, 9) == 0 ? std::pow(10.0, uniform(r, -20, 13)) : uniform(r, 0.1, 20); }

/// A random mesh: a shape (box, sphere, boat, soup), perhaps several,
/// moved, scaled, with vertices broken or triangles dropped or doubled.
Mesh randomMesh(Random& r) {
  Mesh m;
  const int parts = integer(r, 1, 3);
  for (int p = 0; p < parts; ++p) {
    const btVector3 centre(btScalar(uniform(r, -2, 2)), btScalar(uniform(r, -2, 2)), btScalar(uniform(r, -2, 2)));
    Mesh part;
    switch (integer(r, 0, 3)) {
      case 0:
        part = box(btVector3(btScalar(uniform(r, 0.1, 3)), btScalar(uniform(r, 0.1, 3)), 1), integer(r, 1, 3), centre);
        break;
      case 1: part = icosphere(btScalar(uniform(r, 0.1, 2)), integer(r, 0, 2), centre); break;
      case 2: part = boatHull(btScalar(uniform(r, 2, 10)), 2, 1, integer(r, 3, 8), integer(r, 2, 4)); break;
      default:
        for (int k = 0; k < integer(r, 1, 30); ++k) {
          part.vertices.emplace_back(btScalar(uniform(r, -1, 1)), btScalar(uniform(r, -1, 1)),
                                     btScalar(uniform(r, -1, 1)));
          if (part.vertices.size() >= 3)
            part.triangles.push_back({std::uint32_t(integer(r, 0, int(part.vertices.size()) - 1)),
                                      std::uint32_t(integer(r, 0, int(part.vertices.size()) - 1)),
                                      std::uint32_t(part.vertices.size() - 1)});
        }
    }
    const auto offset = std::uint32_t(m.vertices.size());
    m.vertices.insert(m.vertices.end(), part.vertices.begin(), part.vertices.end());
    for (auto t : part.triangles) m.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
  }
  const double s = scale(r), shift = integer(r, 0, 4) == 0 ? std::pow(10.0, uniform(r, 0, 12)) : 0;
  for (btVector3& v : m.vertices) v = v * btScalar(s) + btVector3(btScalar(shift), 0, 0);
  switch (integer(r, 0, 9)) {
    case 0:
      m.vertices[std::size_t(integer(r, 0, int(m.vertices.size()) - 1))].setX(
          std::numeric_limits<btScalar>::quiet_NaN());
      break;
    case 1:
      if (!m.triangles.empty()) m.triangles.pop_back();
      break;
    case 2:
      if (!m.triangles.empty()) m.triangles.push_back(m.triangles.front());
      break;
    case 3:
      if (!m.triangles.empty()) std::swap(m.triangles.front()[0], m.triangles.front()[1]);
      break;
    default: break;
  }
  return m;
}

int fuzzHulls(long count, std::uint64_t seed, long first) {
  Random r(seed);
  long built = 0, refused = 0, failed = 0;
  double slowest_s = 0;
  for (long i = 0; i < count; ++i) {
    const Mesh m = randomMesh(r);
    HullOptions options;
    if (integer(r, 0, 3) == 0) options.maxEdgeLength_m = btScalar(std::pow(10.0, uniform(r, -6, 2)));
    if (integer(r, 0, 3) == 0) options.weldTolerance = btScalar(uniform(r, 0, 1e-2));
    if (i < first) continue;  // the same random stream, built from hull `first` on
    if (i % 10000 == 0) std::fprintf(stderr, "hull %ld\n", i);
    const auto start = std::chrono::steady_clock::now();
    try {
      const Hull hull(m.vertices, m.triangles, options);
      ++built;
      if (!(std::isfinite(hull.volume_m3()) && hull.volume_m3() > 0)) {
        ++failed;
        std::printf("hull %ld: accepted with volume %g\n", i, double(hull.volume_m3()));
      }
    } catch (const HullError&) {
      ++refused;
    } catch (const std::exception& e) {
      ++failed;
      std::printf("hull %ld: %s\n", i, e.what());
    }
    const double took_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (took_s > 1) std::printf("hull %ld (seed %llu): %.1f s\n", i, static_cast<unsigned long long>(seed), took_s);
    slowest_s = std::max(slowest_s, took_s);
  }
  std::printf("hulls: %ld built, %ld refused with a HullError, slowest %.3f s\n", built, refused, slowest_s);
  std::printf("%ld passed, %ld failed\n", count - failed, failed);
  return failed == 0 ? 0 : 1;
}

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

int fuzzSubsteps(long count, std::uint64_t seed) {
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

}  // namespace
}  // namespace keel::test

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const long count = argc > 2 ? std::atol(argv[2]) : 1000;
  const std::uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
  const long first = argc > 4 ? std::atol(argv[4]) : 0;  // hulls: start building at this index
  if (mode == "hulls") return keel::test::fuzzHulls(count, seed, first);
  if (mode == "substeps") return keel::test::fuzzSubsteps(count, seed);
  std::fprintf(stderr, "usage: keel_fuzz hulls|substeps [count] [seed]\n");
  return 2;
}

// Light bodies (docs/model.md, "Added mass", "Validation"): boxes, spheres
// and a dinghy of relative density 0.02 to 0.2 and 5 cm to 2 m, at 60 Hz
// with one substep, on a 1 m sea and on still water. Without the water's
// inertia a body much lighter than the water it moves is driven by forces
// far larger than its own weight, and an explicit substep at 60 Hz can
// overshoot; with it, each must stay finite, bounded and settle at its draft.
//
// The whole table (48 bodies, 60 s each, added mass off and on) is
//   build/float/tests/keel_tests --gtest_also_run_disabled_tests --gtest_filter='LightBodies.DISABLED_Table'
// (about a minute in Release); the suite runs the worst bodies for 5 s.
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

namespace keel::test {
namespace {

constexpr double kRho = 1025;
constexpr double kFrame_s = 1.0 / 60;  // one substep per 60 Hz frame
constexpr double kSpeedLimit_mps = 20, kSpinLimit_radps = 50;

enum class Shape { Box, Sphere, Dinghy };
const char* nameOf(Shape s) { return s == Shape::Box ? "box" : s == Shape::Sphere ? "sphere" : "dinghy"; }

/// A body of `shape`, `size_m` across (the cube's side, the sphere's
/// diameter, the dinghy's length) and relative density `s` (its mass over
/// the mass of the water its hull displaces when submerged), solid and
/// uniform: its mass, centre and inertia from the hull (keel::massProperties),
/// the hull moved into the body's principal frame.
struct LightBody {
  LightBody(Shape shape, double size_m, double s) {
    const auto size = btScalar(size_m);
    Mesh mesh = shape == Shape::Box      ? box(btVector3(size, size, size))
                : shape == Shape::Sphere ? icosphere(size / 2, 2)
                                         : boatHull(size, size * btScalar(0.4), size * btScalar(0.3));
    const MassProperties water = massProperties(*hullOf(mesh), kRho);
    for (btVector3& v : mesh.vertices) v = water.hullToBody() * v;
    hull = hullOf(mesh);
    mass_kg = s * double(water.mass_kg);
    const btVector3 inertia = water.principalInertia_kgm2 * btScalar(s);
    body = std::make_unique<btRigidBody>(
        btRigidBody::btRigidBodyConstructionInfo(btScalar(mass_kg), nullptr, &collisionShape, inertia));
  }
  /// Lowest point of the hull below the water level 0 along y, at the body's pose [m].
  [[nodiscard]] double draft_m() const {
    double low = 1e30;
    for (const btVector3& v : hull->vertices()) low = std::min(low, double((body->getCenterOfMassTransform() * v).y()));
    return -low;
  }
  std::shared_ptr<const Hull> hull;
  double mass_kg = 0;
  btSphereShape collisionShape{1};  // no other bodies: the shape is never in a contact
  std::unique_ptr<btRigidBody> body;
};

/// The draft at which the hull, kept at its attitude, displaces its mass:
/// found on the hull itself (for an upright cube it is `s` times its side).
double equilibriumDraft(const LightBody& b) {
  const LevelWater still;
  PoseQuery q;
  q.gravity_mps2 = btVector3(0, -kG, 0);
  q.waterDensity_kgpm3 = btScalar(kRho);
  btTransform pose = b.body->getCenterOfMassTransform();
  const double current = b.draft_m();
  double low = double(pose.getOrigin().y()) - 4, high = low + 8;  // the centre's height [m]
  for (int i = 0; i < 60; ++i) {
    const double mid = (low + high) / 2;
    pose.getOrigin().setY(btScalar(mid));
    (hydrostaticsAtPose(*b.hull, pose, still, q).displacement_kg > b.mass_kg ? low : high) = mid;
  }
  return current + (double(b.body->getCenterOfMassPosition().y()) - (low + high) / 2);
}

struct Outcome {
  bool finite = true;
  double maxSpeed_mps = 0, maxSpin_radps = 0;
  double draftError_m = 0, draft_m = 0;  // on still water, at the end, and the equilibrium's
};

/// Runs `b` on `surface` for `seconds` at 60 Hz, one substep, from rest with
/// its lowest point at the water (tilted 5 degrees): the largest speed and
/// spin, and whether every state stayed finite.
void run(LightBody& b, std::shared_ptr<const WaterSurface> surface, double seconds, bool addedMass, Outcome& out,
         bool track) {
  World w;
  const btQuaternion tilt(btVector3(1, 0, 1).normalized(), btScalar(5 * 3.14159265358979 / 180));
  b.body->setWorldTransform(btTransform(tilt, btVector3(0, 0, 0)));
  b.body->setLinearVelocity(btVector3(0, 0, 0));
  b.body->setAngularVelocity(btVector3(0, 0, 0));
  const double h0 = double(surface->height(0, 0, 0));
  b.body->setWorldTransform(btTransform(tilt, btVector3(0, btScalar(h0 + b.draft_m()), 0)));
  w.world.addRigidBody(b.body.get());
  WaterAction boat(b.body.get(), b.hull, surface);
  HydrodynamicSettings h = boat.hydrodynamicSettings();  // what a user has: every default term
  h.addedMass = addedMass;
  boat.setHydrodynamics(h);
  w.world.addAction(&boat);
  for (int i = 0; i < int(seconds / kFrame_s); ++i) {
    w.world.stepSimulation(btScalar(kFrame_s), 1, btScalar(kFrame_s));
    const btVector3 v = b.body->getLinearVelocity(), omega = b.body->getAngularVelocity();
    const btVector3 p = b.body->getCenterOfMassPosition();
    if (!std::isfinite(double(v.length2() + omega.length2() + p.length2()))) {
      out.finite = false;
      break;
    }
    if (track) {
      out.maxSpeed_mps = std::max(out.maxSpeed_mps, double(v.length()));
      out.maxSpin_radps = std::max(out.maxSpin_radps, double(omega.length()));
    }
  }
  w.world.removeAction(&boat);
  w.world.removeRigidBody(b.body.get());
}

/// `seconds` on the 1 m sea, then `seconds` on still water.
Outcome trial(Shape shape, double size_m, double s, double seconds, bool addedMass) {
  // A JONSWAP sea of significant height 1 m and peak period 4 s (peak
  // wavelength 25 m), 16 Gerstner waves at 0.9 of their folding limit.
  static const std::shared_ptr<const WaterSurface> sea = gerstnerSea(1.0, 4.0, 16, 28, 1.0);
  static const std::shared_ptr<const WaterSurface> still = std::make_shared<LevelWater>();
  Outcome out;
  LightBody b(shape, size_m, s);
  run(b, sea, seconds, addedMass, out, true);
  if (!out.finite) return out;
  LightBody calm(shape, size_m, s);
  run(calm, still, seconds, addedMass, out, false);
  if (!out.finite) return out;
  out.draft_m = equilibriumDraft(calm);
  out.draftError_m = calm.draft_m() - out.draft_m;
  return out;
}

bool bounded(const Outcome& o) {
  return o.finite && o.maxSpeed_mps < kSpeedLimit_mps && o.maxSpin_radps < kSpinLimit_radps;
}

void printRow(Shape shape, double size_m, double s, const Outcome& o, const char* when) {
  std::printf("| %-6s | %4.2f | %4.2f | %-6s | %8.3g | %8.3g | %9.3g | %6.3g %% |%s\n", nameOf(shape), size_m, s, when,
              o.maxSpeed_mps, o.maxSpin_radps, 1e3 * o.draftError_m,
              o.draft_m > 0 ? 100 * o.draftError_m / o.draft_m : 0.0,
              !o.finite    ? " not finite"
              : bounded(o) ? ""
                           : " unbounded");
}

/// The relative draft error a settled body must meet on still water.
constexpr double kDraftTolerance = 0.01;

TEST(LightBodies, DISABLED_Table) {
  std::printf(
      "| shape  | size [m] | s | added mass | max speed [m/s] | max spin [rad/s] | draft error [mm] | of the draft "
      "|\n");
  int unboundedBefore = 0, unboundedAfter = 0;
  for (Shape shape : {Shape::Box, Shape::Sphere, Shape::Dinghy})
    for (double size : {0.05, 0.2, 1.0, 2.0})
      for (double s : {0.02, 0.05, 0.1, 0.2}) {
        const Outcome before = trial(shape, size, s, 60, false), after = trial(shape, size, s, 60, true);
        printRow(shape, size, s, before, "off");
        printRow(shape, size, s, after, "on");
        unboundedBefore += bounded(before) ? 0 : 1;
        unboundedAfter += bounded(after) ? 0 : 1;
        EXPECT_TRUE(bounded(after)) << nameOf(shape) << " " << size << " m, s " << s;
        EXPECT_LT(std::abs(after.draftError_m), kDraftTolerance * after.draft_m) << nameOf(shape) << " " << size;
      }
  std::printf("unbounded or not finite: %d of 48 without added mass, %d with\n", unboundedBefore, unboundedAfter);
}

struct Case {
  Shape shape;
  double size_m, s;
};

TEST(LightBodies, TheWorstStayBoundedAndSettleAtTheirDraft) {
  // Those the table finds unbounded without added mass or worst settled,
  // for 5 s on the sea and 5 s on still water.
  for (const Case c : {Case{Shape::Dinghy, 0.05, 0.1}, Case{Shape::Dinghy, 0.05, 0.2}, Case{Shape::Dinghy, 0.2, 0.02},
                       Case{Shape::Box, 0.05, 0.02}, Case{Shape::Box, 0.05, 0.05}, Case{Shape::Sphere, 0.05, 0.02}}) {
    const Outcome after = trial(c.shape, c.size_m, c.s, 5, true);
    printRow(c.shape, c.size_m, c.s, after, "on");
    EXPECT_TRUE(bounded(after)) << nameOf(c.shape) << " " << c.size_m << " m, s " << c.s;
    EXPECT_LT(std::abs(after.draftError_m), kDraftTolerance * after.draft_m) << nameOf(c.shape) << " " << c.size_m;
  }
}

TEST(LightBodies, TheSmallestDinghyStaysBounded) {
  // The 5 cm dinghy of 0.2 g and 0.4 g, the table's hardest: its heave and
  // roll with its water are at the edge of what a 60 Hz substep integrates
  // explicitly, and its drag turns it faster than a substep; the added
  // mass's solve takes both implicitly (docs/model.md, "Added mass").
  for (const Case c : {Case{Shape::Dinghy, 0.05, 0.02}, Case{Shape::Dinghy, 0.05, 0.05}}) {
    const Outcome after = trial(c.shape, c.size_m, c.s, 5, true);
    printRow(c.shape, c.size_m, c.s, after, "on");
    EXPECT_TRUE(bounded(after)) << nameOf(c.shape) << " " << c.size_m << " m, s " << c.s;
    EXPECT_LT(std::abs(after.draftError_m), kDraftTolerance * after.draft_m) << nameOf(c.shape) << " " << c.size_m;
  }
}

}  // namespace
}  // namespace keel::test

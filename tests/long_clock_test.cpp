// The water clock over days: a boat whose clock starts at 1e6 s (11.6 days)
// moves as one whose clock starts at 0 on a sea that repeats every 1e6 s, and
// the force it feels changes from substep to substep as smoothly. The clock
// reaches the surfaces in double (docs/integration.md, "The water clock"):
// in float, 1e6 s would step by 62.5 ms, so the waves would stand still for
// 15 substeps at 240 Hz and then jump.
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>
#include <vector>

namespace keel::test {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kLongClock_s = 1e6;

/// Deep-water waves of periods 8, 6.25 and 5 s, each of which divides 1e6 s:
/// omega 1e6 is a multiple of 2 pi, up to the rounding of omega (1e-16
/// relative, 1e-10 rad of phase at 1e6 s).
std::vector<WaveComponent> periodicWaves() {
  std::vector<WaveComponent> waves;
  const double periods_s[] = {8, 6.25, 5};
  const double amplitudes_m[] = {0.3, 0.2, 0.15};
  const double directions_rad[] = {0, 0.5, -0.7};
  const double phases_rad[] = {0.3, 2.1, -1.2};
  for (int i = 0; i < 3; ++i) {
    const double omega = 2 * kPi / periods_s[i];
    const double k = deepWaterWavenumber_radpm(omega, double(kG));
    waves.push_back(
        {amplitudes_m[i], k, omega, std::cos(directions_rad[i]), std::sin(directions_rad[i]), phases_rad[i]});
  }
  return waves;
}

/// One boat's run: its pose and the force of each substep.
struct Run {
  std::vector<btTransform> poses;
  std::vector<btVector3> forces_N;
};

/// A 2 x 1 x 1 m box (draft 0.5 m) on `sea` for `substeps` substeps of
/// 1/240 s, its water clock starting at `start_s`.
Run ride(const std::shared_ptr<const WaterSurface>& sea, double start_s, int substeps) {
  World w;
  const btVector3 size(2, 1, 1);
  btRigidBody* body = w.addBox(size, btScalar(1025 * 2 * 0.5), btTransform::getIdentity());
  WaterAction boat(body, hullOf(box(size, 2)), sea);
  boat.setTime(start_s);
  w.world.addAction(&boat);
  const auto dt = btScalar(1.0 / 240);
  boat.prime(dt);
  Run run;
  for (int i = 0; i < substeps; ++i) {
    w.world.stepSimulation(dt, 1, dt);
    run.poses.push_back(body->getCenterOfMassTransform());
    run.forces_N.push_back(boat.totalForce().force_N);
  }
  EXPECT_EQ(boat.status().everFlags & (StatusSurfaceThrew | StatusNonFiniteHeight | StatusNonFiniteForce), 0u);
  w.world.removeAction(&boat);
  return run;
}

/// The largest change of the force from one substep to the next [N].
double largestForceStep_N(const Run& run) {
  double largest = 0;
  for (std::size_t i = 1; i < run.forces_N.size(); ++i)
    largest = std::max(largest, double((run.forces_N[i] - run.forces_N[i - 1]).length()));
  return largest;
}

void expectTheSameRide(const char* name, const std::shared_ptr<const WaterSurface>& sea) {
  constexpr int kSubsteps = 960;  // 4 s
  const Run early = ride(sea, 0, kSubsteps);
  const Run late = ride(sea, kLongClock_s, kSubsteps);
  double position_m = 0, axes = 0, force_N = 0, largestForce_N = 0;
  for (int i = 0; i < kSubsteps; ++i) {
    const auto k = std::size_t(i);
    position_m = std::max(position_m, double((late.poses[k].getOrigin() - early.poses[k].getOrigin()).length()));
    for (int r = 0; r < 3; ++r)
      axes = std::max(axes, double((late.poses[k].getBasis()[r] - early.poses[k].getBasis()[r]).length()));
    force_N = std::max(force_N, double((late.forces_N[k] - early.forces_N[k]).length()));
    largestForce_N = std::max(largestForce_N, double(early.forces_N[k].length()));
  }
  const double stepEarly_N = largestForceStep_N(early), stepLate_N = largestForceStep_N(late);
  std::printf(
      "[  figure  ] %s, clock from 1e6 s against 0 over 4 s: position differs by %.3g m, axes by %.3g, force by %.3g "
      "N (of %.4g N); largest force step %.6g N from 1e6 s, %.6g N from 0\n",
      name, position_m, axes, force_N, largestForce_N, stepLate_N, stepEarly_N);
  // The same ride: what the two clocks' roundings (1e-10 s an addition near
  // 1e6 s) and the float body leave. A float clock at 1e6 s moves the box
  // by 0.3 mm and its force by 200 N: the water under it stands still for 15
  // substeps, then jumps by up to 4 cm (sum of a omega times 62.5 ms).
  EXPECT_LT(position_m, 1e-5);
  EXPECT_LT(axes, 1e-5);
  EXPECT_LT(force_N, 1e-5 * largestForce_N);
  // No jumps: the force steps as smoothly at 1e6 s as at 0 (with a float
  // clock its largest step is five times the smooth one).
  EXPECT_LT(stepLate_N, 1.01 * stepEarly_N);
}

TEST(LongClock, ABoxOnSinesRidesAsAtTimeZero) {
  expectTheSameRide("sines", std::make_shared<SineSumSurface>(periodicWaves()));
}

TEST(LongClock, ABoxOnGerstnerWavesRidesAsAtTimeZero) {
  expectTheSameRide("Gerstner", std::make_shared<GerstnerSurface>(periodicWaves(), GerstnerSettings{.steepness = 0.8}));
}

}  // namespace
}  // namespace keel::test

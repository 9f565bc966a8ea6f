// The water clock over days: a boat whose clock starts at 1e6 s (11.6 days)
// moves as one whose clock starts at 0 on a sea that repeats every 1e6 s, and
// the force it feels changes from substep to substep as smoothly. The clock
// reaches the surfaces in double (docs/integration.md, "4. An ocean that
// changes every frame"):
// in float, 1e6 s would step by 62.5 ms, so the waves would stand still for
// 15 substeps at 240 Hz and then jump.
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
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

/// A current over days: the field drifts 5e5 m, which the batch queries
/// fold into each wave's phase in double (the points keep Sin's range); the
/// batches answer as the single-point code, which solves at x - current t.
TEST(LongClock, ACurrentOverDaysKeepsTheBatchesAccurate) {
  const UniformCurrent current{0.5, -0.25};
  const SineSumSurface sines(periodicWaves(), {.meanLevel_m = 0.5, .current = current});
  const GerstnerSurface gerstner(periodicWaves(), {.meanLevel_m = 0.5, .current = current, .steepness = 0.8});
  constexpr std::size_t kCount = 37;
  std::vector<btScalar> u(kCount), v(kCount), w(kCount), h(kCount);
  std::vector<WaterVelocity> velocity(kCount);
  for (std::size_t i = 0; i < kCount; ++i) {
    u[i] = btScalar(-20 + 1.3 * double(i)), v[i] = btScalar(8 - 0.7 * double(i)), w[i] = btScalar(-0.05 * double(i));
  }
  const double t_s = kLongClock_s + 0.3;
  double worst_m = 0, worst_mps = 0;
  for (const WaterSurface* sea :
       {static_cast<const WaterSurface*>(&sines), static_cast<const WaterSurface*>(&gerstner)}) {
    sea->heightsAndVelocities(u.data(), v.data(), w.data(), kCount, t_s, h.data(), velocity.data());
    for (std::size_t i = 0; i < kCount; ++i) {
      const WaterVelocity one = sea->velocity(u[i], v[i], w[i], t_s);
      worst_m = std::max(worst_m, double(std::abs(h[i] - sea->height(u[i], v[i], t_s))));
      worst_mps = std::max(worst_mps, double(std::abs(velocity[i].up_mps - one.up_mps)));
      worst_mps = std::max(worst_mps, double(std::abs(velocity[i].east_mps - one.east_mps)));
    }
  }
  std::printf("[  figure  ] a current over 1e6 s: batches against single points %.3g m, %.3g m/s\n", worst_m,
              worst_mps);
  // The phases (up to 1e5 rad in the single-point code) round to 1e-11 rad
  // in double; Newton's residual (1e-9 m) and float's rounding of the
  // results (heights below 2 m, speeds below 2 m/s) come on top.
  const double rounding = 4 * std::numeric_limits<btScalar>::epsilon();
  EXPECT_LT(worst_m, 2 * rounding + 1e-8);
  EXPECT_LT(worst_mps, 2 * rounding + 1e-8);
}

/// A patch's Gerstner grid with its history (each node's solve starts from
/// its last, the phases carried on by the angle-addition identity at the
/// Doppler-shifted frequency a fixed point sees) over substeps of a day-long
/// clock with a current: the heights stay those of heights() at the nodes.
TEST(LongClock, AGerstnerGridHistoryFollowsACurrent) {
  const GerstnerSurface sea(periodicWaves(), {.current = {0.5, -0.25}, .steepness = 0.8});
  const WaterGrid grid{.cellSize_m = 0.5, .originI = -9, .originJ = 4, .nodesU = 13, .nodesV = 11};
  const auto count = std::size_t(grid.nodesU * grid.nodesV);
  std::vector<btScalar> u(count), v(count), fromGrid(count), direct(count);
  for (int j = 0; j < grid.nodesV; ++j)
    for (int i = 0; i < grid.nodesU; ++i) {
      u[std::size_t(j * grid.nodesU + i)] = grid.u_m(i);
      v[std::size_t(j * grid.nodesU + i)] = grid.v_m(j);
    }
  GridHistory history;
  double worst_m = 0;
  for (int k = 0; k < 40; ++k) {
    const double t_s = kLongClock_s + k / 240.0;
    ASSERT_TRUE(sea.gridHeightsAndVelocities(grid, {.depths_m = {}, .out = nullptr, .history = &history}, t_s,
                                             fromGrid.data()));
    sea.heights(u.data(), v.data(), count, t_s, direct.data());
    for (std::size_t q = 0; q < count; ++q) worst_m = std::max(worst_m, double(std::abs(fromGrid[q] - direct[q])));
  }
  std::printf("[  figure  ] Gerstner grid with history, a current, 1e6 s: heights within %.3g m\n", worst_m);
  // The warm start's tolerance, 1e-5 m of rest position (|grad eta| < 1
  // below the fold limit), and float's rounding of heights below 2 m.
  EXPECT_LT(worst_m, 1e-5 + 4 * std::numeric_limits<btScalar>::epsilon());
}

}  // namespace
}  // namespace keel::test

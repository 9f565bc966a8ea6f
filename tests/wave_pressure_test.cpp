// Wave pressure below the surface (PressureModel::WavePressure) against
// linear (Airy) wave theory, beside Kerner's static head (docs/model.md,
// "Wave pressure"; docs/waves.md, "Pressure below the surface"): the
// Froude-Krylov force on a small submerged body, the e^{-kT} reduction of a
// box's heave excitation, and bit-for-bit the static head's force where the
// surface's pressure is static.
#include "substep/substep.hpp"
#include "test_hulls.hpp"

#include <keel/spectral_ocean.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>
#include <random>

namespace keel::test {
namespace {

constexpr btScalar kRho = 1025;
constexpr double kPi = std::numbers::pi;

/// The substep's hydrostatics of `hull` at rest at `pose` on `surface` at
/// time t [s], with the pressure model and sampling given (y up, |g| = kG).
HydrostaticResult pressureAt(const Hull& hull, const btTransform& pose, const WaterSurface& surface,
                             PressureModel model, double t_s = 0, Sampling sampling = Sampling::Direct) {
  HydrostaticSettings statics;
  statics.waterDensity_kgpm3 = kRho;
  statics.pressure = model;
  statics.sampling = sampling;
  statics.patchCellSize_m = btScalar(0.25);
  const HydrodynamicSettings dynamics = HydrodynamicSettings::none();
  const detail::BoatModel boat{hull, surface, statics, dynamics};
  detail::BoatState state;
  state.allocate(hull, statics);
  detail::BodySnapshot body;
  body.centreOfMass = pose;
  body.linearVelocity_mps = body.angularVelocity_radps = btVector3(0, 0, 0);
  body.inverseMass_pkg = 1;
  body.inverseInertia = btMatrix3x3::getIdentity();
  body.gravity_mps2 = btVector3(0, -kG, 0);
  body.linearFactor = body.angularFactor = btVector3(1, 1, 1);
  EXPECT_TRUE(detail::runSubstep(boat, state, body, btScalar(1.0 / 240), t_s)) << state.status.describe();
  return state.hydrostatics;
}

/// One regular deep-water wave along east (x), of amplitude a [m] and
/// wavenumber k [rad/m], under the tests' gravity.
std::vector<WaveComponent> regularWave(double a_m, double k_radpm) {
  return {deepWaterWave(a_m, 2 * kPi / k_radpm, 0, 0, double(kG))};
}

bool sameBits(const btVector3& a, const btVector3& b) { return std::memcmp(&a, &b, 3 * sizeof(btScalar)) == 0; }

// A 1 m cube 7 m down (e^{kz} = 0.50) in 63 m waves of steepness ka = 0.005:
// the wave pressure's force is rho V (g up + du/dt), the water's
// acceleration at the centre, du/dt = g k a e^{kz} (sin theta, -cos theta);
// the static head's is rho g V (-slope, 1), as if the cube were at the
// surface: horizontal force twice too large, and no vertical part at all.
TEST(WavePressure, SubmergedBodyFeelsBuoyancyPlusTheFluidsAcceleration) {
  const double a = 0.05, k = 0.1, depth = 7;
  const SineSumSurface sea(regularWave(a, k));
  const auto hull = hullOf(box(btVector3(1, 1, 1), 2));
  const double V = double(hull->volume_m3()), rhoGV = double(kRho) * double(kG) * V;
  const double omega = std::sqrt(double(kG) * k), decay = std::exp(-k * depth);
  const double fluid = double(kG) * k * a * decay;  // |du/dt| [m/s^2]
  const btTransform pose(btQuaternion::getIdentity(), btVector3(0, btScalar(-depth), 0));
  double worstWave = 0, worstStatic = 0, worstSlope = 0;
  for (int j = 0; j < 8; ++j) {
    const double t = j * 2 * kPi / omega / 8, theta = -omega * t;  // at x = 0
    const HydrostaticResult w = pressureAt(*hull, pose, sea, PressureModel::WavePressure, t);
    const HydrostaticResult s = pressureAt(*hull, pose, sea, PressureModel::StaticHead, t);
    // Dynamic parts: the force less rho g V up.
    const double expectX = double(kRho) * V * fluid * std::sin(theta);
    const double expectY = -double(kRho) * V * fluid * std::cos(theta);
    const double waveX = double(w.force_N.x()), waveY = double(w.force_N.y()) - rhoGV;
    const double staticX = double(s.force_N.x()), staticY = double(s.force_N.y()) - rhoGV;
    const double scale = double(kRho) * V * fluid;
    worstWave = std::max(worstWave, std::hypot(waveX - expectX, waveY - expectY) / scale);
    worstStatic = std::max(worstStatic, std::hypot(staticX - expectX, staticY - expectY) / scale);
    // rho g V (-slope): the slope of eta = a cos(k x - omega t) is -a k sin(theta).
    const double slopeX = rhoGV * a * k * std::sin(theta);
    worstSlope = std::max(worstSlope, std::hypot(staticX - slopeX, staticY) / (rhoGV * a * k));
    EXPECT_NEAR(double(w.submergedVolume_m3), V, 1e-5 * V);
  }
  std::printf(
      "[  figure  ] submerged cube, |F - rho V (g + du/dt)| / (rho V |du/dt|): wave pressure %.4f, static "
      "head %.4f; static head against rho g V (-slope, 1): %.4f of rho g V a k\n",
      worstWave, worstStatic, worstSlope);
  EXPECT_LT(worstWave, 0.02);
  EXPECT_LT(worstSlope, 0.02);
  EXPECT_GT(worstStatic, 0.5);  // misses the decay and the vertical acceleration
}

// A 2 m x 1 m box of draft T = 1 m, held fixed in 20 m waves (kT = 0.31):
// linear theory's heave excitation (Froude-Krylov, the bottom's pressure) is
// rho g a B (2/k) sin(kL/2) e^{-kT} cos(omega t); the static head misses
// e^{-kT} = 0.73. Compared as the first harmonic over a period.
TEST(WavePressure, BoxHeaveExcitationDecaysAsExpMinusKT) {
  const double a = 0.05, k = 2 * kPi / 20, L = 2, B = 1, T = 1;
  const SineSumSurface sea(regularWave(a, k));
  const auto hull = hullOf(box(btVector3(btScalar(L), btScalar(2 * T), btScalar(B)), 8));
  const btTransform pose = btTransform::getIdentity();  // centre at the mean level: draft T
  const double omega = std::sqrt(double(kG) * k);
  const int n = 16;
  double wave[2] = {0, 0}, stat[2] = {0, 0};  // cos and sin parts of the first harmonic
  for (int j = 0; j < n; ++j) {
    const double t = j * 2 * kPi / omega / n;
    const double c = std::cos(omega * t) * 2 / n, s = std::sin(omega * t) * 2 / n;
    const double fw = double(pressureAt(*hull, pose, sea, PressureModel::WavePressure, t).force_N.y());
    const double fs = double(pressureAt(*hull, pose, sea, PressureModel::StaticHead, t).force_N.y());
    wave[0] += fw * c, wave[1] += fw * s, stat[0] += fs * c, stat[1] += fs * s;
  }
  const double staticTheory = double(kRho) * double(kG) * a * B * (2 / k) * std::sin(k * L / 2);
  const double waveTheory = staticTheory * std::exp(-k * T);
  const double waveAmplitude = std::hypot(wave[0], wave[1]), staticAmplitude = std::hypot(stat[0], stat[1]);
  reportFigure("box heave excitation, wave pressure [N]", waveAmplitude, waveTheory);
  reportFigure("box heave excitation, static head [N]", staticAmplitude, staticTheory);
  reportFigure("wave / static, e^{-kT}", waveAmplitude / staticAmplitude, std::exp(-k * T));
  EXPECT_NEAR(waveAmplitude, waveTheory, 0.02 * waveTheory);
  EXPECT_NEAR(staticAmplitude, staticTheory, 0.02 * staticTheory);
  EXPECT_NEAR(waveAmplitude / staticAmplitude, std::exp(-k * T), 0.02 * std::exp(-k * T));
  EXPECT_LT(std::abs(wave[1]), 0.01 * waveAmplitude);  // in phase with the wave over the centre
}

// Where the surface's pressure is the static head (flat water, a plane, a
// user's surface keeping the default pressureHeads), WavePressure gives the
// static head's force and torque bit for bit, directly and through the
// patch, at random poses across the waterline.
TEST(WavePressure, StaticSurfacesGiveTheStaticHeadsForceBitForBit) {
  const auto hull = hullOf(boatHull(4, 1.5, 1));
  const FlatSurface flat(0.2);
  const TiltedPlaneSurface plane(0.1, 0.05, -0.03);
  const FunctionSurface function([](btScalar u, btScalar, btScalar) { return btScalar(0.1) * u; });
  std::mt19937 random(7);
  std::uniform_real_distribution<double> angle(-0.4, 0.4), offset(-0.4, 0.4);
  int compared = 0;
  for (int i = 0; i < 10; ++i) {
    btQuaternion q;
    q.setEuler(btScalar(angle(random)), btScalar(angle(random)), btScalar(angle(random)));
    const btTransform pose(q, btVector3(btScalar(offset(random)), btScalar(offset(random)), 0));
    const struct {
      const WaterSurface* surface;
      Sampling sampling;
    } cases[] = {
        {&flat, Sampling::Direct}, {&flat, Sampling::Patch}, {&plane, Sampling::Direct}, {&function, Sampling::Direct}};
    for (const auto& c : cases) {
      const HydrostaticResult s = pressureAt(*hull, pose, *c.surface, PressureModel::StaticHead, 0, c.sampling);
      const HydrostaticResult w = pressureAt(*hull, pose, *c.surface, PressureModel::WavePressure, 0, c.sampling);
      ASSERT_GT(s.submergedVolume_m3, 0);
      EXPECT_TRUE(sameBits(s.force_N, w.force_N)) << "pose " << i;
      EXPECT_TRUE(sameBits(s.torque_Nm, w.torque_Nm)) << "pose " << i;
      EXPECT_EQ(s.submergedVolume_m3, w.submergedVolume_m3);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 40);
}

// Patch sampling takes the heads from the surface at the wet vertices: a
// body wholly under the water feels the same force as with direct sampling,
// bit for bit, though its heights came from the patch.
TEST(WavePressure, PatchSamplingAsksTheSurfaceForTheWetVerticesHeads) {
  const SineSumSurface sea(regularWave(0.3, 2 * kPi / 15));
  const auto hull = hullOf(icosphere(1, 2));
  const btTransform pose(btQuaternion(0.1, 0.2, 0.3), btVector3(3, -2.5, 1));
  const HydrostaticResult direct = pressureAt(*hull, pose, sea, PressureModel::WavePressure, 1.3);
  const HydrostaticResult patch = pressureAt(*hull, pose, sea, PressureModel::WavePressure, 1.3, Sampling::Patch);
  EXPECT_TRUE(sameBits(direct.force_N, patch.force_N));
  EXPECT_TRUE(sameBits(direct.torque_Nm, patch.torque_Nm));
}

/// A sine sum whose stated costs make Sampling::Auto pick the patch.
class PatchLovingSea final : public WaterSurface {
 public:
  explicit PatchLovingSea(std::vector<WaveComponent> waves) : sea_(std::move(waves)) {}
  btScalar height(btScalar u, btScalar v, double t) const override { return sea_.height(u, v, t); }
  void heights(const btScalar* u, const btScalar* v, std::size_t n, double t, btScalar* out) const override {
    sea_.heights(u, v, n, t, out);
  }
  void pressureHeads(const btScalar* u, const btScalar* v, const btScalar* w, std::size_t n, double t,
                     btScalar* out) const override {
    sea_.pressureHeads(u, v, w, n, t, out);
  }
  QueryCost queryCost() const override { return {.height_ns = 1000, .gridNode_ns = 1}; }

 private:
  SineSumSurface sea_;
};

TEST(WavePressure, AutoSamplingOnThePatchAsksTheWetVerticesWhereTheyAre) {
  const PatchLovingSea sea(regularWave(0.3, 2 * kPi / 15));
  const auto hull = hullOf(icosphere(1, 2));
  const btTransform pose(btQuaternion(0.1, 0.2, 0.3), btVector3(3, -2.5, 1));
  const HydrostaticResult direct = pressureAt(*hull, pose, sea, PressureModel::WavePressure, 1.3);
  // Elsewhere first: the vertices' coordinates this thread last computed are not this pose's.
  (void)pressureAt(*hull, btTransform(btQuaternion::getIdentity(), btVector3(40, -2.5, 7)), sea,
                   PressureModel::WavePressure, 1.3);
  const HydrostaticResult autoPatch = pressureAt(*hull, pose, sea, PressureModel::WavePressure, 1.3, Sampling::Auto);
  EXPECT_TRUE(sameBits(direct.force_N, autoPatch.force_N));
  EXPECT_TRUE(sameBits(direct.torque_Nm, autoPatch.torque_Nm));
}

// The batch queries against the formula evaluated in double point by point:
// sum a e^{k (w - eta)} cos(theta) - (w - h0) under the surface, 0 at it;
// Gerstner waves of steepness 0 are the sine sum's.
TEST(WavePressure, SurfacesHeadsMatchTheAiryFormula) {
  const std::vector<WaveComponent> waves = sampleSeaState(WaveSpectrum::jonswap(2, 8), {.componentCount = 16});
  const WaveFieldSettings field{.meanLevel_m = 0.5, .current = {0.3, -0.2}};
  const SineSumSurface sine(waves, field);
  const GerstnerSurface flatGerstner(waves, {.meanLevel_m = 0.5, .current = {0.3, -0.2}, .steepness = 0});
  const GerstnerSurface gerstner(waves, {.meanLevel_m = 0.5, .current = {0.3, -0.2}, .steepness = 0.5});
  std::mt19937 random(3);
  std::uniform_real_distribution<double> where(-50, 50), down(0, 8);
  const std::size_t n = 37;  // not a multiple of any vector width
  std::vector<btScalar> u(n), v(n), w(n), eta(n), heads(n), flatHeads(n), surfaceHeads(n);
  const btScalar t = btScalar(12.5);
  for (std::size_t i = 0; i < n; ++i) u[i] = btScalar(where(random)), v[i] = btScalar(where(random));
  sine.heights(u.data(), v.data(), n, t, eta.data());
  for (std::size_t i = 0; i < n; ++i) w[i] = btScalar(double(eta[i]) - down(random));
  sine.pressureHeads(u.data(), v.data(), w.data(), n, t, heads.data());
  flatGerstner.pressureHeads(u.data(), v.data(), w.data(), n, t, flatHeads.data());
  const double tolerance = sizeof(btScalar) == 4 ? 2e-6 * 8 : 1e-12;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = double(u[i]) - 0.3 * double(t), y = double(v[i]) + 0.2 * double(t);
    double surface = 0.5, dynamic = 0;
    for (const WaveComponent& c : sine.components())
      surface += c.amplitude_m * std::cos(c.wavenumber_radpm * (c.directionEast * x + c.directionNorth * y) +
                                          c.phase_rad - c.angularFrequency_radps * double(t));
    for (const WaveComponent& c : sine.components())
      dynamic += c.amplitude_m * std::exp(c.wavenumber_radpm * (double(w[i]) - surface)) *
                 std::cos(c.wavenumber_radpm * (c.directionEast * x + c.directionNorth * y) + c.phase_rad -
                          c.angularFrequency_radps * double(t));
    const double expected = dynamic - (double(w[i]) - 0.5);
    EXPECT_NEAR(double(heads[i]), expected, tolerance) << i;
    EXPECT_NEAR(double(flatHeads[i]), expected, 10 * tolerance) << i;
  }
  // At the surface the head is 0, for Gerstner waves too.
  gerstner.heights(u.data(), v.data(), n, t, eta.data());
  gerstner.pressureHeads(u.data(), v.data(), eta.data(), n, t, surfaceHeads.data());
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(double(surfaceHeads[i]), 0, tolerance) << i;
}

/// The largest differences [m] of a spectral ocean's pressure heads (and
/// of the static head's) from the sine sum of its own waves, at 100 random
/// points and times, 0, Hs/4, Hs and 3 Hs below the surface.
struct HeadErrors {
  double hs_m = 0, ocean[4] = {}, staticHead[4] = {};
};

HeadErrors spectralHeadErrors(int bands) {
  SpectralOcean ocean(WaveSpectrum::jonswap(2.0, 7.0),
                      {.choppiness = 0, .velocityBands = bands, .meanLevel_m = 0.5, .seed = 7});
  ocean.update(40.0, 40.0 + 1.0 / 60);
  const SineSumSurface sines(ocean.components(), {.meanLevel_m = 0.5});
  HeadErrors e;
  e.hs_m = ocean.significantWaveHeight_m();
  std::mt19937 random(5);
  std::uniform_real_distribution<double> where(-150, 150), when(40.0, 40.0 + 1.0 / 60);
  const double depths[] = {0, 0.25 * e.hs_m, e.hs_m, 3 * e.hs_m};
  for (int k = 0; k < 100; ++k) {
    const auto u = btScalar(where(random)), v = btScalar(where(random)), t = btScalar(when(random));
    const btScalar eta = sines.height(u, v, t);
    // At the ocean's own surface the head is 0 to rounding.
    const btScalar surface = ocean.height(u, v, t);
    btScalar zero = 1;
    ocean.pressureHeads(&u, &v, &surface, 1, t, &zero);
    EXPECT_NEAR(double(zero), 0, 1e-6);
    for (int d = 0; d < 4; ++d) {
      const auto w = btScalar(double(eta) - depths[d]);
      btScalar expected = 0, head = 0;
      sines.pressureHeads(&u, &v, &w, 1, t, &expected);
      ocean.pressureHeads(&u, &v, &w, 1, t, &head);
      e.ocean[d] = std::max(e.ocean[d], std::abs(double(head - expected)));
      e.staticHead[d] = std::max(e.staticHead[d], std::abs(double(eta - w - expected)));
    }
  }
  std::printf(
      "%d bands: heads against the sine sum / Hs (%.2f m) at 0, Hs/4, Hs, 3 Hs deep: %.2f%% %.2f%% "
      "%.2f%% %.2f%%; the static head's: %.1f%% %.1f%% %.1f%% %.1f%%\n",
      bands, e.hs_m, 100 * e.ocean[0] / e.hs_m, 100 * e.ocean[1] / e.hs_m, 100 * e.ocean[2] / e.hs_m,
      100 * e.ocean[3] / e.hs_m, 100 * e.staticHead[0] / e.hs_m, 100 * e.staticHead[1] / e.hs_m,
      100 * e.staticHead[2] / e.hs_m, 100 * e.staticHead[3] / e.hs_m);
  return e;
}

// The spectral ocean's heads against the sine sum of its own waves (choppiness
// 0, so the particle above a point rests there): 0 at the surface; below it
// the tiles' interpolation and the bands' decay (one e^{k_b z} for each
// band's waves), against the static head's error, the whole dynamic part.
// More bands shrink the bands' part.
TEST(WavePressure, SpectralOceanHeadsMatchTheSineSumOfItsWaves) {
  const HeadErrors three = spectralHeadErrors(3), six = spectralHeadErrors(6);
  // Measured (float): 0.74% 1.07% 3.30% 5.34% of Hs with 3 bands.
  const double bound[] = {0.01, 0.015, 0.045, 0.07};
  for (int d = 0; d < 4; ++d) {
    EXPECT_LE(three.ocean[d], bound[d] * three.hs_m) << "depth " << d;
    if (d > 0) {
      EXPECT_LT(3 * three.ocean[d], three.staticHead[d]) << "depth " << d;
    }
  }
  EXPECT_LT(six.ocean[2], three.ocean[2]);
  EXPECT_LT(six.ocean[3], three.ocean[3]);
}

// The whole action with the wave pressure and every hydrodynamic term: a
// box rides a 64-component Gerstner sea for 2 s, finite, afloat, and is
// refused an unknown pressure model.
TEST(WavePressure, ABoxRidesARandomSeaInAWorld) {
  World w;
  const btVector3 size(2, 1, 1);
  btRigidBody* body = w.addBox(size, btScalar(kRho * 2 * 0.5), btTransform::getIdentity());  // draft 0.5 m
  HydrostaticSettings settings;
  settings.pressure = PressureModel::WavePressure;
  const auto sea = gerstnerSea(1, 6, 64, 2, 1);
  WaterAction boat(body, hullOf(box(size, 2)), sea, settings);
  w.world.addAction(&boat);
  boat.prime(btScalar(1.0 / 240));
  for (int i = 0; i < 480; ++i) {
    w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
    ASSERT_TRUE(std::isfinite(body->getCenterOfMassPosition().y())) << i;
  }
  EXPECT_LT(std::abs(body->getCenterOfMassPosition().y()), 1.5);
  EXPECT_EQ(boat.status().everFlags & (StatusSurfaceThrew | StatusNonFiniteHeight | StatusNonFiniteForce), 0u);
  w.world.removeAction(&boat);
  settings.pressure = static_cast<PressureModel>(7);
  EXPECT_THROW(boat.setSettings(settings), std::invalid_argument);
}

}  // namespace
}  // namespace keel::test

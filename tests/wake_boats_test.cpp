// keel::WakeField with free boats (docs/wakes.md): a floating sphere's heave
// damped by the waves it radiates, against linear potential theory; a
// moored boat rocked by another passing; the same bits for any thread
// count; finite under wild motions on a rough sea.
#include "support/bit_hash.hpp"
#include "support/kramer_sphere.hpp"
#include "support/wake_scenes.hpp"

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numbers>
#include <vector>

namespace keel::test {
namespace {

constexpr double kPi = std::numbers::pi;

// ---------------------------------------------------------------------------
// Radiation damping: the floating sphere of Kramer et al.
// ---------------------------------------------------------------------------

/// A free heave decay: its logarithmic decrement and its period [s], over
/// the first `halfCycles` half-cycles from the release.
struct Decay {
  double decrement = 0, period_s = 0;
};

/// The extremes of `y` (sampled every `dt_s`, released at rest from y[0]),
/// each placed by the parabola through it and its neighbours: the
/// decrement `(2 / n) ln(|y_0| / |y_n|)` and the period over the first n
/// half-cycles.
Decay decayOf(const std::vector<double>& y, double dt_s, int halfCycles) {
  std::vector<double> when{0}, size{std::abs(y[0])};
  for (std::size_t i = 1; i + 1 < y.size() && int(size.size()) <= halfCycles; ++i) {
    const bool sameSide = ((y[i] > 0) == (y[0] > 0)) == (size.size() % 2 == 0);
    if (sameSide && std::abs(y[i]) > std::abs(y[i - 1]) && std::abs(y[i]) >= std::abs(y[i + 1])) {
      const double a = y[i - 1], b = y[i], c = y[i + 1], curvature = a - 2 * b + c;
      const double offset = curvature != 0 ? 0.5 * (a - c) / curvature : 0;
      when.push_back((double(i) + offset) * dt_s);
      size.push_back(std::abs(b - 0.25 * (a - c) * offset));
    }
  }
  if (int(size.size()) <= halfCycles) return {};
  return {2 * std::log(size[0] / size.back()) / halfCycles, 2 * when.back() / halfCycles};
}

constexpr double kSphereCell_m = 0.1, kSphereStep_s = 1.0 / 240;

/// Kramer's sphere released `drop_m` above its equilibrium on still fresh
/// water, hydrostatics and Keel's added mass only (no drag: the decay is
/// radiation's), for `seconds`; on a WakeField (registered, wave pressure)
/// when `withField`, else on still water alone), in a window of 128 x 128
/// cells of `cell_m` with `bands` depth bands. Frames of `frame_s`,
/// substeps of kSphereStep_s. The heights of its centre above equilibrium.
std::vector<double> sphereHeave(bool withField, double drop_m, double frame_s, double seconds,
                                double cell_m = kSphereCell_m, int bands = 2) {
  World w(btVector3(0, -btScalar(kTankG), 0));
  const auto hull = hullOf(icosphere(btScalar(kSphereR), 3));
  const double equilibrium = sphereEquilibrium(*hull);
  btSphereShape shape{btScalar(kSphereR)};
  btVector3 inertia;
  shape.calculateLocalInertia(btScalar(kSphereMass), inertia);
  btRigidBody body(btRigidBody::btRigidBodyConstructionInfo(btScalar(kSphereMass), nullptr, &shape, inertia));
  body.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, btScalar(equilibrium + drop_m), 0)));
  w.world.addRigidBody(&body);
  WakeFieldSettings ws = wakeWindow(128 * cell_m, cell_m);
  ws.depthBands = bands;
  ws.gravity_mps2 = kTankG;
  ws.waterDensity_kgpm3 = kFresh;
  auto field = std::make_shared<WakeField>(flatWater(), ws);
  HydrostaticSettings hs;
  hs.waterDensity_kgpm3 = btScalar(kFresh);
  hs.pressure = PressureModel::WavePressure;
  WaterAction boat(&body, hull, withField ? std::shared_ptr<const WaterSurface>(field) : flatWater(), hs);
  HydrodynamicSettings dynamics = HydrodynamicSettings::none();
  dynamics.addedMass = true;
  boat.setHydrodynamics(dynamics);
  if (withField) field->add(boat);
  w.world.addAction(&boat);
  const int substeps = int(std::lround(frame_s / kSphereStep_s));
  boat.prime(btScalar(kSphereStep_s));
  std::vector<double> y{drop_m};
  for (double t = 0; t < seconds; t += frame_s) {
    field->update(t, t + frame_s);
    for (int i = 0; i < substeps; ++i) {
      w.world.stepSimulation(btScalar(kSphereStep_s), 1, btScalar(kSphereStep_s));
      y.push_back(double(body.getCenterOfMassPosition().y()) - equilibrium);
    }
  }
  EXPECT_TRUE(boat.status().ok()) << boat.status().describe();
  w.world.removeAction(&boat);
  w.world.removeRigidBody(&body);
  return y;
}

/// The heave damping `B / (rho w V)` of the hemisphere were its far field
/// only the sources the field is forced with (each face moving at v pushes
/// v . S aside, weighted `e^{k z}`, no body boundary condition): a source
/// Q at depth d radiates `rho w k Q^2 e^{-2 k d} / 4` (from the deep-water
/// Green function's far field: Wehausen & Laitone 1960, §13), so
/// `B = rho w k H^2 / 2` with `H = pi a^2 - k int_V e^{k z} dV` (the
/// divergence theorem over the wet hemisphere and its lid), by the midpoint
/// rule in depth.
double sourceOnlyDamping(double ka) {
  const double a = kSphereR, k = ka / a;
  double volume = 0;
  const int slices = 2000;
  for (int i = 0; i < slices; ++i) {
    const double depth = (i + 0.5) * a / slices;
    volume += kPi * (a * a - depth * depth) * std::exp(-k * depth) * a / slices;
  }
  const double h = kPi * a * a - k * volume;
  return k * h * h / (2 * (2.0 / 3.0) * kPi * a * a * a);
}

/// The radiation damping a decay says: `B / (rho w V)` with
/// `B = 2 zeta c / w` (c the hydrostatic stiffness, w the undamped
/// frequency: the added mass the decay's period implies), with Hulme's
/// and the source-only estimate at the decay's own `K a`.
struct Damping {
  double measured, hulme, sourceOnly;
};
Damping dampingOf(const char* name, const Decay& d) {
  const double zeta = d.decrement / std::sqrt(4 * kPi * kPi + d.decrement * d.decrement);
  const double w = 2 * kPi / d.period_s / std::sqrt(1 - zeta * zeta), ka = w * w * kSphereR / kTankG;
  const Damping b{2 * zeta * sphereStiffness() / (w * w * sphereDisplacedMass()), hulmeHeave(ka).damping,
                  sourceOnlyDamping(ka)};
  std::printf(
      "[  figure  ] %s: K a %.3f, period %.4f s, log decrement %.4f, B/(rho w V) %.4f, Hulme's %.4f (%+.1f %%), "
      "the sources' alone %.4f (%+.1f %%)\n",
      name, ka, d.period_s, d.decrement, b.measured, b.hulme, 100 * (b.measured / b.hulme - 1), b.sourceOnly,
      100 * (b.measured / b.sourceOnly - 1));
  return b;
}

TEST(WakeBoats, FloatingSphereHeaveIsDampedByTheWavesItRadiates) {
  // Linear theory at the natural frequency (Hulme's added mass and damping
  // there, K a 1.05): zeta = b / (2 (1 + a)) for the half-submerged sphere
  // (m = M), the decrement 2 pi zeta / sqrt(1 - zeta^2).
  const double w = hulmeNaturalFrequency();
  const HulmeHeave h = hulmeHeave(w * w * kSphereR / kTankG);
  const double zeta = h.damping / (2 * (1 + h.addedMass));
  reportValue("Hulme: linear theory's log decrement at the natural frequency",
              2 * kPi * zeta / std::sqrt(1 - zeta * zeta));
  // The radiated waves, 2 pi g / w^2 = 0.89 m long (8.9 cells), leave at
  // c_g = g / (2 w) = 0.59 m/s: they reach the absorbing band 4.8 m away
  // after 8 s, four times the run.
  const double seconds = 2;
  ASSERT_LT(seconds * kTankG / (2 * w), 128 * kSphereCell_m * 3 / 8);
  const Decay still = decayOf(sphereHeave(false, 0.003, 1.0 / 60, seconds), kSphereStep_s, 4);
  const Decay field = decayOf(sphereHeave(true, 0.003, 1.0 / 60, seconds), kSphereStep_s, 4);
  reportValue("sphere without the field: log decrement over two cycles", still.decrement);
  const Damping b = dampingOf("sphere, 3 mm drop, on the field", field);
  EXPECT_LT(std::abs(still.decrement), 0.001);
  // The field's sources are the faces' motion alone, without the body's
  // boundary condition: at K a 0.9 they radiate 2.5 times what Hulme's
  // hemisphere does. The field (two depth bands, 0.1 m cells) lies between.
  EXPECT_GT(b.measured, b.hulme);
  EXPECT_LT(b.measured, b.sourceOnly);
}

TEST(WakeBoats, DISABLED_FloatingSphereDampingSweep) {
  char name[96];
  for (double frame : {1.0 / 240, 1.0 / 120, 1.0 / 60, 1.0 / 30})
    for (double drop : {0.003, 0.030, 0.090}) {
      std::snprintf(name, sizeof name, "sphere, %.0f mm drop, %.0f Hz frames", drop * 1000, 1 / frame);
      dampingOf(name, decayOf(sphereHeave(true, drop, frame, 2), kSphereStep_s, 4));
    }
  for (double cell : {0.2, 0.1, 0.05, 0.025})
    for (int bands : {1, 2, 4}) {
      WakeFieldSettings ws = wakeWindow(128 * cell, cell);
      ws.depthBands = bands;
      std::printf("[  figure  ] %.3f m cells, %d bands: mean wavenumbers", cell, bands);
      for (double k : WakeField(flatWater(), ws).bandWavenumbers_radpm()) std::printf(" %.2f", k);
      std::printf(" rad/m\n");
      std::snprintf(name, sizeof name, "sphere, 3 mm drop, 60 Hz frames, %.3f m cells, %d bands", cell, bands);
      dampingOf(name, decayOf(sphereHeave(true, 0.003, 1.0 / 60, 2, cell, bands), kSphereStep_s, 4));
    }
}

// ---------------------------------------------------------------------------
// Two boats: a moored one rocks as another passes
// ---------------------------------------------------------------------------

/// How far a free boat moved from its rest: heave [m], roll and pitch [rad].
struct Motion {
  double heave_m = 0, roll_rad = 0, pitch_rad = 0;
};

/// A box 3 x 1 x 1.5 m (length east, depth, beam) floating at rest at its
/// 0.4 m draft, 6 m abeam of the track of a Wigley hull (L 8 m, B/L 0.1,
/// T/L 0.0625) towed captive at 4 m/s (Fn 0.45) past it through a 64 m
/// window of 0.5 m cells (the transverse waves 10.3 m long: 20 cells). The
/// box is free (Bullet, 30 Hz frames of four substeps, the full model with
/// the wave pressure), on the field (and making waves) when `withField`,
/// else on the still water alone. Its largest excursions.
Motion mooredBoatAsAnotherPasses(bool withField) {
  auto field = std::make_shared<WakeField>(flatWater(), wakeWindow(64, 0.5));
  Captive passing(wigley(8, 0.8f, 0.5f, 0.5f), field);
  World w;
  const btVector3 size(3, 1, btScalar(1.5));
  const double draft = 0.4, rest = 0.5 - draft;
  btRigidBody* body = w.addBox(size, btScalar(kSeaWaterDensity_kgpm3 * 3 * 1.5 * draft),
                               btTransform(btQuaternion::getIdentity(), btVector3(0, btScalar(rest), 6)));
  HydrostaticSettings hs;
  hs.pressure = PressureModel::WavePressure;
  WaterAction moored(body, hullOf(box(size, 2)), withField ? std::shared_ptr<const WaterSurface>(field) : flatWater(),
                     hs);
  if (withField) field->add(moored);
  w.world.addAction(&moored);
  const double frame = 1.0 / 30, speed = 4;
  moored.prime(btScalar(frame / 4));
  Motion m;
  for (int f = 0; f < 360; ++f) {
    const double t = f * frame;  // as the update's end below: the same bits
    passing.place(btVector3(btScalar(-22 + speed * t), 0, 0), btVector3(btScalar(speed), 0, 0), t, btScalar(frame));
    field->update(t, (f + 1) * frame);
    w.world.stepSimulation(btScalar(frame), 4, btScalar(frame / 4));
    const btVector3 up = body->getCenterOfMassTransform().getBasis().getColumn(1);
    m.heave_m = std::max(m.heave_m, std::abs(double(body->getCenterOfMassPosition().y()) - rest));
    m.roll_rad = std::max(m.roll_rad, std::abs(std::atan2(double(up.z()), double(up.y()))));
    m.pitch_rad = std::max(m.pitch_rad, std::abs(std::atan2(double(up.x()), double(up.y()))));
  }
  EXPECT_TRUE(moored.status().ok()) << moored.status().describe();
  w.world.removeAction(&moored);
  return m;
}

TEST(WakeBoats, AMooredBoatRocksWhenAnotherPasses) {
  KEEL_SKIP_UNDER_SANITIZERS();
  const Motion with = mooredBoatAsAnotherPasses(true), without = mooredBoatAsAnotherPasses(false);
  std::printf(
      "[  figure  ] moored box, another passing 6 m abeam at 4 m/s: heave %.4g m, roll %.4g deg, "
      "pitch %.4g deg with the field; %.3g m, %.3g deg, %.3g deg without\n",
      with.heave_m, with.roll_rad * 180 / kPi, with.pitch_rad * 180 / kPi, without.heave_m,
      without.roll_rad * 180 / kPi, without.pitch_rad * 180 / kPi);
  EXPECT_GT(with.heave_m, 0.01);
  EXPECT_GT(with.roll_rad, 0.01);
  EXPECT_GT(with.pitch_rad, 0.005);
  EXPECT_LT(without.heave_m, 1e-5);
  EXPECT_LT(without.roll_rad, 1e-5);
  EXPECT_LT(without.pitch_rad, 1e-5);
}

// ---------------------------------------------------------------------------
// The same bits for any thread count; finite under wild motions
// ---------------------------------------------------------------------------

/// Six boats (cutters and boxes) launched at 2 to 3.5 m/s in a WaterFleet
/// of `threads` threads on a 32 m field of 0.5 m cells, all registered,
/// stepped 45 frames at 30 Hz (two substeps each) under a oneTBB limit of
/// `tbbThreads` (0: none): the hash of every body's final state, the
/// field's heights on a 24 x 24 grid and its energy.
std::uint64_t fleetOnTheField(int threads, int tbbThreads) {
  std::unique_ptr<tbb::global_control> limit;
  if (tbbThreads > 0)
    limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, tbbThreads);
  auto field = std::make_shared<WakeField>(flatWater(), wakeWindow(32, 0.5));
  World w;
  WaterFleet fleet(field, threads);
  const auto cutter = hullOf(boatHull(6, 2, btScalar(1.2), 12, 4));
  const auto barge = hullOf(box(btVector3(3, 1, btScalar(1.5)), 2));
  HydrostaticSettings hs;
  hs.pressure = PressureModel::WavePressure;
  std::vector<btRigidBody*> bodies;
  for (int i = 0; i < 6; ++i) {
    const auto& hull = i % 2 ? barge : cutter;
    const btVector3 size = hull->boundsMax() - hull->boundsMin();
    const btTransform at(btQuaternion(btVector3(0, 1, 0), btScalar(0.3 * i)),
                         btVector3(btScalar(-9 + 3.5 * i), btScalar(0.1), btScalar(i % 3 == 0 ? -4 : 4)));
    btRigidBody* body = w.addBox(size, btScalar(0.45 * kSeaWaterDensity_kgpm3 * hull->volume_m3()), at);
    body->setLinearVelocity(btVector3(btScalar(2 + 0.3 * i), 0, btScalar(0.5 - 0.2 * i)));
    fleet.add(body, hull, hs);
    bodies.push_back(body);
  }
  field->add(fleet);
  w.world.addAction(&fleet);
  const double frame = 1.0 / 30;
  fleet.prime(btScalar(frame / 2));
  for (int f = 0; f < 45; ++f) {
    field->update(f * frame, (f + 1) * frame);
    w.world.stepSimulation(btScalar(frame), 2, btScalar(frame / 2));
  }
  w.world.removeAction(&fleet);
  Fnv1a h;
  for (const btRigidBody* body : bodies) {
    const btTransform& t = body->getCenterOfMassTransform();
    h.add(t.getOrigin());
    for (int r = 0; r < 3; ++r) h.add(t.getBasis()[r]);
    h.add(body->getLinearVelocity());
    h.add(body->getAngularVelocity());
  }
  for (int i = 0; i < 24; ++i)
    for (int j = 0; j < 24; ++j) h.add(field->wakeHeight_m(btScalar(-12 + i), btScalar(-12 + j), field->time_s()));
  h.add(field->energy_J());
  EXPECT_GT(field->energy_J(), 0);
  return h.hash;
}

TEST(WakeBoats, AFleetOnTheFieldGivesTheSameBitsForAnyThreadCount) {
  const std::uint64_t one = fleetOnTheField(1, 0);
  EXPECT_EQ(fleetOnTheField(2, 0), one);
  EXPECT_EQ(fleetOnTheField(8, 0), one);
  EXPECT_EQ(fleetOnTheField(8, 0), one) << "the same run twice";
  // The field's own update spreads its transforms over oneTBB's threads.
  EXPECT_EQ(fleetOnTheField(2, 1), one);
  EXPECT_EQ(fleetOnTheField(2, 2), one);
}

bool finite(const btVector3& v) { return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z()); }

TEST(WakeBoats, BoatsThrownAboutOnARoughSeaKeepTheFieldFinite) {
  // A rough spectral sea (Hs 6 m, Tp 8 s) under a 32 m field; every 10
  // frames each of four boats is thrown back into the window from up to
  // 10 m above the water, at up to 40 m/s and 50 rad/s.
  auto sea = std::make_shared<SpectralOcean>(WaveSpectrum::jonswap(6, 8), SpectralOceanSettings{.nodesPerSide = 32});
  auto field = std::make_shared<WakeField>(sea, wakeWindow(32, 0.5));
  World w;
  const auto cutter = hullOf(boatHull(6, 2, btScalar(1.2), 12, 4));
  std::vector<std::unique_ptr<WaterAction>> boats;
  for (int i = 0; i < 4; ++i) {
    btRigidBody* body = w.addBox(btVector3(6, btScalar(1.2), 2), 3000, btTransform::getIdentity());
    boats.push_back(std::make_unique<WaterAction>(body, cutter, field));
    field->add(*boats.back());
    w.world.addAction(boats.back().get());
  }
  std::uint32_t seed = 2026;
  const auto draw = [&seed](double half) {  // uniform in [-half, half)
    seed = seed * 1664525u + 1013904223u;
    return btScalar(half * (double(seed >> 8) / double(1u << 24) * 2 - 1));
  };
  const double frame = 1.0 / 60;
  for (int f = 0; f < 120; ++f) {
    for (std::size_t b = 0; f % 10 == 0 && b < boats.size(); ++b) {
      btRigidBody* body = boats[b]->body();
      body->setWorldTransform(
          btTransform(btQuaternion(draw(3), draw(3), draw(3)), btVector3(draw(10), draw(5) + 5, draw(10))));
      body->setLinearVelocity(btVector3(draw(40), draw(40), draw(40)));
      body->setAngularVelocity(btVector3(draw(50), draw(50), draw(50)));
    }
    sea->update(f * frame, (f + 1) * frame);
    field->update(f * frame, (f + 1) * frame);
    w.world.stepSimulation(btScalar(frame), 2, btScalar(frame / 2));
    for (const auto& boat : boats) {
      ASSERT_TRUE(finite(boat->body()->getCenterOfMassPosition())) << "frame " << f;
      ASSERT_TRUE(finite(boat->body()->getLinearVelocity())) << "frame " << f;
    }
    ASSERT_TRUE(std::isfinite(field->energy_J())) << "frame " << f;
  }
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j)
      ASSERT_TRUE(std::isfinite(field->height(btScalar(-16 + i), btScalar(-16 + j), field->time_s())));
  reportValue("thrown boats: the field's energy [J]", field->energy_J());
  EXPECT_GT(field->sourceWork_J(), 0);
  for (const auto& boat : boats) w.world.removeAction(boat.get());
}

}  // namespace
}  // namespace keel::test

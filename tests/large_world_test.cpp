// Large worlds (docs/integration.md, "Large worlds"): a boat far from the
// origin floats, heels and floods as one at the origin. In double a boat
// 100 km out keeps its draft, heel and floodwater within 1e-6 relative, on
// triangles (with the water patch) and on columns, on flat water, sines,
// Gerstner waves and a spectral ocean, the far sea being the near one moved
// with the boat. In float the figures show where precision degrades, and a
// floating origin (shifting the world back near the origin in the middle of
// a run) gives the boat the motion it has with no shift.
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>
#include <vector>

namespace keel::test {
namespace {

constexpr bool kDouble = sizeof(btScalar) == sizeof(double);
constexpr double kDt_s = 1.0 / 240;
constexpr int kFrames = 180;  // 3 s at 60 Hz, 4 substeps each
constexpr double kRho = 1025;
// A 4 m (east) x 1 m (up) x 3 m (north) box at draft 0.4 m: GM 1.58 m.
const btVector3 kSize(4, 1, 3);
constexpr double kDraft_m = 0.4;

/// Applies a constant heeling moment [N m] about the body's bow axis (x)
/// every substep, as an impulse (Bullet clears forces after updateActions).
class HeelingMoment final : public btActionInterface {
 public:
  HeelingMoment(btRigidBody* body, double moment_Nm) : body_(body), moment_Nm_(moment_Nm) {}
  void updateAction(btCollisionWorld*, btScalar dt_s) override {
    const btVector3 bow = body_->getCenterOfMassTransform().getBasis().getColumn(0);
    body_->applyTorqueImpulse(bow * btScalar(moment_Nm_ * double(dt_s)));
  }
  void debugDraw(btIDebugDraw*) override {}

 private:
  btRigidBody* body_;
  double moment_Nm_;
};

/// How a run floats: the model, and the water's sampling and pressure.
struct Detail {
  const char* name;
  BuoyancyModel model;
  HydrostaticSettings settings;
};
const Detail kPatch{"triangles on the patch", BuoyancyModel::Triangles, {.sampling = Sampling::Patch}};
const Detail kColumns{"columns", BuoyancyModel::Columns, {}};
const Detail kWavePressure{"triangles, direct, wave pressure",
                           BuoyancyModel::Triangles,
                           {.sampling = Sampling::Direct, .pressure = PressureModel::WavePressure}};

/// What a run ends with.
struct Outcome {
  double draft_m = 0;     ///< keel below the still-water level at the centre of mass
  double heel_rad = 0;    ///< roll about the bow axis
  double flooded_m3 = 0;  ///< water in the compartment
};

/// The box floating at (`east_m`, `north_m`) for 3 s under a heeling
/// moment, its compartment flooding through a hole in its floor.
Outcome ride(std::shared_ptr<const WaterSurface> sea, const Detail& detail, double east_m, double north_m) {
  World w;
  const btTransform pose(btQuaternion::getIdentity(),
                         btVector3(btScalar(east_m), btScalar(0.5 * kSize.y() - kDraft_m), btScalar(north_m)));
  btRigidBody* body = w.addBox(kSize, btScalar(kRho * kSize.x() * kSize.z() * kDraft_m), pose);
  WaterAction boat(body, hullOf(box(kSize, 2)), std::move(sea), detail.settings);
  setModel(boat, detail.model);
  Compartment room{"room", hullOf(box(btVector3(1, 1, 1))), {}, 0, 0, 1};
  room.openings.push_back(Opening{btVector3(0, btScalar(-0.499), btScalar(0.5)), btScalar(0.01)});
  boat.setCompartments({room});
  HeelingMoment heel(body, 5000);
  w.world.addAction(&boat);
  w.world.addAction(&heel);
  for (int f = 0; f < kFrames; ++f) w.world.stepSimulation(btScalar(4 * kDt_s), 4, btScalar(kDt_s));
  EXPECT_TRUE(boat.status().ok()) << boat.status().describe();
  if (detail.settings.sampling != Sampling::Auto) {
    EXPECT_EQ(boat.lastSampling(), detail.settings.sampling);
  }
  const btTransform& end = body->getCenterOfMassTransform();
  const btVector3 up = end.getBasis().getColumn(1);
  Outcome out;
  out.draft_m = 0.5 * double(kSize.y()) - double(end.getOrigin().y());
  out.heel_rad = std::atan2(double(up.z()), double(up.y()));
  out.flooded_m3 = boat.flooding().compartments[0].water_m3;
  w.world.removeAction(&heel);
  w.world.removeAction(&boat);
  return out;
}

double relative(double far, double near) { return std::abs(far - near) / std::abs(near); }

/// The sea `make(east, north)` gives for a boat at (east, north) is the one
/// at the origin moved there: the boat there must end as the one at the
/// origin, on each of `details`.
template <class Make>
void expectTheSameFarOut(const char* name, Make make, const std::vector<Detail>& details,
                         const std::vector<std::pair<double, double>>& offsets) {
  for (const Detail& detail : details) {
    const Outcome near = ride(make(0.0, 0.0), detail, 0, 0);
    EXPECT_GT(near.flooded_m3, 0.01);          // the compartment floods,
    EXPECT_GT(std::abs(near.heel_rad), 1e-4);  // the boat heels
    for (const auto& [east_m, north_m] : offsets) {
      const Outcome far = ride(make(east_m, north_m), detail, east_m, north_m);
      const double draft = relative(far.draft_m, near.draft_m), heel = relative(far.heel_rad, near.heel_rad),
                   flood = relative(far.flooded_m3, near.flooded_m3);
      std::printf(
          "[  figure  ] %s, %s, at (%.0f, %.0f) m: draft %.9f m (origin %.9f m, relative %.2g), heel %.9f rad "
          "(relative %.2g), flooded %.9f m^3 (relative %.2g)\n",
          name, detail.name, east_m, north_m, far.draft_m, near.draft_m, draft, far.heel_rad, heel, far.flooded_m3,
          flood);
      EXPECT_LT(draft, 1e-6) << name << ", " << detail.name << " at " << east_m << ", " << north_m;
      EXPECT_LT(heel, 1e-6) << name << ", " << detail.name << " at " << east_m << ", " << north_m;
      EXPECT_LT(flood, 1e-6) << name << ", " << detail.name << " at " << east_m << ", " << north_m;
    }
  }
}

// 100 km east, north, both, and at 37 degrees. The patch's nodes are
// world multiples of its cell (0.5 m), so the water does not swim with the
// boat: at an offset of whole cells the boat sees the same nodes as at the
// origin; between, the patch's interpolation differs (docs/model.md §1).
const std::vector<std::pair<double, double>> kFarOut = {{1e5, 0}, {0, 1e5}, {1e5, 1e5}, {79862, 60183.5}};

std::vector<WaveComponent> threeWaves() {
  return {deepWaterWave(0.3, 40, 0.2, 0.3), deepWaterWave(0.2, 23, -0.9, 2.1), deepWaterWave(0.1, 11, 2.0, -1.2)};
}

std::shared_ptr<const WaterSurface> gerstnerMovedBy(double east_m, double north_m) {
  return std::make_shared<GerstnerSurface>(shiftedWaves(threeWaves(), east_m, north_m),
                                           GerstnerSettings{.steepness = 0.8});
}

#define KEEL_SKIP_IN_FLOAT() \
  if (!kDouble) GTEST_SKIP() << "float rounds 100 km to 7.8 mm: LargeWorld.DraftAgainstDistance measures it"

TEST(LargeWorld, FlatWater100kmOut) {
  KEEL_SKIP_IN_FLOAT();
  const auto flat = std::make_shared<FlatSurface>();
  expectTheSameFarOut(
      "flat", [&](double, double) { return flat; }, {kPatch, kColumns}, kFarOut);
}

TEST(LargeWorld, Sines100kmOut) {
  KEEL_SKIP_IN_FLOAT();
  expectTheSameFarOut(
      "sines", [](double e, double n) { return std::make_shared<SineSumSurface>(shiftedWaves(threeWaves(), e, n)); },
      {kPatch, kColumns}, kFarOut);
}

TEST(LargeWorld, GerstnerWaves100kmOut) {
  KEEL_SKIP_IN_FLOAT();
  expectTheSameFarOut("Gerstner", gerstnerMovedBy, {kPatch, kColumns}, kFarOut);
}

TEST(LargeWorld, WavePressureSampledDirectly100kmOut) {
  KEEL_SKIP_IN_FLOAT();
  expectTheSameFarOut("Gerstner", gerstnerMovedBy, {kWavePressure}, {{1e5, 1e5}});
}

TEST(LargeWorld, SpectralOcean100kmOut) {
  KEEL_SKIP_IN_FLOAT();
  // A 200 m tile: 100 km east, north and both, and (60, 80) km at 53
  // degrees, are whole numbers of tiles, where the ocean repeats. One
  // update serves every run, for the cost of two tiles: the sea moves for
  // its first second, then holds (queries clamp the time to the window).
  auto ocean = std::make_shared<SpectralOcean>(WaveSpectrum::jonswap(1, 6),
                                               SpectralOceanSettings{.tileSize_m = 200, .nodesPerSide = 32});
  ocean->update(0, 1);
  expectTheSameFarOut("spectral ocean", [&](double, double) { return ocean; }, {kPatch, kColumns},
                      {{1e5, 0}, {0, 1e5}, {1e5, 1e5}, {6e4, 8e4}});
}

TEST(LargeWorld, HeightGrid100kmOut) {
  KEEL_SKIP_IN_FLOAT();
  // The same heights on a grid whose origin moves with the boat.
  auto grid = [](double e, double n) {
    auto g = std::make_shared<HeightGridSurface>(HeightGridLayout{
        .originEast_m = e - 32, .originNorth_m = n - 32, .cellSize_m = 0.5, .nodesEast = 129, .nodesNorth = 129});
    const std::span<btScalar> h = g->backBuffer_m();
    for (int j = 0; j < 129; ++j)
      for (int i = 0; i < 129; ++i) h[std::size_t(j * 129 + i)] = btScalar(0.2 * std::sin(0.3 * i) * std::cos(0.2 * j));
    g->publish(0);
    return g;
  };
  expectTheSameFarOut("height grid", grid, {kPatch, kColumns}, kFarOut);
}

/// How precision degrades with distance: the draft, heel and floodwater on
/// Gerstner waves at 100 m to 100 km, against the origin's, after 3 s under
/// a heeling moment with a flooding compartment (the figures of
/// docs/integration.md, "Large worlds"). In float Bullet keeps a body's
/// position at distance D to D / 2^24 (6 mm at 100 km), and its motion in a
/// substep with it: on waves the boat then feels the water of a slightly
/// different place; on flat water, where place does not matter, it floats
/// as at the origin. The bounds are the documented ones: in double 1e-6
/// relative everywhere; in float, within 1 km, the draft to 1e-4 relative,
/// the heel to 1e-4 rad and the floodwater to 1e-5 relative, and 20 times
/// that to 10 km (100 km is only reported).
TEST(LargeWorld, DraftAgainstDistance) {
  const Outcome near = ride(gerstnerMovedBy(0, 0), kPatch, 0, 0);
  const Outcome flatNear = ride(std::make_shared<FlatSurface>(), kPatch, 0, 0);
  for (const double d_m : {1e2, 1e3, 1e4, 1e5}) {
    const double e_m = 0.8 * d_m, n_m = 0.6 * d_m;  // whole cells of the patch
    const Outcome far = ride(gerstnerMovedBy(e_m, n_m), kPatch, e_m, n_m);
    const double draft = relative(far.draft_m, near.draft_m), heel_rad = std::abs(far.heel_rad - near.heel_rad),
                 flood = relative(far.flooded_m3, near.flooded_m3);
    std::printf(
        "[  figure  ] %s, %.0f m out: draft %.9f m against %.9f m (relative error %.2g), heel error %.2g rad (of "
        "%.4f rad), floodwater relative error %.2g\n",
        kDouble ? "double" : "float", d_m, far.draft_m, near.draft_m, draft, heel_rad, near.heel_rad, flood);
    const Outcome flat = ride(std::make_shared<FlatSurface>(), kPatch, e_m, n_m);
    std::printf("[  figure  ] %s, %.0f m out, flat water: draft %.9f m against %.9f m, heel %.9f against %.9f rad\n",
                kDouble ? "double" : "float", d_m, flat.draft_m, flatNear.draft_m, flat.heel_rad, flatNear.heel_rad);
    // On flat water, where the waves' place does not matter, float too
    // floats the boat as at the origin: what degrades is where it is.
    EXPECT_LT(relative(flat.draft_m, flatNear.draft_m), 1e-6) << d_m << " m";
    EXPECT_LT(relative(flat.heel_rad, flatNear.heel_rad), 1e-6) << d_m << " m";
    EXPECT_LT(relative(flat.flooded_m3, flatNear.flooded_m3), 1e-6) << d_m << " m";
    if (kDouble) {
      EXPECT_LT(draft, 1e-6) << d_m << " m";
      EXPECT_LT(heel_rad, 1e-6 * std::abs(near.heel_rad)) << d_m << " m";
      EXPECT_LT(flood, 1e-6) << d_m << " m";
    } else if (d_m <= 1e4) {
      const double scale = d_m <= 1e3 ? 1 : 20;
      EXPECT_LT(draft, scale * 1e-4) << d_m << " m";
      EXPECT_LT(heel_rad, scale * 1e-4) << d_m << " m";
      EXPECT_LT(flood, scale * 1e-5) << d_m << " m";
    }
  }
}

/// A floating origin: halfway through the run the world is moved by
/// (-768, 0, -512) m, the body with it and the water by shiftedWaves
/// (WaterAction::setSurface); the boat moves as it does with no shift, to
/// the rounding of its position.
TEST(LargeWorld, AFloatingOriginShiftKeepsTheMotion) {
  const double startE_m = 800, startN_m = 530, shiftE_m = -768, shiftN_m = -512;
  auto run = [&](bool shift) {
    World w;
    const btTransform pose(btQuaternion::getIdentity(),
                           btVector3(btScalar(startE_m), btScalar(0.1), btScalar(startN_m)));
    btRigidBody* body = w.addBox(kSize, btScalar(kRho * kSize.x() * kSize.z() * kDraft_m), pose);
    WaterAction boat(body, hullOf(box(kSize, 2)), gerstnerMovedBy(0, 0), kPatch.settings);
    HeelingMoment heel(body, 5000);
    w.world.addAction(&boat);
    w.world.addAction(&heel);
    const btVector3 offset(btScalar(shiftE_m), 0, btScalar(shiftN_m));
    for (int f = 0; f < kFrames; ++f) {
      if (shift && f == kFrames / 2) {  // the game's shift, between two frames
        btTransform moved = body->getWorldTransform();
        moved.setOrigin(moved.getOrigin() + offset);
        body->setWorldTransform(moved);
        body->setInterpolationWorldTransform(moved);
        boat.setSurface(gerstnerMovedBy(shiftE_m, shiftN_m));
      }
      w.world.stepSimulation(btScalar(4 * kDt_s), 4, btScalar(kDt_s));
    }
    EXPECT_TRUE(boat.status().ok()) << boat.status().describe();
    btTransform end = body->getCenterOfMassTransform();
    if (shift) end.setOrigin(end.getOrigin() - offset);
    w.world.removeAction(&heel);
    w.world.removeAction(&boat);
    return end;
  };
  const btTransform plain = run(false), shifted = run(true);
  const double position_m = double((shifted.getOrigin() - plain.getOrigin()).length());
  double axes = 0;
  for (int r = 0; r < 3; ++r) axes = std::max(axes, double((shifted.getBasis()[r] - plain.getBasis()[r]).length()));
  std::printf("[  figure  ] floating origin, shifted halfway against not: position %.3g m, axes %.3g\n", position_m,
              axes);
  // The shift rounds the position once (half an ulp of 1 km: 31 um in
  // float, 6e-14 m in double), and the two runs' roundings differ from
  // then on, growing through the waves' forcing for 1.5 s: a few ulps of
  // 1 km in float (a few hundred in double). Moving the body without the
  // water moves it by centimetres.
  const double ulp1km_m = 1e3 * double(std::numeric_limits<btScalar>::epsilon());
  EXPECT_LT(position_m, (kDouble ? 1e3 : 20) * ulp1km_m);
  EXPECT_LT(axes, kDouble ? 1e-10 : 2e-5);
}

/// A fleet's boats take its new surface, and so do boats added after; a
/// null surface is refused, naming the call.
TEST(LargeWorld, AFleetMovesItsBoatsToTheShiftedSurface) {
  World w;
  btRigidBody* first = w.addBox(kSize, 1000, btTransform::getIdentity());
  btRigidBody* second = w.addBox(kSize, 1000, btTransform::getIdentity());
  WaterFleet fleet(gerstnerMovedBy(0, 0), 1);
  fleet.add(first, hullOf(box(kSize)));
  const auto moved = gerstnerMovedBy(-768, -512);
  fleet.setSurface(moved);
  fleet.add(second, hullOf(box(kSize)));
  EXPECT_EQ(fleet.surface(), moved);
  EXPECT_EQ(fleet.boat(0).surface(), moved);
  EXPECT_EQ(fleet.boat(1).surface(), moved);
  try {
    fleet.setSurface(nullptr);
    ADD_FAILURE() << "a null surface was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("WaterFleet::setSurface"), std::string::npos) << e.what();
  }
  try {
    fleet.boat(0).setSurface(nullptr);
    ADD_FAILURE() << "a null surface was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("WaterAction::setSurface"), std::string::npos) << e.what();
  }
  EXPECT_EQ(fleet.boat(0).surface(), moved);
  // The waves moved by an offset are the waves there: a point's height.
  const std::vector<WaveComponent> waves = threeWaves();
  const SineSumSurface here(waves), there(shiftedWaves(waves, 1e5, -3e4));
  for (const double t_s : {0.0, 1.7})
    EXPECT_NEAR(double(there.height(btScalar(1e5 + 3), btScalar(-3e4 + 2), t_s)), double(here.height(3, 2, t_s)),
                kDouble ? 1e-10 : 1e-6);
  EXPECT_THROW((void)shiftedWaves(waves, std::nan(""), 0), std::invalid_argument);
  std::vector<WaveComponent> noDirection = waves;
  noDirection[1].directionEast = noDirection[1].directionNorth = 0;
  EXPECT_THROW((void)shiftedWaves(noDirection, 10, 0), std::invalid_argument);
}

}  // namespace
}  // namespace keel::test

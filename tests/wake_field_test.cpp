// keel::WakeField: the waves that boats make (docs/wakes.md). Each test
// uses a window of 128 x 128 nodes or fewer, so that the suite stays cheap
// under the sanitizers.
#include "support/wake_scenes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <numbers>

namespace keel::test {
namespace {

constexpr double kTowSpeed_mps = 2.5;  // Fn 0.4 for the 4 m Wigley hull
constexpr double kFrame_s = 1.0 / 30;

/// Tows a Wigley hull (L 4 m, B/L 0.1, T/L 0.0625) along +east at
/// kTowSpeed_mps from `start_m` for `frames` frames; returns the work [J]
/// the hull did against the field's pressure (its wave resistance times the
/// distance), and leaves the boat where it ended in `end_m`.
double towWigley(const std::shared_ptr<WakeField>& field, int frames, double start_m, double& end_m) {
  HydrostaticSettings settings;
  settings.pressure = PressureModel::WavePressure;
  Captive boat(wigley(4, 0.4, 0.25, 0.25), field, settings);
  double t = 0, x = start_m, work = 0;
  for (int f = 0; f < frames; ++f) {
    boat.place(btVector3(btScalar(x), 0, 0), btVector3(btScalar(kTowSpeed_mps), 0, 0), t, btScalar(kFrame_s));
    work -= double(boat.action.hydrostatics().force_N.x()) * kTowSpeed_mps * kFrame_s;
    field->update(t, t + kFrame_s);
    t += kFrame_s;
    x += kTowSpeed_mps * kFrame_s;
  }
  end_m = x;
  return work;
}

TEST(WakeField, TowedHullsTransverseWavesHaveTheirLinearWavelength) {
  // Behind a hull towed at U, the transverse waves along its track are
  // 2 pi U^2 / g long (Lighthill, "Waves in Fluids", 1978, §3.10): the
  // periodogram of the track's heights 4 to 24 m behind peaks there.
  auto field = std::make_shared<WakeField>(flatWater(), wakeWindow(64, 0.5));
  double x = 0;
  towWigley(field, 480, -20, x);
  const double expected = 2 * std::numbers::pi * kTowSpeed_mps * kTowSpeed_mps / 9.81;
  double best = 0, bestPower = 0;
  for (double lambda = 0.6 * expected; lambda < 1.4 * expected; lambda += 0.0005 * expected) {
    std::complex<double> sum = 0;
    for (double s = 4; s < 24; s += 0.05)
      sum += double(field->wakeHeight_m(btScalar(x - s), 0, field->time_s())) *
             std::polar(1.0, 2 * std::numbers::pi * s / lambda);
    if (std::norm(sum) > bestPower) {
      bestPower = std::norm(sum);
      best = lambda;
    }
  }
  reportFigure("transverse wavelength [m]", best, expected);
  EXPECT_NEAR(best, expected, 0.03 * expected);
}

TEST(WakeField, TheHullsWorkIsTheFieldsEnergyAndWhatItsEdgesTook) {
  KEEL_SKIP_UNDER_SANITIZERS();
  auto field = std::make_shared<WakeField>(flatWater(), wakeWindow(64, 0.5));
  double x = 0;
  const double work = towWigley(field, 480, -20, x);
  const double field_J = field->energy_J() + field->absorbedEnergy_J();
  reportFigure("hull's work against the field [J]", work, field_J);
  reportValue("field's energy [J]", field->energy_J());
  reportValue("absorbed at the edges [J]", field->absorbedEnergy_J());
  EXPECT_NEAR(work, field_J, 0.05 * field_J);
  EXPECT_NEAR(field->sourceWork_J(), field_J, 1e-3 * field_J);
}

TEST(WakeField, ABoatAtRestKeepsItsDraft) {
  // A box floating at rest makes no waves: it keeps the draft it has on
  // the ambient water alone (the field holds no depression of its own).
  const btVector3 size(2, 1, 2);
  const btScalar mass = btScalar(kSeaWaterDensity_kgpm3 * 2 * 0.5 * 2);  // draft 0.5 m
  btScalar drafts[2] = {0, 0};
  for (int withField = 0; withField < 2; ++withField) {
    World world;
    auto field = std::make_shared<WakeField>(flatWater(), wakeWindow(32, 0.25));
    btRigidBody* body = world.addBox(size, mass, btTransform::getIdentity());
    WaterAction boat(body, hullOf(box(size)), withField ? std::shared_ptr<const WaterSurface>(field) : flatWater());
    if (withField) field->add(boat);
    world.world.addAction(&boat);
    boat.prime(btScalar(1.0 / 60));
    double t = 0;
    for (int f = 0; f < 120; ++f, t += 1.0 / 60) {
      field->update(t, t + 1.0 / 60);
      world.world.stepSimulation(btScalar(1.0 / 60), 1, btScalar(1.0 / 60));
    }
    drafts[withField] = boat.draft_m();
    world.world.removeAction(&boat);
  }
  reportFigure("draft with the field [m]", double(drafts[1]), double(drafts[0]));
  EXPECT_NEAR(drafts[1], drafts[0], 1e-4 * drafts[0]);
}

TEST(WakeField, ABoatOutsideTheWindowMakesNoWavesAndSaysSo) {
  auto field = std::make_shared<WakeField>(flatWater(), wakeWindow(32, 0.5));
  Captive boat(wigley(4, 0.4, 0.25, 0.25), field);
  for (int f = 0; f < 10; ++f) {
    boat.place(btVector3(100, 0, 0), btVector3(3, 0, 0), f * kFrame_s, btScalar(kFrame_s));
    field->update(f * kFrame_s, (f + 1) * kFrame_s);
  }
  EXPECT_TRUE(boat.action.status().flags & StatusOutsideWakeField) << boat.action.status().describe();
  EXPECT_TRUE(boat.action.status().ok());
  EXPECT_EQ(field->energy_J(), 0);
  EXPECT_EQ(field->boatCount(), 1U);
}

TEST(WakeField, RefusesBadSettingsAndTimeRunningBackwards) {
  const auto refused = [](WakeFieldSettings s, const char* field) {
    try {
      WakeField w(flatWater(), s);
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::strstr(e.what(), field), nullptr) << e.what();
      return true;
    }
    return false;
  };
  WakeFieldSettings s = wakeWindow(64, 0.5);
  EXPECT_TRUE(refused(
      [&] {
        auto b = s;
        b.size_m = -1;
        return b;
      }(),
      "size_m"));
  EXPECT_TRUE(refused(
      [&] {
        auto b = s;
        b.cellSize_m = 8;
        return b;
      }(),
      "cellSize_m"));
  EXPECT_TRUE(refused(
      [&] {
        auto b = s;
        b.cellSize_m = 0.01;
        return b;
      }(),
      "cellSize_m"));
  EXPECT_TRUE(refused(
      [&] {
        auto b = s;
        b.spongeWidth_m = 40;
        return b;
      }(),
      "spongeWidth_m"));
  EXPECT_TRUE(refused(
      [&] {
        auto b = s;
        b.depthBands = 5;
        return b;
      }(),
      "depthBands"));
  EXPECT_TRUE(refused(
      [&] {
        auto b = s;
        b.centreEast_m = NAN;
        return b;
      }(),
      "centreEast_m"));
  EXPECT_THROW(WakeField(nullptr, s), std::invalid_argument);
  WakeField field(flatWater(), s);
  field.update(1, 2);
  EXPECT_THROW(field.update(1.5, 3), std::invalid_argument);
  EXPECT_THROW(field.update(3, 2), std::invalid_argument);
  EXPECT_THROW(field.update(2, NAN), std::invalid_argument);
  EXPECT_NO_THROW(field.update(2.5, 3));  // runs free from 2 to 2.5
  EXPECT_EQ(field.time_s(), 3);
}

TEST(WakeField, RollbackReplaysTheSameBits) {
  auto field = std::make_shared<WakeField>(flatWater(), wakeWindow(32, 0.25));
  Captive boat(wigley(4, 0.4, 0.25, 0.25), field);
  auto run = [&](int from, int to) {
    for (int f = from; f < to; ++f) {
      boat.place(btVector3(btScalar(-8 + 2.5 * f * kFrame_s), 0, 0), btVector3(2.5, 0, 0), f * kFrame_s,
                 btScalar(kFrame_s));
      field->update(f * kFrame_s, (f + 1) * kFrame_s);
    }
    std::vector<btScalar> h;
    for (int i = 0; i < 64; ++i)
      h.push_back(field->wakeHeight_m(btScalar(-16 + 0.5 * i), btScalar(0.3), 61 * kFrame_s));
    return h;
  };
  run(0, 30);
  const WakeFieldState saved = field->saveState();
  const WaterActionState savedBoat = boat.action.saveState();
  const std::vector<btScalar> first = run(30, 60);
  field->restoreState(saved);
  boat.action.restoreState(savedBoat);
  const std::vector<btScalar> second = run(30, 60);
  EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size() * sizeof(btScalar)), 0);
  EXPECT_NE(first[40], 0);
  WakeField other(flatWater(), wakeWindow(32, 0.25));
  EXPECT_THROW(other.restoreState(saved), std::invalid_argument);
}

}  // namespace
}  // namespace keel::test

// keel::JobSystem (keel/jobs.hpp): Keel's parallel loops run on a game's own
// threads, or under a thread limit the game sets, with the bits oneTBB's
// pool gives: a spectral ocean, a wake field over it and a WaterFleet of
// boats making waves in it, stepped together.
#include "examples/game_jobs.hpp"
#include "examples/ocean_alongside.hpp"
#include "support/bit_hash.hpp"
#include "support/wake_scenes.hpp"

#include <gtest/gtest.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

namespace keel::test {
namespace {

/// Every range on the calling thread, the last first, `grain` at a time:
/// another order and another split than oneTBB's.
class Backwards : public JobSystem {
 public:
  void parallelFor(std::size_t count, std::size_t grain,
                   const std::function<void(std::size_t, std::size_t)>& body) override {
    calls.fetch_add(1);
    const std::size_t step = std::max<std::size_t>(grain, 1);
    for (std::size_t end = count; end > 0;) {
      const std::size_t begin = end > step ? end - step : 0;
      body(begin, end);
      end = begin;
    }
  }
  std::atomic<int> calls{0};
};

/// Sets a job system for the scope of a test.
struct UsingJobs {
  explicit UsingJobs(JobSystem* jobs) { setJobSystem(jobs); }
  ~UsingJobs() { setJobSystem(nullptr); }
  UsingJobs(const UsingJobs&) = delete;
  UsingJobs& operator=(const UsingJobs&) = delete;
};

/// `count` boats of one 6 m hull in `fleet`, 5 m apart along x from
/// `firstX_m`, on alternate sides of z = 0, each turned 0.4 rad more than
/// the one before, launched at 2.5 m/s: their bodies.
std::vector<btRigidBody*> launchBoats(World& w, WaterFleet& fleet, int count, int firstX_m) {
  const auto hull = hullOf(boatHull(6, 2, btScalar(1.2), 12, 4));
  std::vector<btRigidBody*> bodies;
  for (int i = 0; i < count; ++i) {
    const btVector3 size = hull->boundsMax() - hull->boundsMin();
    const btTransform at(btQuaternion(btVector3(0, 1, 0), btScalar(0.4 * i)),
                         btVector3(btScalar(firstX_m + 5 * i), btScalar(0.1), btScalar(i % 2 == 0 ? -4 : 4)));
    btRigidBody* body = w.addBox(size, btScalar(0.45 * kSeaWaterDensity_kgpm3 * hull->volume_m3()), at);
    body->setLinearVelocity(btVector3(btScalar(2.5), 0, btScalar(0.3 * i - 0.5)));
    fleet.add(body, hull);
    bodies.push_back(body);
  }
  return bodies;
}

/// The bodies' poses and velocities, into `h`.
void addBodies(Fnv1a& h, const std::vector<btRigidBody*>& bodies) {
  for (const btRigidBody* body : bodies) {
    h.add(body->getCenterOfMassTransform().getOrigin());
    h.add(body->getLinearVelocity());
    h.add(body->getAngularVelocity());
  }
}

/// Four boats launched across a 32 m wake field over a 32-node spectral
/// ocean (fixed-point tiles), in a fleet of every hardware thread, 30 frames
/// at 30 Hz: the hash of the bodies, the field's heights and the ocean's
/// heights.
std::uint64_t oceanFieldAndFleet() {
  auto sea = std::make_shared<SpectralOcean>(WaveSpectrum::jonswap(1.0, 5.0),
                                             SpectralOceanSettings{.nodesPerSide = 32, .seed = 9});
  auto field = std::make_shared<WakeField>(sea, wakeWindow(32, 0.5));
  World w;
  WaterFleet fleet(field, 0);
  const std::vector<btRigidBody*> bodies = launchBoats(w, fleet, 4, -8);
  field->add(fleet);
  w.world.addAction(&fleet);
  const double frame = 1.0 / 30;
  for (int f = 0; f < 30; ++f) {
    sea->update(f * frame, (f + 1) * frame);
    field->update(f * frame, (f + 1) * frame);
    w.world.stepSimulation(btScalar(frame), 2, btScalar(frame / 2));
  }
  w.world.removeAction(&fleet);
  Fnv1a h;
  addBodies(h, bodies);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) h.add(field->height(btScalar(-15 + 2 * i), btScalar(-15 + 2 * j), field->time_s()));
  EXPECT_GT(field->energy_J(), 0);
  return h.hash;
}

/// How the ocean's tiles follow the frames.
enum class Tiles { UpdatedInTurn, PreparedAlongside, NeverUpdated };

/// Eight boats of a fleet on a 32-node spectral ocean, 60 frames at 60 Hz:
/// the hash of the bodies.
std::uint64_t fleetOnTheOcean(Tiles tiles) {
  auto sea = std::make_shared<SpectralOcean>(WaveSpectrum::jonswap(1.0, 5.0),
                                             SpectralOceanSettings{.nodesPerSide = 32, .seed = 9});
  World w;
  WaterFleet fleet(sea, 0);
  const std::vector<btRigidBody*> bodies = launchBoats(w, fleet, 8, -16);
  w.world.addAction(&fleet);
  const double frame = 1.0 / 60;
  if (tiles == Tiles::PreparedAlongside) sea->update(0, frame);
  for (int f = 0; f < 60; ++f) {
    if (tiles == Tiles::PreparedAlongside) {
      game::stepWithOceanAlongside(w.world, *sea, f * frame, frame, 2);
      continue;
    }
    if (tiles == Tiles::UpdatedInTurn) sea->update(f * frame, (f + 1) * frame);
    w.world.stepSimulation(btScalar(frame), 2, btScalar(frame / 2));
  }
  w.world.removeAction(&fleet);
  Fnv1a h;
  addBodies(h, bodies);
  return h.hash;
}

TEST(JobSystem, AGamesThreadsGiveOneTbbsBits) {
  ASSERT_EQ(jobSystem(), nullptr);
  const std::uint64_t tbb = oceanFieldAndFleet();
  Backwards backwards;
  {
    UsingJobs use(&backwards);
    EXPECT_EQ(jobSystem(), &backwards);
    EXPECT_EQ(oceanFieldAndFleet(), tbb) << "every loop on one thread, backwards";
  }
  {
    game::GameJobs pool(3);  // docs/threads.md's example: three workers and the caller
    UsingJobs use(&pool);
    EXPECT_EQ(oceanFieldAndFleet(), tbb) << "the game's own threads";
  }
  EXPECT_EQ(jobSystem(), nullptr);
  // It ran the ocean's, the field's and the fleet's loops, many a frame.
  EXPECT_GT(backwards.calls.load(), 30 * 3);
}

TEST(JobSystem, AnOceanPreparedAlongsideTheStepGivesTheSameBits) {
  // docs/threads.md's example: the next frame's tiles prepared on a thread
  // of the pool while the fleet steps on this frame's.
  const std::uint64_t inTurn = fleetOnTheOcean(Tiles::UpdatedInTurn);
  EXPECT_EQ(fleetOnTheOcean(Tiles::PreparedAlongside), inTurn);
  EXPECT_NE(fleetOnTheOcean(Tiles::NeverUpdated), inTurn) << "the boats feel the ocean move";
  // A window the ocean refuses: prepare()'s error reaches the caller, and
  // the published tiles stay.
  SpectralOcean sea(WaveSpectrum::jonswap(1.0, 5.0), SpectralOceanSettings{.nodesPerSide = 32, .seed = 9});
  sea.update(0, 1.0 / 60);
  const std::array<double, 2> published = sea.publishedTimes_s();
  World w;
  EXPECT_THROW(game::stepWithOceanAlongside(w.world, sea, 0, 2 * sea.longestUpdateWindow_s(), 1),
               std::invalid_argument);
  EXPECT_EQ(sea.publishedTimes_s(), published);
}

TEST(JobSystem, AThreadLimitGivesTheSameBits) {
  // A game on oneTBB limits Keel's threads with an arena of its own: the
  // loops started inside run on its threads only.
  const std::uint64_t unlimited = oceanFieldAndFleet();
  tbb::task_arena one(1), two(2);
  std::uint64_t limited = 0;
  one.execute([&] { limited = oceanFieldAndFleet(); });
  EXPECT_EQ(limited, unlimited);
  two.execute([&] { limited = oceanFieldAndFleet(); });
  EXPECT_EQ(limited, unlimited);
}

}  // namespace
}  // namespace keel::test

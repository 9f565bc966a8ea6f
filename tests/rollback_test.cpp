// Rollback (docs/determinism.md, "Rollback"): a scene is run N frames,
// saved (Keel's state, the bodies' Bullet state and the ocean's tile
// times), run M frames with a hash per frame, restored and run the same M
// frames again: the hashes must agree bit for bit. The scene has what Keel
// carries between substeps: a compartment filling through an opening, a
// hole opened at run time, a boat on columns, a full-detail boat sampling a
// patch that switches to columns mid-run, on a SpectralOcean whose tiles are
// reused from frame to frame (a fleet) and on a Gerstner sea whose patches
// start each solve from their grid history (single WaterActions). The
// boats lie 40 m apart: no contacts, so Bullet's solver caches stay empty
// and a body's state is all Bullet carries.
#include "examples/rollback.hpp"
#include "bit_hash.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace keel::test {
namespace {

constexpr btScalar kSubstep_s = btScalar(1.0 / 240);
constexpr int kSubstepsPerFrame = 4;
constexpr int kSaveAt = 12;   // frames before the save
constexpr int kReplay = 12;   // frames run after it, twice
constexpr int kHoleAt = 3;    // replayed frame at which the columns boat is holed
constexpr int kDetailAt = 6;  // replayed frame at which the full-detail boat goes on columns

/// Three boats 40 m apart, each added by `add(body, hull)` (a fleet's or
/// a single action's): a box with a compartment filling through a hole
/// near its keel, sampling a patch; a boat on the far-boat columns; a
/// full-detail boat sampling a patch.
template <class Add>
std::vector<WaterAction*> addBoats(World& w, Add add) {
  const auto boxHull = hullOf(box(btVector3(4, 2, 4)));
  const auto boat = hullOf(boatHull(6, 2.2f, 1.6f, 12, 4));
  const auto mass = [](const Hull& h, double fraction) { return btScalar(fraction * 1025 * h.volume_m3()); };
  std::vector<WaterAction*> boats;
  const btQuaternion tilt(btVector3(0, 0, 1), 0.1f);
  btRigidBody* flooding = w.addBox(btVector3(4, 2, 4), mass(*boxHull, 0.4), btTransform(tilt, btVector3(0, 0.2f, 0)));
  boats.push_back(&add(flooding, boxHull));
  Compartment room{"middle", hullOf(box(btVector3(1, 2, 1))), {}, 0, 0, 1};
  room.openings.push_back(Opening{btVector3(0, -0.9f, 0), 0.04f});
  boats.back()->setCompartments({room});
  boats.back()->setSettings({.sampling = Sampling::Patch});
  for (int i = 1; i < 3; ++i) {
    btRigidBody* body = w.addBox(boat->boundsMax() - boat->boundsMin(), mass(*boat, 0.5),
                                 btTransform(tilt, btVector3(btScalar(40 * i), 0.1f, 0)));
    body->setLinearVelocity(btVector3(1, 0, 0.5f));
    boats.push_back(&add(body, boat));
  }
  boats[1]->setLevelOfDetail(farBoatSettings(*boat));
  boats[2]->setSettings({.sampling = Sampling::Patch});
  return boats;
}

/// A scene: its world, its boats, how a frame updates its surface.
struct Scene {
  World w;
  std::vector<WaterAction*> boats;
  SpectralOcean* ocean = nullptr;     // updated over each frame when given,
  const WaterFleet* fleet = nullptr;  // from this fleet's clock

  /// One frame of the game: its inputs at replayed frame `k` (a hole, a
  /// level of detail), the ocean's update, the physics. Returns its hash.
  std::uint64_t frame(int k) {
    if (k == kHoleAt) boats[1]->openHole(boats[1]->body()->getCenterOfMassPosition() - btVector3(0, 0.3f, 0), 0.01f);
    if (k == kDetailAt) boats[2]->setLevelOfDetail(farBoatSettings(*boats[2]->hull()));
    if (ocean) ocean->update(fleet->time_s(), fleet->time_s() + 1.0 / 60);
    for (int s = 0; s < kSubstepsPerFrame; ++s) w.world.stepSimulation(kSubstep_s, 1, kSubstep_s);
    Fnv1a h;
    for (WaterAction* b : boats) {
      const btTransform& t = b->body()->getCenterOfMassTransform();
      h.add(t.getOrigin());
      for (int r = 0; r < 3; ++r) h.add(t.getBasis()[r]);
      h.add(b->body()->getLinearVelocity());
      h.add(b->body()->getAngularVelocity());
      h.add(b->totalForce().force_N);
      for (const CompartmentStatus& c : b->flooding().compartments) h.add(c.water_m3);
    }
    return h.hash;
  }
  std::vector<std::uint64_t> replay() {
    std::vector<std::uint64_t> hashes;
    for (int k = 0; k < kReplay; ++k) hashes.push_back(frame(k));
    return hashes;
  }
  std::vector<game::BodyState> bodies() const {
    std::vector<game::BodyState> states(boats.size());
    for (std::size_t i = 0; i < boats.size(); ++i) states[i].save(*boats[i]->body());
    return states;
  }
  void restoreBodies(const std::vector<game::BodyState>& states) {
    for (std::size_t i = 0; i < boats.size(); ++i) states[i].restore(*boats[i]->body());
  }
};

/// A fleet of the three boats on a SpectralOcean updated each frame from
/// the fleet's clock, a sum of float substeps: each frame's first tile is
/// the last frame's, reused.
struct FleetScene : Scene {
  SpectralOcean sea{WaveSpectrum::jonswap(1.5, 6.0), {.nodesPerSide = 64, .seed = 3}};
  std::shared_ptr<const WaterSurface> surface{std::shared_ptr<const WaterSurface>{}, &sea};
  WaterFleet waterFleet{surface, 1};
  FleetScene() {
    boats = addBoats(w, [&](btRigidBody* body, std::shared_ptr<const Hull> hull) -> WaterAction& {
      return waterFleet.add(body, std::move(hull));
    });
    ocean = &sea;
    fleet = &waterFleet;
    w.world.addAction(&waterFleet);
    for (int k = 0; k < kSaveAt; ++k) (void)frame(-1);
  }
  ~FleetScene() { w.world.removeAction(&waterFleet); }

  game::FrameHistory history{waterFleet, sea, 4};  // the docs' ring buffer
};

TEST(Rollback, FleetOnASpectralOceanReplaysTheSameBits) {
  FleetScene scene;
  scene.history.save(kSaveAt);
  const WaterFleetState saved = scene.waterFleet.saveState();
  const std::vector<std::uint64_t> first = scene.replay();
  EXPECT_GT(scene.boats[0]->flooding().compartments[0].water_m3, 0.0) << "the compartment fills";
  EXPECT_EQ(scene.boats[1]->compartments().size(), 1u) << "the hole opened";
  EXPECT_EQ(scene.boats[2]->buoyancyModel(), BuoyancyModel::Columns);
  ASSERT_TRUE(scene.history.restore(kSaveAt));
  EXPECT_FALSE(scene.history.restore(kSaveAt - 4)) << "never saved";
  EXPECT_EQ(scene.waterFleet.time_s(), saved.time_s());
  EXPECT_TRUE(scene.boats[1]->compartments().empty()) << "the hole is undone";
  EXPECT_EQ(scene.boats[2]->buoyancyModel(), BuoyancyModel::Triangles);
  const std::vector<std::uint64_t> again = scene.replay();
  ASSERT_EQ(again, first);
  ASSERT_FALSE(first.empty());
  std::printf(
      "[  figure  ] %zu frames replayed after the restore; frame hashes, first run and replay: "
      "0x%016llx = 0x%016llx ... 0x%016llx = 0x%016llx\n",
      first.size(), static_cast<unsigned long long>(first.front()), static_cast<unsigned long long>(again.front()),
      static_cast<unsigned long long>(first.back()), static_cast<unsigned long long>(again.back()));

  // Saving changes nothing: a scene that never saved runs the same bits.
  FleetScene unsaved;
  EXPECT_EQ(unsaved.replay(), first);
}

TEST(Rollback, LeftOutPiecesChangeTheBits) {
  // Each piece the game could forget changes the replay: here the
  // floodwater (given back as it was at the end of the run). The ocean's
  // tiles do not: they lie on the lattice of its tile period, so its answer
  // at a time is a function of the time alone, and an ocean left as the run
  // left it replays the same bits (docs/determinism.md, "Rollback").
  FleetScene scene;
  scene.history.save(kSaveAt);
  const std::vector<std::uint64_t> first = scene.replay();
  const std::array<double, 2> laterTiles = scene.sea.publishedTimes_s();
  std::vector<Compartment> later = scene.boats[0]->compartments();
  later[0].water_m3 = scene.boats[0]->flooding().compartments[0].water_m3;

  ASSERT_TRUE(scene.history.restore(kSaveAt));
  scene.sea.update(laterTiles[0], laterTiles[1]);  // the ocean left as the run left it
  EXPECT_EQ(scene.replay(), first) << "the lattice's tiles either way";

  ASSERT_TRUE(scene.history.restore(kSaveAt));
  scene.boats[0]->setCompartments(later);
  EXPECT_NE(scene.replay(), first) << "without the floodwater";
}

/// The three boats as single WaterActions on a Gerstner sea.
struct ActionScene : Scene {
  std::vector<std::unique_ptr<WaterAction>> actions;
  ActionScene() {
    const auto sea = gerstnerSea(1.5, 6.0, 8, 5, 0.8);
    boats = addBoats(w, [&](btRigidBody* body, std::shared_ptr<const Hull> hull) -> WaterAction& {
      actions.push_back(std::make_unique<WaterAction>(body, std::move(hull), sea));
      w.world.addAction(actions.back().get());
      return *actions.back();
    });
    for (int k = 0; k < kSaveAt; ++k) (void)frame(-1);
  }
  ~ActionScene() {
    for (auto& a : actions) w.world.removeAction(a.get());
  }
};

TEST(Rollback, WaterActionsOnAGerstnerSeaReplayTheSameBits) {
  ActionScene scene;
  // A ring buffer's slots: saved into, then restored from.
  std::vector<WaterActionState> slots(scene.boats.size());
  for (std::size_t i = 0; i < slots.size(); ++i) scene.boats[i]->saveState(slots[i]);
  const std::vector<game::BodyState> bodies = scene.bodies();
  EXPECT_TRUE(scene.boats[2]->waterPatch().samples_m().size() > 0) << "the full-detail boat samples a patch";
  const std::vector<std::uint64_t> first = scene.replay();
  for (std::size_t i = 0; i < slots.size(); ++i) scene.boats[i]->restoreState(slots[i]);
  scene.restoreBodies(bodies);
  EXPECT_EQ(scene.boats[0]->time_s(), slots[0].time_s());
  EXPECT_EQ(scene.replay(), first);
  // And again from a copy of the slots: states are values.
  const std::vector<WaterActionState> copies = slots;
  for (std::size_t i = 0; i < copies.size(); ++i) scene.boats[i]->restoreState(copies[i]);
  scene.restoreBodies(bodies);
  EXPECT_EQ(scene.replay(), first);
}

/// A boat on a HeightGridSurface that the game publishes a snapshot of
/// every frame (of a sea of its own). The surface's state is the game's two
/// newest snapshots: published again, the older first, they put it back.
struct GridScene {
  static constexpr int kNodes = 41;
  World w;
  std::shared_ptr<HeightGridSurface> grid = std::make_shared<HeightGridSurface>(HeightGridLayout{
      .originEast_m = -10, .originNorth_m = -10, .cellSize_m = 0.5, .nodesEast = kNodes, .nodesNorth = kNodes});
  std::shared_ptr<const Hull> hull = hullOf(boatHull(6, 2.2f, 1.6f, 12, 4));
  btRigidBody* body = w.addBox(hull->boundsMax() - hull->boundsMin(), btScalar(0.5 * 1025 * hull->volume_m3()),
                               btTransform(btQuaternion(btVector3(0, 0, 1), 0.1f), btVector3(0, 0.1f, 0)));
  WaterAction boat{body, hull, grid};
  struct Snapshot {
    std::vector<btScalar> heights_m;
    double time_s = 0;
  };
  std::array<Snapshot, 2> newest;  // the game's: the older, the newer
  GridScene() {
    w.world.addAction(&boat);
    for (int k = 0; k < kSaveAt; ++k) (void)frame();
  }
  ~GridScene() { w.world.removeAction(&boat); }
  std::uint64_t frame() {
    Snapshot s{std::vector<btScalar>(kNodes * kNodes), boat.time_s() + 1.0 / 60};
    for (int j = 0; j < kNodes; ++j)
      for (int i = 0; i < kNodes; ++i)
        s.heights_m[std::size_t(j * kNodes + i)] = btScalar(0.3 * std::sin(0.25 * i - 1.2 * s.time_s) +
                                                            0.1 * std::cos(0.15 * j + 0.7 * s.time_s));
    grid->setHeights(s.heights_m, s.time_s);
    newest = {newest[1], s};
    for (int k = 0; k < kSubstepsPerFrame; ++k) w.world.stepSimulation(kSubstep_s, 1, kSubstep_s);
    Fnv1a h;
    h.add(body->getCenterOfMassTransform().getOrigin());
    h.add(body->getLinearVelocity());
    h.add(body->getAngularVelocity());
    return h.hash;
  }
  std::vector<std::uint64_t> replay() {
    std::vector<std::uint64_t> hashes;
    for (int k = 0; k < kReplay; ++k) hashes.push_back(frame());
    return hashes;
  }
};

TEST(Rollback, AHeightGridIsPutBackByPublishingItsSnapshotsAgain) {
  GridScene scene;
  const WaterActionState saved = scene.boat.saveState();
  game::BodyState body;
  body.save(*scene.body);
  const std::array<GridScene::Snapshot, 2> snapshots = scene.newest;
  const std::vector<std::uint64_t> first = scene.replay();
  const auto restore = [&](bool grid) {
    scene.boat.restoreState(saved);
    body.restore(*scene.body);
    scene.newest = snapshots;
    if (!grid) return;
    for (const GridScene::Snapshot& s : snapshots) scene.grid->setHeights(s.heights_m, s.time_s);
  };
  restore(true);
  EXPECT_TRUE(scene.grid->interpolates());
  EXPECT_EQ(scene.replay(), first);
  // Left as the run left it, the grid's newest snapshot is later than the
  // first replayed one, which then starts over alone.
  restore(false);
  EXPECT_NE(scene.replay(), first);
}

/// Why `target` refuses `state` (std::invalid_argument's message), or
/// "taken".
template <class Target, class State>
std::string restoreRefusal(Target& target, const State& state) {
  try {
    target.restoreState(state);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "taken";
}

TEST(Rollback, AStateOfAnotherBoatOrFleetIsRefused) {
  ActionScene a;
  const WaterActionState mine = a.boats[1]->saveState();
  const double clock_s = a.boats[2]->time_s();
  EXPECT_NE(restoreRefusal(*a.boats[2], mine).find("another rigid body"), std::string::npos);
  EXPECT_EQ(a.boats[2]->time_s(), clock_s) << "a refused state changes nothing";
  EXPECT_NE(restoreRefusal(*a.boats[1], WaterActionState{}).find("empty"), std::string::npos);
  // The same body with another Hull object.
  WaterAction other(a.boats[1]->body(), hullOf(boatHull(6, 2.2f, 1.6f, 12, 4)), gerstnerSea(1.5, 6.0, 8, 5, 0.8));
  EXPECT_NE(restoreRefusal(other, mine).find("another hull"), std::string::npos);

  FleetScene f;
  const WaterFleetState fleetState = f.waterFleet.saveState();
  const btTransform at(btQuaternion::getIdentity(), btVector3(0, 0, 40));
  WaterFleet bigger(f.surface, 1);
  for (WaterAction* b : f.boats) bigger.add(b->body(), b->hull());
  bigger.add(f.w.addBox(btVector3(1, 1, 1), 100, at), hullOf(box(btVector3(1, 1, 1))));
  EXPECT_NE(restoreRefusal(bigger, fleetState).find("holds 3 boats, the fleet 4"), std::string::npos);
  WaterFleet swapped(f.surface, 1);
  for (int i : {0, 2, 1}) swapped.add(f.boats[std::size_t(i)]->body(), f.boats[std::size_t(i)]->hull());
  const std::string why = restoreRefusal(swapped, fleetState);
  EXPECT_NE(why.find("boat 1: the state was saved by the boat of another rigid body"), std::string::npos) << why;
}

}  // namespace
}  // namespace keel::test

// keel::WakeField's grid queries (the ones a boat's patch asks): the
// ambient surface's grid plus the field's, equal to the point queries at
// the nodes, over any ambient surface (docs/wakes.md, "Queries").
#include "support/test_hulls.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace keel::test {
namespace {

/// A field of 64 x 64 nodes over the spectral ocean (or `ambient`), holding
/// the waves of a box towed through it for a second.
std::shared_ptr<WakeField> stirredField(std::shared_ptr<const WaterSurface> ambient = nullptr) {
  WakeFieldSettings ws;
  ws.size_m = 32;
  ws.cellSize_m = 0.5;
  if (!ambient) ambient = std::make_shared<SpectralOcean>(WaveSpectrum::jonswap(1.0, 5.0));
  auto field = std::make_shared<WakeField>(ambient, ws);
  World world;
  btRigidBody* body = world.addBox(btVector3(2, 1, 1), 1000, btTransform::getIdentity());
  WaterAction boat(body, hullOf(box(btVector3(2, 1, 1), 2)), field);
  field->add(boat);
  const double dt = 1.0 / 30;
  for (int f = 0; f < 30; ++f) {
    body->setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(btScalar(-4 + 3 * f * dt), 0, 0)));
    body->setLinearVelocity(btVector3(3, 0, 0));
    boat.setTime(f * dt);
    boat.prime(btScalar(dt));
    field->update(f * dt, (f + 1) * dt);
  }
  return field;
}

/// The field's grid queries against its point queries at every node:
/// heights within float rounding, and the field's share of the velocity
/// at each depth below the total surface (the ambient surface answers its
/// grid at depths below its own surface, and its point queries below the
/// total one), at `depths`. Returns the largest wave height of the field's
/// own.
double expectGridIsPoints(const WakeField& field, const WaterGrid& grid, double t, std::span<const double> depths) {
  const std::size_t nodes = std::size_t(grid.nodesU * grid.nodesV), levels = depths.size();
  std::vector<btScalar> heights(nodes), both(nodes), ambientHeights(nodes);
  std::vector<WaterVelocity> velocities(nodes * levels);
  const bool grid0 = field.gridHeights(grid, t, heights.data());
  EXPECT_EQ(grid0, field.ambient()->gridHeights(grid, t, ambientHeights.data()))
      << "a grid of heights alone exactly when the ambient surface has one";
  EXPECT_TRUE(field.gridHeightsAndVelocities(grid, {.depths_m = depths, .out = velocities.data()}, t, both.data()));
  double largestWake = 0;
  for (int j = 0; j < grid.nodesV; ++j)
    for (int i = 0; i < grid.nodesU; ++i) {
      const std::size_t at = std::size_t(j * grid.nodesU + i);
      const btScalar u = grid.u_m(i), v = grid.v_m(j), h = field.height(u, v, t);
      largestWake = std::max(largestWake, std::abs(double(field.wakeHeight_m(u, v, t))));
      if (grid0) {
        EXPECT_NEAR(heights[at], h, 2e-6 * (1 + std::abs(h)));
      }
      EXPECT_NEAR(both[at], h, 2e-6 * (1 + std::abs(h)));
      for (std::size_t m = 0; m < levels; ++m) {
        const btScalar w = btScalar(double(h) - depths[m]);
        const btScalar below = btScalar(double(field.ambient()->height(u, v, t)) - depths[m]);
        const WaterVelocity point = field.velocity(u, v, w, t), still = field.ambient()->velocity(u, v, w, t);
        const WaterVelocity under = field.ambient()->velocity(u, v, below, t);
        const WaterVelocity& got = velocities[at * levels + m];
        EXPECT_NEAR(got.east_mps - under.east_mps, point.east_mps - still.east_mps, 1e-6);
        EXPECT_NEAR(got.north_mps - under.north_mps, point.north_mps - still.north_mps, 1e-6);
        EXPECT_NEAR(got.up_mps - under.up_mps, point.up_mps - still.up_mps, 1e-6);
      }
    }
  return largestWake;
}

TEST(WakeFieldGrid, GridQueriesAreThePointQueriesAtTheNodes) {
  const auto field = stirredField();
  const double t = field->time_s() - 0.01;
  // Cells other than the field's; the field's own (its nodes, read
  // directly); and a grid across the window's west edge (no field beyond).
  const WaterGrid grids[] = {{.cellSize_m = 0.4, .originI = -12, .originJ = -9, .nodesU = 21, .nodesV = 17},
                             {.cellSize_m = 0.5, .originI = -11, .originJ = -6, .nodesU = 13, .nodesV = 11},
                             {.cellSize_m = 0.5, .originI = -36, .originJ = -4, .nodesU = 9, .nodesV = 9}};
  // Depths that fill a vector of two or four (added in registers), and
  // three (through the kernel's table).
  const std::vector<double> depthSets[] = {{0, 0.3, 1.2}, {0, 0.3}, {0, 0.3, 0.7, 1.2}};
  for (const WaterGrid& grid : grids)
    for (const std::vector<double>& depths : depthSets) {
      SCOPED_TRACE(grid.cellSize_m * grid.originI);
      SCOPED_TRACE(depths.size());
      const double largestWake = expectGridIsPoints(*field, grid, t, depths);
      EXPECT_GT(largestWake, grid.originI == -36 ? 0 : 1e-3);  // the box's waves are in the grid, not only the ocean's
    }
}

/// GridVelocities::window: the velocities of a window of the grid's nodes
/// are the whole grid's query's, bit for bit, and the heights are every
/// node's, on the field (which computes the window's velocities alone, on
/// its own nodes or between them, over the spectral ocean or flat water,
/// whose one velocity it adds the field's to) and on the spectral ocean
/// under it, whose grid query computes the block's velocities alone (a
/// fine grid in one job, a coarse one node by node).
TEST(WakeFieldGrid, AWindowHasTheWholeGridsVelocities) {
  const auto field = stirredField(),
             overFlat = stirredField(std::make_shared<FlatSurface>(0, UniformCurrent{0.4, -0.25}));
  const double t = field->time_s() - 0.01, depths[] = {0, 0.3};
  const WaterGrid fine{.cellSize_m = 0.4, .originI = -12, .originJ = -9, .nodesU = 7, .nodesV = 5};
  const WaterGrid coarse{.cellSize_m = 12, .originI = -3, .originJ = 2, .nodesU = 4, .nodesV = 4};
  const WaterGrid onNodes{.cellSize_m = 0.5, .originI = -11, .originJ = -6, .nodesU = 13, .nodesV = 11};
  const std::pair<const WaterSurface*, WaterGrid> cases[] = {
      {field.get(), fine},       {field.get(), onNodes},         {overFlat.get(), fine},
      {overFlat.get(), onNodes}, {field->ambient().get(), fine}, {field->ambient().get(), coarse}};
  for (const auto& [surface, grid] : cases)
    for (const GridWindow block :
         {GridWindow{1, 2, 2, 2}, GridWindow{0, 0, 1, 3}, GridWindow{grid.nodesU - 2, grid.nodesV - 1, 2, 1}}) {
      const auto nodes = std::size_t(grid.nodesU * grid.nodesV);
      std::vector<btScalar> everyHeight(nodes), blockHeights(nodes);
      std::vector<WaterVelocity> everyNode(2 * nodes), blockOnly(2 * nodes);
      ASSERT_TRUE(surface->gridHeightsAndVelocities(grid, {.depths_m = depths, .out = everyNode.data()}, t,
                                                    everyHeight.data()));
      ASSERT_TRUE(surface->gridHeightsAndVelocities(
          grid, {.depths_m = depths, .out = blockOnly.data(), .window = block}, t, blockHeights.data()));
      for (std::size_t k = 0; k < nodes; ++k) EXPECT_EQ(blockHeights[k], everyHeight[k]);
      for (int j = block.firstV; j < block.firstV + block.nodesV; ++j)
        for (int i = block.firstU; i < block.firstU + block.nodesU; ++i)
          for (std::size_t at = 2 * std::size_t(j * grid.nodesU + i), m = 0; m < 2; ++m) {
            EXPECT_EQ(blockOnly[at + m].east_mps, everyNode[at + m].east_mps);
            EXPECT_EQ(blockOnly[at + m].north_mps, everyNode[at + m].north_mps);
            EXPECT_EQ(blockOnly[at + m].up_mps, everyNode[at + m].up_mps);
          }
    }
}

TEST(WakeFieldGrid, GridQueriesOverASurfaceWithNoGridQueryAreItsPointsPlusTheField) {
  WakeFieldSettings ws;
  ws.size_m = 32;
  ws.cellSize_m = 0.5;
  // A swell of the user's, heights alone (still water below it), and Keel's
  // flat water with a current (level, one velocity everywhere).
  const auto swell = std::make_shared<FunctionSurface>(
      [](btScalar u, btScalar v, double t) { return btScalar(0.2 * std::sin(0.3 * u + 0.1 * v - 0.8 * t)); });
  for (const std::shared_ptr<const WaterSurface>& ambient :
       {std::shared_ptr<const WaterSurface>(swell),
        std::shared_ptr<const WaterSurface>(std::make_shared<FlatSurface>(0, UniformCurrent{0.4, -0.25}))}) {
    const auto field = std::make_shared<WakeField>(ambient, ws);
    World world;
    btRigidBody* body = world.addBox(btVector3(2, 1, 1), 1000, btTransform::getIdentity());
    WaterAction boat(body, hullOf(box(btVector3(2, 1, 1), 2)), field);
    field->add(boat);
    for (int f = 0; f < 20; ++f) {
      body->setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(btScalar(-3 + 0.1 * f), 0, 0)));
      body->setLinearVelocity(btVector3(3, 0, 0));
      boat.setTime(f / 30.0);
      boat.prime(btScalar(1.0 / 30));
      field->update(f / 30.0, (f + 1) / 30.0);
    }
    const WaterGrid grid{.cellSize_m = 0.5, .originI = -10, .originJ = -6, .nodesU = 13, .nodesV = 11};
    for (const std::vector<double>& depths : {std::vector<double>{0, 0.3, 1.2}, std::vector<double>{0, 0.3, 0.7, 1.2}})
      EXPECT_GT(expectGridIsPoints(*field, grid, field->time_s() - 0.01, depths), 1e-3);
  }
}

// A boat's patch on the field's own nodes (its cells the field's, 0.5 m)
// interpolates the field's heights on its cells' triangles where the point
// queries interpolate them bilinearly: in a cell of corner heights h00,
// h10, h01, h11 the two differ by `a b T` (or `(1 - a)(1 - b) T` in the
// upper triangle), T = h00 - h10 - h01 + h11, at most |T| / 4. For a wave
// of amplitude A and wavenumber k that is at most A sin^2(k cell / 2^1.5)
// (a wave along a diagonal): the field holds waves of 4 cells and longer,
// so 0.28 A for the shortest, 0.075 A for 8 cells'.
TEST(WakeFieldGrid, ThePatchInterpolatesTheFieldWithinItsCellsTwist) {
  WakeFieldSettings ws;
  ws.size_m = 32;
  ws.cellSize_m = 0.5;
  const auto field = std::make_shared<WakeField>(std::make_shared<FlatSurface>(), ws);
  World world;
  btRigidBody* body = world.addBox(btVector3(2, 1, 1), 1000, btTransform::getIdentity());
  WaterAction boat(body, hullOf(box(btVector3(2, 1, 1), 2)), field);
  field->add(boat);
  const double dt = 1.0 / 30;
  const auto place = [&](int f) {
    body->setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(btScalar(-6 + 3 * f * dt), 0, 0)));
    body->setLinearVelocity(btVector3(3, 0, 0));
    boat.setTime(f * dt);
    boat.prime(btScalar(dt));
  };
  for (int f = 0; f < 60; ++f) {
    place(f);
    field->update(f * dt, (f + 1) * dt);
  }
  place(59);  // the patch sampled in the last update's span
  const WaterPatch& patch = boat.waterPatch();
  ASSERT_EQ(patch.cellSize_m(), btScalar(0.5));
  const double t = 59 * dt, cell = patch.cellSize_m();
  const int side = patch.samplesPerSide(), steps = 8;
  double largestWake = 0, largestError = 0;
  for (int j = 0; j + 1 < side; ++j)
    for (int i = 0; i + 1 < side; ++i) {
      const auto node = [&](int di, int dj) {
        return double(field->wakeHeight_m(btScalar(double(patch.originI() + i + di) * cell),
                                          btScalar(double(patch.originJ() + j + dj) * cell), t));
      };
      const double twist = std::abs(node(0, 0) - node(1, 0) - node(0, 1) + node(1, 1));
      for (int b = 0; b <= steps; ++b)
        for (int a = 0; a <= steps; ++a) {
          const double u = (double(patch.originI() + i) + double(a) / steps) * cell;
          const double v = (double(patch.originJ() + j) + double(b) / steps) * cell;
          const double point = field->height(btScalar(u), btScalar(v), t), error = double(patch.height(u, v)) - point;
          EXPECT_LE(std::abs(error), twist / 4 + 2e-6) << "at (" << u << ", " << v << ")";
          largestWake = std::max(largestWake, std::abs(point));
          largestError = std::max(largestError, std::abs(error));
        }
    }
  EXPECT_GT(largestWake, 1e-2);
  reportValue("the patch's heights against the field's point queries, its largest difference over its largest wave",
              largestError / largestWake);
}

}  // namespace
}  // namespace keel::test

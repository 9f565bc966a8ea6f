// keel::WakeField's grid queries (the ones a boat's patch asks): the
// ambient surface's grid plus the field's, equal to the point queries at
// the nodes (docs/wakes.md, "Queries").
#include "support/test_hulls.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

namespace keel::test {
namespace {

/// A field of 64 x 64 nodes over the spectral ocean, holding the waves of
/// a box towed through it for a second.
std::shared_ptr<WakeField> stirredField() {
  WakeFieldSettings ws;
  ws.size_m = 32;
  ws.cellSize_m = 0.5;
  auto field = std::make_shared<WakeField>(std::make_shared<SpectralOcean>(WaveSpectrum::jonswap(1.0, 5.0)), ws);
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

TEST(WakeFieldGrid, GridQueriesAreThePointQueriesAtTheNodes) {
  const auto field = stirredField();
  const WaterGrid grid{.cellSize_m = 0.4, .originI = -12, .originJ = -9, .nodesU = 21, .nodesV = 17};
  const double t = field->time_s() - 0.01, depths[] = {0, 0.3, 1.2};
  const std::size_t nodes = std::size_t(grid.nodesU * grid.nodesV);
  std::vector<btScalar> heights(nodes), both(nodes);
  std::vector<WaterVelocity> velocities(nodes * 3), ambient(nodes * 3);
  std::vector<btScalar> ambientHeights(nodes);
  ASSERT_TRUE(field->gridHeights(grid, t, heights.data()));
  ASSERT_TRUE(field->gridHeightsAndVelocities(grid, {.depths_m = depths, .out = velocities.data()}, t, both.data()));
  ASSERT_TRUE(field->ambient()->gridHeightsAndVelocities(grid, {.depths_m = depths, .out = ambient.data()}, t,
                                                         ambientHeights.data()));
  double largestWake = 0;
  for (int j = 0; j < grid.nodesV; ++j)
    for (int i = 0; i < grid.nodesU; ++i) {
      const std::size_t at = std::size_t(j * grid.nodesU + i);
      const btScalar u = grid.u_m(i), v = grid.v_m(j), h = field->height(u, v, t);
      largestWake = std::max(largestWake, std::abs(double(field->wakeHeight_m(u, v, t))));
      EXPECT_NEAR(heights[at], h, 2e-6 * (1 + std::abs(h)));
      EXPECT_NEAR(both[at], h, 2e-6 * (1 + std::abs(h)));
      // The field's share of the velocity at each depth below the total
      // surface (the ambient surface answers its grid at depths below its
      // own surface, and its point queries below the total one).
      for (int m = 0; m < 3; ++m) {
        const btScalar w = btScalar(double(h) - depths[m]);
        const WaterVelocity point = field->velocity(u, v, w, t), still = field->ambient()->velocity(u, v, w, t);
        const WaterVelocity& got = velocities[at * 3 + std::size_t(m)];
        const WaterVelocity& under = ambient[at * 3 + std::size_t(m)];
        EXPECT_NEAR(got.east_mps - under.east_mps, point.east_mps - still.east_mps, 1e-6);
        EXPECT_NEAR(got.north_mps - under.north_mps, point.north_mps - still.north_mps, 1e-6);
        EXPECT_NEAR(got.up_mps - under.up_mps, point.up_mps - still.up_mps, 1e-6);
      }
    }
  EXPECT_GT(largestWake, 1e-3);  // the box's waves are in the grid, not only the ocean's
}

/// GridVelocities::wanted: the velocities of a block of the grid's nodes
/// are the whole grid's query's, bit for bit, and the heights are every
/// node's, on the field and on the spectral ocean under it, whose grid
/// query computes the block's velocities alone (a fine grid in one job, a
/// coarse one node by node); a block beyond the grid is refused.
TEST(WakeFieldGrid, AWantedBlockHasTheWholeGridsVelocities) {
  const auto field = stirredField();
  const double t = field->time_s() - 0.01, depths[] = {0, 0.3};
  const WaterGrid fine{.cellSize_m = 0.4, .originI = -12, .originJ = -9, .nodesU = 7, .nodesV = 5};
  const WaterGrid coarse{.cellSize_m = 12, .originI = -3, .originJ = 2, .nodesU = 4, .nodesV = 4};
  const std::pair<const WaterSurface*, WaterGrid> cases[] = {
      {field.get(), fine}, {field->ambient().get(), fine}, {field->ambient().get(), coarse}};
  for (const auto& [surface, grid] : cases)
    for (const GridBlock block :
         {GridBlock{1, 2, 2, 2}, GridBlock{0, 0, 1, 3}, GridBlock{grid.nodesU - 2, grid.nodesV - 1, 2, 1}}) {
      const auto nodes = std::size_t(grid.nodesU * grid.nodesV);
      std::vector<btScalar> everyHeight(nodes), blockHeights(nodes);
      std::vector<WaterVelocity> everyNode(2 * nodes), blockOnly(2 * nodes);
      ASSERT_TRUE(surface->gridHeightsAndVelocities(grid, {.depths_m = depths, .out = everyNode.data()}, t,
                                                    everyHeight.data()));
      ASSERT_TRUE(surface->gridHeightsAndVelocities(
          grid, {.depths_m = depths, .out = blockOnly.data(), .wanted = block}, t, blockHeights.data()));
      for (std::size_t k = 0; k < nodes; ++k) EXPECT_EQ(blockHeights[k], everyHeight[k]);
      for (int j = block.firstV; j < block.firstV + block.nodesV; ++j)
        for (int i = block.firstU; i < block.firstU + block.nodesU; ++i)
          for (std::size_t at = 2 * std::size_t(j * grid.nodesU + i), m = 0; m < 2; ++m) {
            EXPECT_EQ(blockOnly[at + m].east_mps, everyNode[at + m].east_mps);
            EXPECT_EQ(blockOnly[at + m].north_mps, everyNode[at + m].north_mps);
            EXPECT_EQ(blockOnly[at + m].up_mps, everyNode[at + m].up_mps);
          }
    }
  std::vector<WaterVelocity> out(32);
  btScalar heights[16];
  EXPECT_THROW((void)field->ambient()->gridHeightsAndVelocities(
                   coarse, {.depths_m = depths, .out = out.data(), .wanted = {3, 0, 2, 1}}, t, heights),
               std::invalid_argument);
}

TEST(WakeFieldGrid, NoGridQueryWhenTheAmbientSurfaceHasNone) {
  WakeFieldSettings ws;
  ws.size_m = 16;
  ws.cellSize_m = 0.5;
  const WakeField field(std::make_shared<FunctionSurface>([](btScalar, btScalar, double) { return btScalar(0); }), ws);
  const WaterGrid grid{.cellSize_m = 0.5, .nodesU = 2, .nodesV = 2};
  btScalar out[4] = {7, 7, 7, 7};
  EXPECT_FALSE(field.gridHeights(grid, 0, out));
  EXPECT_EQ(out[0], 7);  // nothing written
}

}  // namespace
}  // namespace keel::test
